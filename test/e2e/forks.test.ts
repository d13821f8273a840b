/**
 * The Uniswap forks of the catalog on their own chains (`npm run sandbox -- --chains 137,43114`): Trader Joe V1 and
 * Pangolin on Avalanche, QuickSwap V2 on Polygon run their genuine bytecode at their mainnet addresses
 * (sandbox/v2Forks.ts), and SushiSwap V3 (sandbox/v3Forks.ts) on both, every snapshot pool of theirs created through
 * their own factory. In chain mode the service reads those pools, quotes a swap through each fork exactly as the
 * fork's Router02 (getAmountsOut) or QuoterV2 quotes it, and its transaction swaps through the fork's router with
 * received = estimate; a pair a fork's factory creates after the start is followed on the fork's chain. Every HTTP
 * answer validated against the contract.
 */
import pino from 'pino';
import request from 'supertest';
import { Contract, type JsonRpcProvider } from 'ethers';
import { startSandbox, type Sandbox } from '../../sandbox/service';
import { approveIfNeeded, balanceOf, sendTransactionRequest } from '../../sandbox/execute';
import { uniswapInterface, uniswapAddresses } from '../../sandbox/uniswap';
import { createV2Pair } from '../../sandbox/uniswapPools';
import { PANGOLIN, QUICKSWAP_V2, TRADERJOE_V1, v2ForkInterface, type V2Fork } from '../../sandbox/v2Forks';
import { SUSHISWAP_V3, V3_FORK_QUOTER } from '../../sandbox/v3Forks';
import { v2PairAddress, v3PoolAddress } from '../../src/core/liquidity/poolAddress';
import type { ConcentratedPoolState, ConstantProductPoolState, PoolState } from '../../src/core/liquidity/snapshot';
import { contractValidator, type ContractValidator } from '../support/contract';

jest.setTimeout(120_000);

const POLYGON = 137;
const AVALANCHE = 43114;
const FORKS: readonly (readonly [string, V2Fork, number])[] = [
  [TRADERJOE_V1.label, TRADERJOE_V1, AVALANCHE],
  [PANGOLIN.label, PANGOLIN, AVALANCHE],
  [QUICKSWAP_V2.label, QUICKSWAP_V2, POLYGON],
];
let sandbox: Sandbox;
let contract: ContractValidator;

beforeAll(async () => {
  contract = await contractValidator();
  sandbox = await startSandbox({ chains: [POLYGON, AVALANCHE], port: 0, host: '127.0.0.1', logger: pino({ level: 'silent' }), bridgeTimeScale: 0 });
}, 120_000);

afterAll(async () => {
  await sandbox?.stop();
});

const graph = () => sandbox.dependencies.graph;
const symbolOf = (chainId: number, address: string) => sandbox.dependencies.catalog.findToken(chainId, address)!.symbol;

