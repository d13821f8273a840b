/**
 * A bounded cache of serialized answers for operations whose answer depends only on the (validated) request
 * and on the loaded data: catalog reads and quotes. Each entry keeps the status, the JSON text, its gzip and
 * brotli forms and, for a 200 answer, an ETag, so a hit costs no routing, no serialization and no compression;
 * a client that sends the ETag back in If-None-Match gets 304. Entries are made from 200 answers and from
 * "no route" answers (404 code 1002), which are as much a function of the request and the data.
 */
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { LRUCache } from 'lru-cache';

export interface CachedAnswer {
  readonly status: number;
  readonly json: Buffer;
  /** For 200 answers only (a conditional request for an error answer makes no sense). */
  readonly etag?: string;
  gzip?: Buffer;
  br?: Buffer;
}

/** Bodies below this size are sent as they are (compression would not pay for itself). */
const COMPRESS_MIN_BYTES = 1024;

export class ResponseCache {
  private readonly entries: LRUCache<string, CachedAnswer>;

  constructor(maxBytes = 64 * 1024 * 1024) {
    this.entries = new LRUCache<string, CachedAnswer>({
      maxSize: maxBytes,
      sizeCalculation: (entry) => entry.json.length + (entry.gzip?.length ?? 0) + (entry.br?.length ?? 0) + 200,
    });
  }

  /** The key of a request: operation, path parameters, query and body in a canonical order. */
  static key(operationId: string, path: unknown, query: unknown, body: unknown): string {
    return `${operationId}|${canonical(path)}|${canonical(query)}|${canonical(body)}`;
  }

  /** A request's key qualified by the version of the data its answer is computed from. */
  static versioned(version: string, key: string): string {
    return `${version}#${key}`;
  }

  get(key: string): CachedAnswer | undefined {
    return this.entries.get(key);
  }

  store(key: string, body: unknown, status = 200): CachedAnswer {
    const json = Buffer.from(JSON.stringify(body));
    const entry: CachedAnswer = status === 200 ? { status, json, etag: `"${createHash('sha1').update(json).digest('base64url')}"` } : { status, json };
    this.entries.set(key, entry);
    return entry;
  }

  /** The body to send for an Accept-Encoding header, compressing once per entry and encoding. */
  static encode(entry: CachedAnswer, acceptEncoding: string | undefined): { body: Buffer; encoding?: 'br' | 'gzip' } {
    if (entry.json.length < COMPRESS_MIN_BYTES || !acceptEncoding) return { body: entry.json };
    const accepted = acceptEncoding.toLowerCase();
    if (/\bbr\b/.test(accepted)) {
      entry.br ??= brotliCompressSync(entry.json, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } });
      return { body: entry.br, encoding: 'br' };
    }
    if (/\bgzip\b/.test(accepted)) {
      entry.gzip ??= gzipSync(entry.json, { level: 6 });
      return { body: entry.gzip, encoding: 'gzip' };
    }
    return { body: entry.json };
  }
}

/** JSON with object keys sorted, so that the same request in another order gives the same key. */
function canonical(value: unknown): string {
  if (value === undefined || value === null) return '';
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : typeof v === 'bigint'
        ? v.toString()
        : v,
  );
}
