/**
 * Writes an operation's answer: as JSON through express, or, for an answer serialized by the response cache
 * (responseCache.ts), as it is kept: its ETag (and 304 when the client has it), its compressed form when the
 * client accepts one.
 */
import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { Request, Response } from 'express';
import { writeEventStream } from './eventStream';
import type { HttpError } from './httpErrors';
import type { OperationResponse } from './operation';
import { ResponseCache } from './responseCache';

export function send(res: Response, result: OperationResponse, req?: Request): void {
  if (res.headersSent) return; // already answered (request timeout)
  if (result.headers) res.set(result.headers);
  if (result.stream) {
    writeEventStream(res, result.stream, req?.log);
    return;
  }
  if (result.status === 204) {
    res.status(204).end();
    return;
  }
  const cached = result.cached;
  if (!cached || !req) {
    res.status(result.status).json(result.body);
    return;
  }
  // a serialized answer is written as it is (express's res.send would look at it again: type, length, freshness)
  const etag = cached.etag;
  if (etag !== undefined) {
    res.setHeader('etag', etag);
    res.setHeader('cache-control', 'no-cache');
  }
  res.vary('Accept-Encoding'); // appended: CORS may already vary on Origin
  const ifNoneMatch = req.headers['if-none-match'];
  if (etag !== undefined && ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim() === etag)) {
    res.status(304).end();
    return;
  }
  const { body, encoding } = ResponseCache.encode(cached, req.headers['accept-encoding']);
  if (encoding) res.setHeader('content-encoding', encoding);
  res.statusCode = result.status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('content-length', body.length);
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** Writes an error answer on a connection that has no response object (a request node could not read), and closes it. */
export function sendOnSocket(socket: Duplex, { status, body }: HttpError): void {
  const json = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`,
  );
}
