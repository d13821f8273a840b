/**
 * Before the service listens: a few quotes sent over HTTP, on a loopback port of their own, through the service's
 * own request pipeline (app.ts: request logging, hardening, request metrics, access control, body parsing, routing
 * and validation, the getQuote handler, the response cache, serialization), so that the first clients' quotes run
 * code V8 has already compiled (a function is compiled only when it first runs, and compiled well only after it has
 * run a while) and find the route search's per-chain memos built. Without it the first quote takes several times as
 * long as the next ones; warming the handler alone in process leaves the HTTP path cold, which is most of a first
 * quote's time.
 *
 * The pipeline the warm-up goes through is the service's (the same middlewares, validators and handlers) over
 * state of its own: an access control of the same configuration counting in its own memory, its own metrics and a
 * silent logger (app.ts), so that its requests are nobody's: no client's limit, usage or metrics count them.
 *
 * The requests are made from the catalog in use (any DATA_DIR): on the EVM chains with the most stablecoins, one of
 * them to the chain's native coin, and to another chain's first stablecoin; 1,000 whole tokens each, from a fixed
 * wallet, another amount each round; then the first one again (an answer from the response cache). Each goes on a
 * new connection, as a first client's does. A request without a route is no failure.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Catalog } from '../core/catalog/catalog';

/** A wallet that is nobody's (the answers are thrown away). */
const WALLET = '0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea9';

export interface WarmUpResult {
  /** Requests sent. */
  readonly quotes: number;
  /** Those answered 200. */
  readonly answered: number;
  readonly ms: number;
}

/** The warm-up requests' queries (getQuote), at most `chains` × 2 of them. */
export function warmUpQueries(catalog: Catalog, chains = 3): Record<string, string>[] {
  const stablecoins = [...catalog.listTokens({ chainTypes: ['EVM'], tags: ['stablecoin'] })].sort(([a, ta], [b, tb]) => tb.length - ta.length || a - b).slice(0, chains);
  return stablecoins.flatMap(([chainId, tokens], k) => {
    const token = tokens[0];
    const native = catalog.getChain(chainId)?.nativeToken;
    const [otherChain, otherTokens] = stablecoins[(k + 1) % stablecoins.length];
    const base = { fromChain: String(chainId), fromToken: token.address, fromAmount: `1000${'0'.repeat(token.decimals)}`, fromAddress: WALLET };
    return [
      ...(native ? [{ ...base, toChain: String(chainId), toToken: native.address }] : []),
      ...(otherChain !== chainId ? [{ ...base, toChain: String(otherChain), toToken: otherTokens[0].address }] : []),
    ];
  });
}

/** The warm-up's GET /v1/quote paths: `queries` `rounds` times, another amount each round, then the first again. */
export function warmUpPaths(queries: readonly Record<string, string>[], rounds = 3): string[] {
  const paths: string[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const query of queries) {
      // another amount each round: the quote cache would answer the same request again
      const params = new URLSearchParams({ ...query, fromAmount: (BigInt(query.fromAmount) + BigInt(round)).toString() });
      paths.push(`/v1/quote?${params.toString()}`);
    }
  }
  return paths.length > 0 ? [...paths, paths[0]] : [];
}

/**
 * Sends `paths` (GET, one at a time, each on a new connection) to `app` served on a loopback port of its own for
 * the while, then closes that port. Answers are read and dropped.
 */
export async function warmUp(app: http.RequestListener, paths: readonly string[]): Promise<WarmUpResult> {
  const started = performance.now();
  if (paths.length === 0) return { quotes: 0, answered: 0, ms: 0 };
  const server = http.createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  let answered = 0;
  try {
    for (const path of paths) {
      if ((await get(port, path)) === 200) answered++;
    }
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  return { quotes: paths.length, answered, ms: performance.now() - started };
}

/** The status of a GET on a new connection (0 when the request failed). */
function get(port: number, path: string): Promise<number> {
  return new Promise((resolve) => {
    const request = http.get({ host: '127.0.0.1', port, path, agent: false, headers: { connection: 'close' } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
      response.on('error', () => resolve(0));
    });
    request.on('error', () => resolve(0));
  });
}
