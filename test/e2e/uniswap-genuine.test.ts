/**
 * The genuine Uniswap contracts (npm creation code, deployed by replaying mainnet's deployments: sandbox/uniswap.ts)
 * on anvil, against the core's math on the state src/chain/uniswapReader.ts reads from them:
 *
 *  (a) every contract at its canonical address; pools and pairs the factories create at the CREATE2 addresses of
 *      src/core/liquidity/poolAddress.ts, their factory() the canonical one;
 *  (b) a 0.3 % V3 pool (18- and 6-decimal test tokens, six positions, a gap without liquidity on each side of the
 *      price): the core's exact-input and exact-output quotes == QuoterV2's, amount by amount, both directions, from
 *      1 unit to beyond the last initialised tick;
 *  (c) a V2 pair: the core == Router02.getAmountsOut / getAmountsIn;
 *  (d) swaps through the genuine SwapRouter (the service's encodeV3ExactInput) and Router02 (encodeV2Swap): the
 *      recipient receives the core's estimate, and the pool's state after is the one the core predicts;
 *  (e) after a further mint, a decreaseLiquidity and a burn, the state read again quotes as QuoterV2 again;
 *  (f) the Uniswap V2 forks (sandbox/v2Forks.ts: SushiSwap V2, Trader Joe V1, Pangolin, QuickSwap V2, their genuine
 *      bytecode at their mainnet addresses): each factory creates pairs at the CREATE2 address of its own init code
 *      hash, which its Router02 carries, and the core == its Router02, quotes and swaps;
 *  (g) SushiSwap V3 (sandbox/v3Forks.ts: Uniswap V3's core replayed at its factory's mainnet address, Uniswap's
 *      periphery built for it): pools at the CREATE2 addresses of its factory, the core == its QuoterV2, swaps through
 *      its SwapRouter at routers.json's address receive the estimate.
 */
import { getAddress, Interface, type JsonRpcProvider } from 'ethers';
import { startAnvil, type AnvilProcess } from '../../sandbox/anvil';
import { compileContracts, type Artifacts } from '../../sandbox/compile';
import { loadSandboxData } from '../../sandbox/data';
import { batchEthCall, makeProvider, rpcBatch } from '../../sandbox/rpc';
import {
  deployUniswap, sendTransaction, UNISWAP_DEPLOYMENTS, uniswapInterface, weth9Placement, weth9RuntimeCode, type UniswapAddresses,
} from '../../sandbox/uniswap';
import { burnV3Position, createV2Pair, createV3Pool, decreaseV3Liquidity, mintV3Position, type V3Position } from '../../sandbox/uniswapPools';
import { makeChainProvider } from '../../src/chain/rpc';
import { readUniswapV2Pair, readUniswapV3Pool, readUniswapV3Pools, wordsToRead } from '../../src/chain/uniswapReader';
import { UNISWAP_V2_FACTORY, UNISWAP_V3_FACTORY, v2PairAddress, v3PoolAddress, type UniswapFactory } from '../../src/core/liquidity/poolAddress';
import { deployV2Fork, V2_FORKS, v2ForkInterface } from '../../sandbox/v2Forks';
import { deployV3Fork, SUSHISWAP_V3 } from '../../sandbox/v3Forks';
import { quoteHopExactIn, quoteHopExactOut } from '../../src/core/liquidity/poolQuote';
import type { ConcentratedPoolState, ConstantProductPoolState } from '../../src/core/liquidity/snapshot';
import * as cp from '../../src/core/math/constantProduct';
import * as v3 from '../../src/core/math/concentrated';
import { getSqrtRatioAtTick, MAX_SQRT_RATIO, MIN_SQRT_RATIO } from '../../src/core/math/tickMath';
import { encodeV2Swap, encodeV3ExactInput, packV3Path } from '../../src/core/transactions/calldata';

jest.setTimeout(60_000);

const CHAIN_ID = 1;
const FEE = 3000;
const SPACING = 60;
const ERC20 = new Interface(['function balanceOf(address) view returns (uint256)', 'function approve(address, uint256) returns (bool)']);
const MAX = (1n << 256n) - 1n;

let anvil: AnvilProcess;
let provider: JsonRpcProvider; // sends (one call at a time)
let reader: JsonRpcProvider; // reads (JSON-RPC batches, as ChainConnections)
let artifacts: Artifacts;
let uniswap: UniswapAddresses;
let admin: string;
let swapper: string;
let ether18: string; // test token, 18 decimals
let dollar6: string; // test token, 6 decimals
let token0: string;
let token1: string;
let pool: string;
let pair: string;
let T0: number; // the pool's initial tick, a multiple of the spacing
const positions: V3Position[] = [];

