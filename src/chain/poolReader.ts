/**
 * Reads the state of many pools of one chain with eth_call, all calls issued in the same tick so that the provider
 * sends them as JSON-RPC batches (ChainConnections: up to 100 calls per batch), every call at one block so that the
 * state read is consistent. Returns new PoolState objects: same id, address, tokens and fee as the pool given,
 * state from the chain.
 *
 *  - constantProduct (Uniswap V2 pair): getReserves();
 *  - concentrated (Uniswap V3-style pool over a window of initialised ticks, contracts/v3/V3Pool.sol): slot0(),
 *    liquidity(), and with `ticks` also initializedTicks() and liquidityNet(t) of every tick known (a second round
 *    trip only for ticks the chain has and the pool given does not); without `ticks` the pool's ticks are kept
 *    (a swap changes price, tick and active liquidity only);
 *  - stableswap (Curve): balances(k) of every coin, A(), fee() (rates follow from the coins' decimals: kept).
 *
 * The ABIs are the compiled contracts' fragments (checked against the artifacts by test/unit/chain/poolReader.test.ts),
 * written out so that the service needs neither solc nor the sandbox at run time.
 */
import { Interface, isCallException } from 'ethers';
import type { ConcentratedPoolState, ConstantProductPoolState, PoolState, StableswapPoolState } from '../core/liquidity/snapshot';
import type { JsonRpcSender } from './jsonRpc';
import { readUniswapV3Pools } from './uniswapReader';

export type { JsonRpcSender } from './jsonRpc';

export const V2_PAIR = new Interface([
  'function getReserves() view returns (uint112, uint112, uint32)',
  'event Sync(uint112 reserve0, uint112 reserve1)',
]);

export const V3_POOL = new Interface([
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick)',
  'function liquidity() view returns (uint128)',
  'function initializedTicks() view returns (int24[])',
  'function liquidityNet(int24) view returns (int128)',
  'event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)',
]);

/** Liquidity added to or removed from a genuine Uniswap V3 pool (UniswapV3Pool of @uniswap/v3-core 1.0.1). */
export const UNISWAP_V3_LIQUIDITY_EVENTS = new Interface([
  'event Mint(address sender, address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)',
  'event Burn(address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)',
]);

export const STABLESWAP_POOL = new Interface([
  'function balances(uint256 k) view returns (uint256)',
  'function A() view returns (uint256)',
  'function fee() view returns (uint256)',
  'event TokenExchange(address indexed buyer, int128 sold_id, uint256 tokens_sold, int128 bought_id, uint256 tokens_bought)',
]);

/**
 * Topics of the events after which a pool's state must be read again, per pool kind: V2 `Sync` (every swap, mint
 * and burn of a pair); V3 `Swap`, and `Mint` and `Burn` (liquidity added or removed: the genuine pools emit them);
 * Curve `TokenExchange`.
 */
export const STATE_CHANGE_TOPICS: Readonly<Record<PoolState['kind'], readonly string[]>> = Object.freeze({
  constantProduct: [V2_PAIR.getEvent('Sync')!.topicHash],
  concentrated: [V3_POOL.getEvent('Swap')!.topicHash, UNISWAP_V3_LIQUIDITY_EVENTS.getEvent('Mint')!.topicHash, UNISWAP_V3_LIQUIDITY_EVENTS.getEvent('Burn')!.topicHash],
  stableswap: [STABLESWAP_POOL.getEvent('TokenExchange')!.topicHash],
});

export type PoolReadOutcome =
  | { readonly kind: 'read'; readonly pool: PoolState }
  /** No contract at the pool's address. */
  | { readonly kind: 'missing'; readonly pool: PoolState }
  /** The contract answered, but not as a pool of this kind does (revert, empty or malformed answer). */
  | { readonly kind: 'failed'; readonly pool: PoolState; readonly reason: string };

export interface PoolReadOptions {
  /** Block number (or tag) every call is made at. */
  readonly blockTag: number | 'latest';
  /** Concentrated pools: read the initialised ticks and their liquidityNet too (initial read). */
  readonly ticks: boolean;
  /**
   * Pools that are the genuine Uniswap contracts (routers.json `genuine`): V3 pools are read through their real
   * interface (uniswapReader.ts: slot0, liquidity, the bitmap words within GENUINE_V3_TICK_REACH of the current
   * tick, ticks), always with their ticks; V2 pairs answer getReserves as the model pairs do. Default: none.
   */
  readonly genuine?: (pool: PoolState) => boolean;
}

