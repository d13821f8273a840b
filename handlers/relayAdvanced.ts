import { relay } from '../src/usecases/relay';
import { operation } from './typedOperation';
import { relayRequest } from './wire/requests';

/** POST /v1/advanced/relay: where the ecosystem SDK posts a signed step without a Permit2 witness; relayed alike. */
export const relayAdvanced = operation('relayAdvanced', async (request, dependencies) => {
  const { taskId } = await relay(dependencies, relayRequest(request.body));
  return { status: 200, body: { status: 'ok' as const, data: { taskId } } };
}, { limit: 'stepTransaction' });