async function deployTestToken(name: string, symbol: string, decimals: number): Promise<string> {
  const receipt = await sendTransaction(provider, { from: admin, data: artifacts.TestToken.bytecode }, `deploy ${symbol}`);
  const address = getAddress(receipt.contractAddress!);
  const token = new Interface(artifacts.TestToken.abi as never);
  await sendTransaction(provider, { from: admin, to: address, data: token.encodeFunctionData('initialize', [name, symbol, decimals, admin]) });
  for (const holder of [admin, swapper]) {
    await sendTransaction(provider, { from: admin, to: address, data: token.encodeFunctionData('mint', [holder, 10n ** BigInt(decimals + 12)]) });
  }
  return address;
}

const balanceOf = async (token: string, holder: string) => BigInt(await provider.call({ to: token, data: ERC20.encodeFunctionData('balanceOf', [holder]) }));

beforeAll(async () => {
  anvil = await startAnvil(CHAIN_ID);
  provider = makeProvider(anvil.url, CHAIN_ID);
  reader = makeChainProvider(anvil.url, CHAIN_ID, 20_000);
  artifacts = await compileContracts();
  [admin, swapper] = (await provider.send('eth_accounts', [])) as string[];

  // the chain's WETH9 where the sandbox puts it: the genuine WETH9 at the catalog's wrapped native token's address
  const data = loadSandboxData();
  const weth = data.tokens.find((t) => t.chainId === CHAIN_ID && t.symbol === 'WETH')!.address;
  await rpcBatch(anvil.url, weth9Placement(weth, 'Wrapped Ether', 'WETH'));

  uniswap = await deployUniswap(provider, { weth });
  ether18 = await deployTestToken('Test Ether', 'TETH', 18);
  dollar6 = await deployTestToken('Test Dollar', 'TUSD', 6);
  [token0, token1] = BigInt(ether18) < BigInt(dollar6) ? [ether18, dollar6] : [dollar6, ether18];

  // 2,000 TUSD per TETH, in raw units of token1 per token0; the price halfway inside the spacing at T0
  const raw = token0 === ether18 ? 2000e6 / 1e18 : 1e18 / 2000e6;
  T0 = Math.floor(Math.log(raw) / Math.log(1.0001) / SPACING) * SPACING;
  const sqrtPriceX96 = (getSqrtRatioAtTick(T0) + getSqrtRatioAtTick(T0 + SPACING)) / 2n;
  // desired amounts worth scale × 2,000 TUSD of each token (a band away from the price takes one of them only)
  const worth = (token: string, scale: bigint) => (token === ether18 ? scale * 10n ** 18n : scale * 2000n * 10n ** 6n);
  const band = (lo: number, hi: number, scale: bigint) => ({ tickLower: T0 + lo * SPACING, tickUpper: T0 + hi * SPACING, amount0: worth(token0, scale), amount1: worth(token1, scale) });
  const created = await createV3Pool(provider, uniswap, {
    from: admin, token0, token1, fee: FEE, sqrtPriceX96,
    bands: [
      band(-30, 30, 10n), // around the price
      band(-10, 10, 20n), // narrow, deep
      band(-2, 4, 5n), // very narrow
      band(50, 80, 10n), // above the price, after a gap (30..50) without liquidity
      band(60, 100, 3n), // overlapping it
      band(-80, -50, 10n), // below the price, after a gap (−50..−30)
    ],
  });
  pool = created.pool;
  positions.push(...created.positions);
  pair = (await createV2Pair(provider, uniswap, { from: admin, tokenA: ether18, tokenB: dollar6, amountA: 1_000n * 10n ** 18n, amountB: 2_000_000n * 10n ** 6n })).pair;

  for (const spender of [uniswap.swapRouter, uniswap.v2Router02]) {
    for (const token of [ether18, dollar6]) await sendTransaction(provider, { from: swapper, to: token, data: ERC20.encodeFunctionData('approve', [spender, MAX]) });
  }
}, 60_000);

afterAll(async () => {
  reader?.destroy();
  provider?.destroy();
  await anvil?.stop();
});

const readPool = () => readUniswapV3Pool(reader, pool, { chainId: CHAIN_ID, blockTag: 'latest' });
const readPair = () => readUniswapV2Pair(reader, pair, { chainId: CHAIN_ID, blockTag: 'latest' });

