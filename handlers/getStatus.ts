import { transferStatus } from '../src/usecases/status';
import { operation } from './typedOperation';
import { statusToWire } from './wire/status';

/** The status of a transfer from the connected chains (200 also for NOT_FOUND; chain mode: docs/chain-mode.md). */
export const getStatus = operation('getStatus', async (request, dependencies) => {
  return { status: 200, body: statusToWire(dependencies.catalog, await transferStatus(dependencies, request.query), dependencies.publicUrl) };
});
