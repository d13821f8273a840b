/**
 * Reads genuine Uniswap pools (the contracts of @uniswap/v3-core 1.0.1 and @uniswap/v2-core 1.0.1, as deployed on
 * mainnet) through their own interface into the core's pool states, with eth_call only, every call at one block:
 *
 *  - V3 pool → ConcentratedPoolState: slot0() (the 7-field one), liquidity(), fee(), tickSpacing(), token0(),
 *    token1(); then tickBitmap(int16) of every word of the tick range read; then ticks(int24) (its liquidityNet) of
 *    every tick whose bit is set. Three rounds (the words depend on the tick spacing, the ticks on the words), all
 *    calls of a round, for every pool read, issued in the same tick so that a batching provider (ChainConnections:
 *    up to 100 calls a batch) sends them as JSON-RPC batches.
 *  - V2 pair → ConstantProductPoolState: getReserves(), token0(), token1(); fee 3000 ppm (UniswapV2Library's 997/1000).
 *
 * The tick range. The core's concentrated quote (src/core/math/concentrated.ts) has no window of its own: it walks
 * the initialised ticks it is given and stops, `exhausted`, past the last one in the swap's direction. So by default
 * every word of the bitmap between the minimum and the maximum usable tick of the spacing is read (spacing 60: 116
 * words; 10: 694; 200: 36; 1: 6,932), which gives every initialised tick and quotes that are the pool's own for any
 * amount. `wordsEachSide: n` reads only the 2n + 1 words around the current tick's word instead (the core then
 * reports a swap leaving them as exhausted, never a wrong amount). Only set bits are read as ticks.
 *
 * A state read over the whole range is checked before it is returned: the liquidityNet of the initialised ticks at
 * or below the current tick add up to the active liquidity, and all of them to zero; every tick whose bit is set says
 * `initialized`. A state that fails this was not read consistently and is reported as failed.
 *
 * Pure reads; nothing is sent that changes state.
 */
import { getAddress, Interface, isCallException } from 'ethers';
import type { ConcentratedPoolState, ConstantProductPoolState } from '../core/liquidity/snapshot';
import { MAX_TICK, MIN_TICK } from '../core/math/tickMath';
import type { JsonRpcSender } from './jsonRpc';

/** The genuine UniswapV3Pool's view functions the reader calls (signatures of @uniswap/v3-core 1.0.1). */
export const UNISWAP_V3_POOL = new Interface([
  'function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)',
  'function liquidity() view returns (uint128)',
  'function fee() view returns (uint24)',
  'function tickSpacing() view returns (int24)',
  'function token0() view returns (address)',
  'function token1() view returns (address)',
  'function tickBitmap(int16 wordPosition) view returns (uint256)',
  'function ticks(int24 tick) view returns (uint128 liquidityGross, int128 liquidityNet, uint256 feeGrowthOutside0X128, uint256 feeGrowthOutside1X128, int56 tickCumulativeOutside, uint160 secondsPerLiquidityOutsideX128, uint32 secondsOutside, bool initialized)',
]);

/** The genuine UniswapV2Pair's view functions the reader calls (@uniswap/v2-core 1.0.1). */
export const UNISWAP_V2_PAIR = new Interface([
  'function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)',
  'function token0() view returns (address)',
  'function token1() view returns (address)',
]);

/** Uniswap V2's swap fee: 0.3 % (amountIn·997/1000). */
export const UNISWAP_V2_FEE_PPM = 3000n;

export interface UniswapPoolRef {
  readonly address: string;
  /** Pool id in the snapshot's form; default `${chainId}:${exchange}:${kind}:${address}`. */
  readonly id?: string;
  /** Exchange tool key; default "uniswap". */
  readonly exchange?: string;
}

export interface UniswapReadOptions {
  readonly chainId: number;
  /** Block every call is made at; "latest" is resolved to a number first (eth_blockNumber), so that all rounds read the same block. */
  readonly blockTag: number | 'latest';
  /** V3: read only this many bitmap words on each side of the current tick's word (default: the whole tick range). */
  readonly wordsEachSide?: number;
}