describe('(a) the genuine contracts at the canonical addresses', () => {
  test('every contract has code at its mainnet address', async () => {
    for (const d of UNISWAP_DEPLOYMENTS) {
      expect(uniswap[d.key]).toBe(d.address);
      expect(await provider.getCode(d.address)).not.toBe('0x');
    }
    // WETH9 is mainnet's: its published runtime code, its name, symbol and decimals as its constructor stores them
    expect(await provider.getCode(uniswap.weth)).toBe(weth9RuntimeCode());
    const weth9 = uniswapInterface('WETH9');
    const read = async (fn: string) => weth9.decodeFunctionResult(fn, await provider.call({ to: uniswap.weth, data: weth9.encodeFunctionData(fn) }))[0];
    expect([await read('name'), await read('symbol'), await read('decimals')]).toEqual(['Wrapped Ether', 'WETH', 18n]);
    // the V2 pair has no immutables: its code is byte for byte the published runtime code
    const published = (require('@uniswap/v2-core/build/UniswapV2Pair.json') as { evm: { deployedBytecode: { object: string } } }).evm.deployedBytecode.object;
    expect(await provider.getCode(pair)).toBe(`0x${published}`);
  });

  test('the factories create at the CREATE2 addresses of poolAddress.ts; the periphery points at them', async () => {
    expect(pool).toBe(v3PoolAddress(UNISWAP_V3_FACTORY, ether18, dollar6, FEE));
    expect(pair).toBe(v2PairAddress(UNISWAP_V2_FACTORY, ether18, dollar6));
    const call = async (to: string, i: Interface, fn: string, args: unknown[] = []) => i.decodeFunctionResult(fn, await provider.call({ to, data: i.encodeFunctionData(fn, args) }))[0];
    expect(await call(pool, uniswapInterface('UniswapV3Pool'), 'factory')).toBe(UNISWAP_V3_FACTORY.factory);
    expect(await call(pair, uniswapInterface('UniswapV2Pair'), 'factory')).toBe(UNISWAP_V2_FACTORY.factory);
    const v3Periphery = [['swapRouter', 'SwapRouter'], ['positionManager', 'NonfungiblePositionManager'], ['quoterV2', 'QuoterV2']] as const;
    for (const [key, name] of v3Periphery) {
      expect(await call(uniswap[key], uniswapInterface(name), 'factory')).toBe(UNISWAP_V3_FACTORY.factory);
      expect(await call(uniswap[key], uniswapInterface(name), 'WETH9')).toBe(uniswap.weth);
    }
    const r02 = uniswapInterface('SwapRouter02');
    expect(await call(uniswap.swapRouter02, r02, 'factory')).toBe(UNISWAP_V3_FACTORY.factory);
    expect(await call(uniswap.swapRouter02, r02, 'factoryV2')).toBe(UNISWAP_V2_FACTORY.factory);
    expect(await call(uniswap.swapRouter02, r02, 'positionManager')).toBe(uniswap.positionManager);
    expect(await call(uniswap.swapRouter02, r02, 'WETH9')).toBe(uniswap.weth);
    expect(await call(uniswap.v2Router02, uniswapInterface('UniswapV2Router02'), 'factory')).toBe(UNISWAP_V2_FACTORY.factory);
    expect(await call(uniswap.v2Router02, uniswapInterface('UniswapV2Router02'), 'WETH')).toBe(uniswap.weth);
    // deploying again is a no-op
    expect(await deployUniswap(provider, { weth: uniswap.weth })).toEqual(uniswap);
  });

  test('the reader\'s initialised ticks are the TickLens\'s, and add up to the active liquidity', async () => {
    // every call at one block: eth_blockNumber, then 6 views, 116 bitmap words (spacing 60), one ticks() per set bit
    const sent: { method: string; block: unknown }[] = [];
    const counting = { send: (method: string, params: unknown[]) => (sent.push({ method, block: params[1] }), reader.send(method, params)) };
    const state = await readUniswapV3Pool(counting, pool, { chainId: CHAIN_ID, blockTag: 'latest' });
    expect(sent[0].method).toBe('eth_blockNumber');
    expect(sent.slice(1).every((s) => s.method === 'eth_call' && s.block === sent[1].block)).toBe(true);
    expect(sent.length).toBe(1 + 6 + 116 + state.v3.ticks.length);
    expect(state.tokens).toEqual([token0.toLowerCase(), token1.toLowerCase()]);
    expect(state.v3.tickSpacing).toBe(SPACING);
    expect(state.feePpm).toBe(3000n);
    expect(Math.floor(state.v3.tick / SPACING) * SPACING).toBe(T0); // the price is inside the spacing above T0
    const lens = uniswapInterface('TickLens');
    const fromLens: [number, bigint][] = [];
    const words = wordsToRead(state.v3.tick, SPACING);
    expect(words.length).toBe(116);
    const answers = await batchEthCall(anvil.url, words.map((w) => ({ to: uniswap.tickLens, data: lens.encodeFunctionData('getPopulatedTicksInWord', [pool, w]) })));
    for (const a of answers) {
      if (!a.ok) throw new Error(a.error);
      for (const t of lens.decodeFunctionResult('getPopulatedTicksInWord', a.data)[0] as { tick: bigint; liquidityNet: bigint }[]) fromLens.push([Number(t.tick), t.liquidityNet]);
    }
    fromLens.sort((x, y) => x[0] - y[0]);
    expect(state.v3.ticks).toEqual(fromLens);
    expect(state.v3.ticks.length).toBe(12); // six positions, no tick shared
  });

  test('a window of words reads a subset of the ticks; the core quotes it exactly or reports it exhausted', async () => {
    const full = await readPool();
    const [read] = (await readUniswapV3Pools(reader, [{ address: pool }], { chainId: CHAIN_ID, blockTag: 'latest', wordsEachSide: 0 })).outcomes;
    if (read.kind !== 'read') throw new Error(read.kind);
    const window = read.pool;
    expect(window.v3.ticks.every(([t]) => full.v3.ticks.some(([u]) => u === t))).toBe(true);
    expect(window.v3.ticks.length).toBeLessThan(full.v3.ticks.length); // the bands cross a word boundary on one side
    for (const zeroForOne of [true, false]) {
      const max = v3.quoteExactInput(full.v3, zeroForOne, 1n << 200n).amountInUsed;
      for (const amount of [max / 1000n, max / 10n, max / 2n, max]) {
        const w = v3.quoteExactInput(window.v3, zeroForOne, amount);
        if (!w.exhausted) expect(w.amountOut).toBe(v3.quoteExactInput(full.v3, zeroForOne, amount).amountOut);
      }
    }
  });
});