/**
 * How far from the current tick a genuine V3 pool's initialised ticks are read, in ticks (either way): the bitmap
 * words that cover it, 256 × tickSpacing ticks each (spacing 1: 79 words each side; 10: 8; 60: 2; 200: 1). 20,000
 * ticks is a price 7.4 times higher or lower (1.0001^20000); a swap that would go further is quoted as running out of
 * the ticks read (exhausted: no route through the pool), never at a wrong amount.
 */
export const GENUINE_V3_TICK_REACH = 20_000;

/** The bitmap words each side of the current tick's word that cover GENUINE_V3_TICK_REACH. */
export function genuineWordsEachSide(tickSpacing: number): number {
  return Math.ceil(GENUINE_V3_TICK_REACH / (256 * tickSpacing));
}

/**
 * Reads `pools` (all of one chain) in batches. A pool that cannot be read is reported as missing or failed and
 * keeps no state; a transport failure (timeout, connection refused, HTTP error) rejects the whole read.
 */
export async function readPools(rpc: JsonRpcSender, pools: readonly PoolState[], options: PoolReadOptions): Promise<PoolReadOutcome[]> {
  const genuine = pools.filter((p): p is ConcentratedPoolState => p.kind === 'concentrated' && options.genuine?.(p) === true);
  if (genuine.length === 0) return readModelPools(rpc, pools, options);
  const viaUniswap = new Set<PoolState>(genuine);
  const others = pools.filter((p) => !viaUniswap.has(p));
  const [read, rest] = await Promise.all([readGenuineV3Pools(rpc, genuine, options), readModelPools(rpc, others, options)]);
  const byId = new Map([...read, ...rest].map((o) => [o.pool.id, o]));
  return pools.map((p) => byId.get(p.id)!);
}

/** Genuine V3 pools through their real interface, grouped by tick spacing (each group reads its own words). */
async function readGenuineV3Pools(rpc: JsonRpcSender, pools: readonly ConcentratedPoolState[], options: PoolReadOptions): Promise<PoolReadOutcome[]> {
  const bySpacing = new Map<number, ConcentratedPoolState[]>();
  for (const p of pools) bySpacing.set(p.v3.tickSpacing, [...(bySpacing.get(p.v3.tickSpacing) ?? []), p]);
  const groups = await Promise.all([...bySpacing].map(async ([spacing, group]) => {
    const read = await readUniswapV3Pools(rpc, group.map((p) => ({ address: p.address, id: p.id, exchange: p.exchange })), {
      chainId: group[0].chainId, blockTag: options.blockTag, wordsEachSide: genuineWordsEachSide(spacing),
    });
    return group.map((pool, k): PoolReadOutcome => {
      const o = read.outcomes[k];
      if (o.kind === 'missing') return { kind: 'missing', pool };
      if (o.kind === 'failed') return { kind: 'failed', pool, reason: o.reason };
      // the pool as the data names it (id, address, tokens), in the state the chain holds
      const tokensAgree = o.pool.tokens.every((t, i) => t.toLowerCase() === pool.tokens[i]?.toLowerCase());
      if (!tokensAgree || o.pool.feePpm !== pool.feePpm) {
        return { kind: 'failed', pool, reason: `the contract is the pool of ${o.pool.tokens.join('/')} at fee ${o.pool.feePpm}, not the data's ${pool.tokens.join('/')} at ${pool.feePpm}` };
      }
      return { kind: 'read', pool: { ...pool, v3: o.pool.v3 } };
    });
  }));
  return groups.flat();
}

