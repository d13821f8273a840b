/**
 * Before the service listens: a few quotes through the getQuote handler, in process, so that the first clients'
 * quotes run code V8 has already compiled (a function is compiled well only after it has run) and find the route
 * search's per-chain memos built. Without it the first quote takes several times as long as the next ones.
 *
 * The requests are made from the catalog in use (any DATA_DIR): on the EVM chains with the most stablecoins, one of
 * them to the chain's native coin, and to another chain's first stablecoin; 1,000 whole tokens each, from a fixed
 * wallet. They go to the handler directly (no HTTP, no access control, no metrics: they are nobody's requests), and
 * their answers are serialized and dropped; a request without a route is no failure.
 */
import type { Logger } from 'pino';
import type { Dependencies } from './dependencies';
import type { HandlerTable, OperationRequest } from './operation';

/** A wallet that is nobody's (the answers are thrown away). */
const WALLET = '0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea9';

export interface WarmUpResult {
  readonly quotes: number;
  readonly answered: number;
  readonly ms: number;
}

/** The warm-up requests' queries (getQuote), at most `chains` × 2 of them. */
export function warmUpQueries(catalog: Dependencies['catalog'], chains = 3): Record<string, string>[] {
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

/** Runs the warm-up quotes `rounds` times (see the module comment). */
export async function warmUp(handlers: HandlerTable, dependencies: Dependencies, logger: Logger, rounds = 3): Promise<WarmUpResult> {
  const started = performance.now();
  const handler = handlers.getQuote as HandlerTable[string] | undefined;
  const queries = handler ? warmUpQueries(dependencies.catalog) : [];
  let quotes = 0;
  let answered = 0;
  for (let round = 0; round < rounds; round++) {
    for (const [k, query] of queries.entries()) {
      const request: OperationRequest = {
        operationId: 'getQuote',
        // another amount each round: the route search's own memo would answer the same request again
        query: { ...query, fromAmount: (BigInt(query.fromAmount) + BigInt(round)).toString() },
        path: {},
        body: undefined,
        headers: {},
        requestId: `warm-up-${round}-${k}`,
        caller: { clientAddress: '127.0.0.1' },
        log: logger,
      };
      quotes++;
      try {
        const result = await handler!(request, dependencies);
        JSON.stringify(result.body);
        answered++;
      } catch {
        // no route (or any refusal): the code it ran is warm all the same
      }
    }
  }
  return { quotes, answered, ms: performance.now() - started };
}