export type UniswapReadOutcome<T> =
  | { readonly kind: 'read'; readonly pool: T }
  /** No contract at the address (at that block). */
  | { readonly kind: 'missing'; readonly address: string }
  /** The contract answered, but not as a Uniswap pool does, or its state does not add up. */
  | { readonly kind: 'failed'; readonly address: string; readonly reason: string };

export interface UniswapRead<T> {
  /** The block every call was made at. */
  readonly blockNumber: number;
  /** One outcome per pool asked, in the same order. */
  readonly outcomes: readonly UniswapReadOutcome<T>[];
}

const hexBlock = (n: number) => `0x${n.toString(16)}`;

async function resolveBlock(rpc: JsonRpcSender, blockTag: number | 'latest'): Promise<number> {
  if (blockTag !== 'latest') return blockTag;
  return Number(BigInt((await rpc.send('eth_blockNumber', [])) as string));
}

/** The bitmap word of a compressed tick (TickBitmap.position: int16(tick >> 8)). */
const wordOf = (compressed: number) => Math.floor(compressed / 256);

/** The first and last bitmap words that can hold a usable tick of the spacing (MIN_TICK..MAX_TICK). */
export function bitmapWordRange(tickSpacing: number): { readonly first: number; readonly last: number } {
  if (!Number.isSafeInteger(tickSpacing) || tickSpacing <= 0) throw new Error(`tick spacing must be a positive integer (got ${tickSpacing})`);
  return { first: wordOf(Math.ceil(MIN_TICK / tickSpacing)), last: wordOf(Math.floor(MAX_TICK / tickSpacing)) };
}

/** The words read for a pool: the whole range, or `wordsEachSide` around the current tick's word, within the range. */
export function wordsToRead(tick: number, tickSpacing: number, wordsEachSide?: number): number[] {
  const { first, last } = bitmapWordRange(tickSpacing);
  let from = first;
  let to = last;
  if (wordsEachSide !== undefined) {
    if (!Number.isSafeInteger(wordsEachSide) || wordsEachSide < 0) throw new Error(`wordsEachSide must be a non-negative integer (got ${wordsEachSide})`);
    const current = wordOf(Math.floor(tick / tickSpacing));
    from = Math.max(first, current - wordsEachSide);
    to = Math.min(last, current + wordsEachSide);
  }
  const words: number[] = [];
  for (let w = from; w <= to; w++) words.push(w);
  return words;
}

/** The initialised ticks a bitmap word says (bit b of word w: compressed tick 256·w + b), ascending. */
export function ticksOfWord(word: number, bitmap: bigint, tickSpacing: number): number[] {
  const out: number[] = [];
  for (let bit = 0; bitmap !== 0n; bit++, bitmap >>= 1n) if (bitmap & 1n) out.push((word * 256 + bit) * tickSpacing);
  return out;
}

/** What one pool's first round answered. */
interface V3Head {
  readonly sqrtPriceX96: bigint;
  readonly tick: number;
  readonly liquidity: bigint;
  readonly fee: bigint;
  readonly tickSpacing: number;
  readonly token0: string;
  readonly token1: string;
}

/** Settles one pool's calls: its answers, or why it is not a pool (a transport failure rejects). */
async function callAll(rpc: JsonRpcSender, address: string, datas: readonly string[], block: string): Promise<string[] | { error: string }> {
  const settled = await Promise.allSettled(datas.map((data) => rpc.send('eth_call', [{ to: address, data }, block]) as Promise<string>));
  for (const s of settled) {
    if (s.status === 'rejected') {
      if (!isCallException(s.reason)) throw s.reason;
      return { error: `reverted${s.reason.reason ? `: ${s.reason.reason}` : ''}` };
    }
  }
  return settled.map((s) => (s as PromiseFulfilledResult<string>).value);
}

/** Outcome of an answer that is empty or does not decode: missing when the address holds no code at the block. */
async function notAPool(rpc: JsonRpcSender, address: string, block: string, reason: string): Promise<UniswapReadOutcome<never>> {
  const code = (await rpc.send('eth_getCode', [address, block])) as string;
  return code === '0x' ? { kind: 'missing', address } : { kind: 'failed', address, reason };
}

const firstLine = (error: unknown) => (error as Error).message.split('\n')[0].slice(0, 160);

