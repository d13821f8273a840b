import { relay } from '../src/usecases/relay';
import { operation } from './typedOperation';
import { relayRequest } from './wire/requests';

/** Accepts a signed gasless step for the relayer (everything checked first), answering its task id. */
export const relayTransaction = operation('relayTransaction', async (request, dependencies) => {
  const { taskId } = await relay(dependencies, relayRequest(request.body));
  return { status: 200, body: { status: 'ok' as const, data: { taskId } } };
}, { limit: 'stepTransaction' });