/** The project's model contracts (and V2 pairs, genuine or not: getReserves is the same). */
async function readModelPools(rpc: JsonRpcSender, pools: readonly PoolState[], options: PoolReadOptions): Promise<PoolReadOutcome[]> {
  if (pools.length === 0) return [];
  const block = options.blockTag === 'latest' ? 'latest' : `0x${options.blockTag.toString(16)}`;
  const call = (to: string, data: string) => rpc.send('eth_call', [{ to, data }, block]) as Promise<string>;
  const plans = pools.map((pool) => planRead(pool, options.ticks));
  const answers = await settleAll(plans.map((plan) => Promise.all(plan.calls.map((data) => call(plan.pool.address, data)))));

  // pools that answered empty: no code at the address, or a contract without these functions
  const empty = plans.filter((_, k) => answers[k].ok && answers[k].value.some((v) => v === '0x'));
  const codes = await settleAll(empty.map((plan) => rpc.send('eth_getCode', [plan.pool.address, block]) as Promise<string>));
  const noCode = new Set(empty.filter((_, k) => codes[k].ok && codes[k].value === '0x').map((plan) => plan.pool.id));

  const outcomes = plans.map((plan, k): PoolReadOutcome | ExtraTicks => {
    const answer = answers[k];
    if (!answer.ok) return { kind: 'failed', pool: plan.pool, reason: reasonOf(answer.error) };
    if (noCode.has(plan.pool.id)) return { kind: 'missing', pool: plan.pool };
    try {
      return plan.decode(answer.value);
    } catch (error) {
      return { kind: 'failed', pool: plan.pool, reason: `unexpected answer: ${(error as Error).message.split('\n')[0].slice(0, 160)}` };
    }
  });

  // second round trip: liquidityNet of ticks the chain has and the pool given does not (rare)
  const extra = outcomes.filter((o): o is ExtraTicks => o.kind === 'extraTicks');
  const nets = await settleAll(extra.map((o) => Promise.all(o.missing.map((t) => call(o.pool.address, V3_POOL.encodeFunctionData('liquidityNet', [t]))))));
  return outcomes.map((o) => {
    if (o.kind !== 'extraTicks') return o;
    const answer = nets[extra.indexOf(o)];
    if (!answer.ok) return { kind: 'failed', pool: o.pool, reason: reasonOf(answer.error) };
    const found = new Map(o.missing.map((t, k) => [t, decodeInt(V3_POOL, 'liquidityNet', answer.value[k])]));
    return o.finish(found);
  });
}

interface ReadPlan {
  readonly pool: PoolState;
  /** Call data, each sent to the pool's address. */
  readonly calls: readonly string[];
  decode(results: readonly string[]): PoolReadOutcome | ExtraTicks;
}

interface ExtraTicks {
  readonly kind: 'extraTicks';
  readonly pool: PoolState;
  readonly missing: readonly number[];
  finish(nets: ReadonlyMap<number, bigint>): PoolReadOutcome;
}

function planRead(pool: PoolState, ticks: boolean): ReadPlan {
  switch (pool.kind) {
    case 'constantProduct':
      return { pool, calls: [V2_PAIR.encodeFunctionData('getReserves')], decode: ([reserves]) => ({ kind: 'read', pool: decodeReserves(pool, reserves) }) };
    case 'stableswap':
      return {
        pool,
        calls: [
          ...pool.tokens.map((_, k) => STABLESWAP_POOL.encodeFunctionData('balances', [k])),
          STABLESWAP_POOL.encodeFunctionData('A'),
          STABLESWAP_POOL.encodeFunctionData('fee'),
        ],
        decode: (results) => ({ kind: 'read', pool: decodeStableswap(pool, results) }),
      };
    case 'concentrated': {
      const known = pool.v3.ticks.map(([t]) => t);
      const calls = [V3_POOL.encodeFunctionData('slot0'), V3_POOL.encodeFunctionData('liquidity')];
      if (!ticks) return { pool, calls, decode: ([slot0, liquidity]) => ({ kind: 'read', pool: decodeConcentrated(pool, slot0, liquidity) }) };
      calls.push(V3_POOL.encodeFunctionData('initializedTicks'), ...known.map((t) => V3_POOL.encodeFunctionData('liquidityNet', [t])));
      return {
        pool,
        calls,
        decode: ([slot0, liquidity, initialised, ...netResults]) => {
          const onChain = (V3_POOL.decodeFunctionResult('initializedTicks', initialised)[0] as bigint[]).map(Number);
          const nets = new Map(known.map((t, k) => [t, decodeInt(V3_POOL, 'liquidityNet', netResults[k])]));
          const finish = (more: ReadonlyMap<number, bigint>): PoolReadOutcome => ({
            kind: 'read',
            pool: decodeConcentrated(pool, slot0, liquidity, onChain.map((t) => [t, nets.get(t) ?? more.get(t)!] as const)),
          });
          const missing = onChain.filter((t) => !nets.has(t));
          return missing.length === 0 ? finish(new Map()) : { kind: 'extraTicks', pool, missing, finish };
        },
      };
    }
  }
}