/**
 * Reads genuine Uniswap V3 pools at one block (see the module comment for the rounds and the tick range). A pool
 * that cannot be read is reported, not thrown; a transport failure (timeout, HTTP error) rejects the whole read.
 */
export async function readUniswapV3Pools(rpc: JsonRpcSender, pools: readonly UniswapPoolRef[], options: UniswapReadOptions): Promise<UniswapRead<ConcentratedPoolState>> {
  const blockNumber = await resolveBlock(rpc, options.blockTag);
  const block = hexBlock(blockNumber);
  const I = UNISWAP_V3_POOL;
  const headCalls = ['slot0', 'liquidity', 'fee', 'tickSpacing', 'token0', 'token1'].map((fn) => I.encodeFunctionData(fn));

  // round 1: slot0, liquidity, fee, tick spacing, tokens
  const heads = await Promise.all(pools.map(async (ref): Promise<V3Head | UniswapReadOutcome<never>> => {
    const address = getAddress(ref.address);
    const answers = await callAll(rpc, address, headCalls, block);
    if (!Array.isArray(answers)) return notAPool(rpc, address, block, answers.error);
    if (answers.some((a) => a === '0x')) return notAPool(rpc, address, block, 'empty answer');
    try {
      const [slot0, liquidity, fee, spacing, token0, token1] = answers;
      const s = I.decodeFunctionResult('slot0', slot0);
      return {
        sqrtPriceX96: s[0] as bigint,
        tick: Number(s[1]),
        liquidity: I.decodeFunctionResult('liquidity', liquidity)[0] as bigint,
        fee: I.decodeFunctionResult('fee', fee)[0] as bigint,
        tickSpacing: Number(I.decodeFunctionResult('tickSpacing', spacing)[0]),
        token0: (I.decodeFunctionResult('token0', token0)[0] as string).toLowerCase(),
        token1: (I.decodeFunctionResult('token1', token1)[0] as string).toLowerCase(),
      };
    } catch (error) {
      return { kind: 'failed', address, reason: `unexpected answer: ${firstLine(error)}` };
    }
  }));

  // rounds 2 and 3: the bitmap words, then the ticks their set bits name
  const outcomes = await Promise.all(pools.map(async (ref, k): Promise<UniswapReadOutcome<ConcentratedPoolState>> => {
    const head = heads[k];
    if ('kind' in head) return head;
    const address = getAddress(ref.address);
    if (head.sqrtPriceX96 === 0n) return { kind: 'failed', address, reason: 'pool not initialised (sqrtPriceX96 = 0)' };
    if (head.tickSpacing <= 0) return { kind: 'failed', address, reason: `tick spacing ${head.tickSpacing}` };
    const words = wordsToRead(head.tick, head.tickSpacing, options.wordsEachSide);
    const bitmaps = await callAll(rpc, address, words.map((w) => I.encodeFunctionData('tickBitmap', [w])), block);
    if (!Array.isArray(bitmaps)) return { kind: 'failed', address, reason: `tickBitmap ${bitmaps.error}` };
    let initialised: number[];
    try {
      initialised = words.flatMap((w, n) => ticksOfWord(w, I.decodeFunctionResult('tickBitmap', bitmaps[n])[0] as bigint, head.tickSpacing));
    } catch (error) {
      return { kind: 'failed', address, reason: `unexpected tickBitmap answer: ${firstLine(error)}` };
    }
    const tickAnswers = await callAll(rpc, address, initialised.map((t) => I.encodeFunctionData('ticks', [t])), block);
    if (!Array.isArray(tickAnswers)) return { kind: 'failed', address, reason: `ticks ${tickAnswers.error}` };
    const ticks: [number, bigint][] = [];
    try {
      initialised.forEach((t, n) => {
        const info = I.decodeFunctionResult('ticks', tickAnswers[n]);
        if (info[7] !== true) throw new Error(`tick ${t} is set in the bitmap but not initialised`);
        ticks.push([t, info[1] as bigint]);
      });
    } catch (error) {
      return { kind: 'failed', address, reason: firstLine(error) };
    }
    if (options.wordsEachSide === undefined) {
      const below = ticks.filter(([t]) => t <= head.tick).reduce((sum, [, net]) => sum + net, 0n);
      const total = ticks.reduce((sum, [, net]) => sum + net, 0n);
      if (below !== head.liquidity || total !== 0n) {
        return { kind: 'failed', address, reason: `inconsistent state: liquidityNet up to tick ${head.tick} adds up to ${below}, liquidity() is ${head.liquidity}; all ticks add up to ${total}` };
      }
    }
    const exchange = ref.exchange ?? 'uniswap';
    return {
      kind: 'read',
      pool: {
        id: ref.id ?? `${options.chainId}:${exchange}:concentrated:${address}`,
        chainId: options.chainId,
        exchange,
        address,
        tokens: [head.token0, head.token1],
        kind: 'concentrated',
        feePpm: head.fee,
        v3: { sqrtPriceX96: head.sqrtPriceX96, tick: head.tick, liquidity: head.liquidity, feePpm: head.fee, tickSpacing: head.tickSpacing, ticks },
      },
    };
  }));
  return { blockNumber, outcomes };
}

