import { parseCallData as parse } from '../src/usecases/callData';
import { operation } from './typedOperation';

/** Decodes call data with the known ABIs (src/usecases/callData.ts). */
export const parseCallData = operation('parseCallData', (request, { catalog }) => ({
  status: 200,
  body: parse(catalog, request.query.callData, request.query.chainId),
}));