/** A V2 pair's state from its getReserves() answer. */
export function decodeReserves(pool: ConstantProductPoolState, data: string): ConstantProductPoolState {
  const [reserve0, reserve1] = V2_PAIR.decodeFunctionResult('getReserves', data) as unknown as [bigint, bigint];
  return { ...pool, reserves: [reserve0, reserve1] };
}

/** A V3 pool's state from its slot0() and liquidity() answers (and the ticks read, or the pool's own). */
export function decodeConcentrated(
  pool: ConcentratedPoolState,
  slot0: string,
  liquidity: string,
  ticks: ReadonlyArray<readonly [number, bigint]> = pool.v3.ticks,
): ConcentratedPoolState {
  const [sqrtPriceX96, tick] = V3_POOL.decodeFunctionResult('slot0', slot0) as unknown as [bigint, bigint];
  return {
    ...pool,
    v3: { ...pool.v3, sqrtPriceX96, tick: Number(tick), liquidity: decodeInt(V3_POOL, 'liquidity', liquidity), ticks },
  };
}

/** A Curve pool's state from its balances(0..n−1), A() and fee() answers, in that order. */
export function decodeStableswap(pool: StableswapPoolState, results: readonly string[]): StableswapPoolState {
  const n = pool.tokens.length;
  if (results.length !== n + 2) throw new Error(`expected ${n + 2} answers, got ${results.length}`);
  return {
    ...pool,
    balances: results.slice(0, n).map((r) => decodeInt(STABLESWAP_POOL, 'balances', r)),
    amp: decodeInt(STABLESWAP_POOL, 'A', results[n]),
    feeE10: decodeInt(STABLESWAP_POOL, 'fee', results[n + 1]),
  };
}

/** True when two states of the same pool price every swap the same. */
export function sameState(a: PoolState, b: PoolState): boolean {
  if (a.kind === 'constantProduct' && b.kind === 'constantProduct') return sameList(a.reserves, b.reserves) && a.feePpm === b.feePpm;
  if (a.kind === 'stableswap' && b.kind === 'stableswap') {
    return sameList(a.balances, b.balances) && a.amp === b.amp && a.feeE10 === b.feeE10 && sameList(a.rates, b.rates);
  }
  if (a.kind === 'concentrated' && b.kind === 'concentrated') {
    const [x, y] = [a.v3, b.v3];
    return x.sqrtPriceX96 === y.sqrtPriceX96 && x.tick === y.tick && x.liquidity === y.liquidity && x.feePpm === y.feePpm
      && x.tickSpacing === y.tickSpacing && x.ticks.length === y.ticks.length
      && x.ticks.every(([t, net], k) => t === y.ticks[k][0] && net === y.ticks[k][1]);
  }
  return false;
}

const sameList = (a: readonly bigint[], b: readonly bigint[]) => a.length === b.length && a.every((v, k) => v === b[k]);

function decodeInt(iface: Interface, fn: string, data: string): bigint {
  return iface.decodeFunctionResult(fn, data)[0] as bigint;
}

function reasonOf(error: unknown): string {
  if (isCallException(error)) return `reverted${error.reason ? `: ${error.reason}` : error.data ? ` (${error.data.slice(0, 10)})` : ''}`;
  throw error; // not an answer about the pool: the chain itself failed
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** Settles every promise (so that none rejects unobserved), then rethrows the first transport failure. */
async function settleAll<T>(promises: readonly Promise<T>[]): Promise<Settled<T>[]> {
  const settled = await Promise.allSettled(promises);
  const transport = settled.find((s) => s.status === 'rejected' && !isCallException(s.reason));
  if (transport) throw (transport as PromiseRejectedResult).reason;
  return settled.map((s) => (s.status === 'fulfilled' ? { ok: true, value: s.value } : { ok: false, error: s.reason }));
}