/** Reads genuine Uniswap V2 pairs at one block: getReserves, token0, token1 (fee 3000 ppm). */
export async function readUniswapV2Pairs(rpc: JsonRpcSender, pairs: readonly UniswapPoolRef[], options: Omit<UniswapReadOptions, 'wordsEachSide'>): Promise<UniswapRead<ConstantProductPoolState>> {
  const blockNumber = await resolveBlock(rpc, options.blockTag);
  const block = hexBlock(blockNumber);
  const I = UNISWAP_V2_PAIR;
  const calls = ['getReserves', 'token0', 'token1'].map((fn) => I.encodeFunctionData(fn));
  const outcomes = await Promise.all(pairs.map(async (ref): Promise<UniswapReadOutcome<ConstantProductPoolState>> => {
    const address = getAddress(ref.address);
    const answers = await callAll(rpc, address, calls, block);
    if (!Array.isArray(answers)) return notAPool(rpc, address, block, answers.error);
    if (answers.some((a) => a === '0x')) return notAPool(rpc, address, block, 'empty answer');
    try {
      const [reserves, token0, token1] = answers;
      const r = I.decodeFunctionResult('getReserves', reserves);
      const exchange = ref.exchange ?? 'uniswap';
      return {
        kind: 'read',
        pool: {
          id: ref.id ?? `${options.chainId}:${exchange}:constantProduct:${address}`,
          chainId: options.chainId,
          exchange,
          address,
          tokens: [(I.decodeFunctionResult('token0', token0)[0] as string).toLowerCase(), (I.decodeFunctionResult('token1', token1)[0] as string).toLowerCase()],
          kind: 'constantProduct',
          feePpm: UNISWAP_V2_FEE_PPM,
          reserves: [r[0] as bigint, r[1] as bigint],
        },
      };
    } catch (error) {
      return { kind: 'failed', address, reason: `unexpected answer: ${firstLine(error)}` };
    }
  }));
  return { blockNumber, outcomes };
}

function only<T>(read: UniswapRead<T>): T {
  const outcome = read.outcomes[0];
  if (outcome.kind === 'read') return outcome.pool;
  throw new Error(outcome.kind === 'missing' ? `no contract at ${outcome.address} (block ${read.blockNumber})` : `pool ${outcome.address}: ${outcome.reason}`);
}

/** One V3 pool's state; throws when it cannot be read. */
export async function readUniswapV3Pool(rpc: JsonRpcSender, pool: UniswapPoolRef | string, options: UniswapReadOptions): Promise<ConcentratedPoolState> {
  return only(await readUniswapV3Pools(rpc, [typeof pool === 'string' ? { address: pool } : pool], options));
}

/** One V2 pair's state; throws when it cannot be read. */
export async function readUniswapV2Pair(rpc: JsonRpcSender, pair: UniswapPoolRef | string, options: Omit<UniswapReadOptions, 'wordsEachSide'>): Promise<ConstantProductPoolState> {
  return only(await readUniswapV2Pairs(rpc, [typeof pair === 'string' ? { address: pair } : pair], options));
}
