/**
 * Writes a Server-Sent Events answer (text/event-stream, the WHATWG "event stream" format that EventSource reads):
 * the headers at once (so that proxies and the request timeout see an answer), then each event as it comes, a
 * comment line on a quiet stream every heartbeatMs, and the end when the events end. When the client leaves, the
 * events' source is stopped (its subscription and slot given back).
 */
import type { Response } from 'express';
import type { Logger } from 'pino';
import type { EventStreamAnswer, ServerSentEvent } from './operation';

/** How long EventSource waits before it reconnects (ms), sent first. */
const RECONNECT_MS = 3000;

/** An event as the stream carries it (fields one per line, a blank line after). */
export function formatEvent(event: ServerSentEvent): string {
  const lines = [...(event.id !== undefined ? [`id: ${oneLine(event.id)}`] : []), `event: ${oneLine(event.event)}`, `data: ${oneLine(event.data)}`];
  return `${lines.join('\n')}\n\n`;
}

/** A field's value on one line (a line break would start another field). */
function oneLine(value: string): string {
  return value.replace(/[\r\n]+/g, ' ');
}

export function writeEventStream(res: Response, answer: EventStreamAnswer, log?: Logger): void {
  res.status(200);
  res.setHeader('content-type', 'text/event-stream; charset=utf-8');
  res.setHeader('cache-control', 'no-cache, no-transform');
  res.setHeader('x-accel-buffering', 'no'); // nginx: pass each event on at once
  res.flushHeaders();
  res.write(`retry: ${RECONNECT_MS}\n\n`);
  const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), answer.heartbeatMs);
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    clearInterval(heartbeat);
    answer.stop();
    if (!res.writableEnded) res.end();
  };
  res.once('close', end);
  void (async () => {
    try {
      for await (const event of answer.events) {
        if (ended) break;
        res.write(formatEvent(event));
      }
    } catch (error) {
      log?.warn({ err: { message: (error as Error).message } }, 'event stream ended by an error');
    } finally {
      end();
    }
  })();
}
