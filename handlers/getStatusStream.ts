import type { StatusUpdate } from '../src/usecases/statusStream';
import { statusStream } from '../src/usecases/statusStream';
import type { Dependencies } from '../src/server/dependencies';
import type { ServerSentEvent } from '../src/server/operation';
import { operation } from './typedOperation';
import { statusToWire } from './wire/status';

/** A transfer's or a wallet's state changes as Server-Sent Events (src/usecases/statusStream.ts). */
export const getStatusStream = operation('getStatusStream', async (request, dependencies) => {
  const lastEventId = request.headers['last-event-id'];
  const caller = request.caller.apiKey ? `key:${request.caller.apiKey.id}` : request.caller.clientAddress;
  const answer = await statusStream(dependencies, caller, { ...request.query, ...(typeof lastEventId === 'string' ? { lastEventId } : {}) });
  if (answer.kind === 'final') return { status: 204, body: undefined };
  return { status: 200, body: undefined, stream: { events: wireEvents(answer.updates, dependencies), stop: answer.stop, heartbeatMs: dependencies.streams.heartbeatMs } };
});

async function* wireEvents(updates: AsyncIterable<StatusUpdate>, dependencies: Dependencies): AsyncGenerator<ServerSentEvent> {
  for await (const update of updates) {
    yield update.kind === 'end'
      ? { event: 'end', data: '{}' }
      : { id: update.id, event: 'status', data: JSON.stringify(statusToWire(dependencies.catalog, update.status, dependencies.publicUrl)) };
  }
}