/** ~45 amounts from 1 unit to 1.3 × `cap`, geometric, plus cap − 1, cap, cap + 1. */
function sweep(cap: bigint, points = 45): bigint[] {
  const top = Number(cap) * 1.3;
  const out = new Set<bigint>([1n, 2n, 7n, cap - 1n, cap, cap + 1n]);
  for (let k = 0; k < points; k++) out.add(BigInt(Math.floor(Math.pow(top, k / (points - 1)))) + BigInt(k));
  return [...out].filter((a) => a > 0n).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

interface QuoterAnswer { readonly ok: boolean; readonly amount: bigint; readonly sqrtPriceAfter: bigint }

async function quoterV2(kind: 'quoteExactInputSingle' | 'quoteExactOutputSingle', tokenIn: string, tokenOut: string, amounts: readonly bigint[], quoter = uniswap.quoterV2): Promise<QuoterAnswer[]> {
  const q = uniswapInterface('QuoterV2');
  const answers = await batchEthCall(anvil.url, amounts.map((a) => ({ to: quoter, data: q.encodeFunctionData(kind, [[tokenIn, tokenOut, a, FEE, 0n]]) })));
  return answers.map((a) => {
    if (!a.ok) return { ok: false, amount: 0n, sqrtPriceAfter: 0n };
    const r = q.decodeFunctionResult(kind, a.data);
    return { ok: true, amount: r[0] as bigint, sqrtPriceAfter: r[1] as bigint };
  });
}

/**
 * Both directions, exact input and exact output: the core on `state` against QuoterV2 on the chain (Uniswap's, or one
 * built for a fork's factory). Returns counts.
 */
async function compareWithQuoter(state: ConcentratedPoolState, quoter = uniswap.quoterV2): Promise<{ compared: number; exhausted: number; ticksCrossedMax: number }> {
  let compared = 0;
  let exhausted = 0;
  let ticksCrossedMax = 0;
  for (const zeroForOne of [true, false]) {
    const [tokenIn, tokenOut] = zeroForOne ? [token0, token1] : [token1, token0];
    const [i, j] = zeroForOne ? [0, 1] : [1, 0];
    const drained = v3.quoteExactInput(state.v3, zeroForOne, 1n << 200n); // everything the ticks can give this way
    expect(drained.exhausted).toBe(true);

    // exact input
    const amountsIn = sweep(drained.amountInUsed);
    const quotesIn = await quoterV2('quoteExactInputSingle', tokenIn, tokenOut, amountsIn, quoter);
    amountsIn.forEach((amount, k) => {
      const core = v3.quoteExactInput(state.v3, zeroForOne, amount);
      const chain = quotesIn[k];
      expect({ amount, ok: chain.ok }).toEqual({ amount, ok: true });
      expect({ amount, out: core.amountOut }).toEqual({ amount, out: chain.amount });
      if (core.exhausted) {
        // the pool swept on to the price limit with no liquidity: nothing more out
        expect(chain.sqrtPriceAfter).toBe(zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n);
        exhausted++;
      } else {
        expect({ amount, sqrtPriceAfter: core.sqrtPriceAfter }).toEqual({ amount, sqrtPriceAfter: chain.sqrtPriceAfter });
        const hop = quoteHopExactIn(state, i, j, amount); // what the routing uses
        if (hop.ok) expect(hop.amountOut).toBe(core.amountOut);
        else expect(core.amountOut).toBe(0n);
      }
      ticksCrossedMax = Math.max(ticksCrossedMax, core.ticksCrossed);
      compared++;
    });

    // exact output
    const amountsOut = sweep(drained.amountOut);
    const quotesOut = await quoterV2('quoteExactOutputSingle', tokenIn, tokenOut, amountsOut, quoter);
    amountsOut.forEach((amount, k) => {
      const core = v3.quoteExactOutput(state.v3, zeroForOne, amount);
      const chain = quotesOut[k];
      const coreCan = !core.exhausted && core.amountOut === amount;
      expect({ amount, ok: chain.ok }).toEqual({ amount, ok: coreCan });
      if (coreCan) {
        expect({ amount, in: core.amountIn }).toEqual({ amount, in: chain.amount });
        expect({ amount, sqrtPriceAfter: core.sqrtPriceAfter }).toEqual({ amount, sqrtPriceAfter: chain.sqrtPriceAfter });
        const hop = quoteHopExactOut(state, i, j, amount);
        expect(hop.ok && hop.amountIn).toBe(core.amountIn);
      } else exhausted++;
      compared++;
    });
  }
  return { compared, exhausted, ticksCrossedMax };
}

describe('(b) V3: the core on the state read == QuoterV2', () => {
  test('exact input and exact output, both directions, 1 unit to beyond the last tick', async () => {
    const state = await readPool();
    const { compared, exhausted, ticksCrossedMax } = await compareWithQuoter(state);
    expect(compared).toBeGreaterThanOrEqual(4 * 40);
    expect(exhausted).toBeGreaterThan(0);
    expect(ticksCrossedMax).toBeGreaterThanOrEqual(5);
  });
});

/** The core's exact-input quotes on `state` (token i → j) == the Router02 at `router`'s getAmountsOut, over a sweep to 3 × the reserve. */
async function compareGetAmountsOut(state: ConstantProductPoolState, i: number, j: number, router: string, iface: Interface): Promise<void> {
  const path = [getAddress(state.tokens[i]), getAddress(state.tokens[j])];
  const amountsIn = sweep(state.reserves[i] * 3n);
  const outs = await batchEthCall(anvil.url, amountsIn.map((a) => ({ to: router, data: iface.encodeFunctionData('getAmountsOut', [a, path]) })));
  amountsIn.forEach((amount, k) => {
    const core = quoteHopExactIn(state, i, j, amount);
    const chain = outs[k].ok ? (iface.decodeFunctionResult('getAmountsOut', (outs[k] as { data: string }).data)[0] as bigint[])[1] : undefined;
    expect({ amount, out: core.ok ? core.amountOut : 0n }).toEqual({ amount, out: chain });
  });
}

describe('(c) V2: the core on the state read == Router02', () => {
  test('getAmountsOut and getAmountsIn over a sweep, both directions', async () => {
    const state: ConstantProductPoolState = await readPair();
    expect(state.feePpm).toBe(3000n);
    const r02 = uniswapInterface('UniswapV2Router02');
    for (const [i, j] of [[0, 1], [1, 0]]) {
      const [tin, tout] = [getAddress(state.tokens[i]), getAddress(state.tokens[j])];
      await compareGetAmountsOut(state, i, j, uniswap.v2Router02, r02);
      const amountsOut = sweep(state.reserves[j] - 1n);
      const ins = await batchEthCall(anvil.url, amountsOut.map((a) => ({ to: uniswap.v2Router02, data: r02.encodeFunctionData('getAmountsIn', [a, [tin, tout]]) })));
      amountsOut.forEach((amount, k) => {
        const core = cp.getAmountIn(amount, state.reserves[i], state.reserves[j], state.feePpm);
        const answer = ins[k];
        expect({ amount, ok: answer.ok }).toEqual({ amount, ok: core.ok });
        if (core.ok && answer.ok) expect({ amount, in: core.amountIn }).toEqual({ amount, in: (r02.decodeFunctionResult('getAmountsIn', answer.data)[0] as bigint[])[0] });
      });
    }
  });
});

/**
 * SwapRouter.exactInput (the service's call data) through the 0.3 % pool of `state` at `router`, of the smallest
 * amount of the sweep that crosses two initialised ticks or more: the recipient receives the core's estimate. Returns
 * the state swapped on and the core's quote.
 */
async function swapAcrossTicks(state: ConcentratedPoolState, zeroForOne: boolean, router: string): Promise<{ state: ConcentratedPoolState; core: ReturnType<typeof v3.quoteExactInput> }> {
  const [tokenIn, tokenOut] = zeroForOne ? [token0, token1] : [token1, token0];
  const drained = v3.quoteExactInput(state.v3, zeroForOne, 1n << 200n);
  const amountIn = sweep(drained.amountInUsed).find((a) => {
    const q = v3.quoteExactInput(state.v3, zeroForOne, a);
    return q.ticksCrossed >= 2 && !q.exhausted;
  })!;
  const estimate = quoteHopExactIn(state, zeroForOne ? 0 : 1, zeroForOne ? 1 : 0, amountIn);
  if (!estimate.ok) throw new Error(estimate.message);
  const core = v3.quoteExactInput(state.v3, zeroForOne, amountIn);
  expect(core.ticksCrossed).toBeGreaterThanOrEqual(2);
  const before = await balanceOf(tokenOut, admin);
  await sendTransaction(provider, { from: swapper, to: router, data: encodeV3ExactInput(packV3Path([tokenIn, tokenOut], [FEE]), admin, amountIn, estimate.amountOut) }, 'exactInput');
  expect((await balanceOf(tokenOut, admin)) - before).toBe(estimate.amountOut);
  return { state, core };
}

describe('(d) execution through the genuine routers receives the core\'s estimate', () => {
  test('the service\'s call data is SwapRouter v1\'s exactInput and Router02\'s swapExactTokensForTokens', () => {
    const path = packV3Path([token0, token1], [FEE]);
    const v3Call = encodeV3ExactInput(path, swapper, 1n, 0n);
    const swapRouter = uniswapInterface('SwapRouter');
    expect(v3Call.slice(0, 10)).toBe(swapRouter.getFunction('exactInput')!.selector);
    expect(swapRouter.decodeFunctionData('exactInput', v3Call)[0].path).toBe(path);
    const v2Call = encodeV2Swap(1n, 0n, [token0, token1], swapper);
    expect(v2Call.slice(0, 10)).toBe(uniswapInterface('UniswapV2Router02').getFunction('swapExactTokensForTokens')!.selector);
  });

  test('SwapRouter.exactInput, both directions, crossing ticks: received == estimate, the pool where the core says', async () => {
    for (const zeroForOne of [true, false, true]) {
      const { state, core } = await swapAcrossTicks(await readPool(), zeroForOne, uniswap.swapRouter);
      const after = await readPool();
      expect([after.v3.sqrtPriceX96, after.v3.liquidity, after.v3.tick]).toEqual([core.sqrtPriceAfter, core.liquidityAfter, core.tickAfter]);
      expect(after.v3.ticks).toEqual(state.v3.ticks);
    }
  });

  test('Router02.swapExactTokensForTokens, both directions: received == estimate', async () => {
    for (const [i, j] of [[0, 1], [1, 0]]) {
      const state = await readPair();
      const [tin, tout] = [getAddress(state.tokens[i]), getAddress(state.tokens[j])];
      const amountIn = state.reserves[i] / 7n;
      const estimate = quoteHopExactIn(state, i, j, amountIn);
      if (!estimate.ok) throw new Error(estimate.message);
      const before = await balanceOf(tout, admin);
      await sendTransaction(provider, { from: swapper, to: uniswap.v2Router02, data: encodeV2Swap(amountIn, estimate.amountOut, [tin, tout], admin) }, 'swapExactTokensForTokens');
      expect((await balanceOf(tout, admin)) - before).toBe(estimate.amountOut);
      const after = await readPair();
      expect(after.reserves[i]).toBe(state.reserves[i] + amountIn);
      expect(after.reserves[j]).toBe(state.reserves[j] - estimate.amountOut);
    }
  });
});

describe('(e) liquidity changes read again', () => {
  test('after a mint, a decreaseLiquidity and a burn, the core == QuoterV2 again', async () => {
    const before = await readPool();
    const tick = before.v3.tick;
    const at = (n: number) => Math.floor(tick / SPACING) * SPACING + n * SPACING;
    // a million whole tokens of each at most (the admin holds 10^12 of each, whichever is token 0)
    const [units0, units1] = [token0, token1].map((t) => 10n ** BigInt((t === ether18 ? 18 : 6) + 6));
    // a new band straddling the price, a band far below, half of the deep position removed, the narrow one closed
    positions.push(await mintV3Position(provider, uniswap, { from: admin, token0, token1, fee: FEE, band: { tickLower: at(-7), tickUpper: at(13), amount0: units0, amount1: units1 } }));
    positions.push(await mintV3Position(provider, uniswap, { from: admin, token0, token1, fee: FEE, band: { tickLower: at(-140), tickUpper: at(-110), amount0: units0, amount1: units1 } }));
    await decreaseV3Liquidity(provider, uniswap, { from: admin, tokenId: positions[1].tokenId, liquidity: positions[1].liquidity / 2n });
    await burnV3Position(provider, uniswap, { from: admin, tokenId: positions[2].tokenId });
    const after = await readPool();
    expect(after.v3.liquidity).not.toBe(before.v3.liquidity);
    const ticksOf = (s: ConcentratedPoolState) => s.v3.ticks.map(([t]) => t);
    expect(ticksOf(after)).toEqual(expect.arrayContaining([at(-7), at(13), at(-140), at(-110)]));
    expect(ticksOf(after)).not.toContain(positions[2].tickLower); // the burnt position's ticks are cleared
    const { compared, exhausted } = await compareWithQuoter(after);
    expect(compared).toBeGreaterThanOrEqual(4 * 40);
    expect(exhausted).toBeGreaterThan(0);
  });
});

describe.each(V2_FORKS.map((fork) => [fork.label, fork] as const))('(f) %s, a Uniswap V2 fork: its genuine factory and Router02 at their mainnet addresses', (label, fork) => {
  const FACTORY: UniswapFactory = { factory: fork.factory, initCodeHash: fork.initCodeHash };
  let forkPair: string;
  const readForkPair = () => readUniswapV2Pair(reader, forkPair, { chainId: CHAIN_ID, blockTag: 'latest' });

  beforeAll(async () => {
    expect(await deployV2Fork(provider, fork, { weth: uniswap.weth })).toEqual({ factory: fork.factory, router02: fork.router02 });
    // the same createPair and mint as Uniswap's, through the fork's factory
    forkPair = (await createV2Pair(provider, { ...uniswap, v2Factory: fork.factory }, { from: admin, tokenA: ether18, tokenB: dollar6, amountA: 500n * 10n ** 18n, amountB: 1_100_000n * 10n ** 6n })).pair;
    for (const token of [ether18, dollar6]) await sendTransaction(provider, { from: swapper, to: token, data: ERC20.encodeFunctionData('approve', [fork.router02, MAX]) });
  });

  test('the factory creates at the CREATE2 address of its own init code hash, which its router carries; the data point at them', async () => {
    const call = async (to: string, i: Interface, fn: string, args: unknown[] = []) => i.decodeFunctionResult(fn, await provider.call({ to, data: i.encodeFunctionData(fn, args) }))[0];
    const factoryI = new Interface(['function feeToSetter() view returns (address)', 'function getPair(address, address) view returns (address)']);
    expect(await call(fork.factory, factoryI, 'feeToSetter')).toBe(fork.feeToSetter);
    expect(forkPair).toBe(v2PairAddress(FACTORY, ether18, dollar6));
    expect(await call(fork.factory, factoryI, 'getPair', [dollar6, ether18])).toBe(forkPair);
    expect(forkPair).not.toBe(pair);
    expect(await call(forkPair, uniswapInterface('UniswapV2Pair'), 'factory')).toBe(fork.factory);
    // the router finds pairs by the same hash (pairFor): its runtime code carries it
    expect((await provider.getCode(fork.router02)).toLowerCase()).toContain(fork.initCodeHash.slice(2));
    const router = v2ForkInterface(fork, 'router02');
    expect(await call(fork.router02, router, 'factory')).toBe(fork.factory);
    expect(await call(fork.router02, router, router.getFunction('WETH') ? 'WETH' : 'WAVAX')).toBe(uniswap.weth);
    const entry = loadSandboxData().routers.exchangeRouters.find((r) => r.exchange === fork.exchange && r.kind === 'constantProduct')!;
    expect({ router: entry.address, factory: entry.factory, fee: entry.feePpm, genuine: typeof entry.genuine }).toEqual({ router: fork.router02, factory: { address: fork.factory, initCodeHash: fork.initCodeHash }, fee: 3000, genuine: 'string' });
    expect(label).toBe(fork.label);
  });

  test('the core on the pair read == its Router02\'s getAmountsOut over a sweep; a swap through it receives the estimate', async () => {
    const router = v2ForkInterface(fork, 'router02');
    for (const [i, j] of [[0, 1], [1, 0]]) {
      const state = await readForkPair();
      expect(state.feePpm).toBe(3000n);
      const [tin, tout] = [getAddress(state.tokens[i]), getAddress(state.tokens[j])];
      await compareGetAmountsOut(state, i, j, fork.router02, router);
      const amountIn = state.reserves[i] / 9n;
      const estimate = quoteHopExactIn(state, i, j, amountIn);
      if (!estimate.ok) throw new Error(estimate.message);
      const before = await balanceOf(tout, admin);
      await sendTransaction(provider, { from: swapper, to: fork.router02, data: encodeV2Swap(amountIn, estimate.amountOut, [tin, tout], admin) }, 'swapExactTokensForTokens');
      expect((await balanceOf(tout, admin)) - before).toBe(estimate.amountOut);
      expect((await readForkPair()).reserves[j]).toBe(state.reserves[j] - estimate.amountOut);
    }
  });
});

describe('(g) SushiSwap V3: Uniswap V3\'s core at its factory\'s mainnet address, Uniswap\'s periphery built for it', () => {
  const SUSHI_V3: UniswapFactory = { factory: SUSHISWAP_V3.factory, initCodeHash: SUSHISWAP_V3.initCodeHash };
  const entry = () => loadSandboxData().routers.exchangeRouters.find((r) => r.exchange === 'sushiswap' && r.kind === 'concentrated')!;
  let sushi: UniswapAddresses;
  let sushiPool: string;
  const readSushiPool = () => readUniswapV3Pool(reader, sushiPool, { chainId: CHAIN_ID, blockTag: 'latest' });

  beforeAll(async () => {
    sushi = await deployV3Fork(provider, SUSHISWAP_V3, { weth: uniswap.weth, swapRouter: entry().address, feeTiers: entry().feeTiers! });
    // a 0.3 % pool of the same tokens at the same price as Uniswap's, four positions, a gap without liquidity above
    const sqrtPriceX96 = (getSqrtRatioAtTick(T0) + getSqrtRatioAtTick(T0 + SPACING)) / 2n;
    const amounts = (scale: bigint) => ({ amount0: (token0 === ether18 ? 10n ** 18n : 2000n * 10n ** 6n) * scale, amount1: (token1 === ether18 ? 10n ** 18n : 2000n * 10n ** 6n) * scale });
    const band = (lo: number, hi: number, scale: bigint) => ({ tickLower: T0 + lo * SPACING, tickUpper: T0 + hi * SPACING, ...amounts(scale) });
    sushiPool = (await createV3Pool(provider, sushi, {
      from: admin, token0, token1, fee: FEE, sqrtPriceX96,
      bands: [band(-20, 20, 8n), band(-5, 6, 15n), band(40, 70, 6n), band(-60, -30, 6n)],
    })).pool;
    for (const token of [ether18, dollar6]) await sendTransaction(provider, { from: swapper, to: token, data: ERC20.encodeFunctionData('approve', [sushi.swapRouter, MAX]) });
  });

  test('the factory at its mainnet address, owned by SushiSwap\'s deployer with the 0.01 % tier; pools at its CREATE2 addresses; the periphery points at it', async () => {
    const call = async (to: string, i: Interface, fn: string, args: unknown[] = []) => i.decodeFunctionResult(fn, await provider.call({ to, data: i.encodeFunctionData(fn, args) }))[0];
    const factory = uniswapInterface('UniswapV3Factory');
    expect(await call(SUSHISWAP_V3.factory, factory, 'owner')).toBe(SUSHISWAP_V3.deployer);
    expect(Number(await call(SUSHISWAP_V3.factory, factory, 'feeAmountTickSpacing', [100]))).toBe(1);
    expect(sushiPool).toBe(v3PoolAddress(SUSHI_V3, ether18, dollar6, FEE));
    expect(sushiPool).not.toBe(pool);
    expect(await call(sushiPool, uniswapInterface('UniswapV3Pool'), 'factory')).toBe(SUSHISWAP_V3.factory);
    // the pool is Uniswap V3's build: the same runtime code as Uniswap's own pool (its immutables aside: factory, tokens, fee, spacing)
    expect((await provider.getCode(sushiPool)).length).toBe((await provider.getCode(pool)).length);
    for (const [address, name] of [[sushi.swapRouter, 'SwapRouter'], [sushi.positionManager, 'NonfungiblePositionManager'], [sushi.quoterV2, 'QuoterV2']] as const) {
      expect(await call(address, uniswapInterface(name), 'factory')).toBe(SUSHISWAP_V3.factory);
      expect(await call(address, uniswapInterface(name), 'WETH9')).toBe(uniswap.weth);
    }
    expect(sushi.swapRouter).toBe(entry().address);
    expect(entry().factory).toEqual({ address: SUSHISWAP_V3.factory, initCodeHash: SUSHISWAP_V3.initCodeHash });
    // deploying again is a no-op
    expect(await deployV3Fork(provider, SUSHISWAP_V3, { weth: uniswap.weth, swapRouter: entry().address, feeTiers: entry().feeTiers! })).toEqual(sushi);
  });

  test('the core on the pool read == its QuoterV2 over a sweep; SwapRouter.exactInput across ticks receives the estimate', async () => {
    const { compared, exhausted, ticksCrossedMax } = await compareWithQuoter(await readSushiPool(), sushi.quoterV2);
    expect(compared).toBeGreaterThanOrEqual(4 * 40);
    expect(exhausted).toBeGreaterThan(0);
    expect(ticksCrossedMax).toBeGreaterThanOrEqual(3);
    for (const zeroForOne of [true, false]) {
      const { core } = await swapAcrossTicks(await readSushiPool(), zeroForOne, sushi.swapRouter);
      const after = await readSushiPool();
      expect([after.v3.sqrtPriceX96, after.v3.liquidity, after.v3.tick]).toEqual([core.sqrtPriceAfter, core.liquidityAfter, core.tickAfter]);
    }
  });
});