/** Waits until the service published a graph in which `ready` holds, at most 15 s. */
async function until(ready: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`not seen within 15 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * The quote of a swap of `amount` of `from` that may use the one pool only (every other pool of the chain denied):
 * through `exchange`, at the amount `expected` gives, then executed by wallet 2: the amount received is the estimate.
 */
async function quoteAndSwap(exchange: string, chainId: number, pair: PoolState, from: number, amount: bigint, expected: (tokenIn: string, tokenOut: string) => Promise<bigint>): Promise<void> {
  const [tokenIn, tokenOut] = [pair.tokens[from], pair.tokens[1 - from]];
  const wallet = sandbox.devnet.wallet(chainId, 2);
  // every route's first hop holds tokenIn and its last tokenOut: denying the other pools of the smaller of the two sets
  // leaves the pair alone (denyPools takes at most 100 addresses, fewer than a chain's pools)
  const holding = (token: string) => graph().pools.filter((p) => p.chainId === chainId && p.address !== pair.address && p.tokens.includes(token.toLowerCase()));
  const others = [holding(tokenIn), holding(tokenOut)].sort((a, b) => a.length - b.length)[0];
  const res = await request(sandbox.url).get('/v1/quote').query({
    fromChain: String(chainId), toChain: String(chainId), fromToken: tokenIn, toToken: tokenOut, fromAmount: amount.toString(),
    fromAddress: wallet.address, denyPools: others.map((p) => p.address).join(','),
  });
  contract.expectResponse('getQuote', res);
  expect(res.status).toBe(200);
  const swap = res.body.includedSteps.find((s: { type: string }) => s.type === 'swap');
  expect({ tool: swap.tool, pool: swap.estimate.data.pool }).toEqual({ tool: exchange, pool: pair.address });
  const out = await expected(tokenIn, tokenOut);
  expect(BigInt(res.body.estimate.toAmount)).toBe(out);
  // the service's router swaps through the fork's router
  await approveIfNeeded(wallet, tokenIn, res.body.estimate.approvalAddress, amount);
  const provider = sandbox.devnet.chain(chainId).provider;
  const before = await balanceOf(provider, tokenOut, wallet.address);
  expect((await sendTransactionRequest(wallet, res.body.transactionRequest)).status).toBe(1);
  expect((await balanceOf(provider, tokenOut, wallet.address)) - before).toBe(out);
}

/** The same, checked against the V2 fork's Router02 (getAmountsOut). */
async function quoteAndSwapThrough(fork: V2Fork, chainId: number, pair: ConstantProductPoolState, from: number, amount: bigint): Promise<void> {
  const router = new Contract(fork.router02, v2ForkInterface(fork, 'router02'), sandbox.devnet.chain(chainId).provider);
  await quoteAndSwap(fork.exchange, chainId, pair, from, amount, async (tokenIn, tokenOut) => ((await router.getAmountsOut(amount, [tokenIn, tokenOut])) as bigint[])[1]);
}

describe.each(FORKS)('%s', (label, fork, chainId) => {
  test('its snapshot pairs are read from the pairs its factory created, and a swap through one is quoted and executed as its Router02 swaps', async () => {
    expect(sandbox.chainMode.status().find((s) => s.chainId === chainId)).toMatchObject({ state: 'following', poolsFailed: 0, poolsMissing: 0 });
    const pairs = graph().pools.filter((p): p is ConstantProductPoolState => p.chainId === chainId && p.exchange === fork.exchange && p.kind === 'constantProduct');
    expect(pairs.length).toBeGreaterThan(5);
    for (const p of pairs) {
      expect(p.address).toBe(v2PairAddress({ factory: fork.factory, initCodeHash: fork.initCodeHash }, p.tokens[0], p.tokens[1]));
      expect(p.feePpm).toBe(3000n);
      expect(p.reserves[0]).toBeGreaterThan(0n);
    }
    // the deepest pair between two ERC-20 tokens (the wallet holds every catalog token), 1 % of its reserve, both ways
    const native = sandbox.dependencies.catalog.getChain(chainId)!.nativeToken.address.toLowerCase();
    const pair = pairs.filter((p) => !p.tokens.includes(native)).sort((a, b) => (a.reserves[0] * b.reserves[1] < b.reserves[0] * a.reserves[1] ? 1 : -1))[0];
    expect(label).toBe(fork.label);
    await quoteAndSwapThrough(fork, chainId, pair, 0, pair.reserves[0] / 100n);
    await until(() => (graph().poolById(pair.id) as ConstantProductPoolState).reserves[0] !== pair.reserves[0], `${pair.id} after the swap`);
    const moved = graph().poolById(pair.id) as ConstantProductPoolState;
    await quoteAndSwapThrough(fork, chainId, moved, 1, moved.reserves[1] / 100n);
  });
});

test('a pair Trader Joe\'s factory creates after the start is followed on Avalanche and quoted as JoeRouter02 quotes it', async () => {
  const provider: JsonRpcProvider = sandbox.devnet.chain(AVALANCHE).provider;
  const owner = sandbox.devnet.wallet(AVALANCHE, 2).address;
  const token = (symbol: string) => sandbox.dependencies.catalog.findToken(AVALANCHE, symbol)!.address;
  // a pair of catalog stablecoins Trader Joe has none of in the snapshot, 10,000 of each
  const existing = new Set(graph().pools.filter((p) => p.chainId === AVALANCHE && p.exchange === 'traderjoe' && p.kind === 'constantProduct').map((p) => [...p.tokens].sort().join('/')));
  const symbols = ['USDC', 'USDC.e', 'USDT.e', 'DAI.e', 'axlUSDC'];
  const [a, b] = symbols.flatMap((x, i) => symbols.slice(i + 1).map((y) => [x, y])).find(([x, y]) => !existing.has([token(x).toLowerCase(), token(y).toLowerCase()].sort().join('/')))!;
  const joe = { ...uniswapAddresses(token('WAVAX')), v2Factory: TRADERJOE_V1.factory };
  const decimals = (s: string) => BigInt(sandbox.dependencies.catalog.findToken(AVALANCHE, s)!.decimals);
  const { pair } = await createV2Pair(provider, joe, { from: owner, tokenA: token(a), tokenB: token(b), amountA: 10n ** (decimals(a) + 4n), amountB: 10n ** (decimals(b) + 4n) });
  expect(pair).toBe(v2PairAddress({ factory: TRADERJOE_V1.factory, initCodeHash: TRADERJOE_V1.initCodeHash }, token(a), token(b)));
  await until(() => graph().pools.some((p) => p.address === pair && p.kind === 'constantProduct' && p.reserves[0] > 0n), `the Trader Joe ${a}/${b} pair`);
  const found = graph().pools.find((p) => p.address === pair) as ConstantProductPoolState;
  expect(found).toMatchObject({ id: `${AVALANCHE}:traderjoe:constantProduct:${found.tokens.map((t) => symbolOf(AVALANCHE, t)).join('-')}:3000`, exchange: 'traderjoe', feePpm: 3000n });
  await quoteAndSwapThrough(TRADERJOE_V1, AVALANCHE, found, 0, found.reserves[0] / 50n);
});

describe.each([['Polygon', POLYGON], ['Avalanche', AVALANCHE]] as const)('SushiSwap V3 on %s', (_name, chainId) => {
  test('its snapshot pools are at its factory\'s CREATE2 addresses, and a swap through one is quoted as its QuoterV2 quotes it and executed through its SwapRouter', async () => {
    expect(sandbox.chainMode.status().find((s) => s.chainId === chainId)).toMatchObject({ state: 'following', poolsFailed: 0, poolsMissing: 0 });
    const pools = graph().pools.filter((p): p is ConcentratedPoolState => p.chainId === chainId && p.exchange === 'sushiswap' && p.kind === 'concentrated');
    expect(pools.length).toBeGreaterThan(2);
    for (const p of pools) {
      expect(p.address).toBe(v3PoolAddress({ factory: SUSHISWAP_V3.factory, initCodeHash: SUSHISWAP_V3.initCodeHash }, p.tokens[0], p.tokens[1], p.feePpm));
      expect(p.v3.ticks.length).toBeGreaterThan(0);
    }
    const native = sandbox.dependencies.catalog.getChain(chainId)!.nativeToken.address.toLowerCase();
    const pool = pools.filter((p) => !p.tokens.includes(native)).sort((a, b) => (a.v3.liquidity < b.v3.liquidity ? 1 : -1))[0];
    const quoter = new Contract(V3_FORK_QUOTER, uniswapInterface('QuoterV2'), sandbox.devnet.chain(chainId).provider);
    const quoted = async (tokenIn: string, tokenOut: string, amountIn: bigint) =>
      ((await quoter.quoteExactInputSingle.staticCall({ tokenIn, tokenOut, amountIn, fee: pool.feePpm, sqrtPriceLimitX96: 0n })) as bigint[])[0];
    // an amount the pool's in-range liquidity takes in comfortably: 1/1000 of the token0 its liquidity is worth
    const amount = (pool.v3.liquidity * (1n << 96n)) / pool.v3.sqrtPriceX96 / 1000n;
    await quoteAndSwap('sushiswap', chainId, pool, 0, amount, (tokenIn, tokenOut) => quoted(tokenIn, tokenOut, amount));
  });
});
