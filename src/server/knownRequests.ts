/**
 * What lets a request answered before skip openapi-backend: the requests already seen, each with the response
 * cache key of its validated request (responseCache.ts), and the version of the data an answer was computed from.
 * A cached answer is sent again only for the same request under the same data.
 */
import type { Request } from 'express';
import { LRUCache } from 'lru-cache';
import type { Dependencies } from './dependencies';
import { ObjectMemo } from '../core/memo';
import type { CachePolicy } from './operation';
import { ResponseCache } from './responseCache';
import { ignoredHeader } from './unknownParameters';

/**
 * Which data an operation's answer was computed from, read at request time: the identity of the catalog and
 * router deployments, and for answers that depend on liquidity, of the graph and route finder currently in
 * the dependencies (a new graph is a new object, so its answers are new entries). The text is made again only
 * when one of them changed, so that the same data gives the same string object (compared by identity below).
 */
export class DataVersions {
  private data: { catalog: unknown; routers: unknown; text: string } | undefined;
  private liquidity: { data: string; graph: unknown; finder: unknown; text: string } | undefined;
  /** A number naming each data object seen, for as long as it lives (never reused). */
  private readonly ids = new ObjectMemo<object, number>();
  private lastId = 0;

  constructor(private readonly dependencies: Dependencies) {}

  private idOf(value: object): number {
    return this.ids.get(value, () => ++this.lastId);
  }

  of(policy: CachePolicy): string {
    const { catalog, routers, graph, finder } = this.dependencies;
    if (this.data?.catalog !== catalog || this.data.routers !== routers) this.data = { catalog, routers, text: `${this.idOf(catalog)}.${this.idOf(routers)}` };
    if (policy !== 'liquidity') return this.data.text;
    const liquidity = this.liquidity;
    if (liquidity?.data !== this.data.text || liquidity.graph !== graph || liquidity.finder !== finder) {
      this.liquidity = { data: this.data.text, graph, finder, text: `${this.data.text}.${this.idOf(graph)}.${this.idOf(finder)}` };
    }
    return this.liquidity!.text;
  }
}

/** A request seen before: its operation, its response-cache key, and that key qualified by the last data version asked for. */
export class KnownRequest {
  private version: string | undefined;
  private versioned = '';

  constructor(
    readonly operationId: string,
    readonly policy: CachePolicy,
    readonly key: string,
    /** The x-ignored-parameters header the request gets (same request, same ignored names). */
    readonly ignoredHeader: string | undefined,
  ) {}

  /** The cache key under this data version: the same string as last time while the data is the same (its hash is kept). */
  versionedKey(version: string): string {
    if (version !== this.version) {
      this.version = version;
      this.versioned = ResponseCache.versioned(version, this.key);
    }
    return this.versioned;
  }
}

/**
 * The requests that reached a cacheable operation, with the response-cache key of their validated request:
 * GET requests by URL, POST requests by URL and JSON body (as parsed, before validation fills defaults).
 * Routing, validation and type coercion are functions of the method, path, query and body alone (no operation
 * declares header or cookie parameters, and these operations need no key), so the same request again has the
 * same key: its answer, if still in the cache, is sent without going through openapi-backend again. Access
 * control (identify, authorize) has already run by then, as for every request.
 */
export class AnsweredUrls {
  // bounded in count and in bytes: a URL may be up to MAX_URL_BYTES long, and unknown query parameters are ignored
  private readonly requests = new LRUCache<string, KnownRequest>({
    max: 10_000,
    maxSize: 16 * 1024 * 1024,
    sizeCalculation: (known, url) => 2 * (url.length + known.key.length) + 100,
  });
  /** Each request's own key, worked out once (before validation, which may add defaults to the body). */
  private readonly requestKeys = new WeakMap<Request, string | undefined>();
  /** Operations that an anonymous caller may call: only their requests are remembered. */
  publicOperations: ReadonlySet<string> = new Set();

  lookup(req: Request): KnownRequest | undefined {
    const key = this.keyOf(req);
    return key === undefined ? undefined : this.requests.get(key);
  }

  remember(req: Request, operationId: string, policy: CachePolicy, key: string, ignored: readonly string[] | undefined): void {
    const requestKey = this.keyOf(req);
    if (requestKey !== undefined && this.publicOperations.has(operationId)) {
      this.requests.set(requestKey, new KnownRequest(operationId, policy, key, ignored?.length ? ignoredHeader(ignored) : undefined));
    }
  }

  private keyOf(req: Request): string | undefined {
    if (this.requestKeys.has(req)) return this.requestKeys.get(req);
    let key: string | undefined;
    // a GET by its URL as the parser made it (one flat string, hashed once); other keys start with the method
    if (req.method === 'GET' && req.body === undefined) key = req.originalUrl;
    else if (req.method === 'POST' && isSmallJsonObject(req)) {
      const text = JSON.stringify(req.body);
      if (text.length <= MAX_REMEMBERED_BODY_BYTES) key = `POST ${req.originalUrl}\n${text}`;
    }
    this.requestKeys.set(req, key);
    return key;
  }
}

/**
 * Bodies of up to 4 kB (a routes request is a few hundred bytes) are worth a key; larger ones are not kept, as
 * sent (a compressed body is not looked at: it may inflate far beyond its length) and as serialized again.
 */
const MAX_REMEMBERED_BODY_BYTES = 4096;

function isSmallJsonObject(req: Request): boolean {
  const length = Number(req.headers['content-length']);
  const encoding = req.headers['content-encoding'];
  const identity = encoding === undefined || encoding.trim().toLowerCase() === 'identity';
  return identity && typeof req.body === 'object' && req.body !== null && !Array.isArray(req.body) && Number.isFinite(length) && length <= MAX_REMEMBERED_BODY_BYTES;
}
