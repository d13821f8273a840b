/**
 * JSON request bodies: express.json (body-parser) up to the configured size, behind a check that the body is
 * UTF-8. Its refusals (malformed, too large, another charset or encoding) go to the error handler, which answers
 * them with httpErrors.ts's requestRefused.
 */
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';

/**
 * A request without a body (most are GETs) skips both the check and the parser, as body-parser itself would
 * (the same test as type-is's `hasBody`), leaving `req.body` undefined.
 */
export function jsonBody(limit: number): RequestHandler {
  const parse = express.json({ limit });
  return (req: Request, res: Response, next: NextFunction) => {
    const length = req.headers['content-length'];
    if (req.headers['transfer-encoding'] === undefined && (length === undefined || Number.isNaN(Number.parseInt(length, 10)))) {
      next(); // req.body stays undefined
      return;
    }
    jsonIsUtf8(req, res, (error?: unknown) => (error === undefined ? parse(req, res, next) : next(error)));
  };
}

const CHARSET_PARAMETER = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i;

/**
 * A JSON body is UTF-8 (RFC 8259 section 8.1: JSON exchanged between systems is encoded in UTF-8). body-parser
 * would also decode a body declared UTF-16 or UTF-32, dropping an incomplete last character without a word, so
 * that a one-byte "UTF-16" body read as empty; any charset other than utf-8 is refused with 415 instead.
 */
function jsonIsUtf8(req: Request, _res: Response, next: NextFunction): void {
  const contentType = req.headers['content-type'];
  const charset = contentType === undefined ? undefined : CHARSET_PARAMETER.exec(contentType);
  if (charset && req.is('application/json')) {
    const name = (charset[1] ?? charset[2] ?? '').toLowerCase();
    if (name !== 'utf-8') {
      next(Object.assign(new Error(`a JSON body must be UTF-8 (content-type charset "${name}" is not supported)`), { status: 415, type: 'charset.unsupported' }));
      return;
    }
  }
  next();
}
