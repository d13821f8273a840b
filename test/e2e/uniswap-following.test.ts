/**
 * Chain mode on the genuine Uniswap pools of the sandbox (`npm run sandbox`: the mainnet contracts at their
 * canonical addresses, every Uniswap pool of the snapshot created through the protocol): the service reads them
 * through their real interface and quotes them exactly as the genuine QuoterV2 does; liquidity added (Mint) or
 * removed (Burn) changes the next quote exactly; a pool the factory creates after the start appears in the quotes,
 * found from its PoolCreated log, without a restart, and a service started later finds it by asking the factory; token
 * prices follow the pools (a swap that moves WETH/USDC moves WETH's and ETH's priceUSD, and the quotes' USD figures).
 * Every HTTP answer validated against the contract.
 */
import pino from 'pino';
import request from 'supertest';
import { Contract, getAddress, Interface, type JsonRpcProvider } from 'ethers';
import { startSandbox, type Sandbox } from '../../sandbox/service';
import { enableFeeTiers, sendTransaction, uniswapAddresses, uniswapInterface, type UniswapAddresses } from '../../sandbox/uniswap';
import { createV2Pair, createV3Pool, mintV3Position, burnV3Position } from '../../sandbox/uniswapPools';
import { approveIfNeeded, balanceOf, sendTransactionRequest } from '../../sandbox/execute';
import { SUSHISWAP_V2, v2ForkInterface } from '../../sandbox/v2Forks';
import { quoteHopExactIn } from '../../src/core/liquidity/poolQuote';
import { UNISWAP_V2_FACTORY, UNISWAP_V3_FACTORY, v2PairAddress, v3PoolAddress } from '../../src/core/liquidity/poolAddress';
import type { ConcentratedPoolState, PoolState } from '../../src/core/liquidity/snapshot';
import { contractValidator, type ContractValidator } from '../support/contract';
import { makeTestApp } from '../support/app';
import { captureLogger } from '../support/logCapture';
import { startChainMode } from '../../src/chain/mode';
import { formatPrice } from '../../src/core/liquidity/marketPrices';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mined } from '../support/mined';

jest.setTimeout(120_000);

const ARB = 42161;
const POOL_ID = '42161:uniswap:concentrated:WETH-USDC:500';
const SWAP_GAS = { gasLimit: 10_000_000n };
let sandbox: Sandbox;
let provider: JsonRpcProvider;
let uniswap: UniswapAddresses;
let owner: string;
let contract: ContractValidator;

beforeAll(async () => {
  contract = await contractValidator();
  sandbox = await startSandbox({ chains: [ARB], port: 0, host: '127.0.0.1', logger: pino({ level: 'silent' }), bridgeTimeScale: 0 });
  provider = sandbox.devnet.chain(ARB).provider;
  uniswap = uniswapAddresses(token('WETH'));
  owner = sandbox.devnet.wallet(ARB, 2).address;
}, 120_000);

afterAll(async () => {
  await sandbox?.stop();
});

function token(symbol: string): string {
  const t = sandbox.dependencies.catalog.findToken(ARB, symbol);
  if (!t) throw new Error(`no ${symbol} on Arbitrum`);
  return t.address;
}

const graph = () => sandbox.dependencies.graph;
const livePool = (predicate: (p: PoolState) => boolean) => graph().pools.find(predicate) as ConcentratedPoolState | undefined;

/** QuoterV2.quoteExactInputSingle, called statically. */
async function quoterOut(tokenIn: string, tokenOut: string, fee: number, amountIn: bigint): Promise<bigint> {
  const quoter = new Contract(uniswap.quoterV2, uniswapInterface('QuoterV2'), provider);
  const [amountOut] = (await quoter.quoteExactInputSingle.staticCall({ tokenIn, tokenOut, amountIn, fee, sqrtPriceLimitX96: 0n })) as [bigint];
  return amountOut;
}

/** The core's quote on the pool as the service holds it now, both ways, against QuoterV2 over a sweep of amounts. */
async function expectExact(pool: ConcentratedPoolState): Promise<void> {
  for (const [i, j] of [[0, 1], [1, 0]]) {
    for (const amountIn of [10n ** 4n, 10n ** 9n, 10n ** 15n, 10n ** 18n]) {
      const core = quoteHopExactIn(pool, i, j, amountIn);
      const chain = await quoterOut(pool.tokens[i], pool.tokens[j], Number(pool.feePpm), amountIn).catch(() => undefined);
      if (!core.ok) continue; // beyond the ticks read: no route through the pool, never a wrong amount
      expect({ amountIn, i, out: core.amountOut }).toEqual({ amountIn, i, out: chain });
    }
  }
}

/** Waits until `ready` resolves to true (asked again every 50 ms), at most 15 s; `what` says what was awaited. */
async function untilAsync(ready: () => Promise<boolean>, what: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`not seen within 15 s: ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits until the service published a graph in which `ready` holds. */
async function until(ready: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`not seen within 15 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('a genuine pool is read through its real interface and quoted as QuoterV2 quotes it', async () => {
  const status = sandbox.chainMode.status().find((s) => s.chainId === ARB)!;
  expect(status).toMatchObject({ state: 'following', poolsFailed: 0, poolsMissing: 0 });
  const pool = livePool((p) => p.id === POOL_ID)!;
  expect(pool.address).toBe(v3PoolAddress(UNISWAP_V3_FACTORY, pool.tokens[0], pool.tokens[1], pool.feePpm));
  expect(pool.v3.ticks.length).toBeGreaterThan(0);
  await expectExact(pool);
});

test('liquidity added (Mint) and removed (Burn) changes the next quote exactly', async () => {
  const before = livePool((p) => p.id === POOL_ID)!;
  const [token0, token1] = [before.tokens[0], before.tokens[1]];
  for (const t of [token0, token1]) {
    await new Contract(t, ['function approve(address, uint256) returns (bool)'], sandbox.devnet.wallet(ARB, 2)).approve(uniswap.positionManager, (1n << 256n) - 1n).then((tx) => mined(tx));
  }
  const spacing = before.v3.tickSpacing;
  const lower = Math.floor(before.v3.tick / spacing) * spacing - 10 * spacing;
  const position = await mintV3Position(provider, uniswap, {
    from: owner, token0, token1, fee: Number(before.feePpm),
    band: { tickLower: lower, tickUpper: lower + 20 * spacing, amount0: 10n ** 19n, amount1: 30_000n * 10n ** 6n },
  });
  expect(position.liquidity).toBeGreaterThan(0n);
  await until(() => livePool((p) => p.id === POOL_ID)!.v3.liquidity === before.v3.liquidity + position.liquidity, 'the mint');
  const minted = livePool((p) => p.id === POOL_ID)!;
  expect(minted.v3.ticks.map(([t]) => t)).toEqual(expect.arrayContaining([lower, lower + 20 * spacing]));
  await expectExact(minted);

  await burnV3Position(provider, uniswap, { from: owner, tokenId: position.tokenId });
  await until(() => livePool((p) => p.id === POOL_ID)!.v3.liquidity === before.v3.liquidity, 'the burn');
  const burnt = livePool((p) => p.id === POOL_ID)!;
  expect(burnt.v3.ticks).toEqual(before.v3.ticks);
  await expectExact(burnt);
});

test('a pool the factory creates after the start appears in the quotes, found from its PoolCreated log', async () => {
  // USDC/USDT at 1 %: a tier the snapshot has no pool in on Arbitrum
  const [token0, token1] = [token('USDC'), token('USDT')].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
  const address = v3PoolAddress(UNISWAP_V3_FACTORY, token0, token1, 10000);
  expect(livePool((p) => p.address === address)).toBeUndefined();
  const { pool } = await createV3Pool(provider, uniswap, {
    from: owner, token0, token1, fee: 10000, sqrtPriceX96: 1n << 96n,
    bands: [{ tickLower: -2000, tickUpper: 2000, amount0: 5_000_000n * 10n ** 6n, amount1: 5_000_000n * 10n ** 6n }],
  });
  expect(pool).toBe(address);
  await until(() => livePool((p) => p.address === address)?.v3.liquidity !== undefined && livePool((p) => p.address === address)!.v3.liquidity > 0n, 'the new pool');
  const found = livePool((p) => p.address === address)!;
  expect(found).toMatchObject({ id: `${ARB}:uniswap:concentrated:${found.tokens.map((t) => sandbox.dependencies.catalog.findToken(ARB, t)!.symbol).join('-')}:10000`, exchange: 'uniswap' });
  await expectExact(found);

  // a quote that may use only the new pool (every other pool of Arbitrum denied) goes through it, at its exact output;
  // it is asked until it answers, within the same 15 s as the pool's appearance (under a loaded machine the first
  // answer after the pool appeared was once a 404: the refusals met on the way are shown if it never answers)
  // (every other pool holding USDC: any other route's first hop; denyPools takes at most 100 addresses)
  const others = graph().pools.filter((p) => p.chainId === ARB && p.address !== address && p.tokens.includes(token('USDC').toLowerCase())); // pools hold lower-case keys
  const refusals: unknown[] = [];
  let res: request.Response | undefined;
  await untilAsync(async () => {
    res = await request(sandbox.url).get('/v1/quote').query({
      fromChain: String(ARB), toChain: String(ARB), fromToken: 'USDC', toToken: 'USDT', fromAmount: '1000000000',
      fromAddress: owner, allowExchanges: 'uniswap', denyPools: others.map((p) => p.address).join(','),
    });
    contract.expectResponse('getQuote', res);
    if (res.status !== 200) refusals.push(res.body);
    return res.status === 200;
  }, () => `a quote through the new pool (refusals: ${JSON.stringify(refusals)})`);
  if (!res) throw new Error('no answer');
  const swap = res.body.includedSteps.find((s: { type: string }) => s.type === 'swap');
  expect(swap.estimate.data.pool).toBe(address);
  expect(BigInt(swap.estimate.toAmount)).toBe(await quoterOut(token('USDC'), token('USDT'), 10000, 1_000_000_000n));
});

test('a service that starts later finds that pool at start, asking the factory where the catalog pairs\' pools are', async () => {
  const [token0, token1] = [token('USDC'), token('USDT')].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
  const address = v3PoolAddress(UNISWAP_V3_FACTORY, token0, token1, 10000);
  const log = captureLogger('info');
  const app = await makeTestApp({ env: { CHAINS_FILE: sandbox.chainsFile } });
  const mode = await startChainMode(app.dependencies, app.config, log.logger);
  try {
    const found = app.dependencies.graph.pools.find((p) => p.address === address) as ConcentratedPoolState | undefined;
    expect(found).toBeDefined();
    expect(found!.v3.liquidity).toBeGreaterThan(0n);
    expect(log.records().some((r) => String(r.msg).startsWith(`chain ${ARB}: pool ${found!.id} found at ${address}`))).toBe(true);
    await expectExact(found!);
  } finally {
    await mode.stop();
    app.dependencies.chains?.close();
  }
});

test('a pool at a fee tier routers.json does not list is found at start from the creation logs since discoverFromBlock, and only with it', async () => {
  // the factory's owner enables 0.25 % (tick spacing 50); a USDC/USDT pool is created there before the services start
  await enableFeeTiers(provider, uniswap, { '2500': 50 });
  const [token0, token1] = [token('USDC'), token('USDT')].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
  const address = v3PoolAddress(UNISWAP_V3_FACTORY, token0, token1, 2500);
  await createV3Pool(provider, uniswap, {
    from: owner, token0, token1, fee: 2500, sqrtPriceX96: 1n << 96n,
    bands: [{ tickLower: -1000, tickUpper: 1000, amount0: 1_000_000n * 10n ** 6n, amount1: 1_000_000n * 10n ** 6n }],
  });
  const started = async (chainsFile: string) => {
    const log = captureLogger('info');
    const app = await makeTestApp({ env: { CHAINS_FILE: chainsFile } });
    const mode = await startChainMode(app.dependencies, app.config, log.logger);
    return { app, mode, log };
  };
  // asking the factory at the configured tiers (100, 500, 3000, 10000) does not find it
  const asked = await started(sandbox.chainsFile);
  try {
    expect(asked.app.dependencies.graph.pools.find((p) => p.address === address)).toBeUndefined();
  } finally {
    await asked.mode.stop();
    asked.app.dependencies.chains?.close();
  }
  // reading the creation logs from block 0 does
  const file = JSON.parse(fs.readFileSync(sandbox.chainsFile, 'utf8')) as { chains: { chainId: number }[] };
  const scanning = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'discover-')), 'chains.json');
  fs.writeFileSync(scanning, JSON.stringify({ ...file, chains: file.chains.map((c) => (c.chainId === ARB ? { ...c, discoverFromBlock: 0 } : c)) }));
  const scanned = await started(scanning);
  try {
    const found = scanned.app.dependencies.graph.pools.find((p) => p.address === address) as ConcentratedPoolState | undefined;
    expect(found).toMatchObject({ exchange: 'uniswap', feePpm: 2500n, v3: { tickSpacing: 50 } });
    expect(found!.v3.liquidity).toBeGreaterThan(0n);
    await expectExact(found!);
    expect(scanned.log.records().some((r) => /creation logs from block 0 to \d+ read \(\d+ ranges\), [1-9]\d* pools not known before/.test(String(r.msg)))).toBe(true);
  } finally {
    await scanned.mode.stop();
    scanned.app.dependencies.chains?.close();
    fs.rmSync(path.dirname(scanning), { recursive: true, force: true });
  }
});

test('a pool with no contract at its address on the chain is not quoted (nothing to swap through)', async () => {
  const gone = graph().pools.find((p) => p.chainId === ARB && p.exchange === 'sushiswap')!;
  await provider.send('anvil_setCode', [gone.address, '0x']);
  const app = await makeTestApp({ env: { CHAINS_FILE: sandbox.chainsFile } });
  const mode = await startChainMode(app.dependencies, app.config, captureLogger('info').logger);
  try {
    expect(app.dependencies.graph.poolById(gone.id)).toBeUndefined();
    expect(app.dependencies.graph.pools.some((p) => p.address === gone.address)).toBe(false);
    expect(mode.status().find((s) => s.chainId === ARB)).toMatchObject({ poolsMissing: 1 });
  } finally {
    await mode.stop();
    app.dependencies.chains?.close();
  }
});

test('an exchange router with no contract on the chain takes its pools out of the quotes (their swaps would call nothing)', async () => {
  const router = sandbox.dependencies.routers!.exchangeRouter('camelot', 'constantProduct')!;
  const pools = graph().pools.filter((p) => p.chainId === ARB && p.exchange === 'camelot');
  expect(pools.filter((p) => p.kind === 'constantProduct').length).toBeGreaterThan(0);
  expect(pools.filter((p) => p.kind === 'concentrated').length).toBeGreaterThan(0);
  const code = (await provider.getCode(router.address)) as string;
  await provider.send('anvil_setCode', [router.address, '0x']);
  const log = captureLogger('info');
  const app = await makeTestApp({ env: { CHAINS_FILE: sandbox.chainsFile } });
  const mode = await startChainMode(app.dependencies, app.config, log.logger);
  try {
    const quoted = app.dependencies.graph.pools.filter((p) => p.chainId === ARB && p.exchange === 'camelot');
    // the constant-product pools (whose router is gone) are left out, the concentrated ones (another router) stay
    expect(quoted.map((p) => p.id).sort()).toEqual(pools.filter((p) => p.kind === 'concentrated').map((p) => p.id).sort());
    const count = pools.filter((p) => p.kind === 'constantProduct').length;
    expect(log.records().map((r) => String(r.msg))).toContain(`chain ${ARB}: no contract at camelot's constantProduct router ${router.address}; its ${count} pools are not quoted`);
    // the pools themselves are there: they are not counted missing
    expect(mode.status().find((s) => s.chainId === ARB)).toMatchObject({ state: 'following' });
    const [pair] = pools.filter((p) => p.kind === 'constantProduct');
    const res = await request(app.app).get('/v1/quote').query({
      fromChain: String(ARB), toChain: String(ARB), fromToken: pair.tokens[0], toToken: pair.tokens[1], fromAmount: '1000000', fromAddress: owner, allowExchanges: 'camelot',
    });
    contract.expectResponse('getQuote', res);
    if (res.status === 200) expect(res.body.includedSteps.every((s: { estimate: { data?: { pool?: string } } }) => !pools.some((p) => p.kind === 'constantProduct' && p.address === s.estimate.data?.pool))).toBe(true);
  } finally {
    await mode.stop();
    app.dependencies.chains?.close();
    await provider.send('anvil_setCode', [router.address, code]);
  }
});

test('a fork\'s factory is followed as Uniswap\'s: a SushiSwap V2 pair created after the start is quoted as its Router02 quotes it', async () => {
  const [usdc, usdt] = [token('USDC'), token('USDT')];
  const sushi = { factory: SUSHISWAP_V2.factory, initCodeHash: SUSHISWAP_V2.initCodeHash };
  const { pair } = await createV2Pair(provider, { ...uniswap, v2Factory: SUSHISWAP_V2.factory }, { from: owner, tokenA: usdc, tokenB: usdt, amountA: 2_000_000n * 10n ** 6n, amountB: 2_000_000n * 10n ** 6n });
  expect(pair).toBe(v2PairAddress(sushi, usdc, usdt));
  await until(() => graph().pools.some((p) => p.address === pair && p.kind === 'constantProduct' && p.reserves[0] > 0n), 'the SushiSwap pair');
  const found = graph().pools.find((p) => p.address === pair)!;
  expect(found).toMatchObject({ exchange: 'sushiswap', feePpm: 3000n });
  const others = graph().pools.filter((p) => p.chainId === ARB && p.address !== pair && p.tokens.includes(usdc.toLowerCase()));
  const res = await request(sandbox.url).get('/v1/quote').query({
    fromChain: 'arb', toChain: 'arb', fromToken: 'USDC', toToken: 'USDT', fromAmount: '5000000000', fromAddress: owner, denyPools: others.map((p) => p.address).join(','),
  });
  contract.expectResponse('getQuote', res);
  expect(res.status).toBe(200);
  const swap = res.body.includedSteps.find((s: { type: string }) => s.type === 'swap');
  expect({ tool: swap.tool, pool: swap.estimate.data.pool }).toEqual({ tool: 'sushiswap', pool: pair });
  const router = new Contract(SUSHISWAP_V2.router02, v2ForkInterface(SUSHISWAP_V2, 'router02'), provider);
  const [, expected] = (await router.getAmountsOut(5_000_000_000n, [usdc, usdt])) as bigint[];
  expect(BigInt(res.body.estimate.toAmount)).toBe(expected);
  // the service's router swaps through SushiSwap's Router02: received = estimate
  const wallet = sandbox.devnet.wallet(ARB, 2);
  await approveIfNeeded(wallet, usdc, res.body.estimate.approvalAddress, 5_000_000_000n);
  const before = await balanceOf(provider, usdt, owner);
  expect((await sendTransactionRequest(wallet, res.body.transactionRequest)).status).toBe(1);
  expect((await balanceOf(provider, usdt, owner)) - before).toBe(expected);
});

test('a token outside the catalog, announced by a new pair with a catalog token, is read from its contract, quoted and executed exactly, unpriced until a deep pool prices it', async () => {
  // a TestToken that claims USDC's symbol, at an address no token of the catalog has
  const address = getAddress('0x00000000000000000000000000000000000d15c0');
  const tokenI = new Interface(sandbox.devnet.artifacts.TestToken.abi as string[]);
  await provider.send('anvil_setCode', [address, sandbox.devnet.artifacts.TestToken.deployedBytecode]);
  await sendTransaction(provider, { from: owner, to: address, data: tokenI.encodeFunctionData('initialize', ['Not USD Coin', 'USDC', 18, owner]) });
  await sendTransaction(provider, { from: owner, to: address, data: tokenI.encodeFunctionData('mint', [owner, 10n ** 27n]) });
  const usdc = token('USDC');
  // $1,000 of USDC: far below the $50,000 of depth that prices a coin
  const { pair } = await createV2Pair(provider, uniswap, { from: owner, tokenA: address, tokenB: usdc, amountA: 1000n * 10n ** 18n, amountB: 1000n * 10n ** 6n });
  expect(pair).toBe(v2PairAddress(UNISWAP_V2_FACTORY, address, usdc));
  await until(() => graph().pools.some((p) => p.address === pair && p.kind === 'constantProduct' && p.reserves[0] > 0n), 'the new pair');
  const found = graph().pools.find((p) => p.address === pair)!;
  // named by the token's address, not by the symbol it claims (that is the catalog's USDC/WETH pools' name part)
  const names = found.tokens.map((t) => (t === address.toLowerCase() ? address : 'USDC')).join('-');
  expect(found.id).toBe(`${ARB}:uniswap:constantProduct:${names}:3000`);

  const tokenRes = await request(sandbox.url).get('/v1/token').query({ chain: 'arb', token: address.toLowerCase() });
  contract.expectResponse('getToken', tokenRes);
  expect(tokenRes.body).toEqual({
    address, chainId: ARB, symbol: 'USDC', decimals: 18, name: 'Not USD Coin', coinKey: `${ARB}:${address}`, priceUSD: '0', verificationStatus: 'unverified',
  });
  // by symbol, USDC is still the catalog's; /v1/tokens lists the new one only when asked for tokens without a price
  const bySymbol = await request(sandbox.url).get('/v1/token').query({ chain: 'arb', token: 'USDC' });
  expect(bySymbol.body.address).toBe(usdc);
  const listed = async (query: Record<string, string>) => {
    const res = await request(sandbox.url).get('/v1/tokens').query({ chains: 'arb', ...query });
    contract.expectResponse('getTokens', res);
    return (res.body.tokens[String(ARB)] as { address: string }[]).some((t) => t.address === address);
  };
  expect(await listed({})).toBe(false);
  expect(await listed({ minPriceUSD: '0' })).toBe(true);

  // routable, and the answer says what it does not know: no USD value, no price impact
  const quote = async (fromAmount: bigint) => {
    const res = await request(sandbox.url).get('/v1/quote').query({ fromChain: 'arb', toChain: 'arb', fromToken: usdc, toToken: address, fromAmount: String(fromAmount), fromAddress: owner });
    contract.expectResponse('getQuote', res);
    expect(res.status).toBe(200);
    return res.body;
  };
  const v2Router = new Contract(uniswap.v2Router02, uniswapInterface('UniswapV2Router02'), provider);
  const unpriced = await quote(10_000_000n);
  expect(unpriced.estimate.data).not.toHaveProperty('priceImpact');
  expect(unpriced.estimate.data.unpricedTokens).toEqual([{ chainId: ARB, address, symbol: 'USDC' }]);
  expect(unpriced.estimate.toAmountUSD).toBe('0');
  expect(unpriced.action.toToken).toMatchObject({ address, priceUSD: '0', verificationStatus: 'unverified' });
  const [, expected] = (await v2Router.getAmountsOut(10_000_000n, [usdc, address])) as bigint[];
  expect(BigInt(unpriced.estimate.toAmount)).toBe(expected);

  // sent as it is, through the genuine pair: received = estimate
  const wallet = sandbox.devnet.wallet(ARB, 2);
  await approveIfNeeded(wallet, usdc, unpriced.estimate.approvalAddress, 10_000_000n);
  const before = await balanceOf(provider, address, owner);
  const receipt = await sendTransactionRequest(wallet, unpriced.transactionRequest);
  expect(receipt.status).toBe(1);
  expect((await balanceOf(provider, address, owner)) - before).toBe(expected);

  // $100,000 more on each side: the pair is deep enough to price the token, at its reserves' ratio
  await createV2Pair(provider, uniswap, { from: owner, tokenA: address, tokenB: usdc, amountA: 100_000n * 10n ** 18n, amountB: 100_000n * 10n ** 6n });
  const pairC = new Contract(pair, ['function getReserves() view returns (uint112, uint112, uint32)', 'function token0() view returns (address)'], provider);
  const [r0, r1] = (await pairC.getReserves()) as [bigint, bigint];
  const tokenIs0 = getAddress((await pairC.token0()) as string) === address;
  const price = formatPrice((Number(tokenIs0 ? r1 : r0) / 1e6) / (Number(tokenIs0 ? r0 : r1) / 1e18));
  await until(() => sandbox.dependencies.catalog.findToken(ARB, address)?.priceUSD === price, 'a price from the deep pair');
  const priced = await quote(10_000_000n);
  expect(priced.action.toToken.priceUSD).toBe(price);
  expect(priced.estimate.data).not.toHaveProperty('unpricedTokens');
  expect(Number(priced.estimate.data.priceImpact)).toBeLessThan(0.01);

  // a pair of USDC and an address without code (the factory does not check): nothing there answers decimals()
  const junk = getAddress('0x00000000000000000000000000000000000de1e7');
  await sendTransaction(provider, { from: owner, to: uniswap.v2Factory, data: uniswapInterface('UniswapV2Factory').encodeFunctionData('createPair', [usdc, junk]) });

  // a service started later finds it in the factories' creation logs (discoverFromBlock), at the same price
  const file = JSON.parse(fs.readFileSync(sandbox.chainsFile, 'utf8')) as { chains: { chainId: number }[] };
  const scanning = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'discover-')), 'chains.json');
  fs.writeFileSync(scanning, JSON.stringify({ ...file, chains: file.chains.map((c) => (c.chainId === ARB ? { ...c, discoverFromBlock: 0 } : c)) }));
  const log = captureLogger('info');
  const app = await makeTestApp({ env: { CHAINS_FILE: scanning } });
  const mode = await startChainMode(app.dependencies, app.config, log.logger);
  try {
    expect(app.dependencies.catalog.findToken(ARB, address)).toMatchObject({ symbol: 'USDC', priceUSD: price, verificationStatus: 'unverified' });
    expect(app.dependencies.graph.pools.find((p) => p.address === pair)?.id).toBe(found.id);
    expect(log.records().some((r) => String(r.msg) === `chain ${ARB}: token USDC (${address}) found with a factory's pool: unverified, priced by its pools only`)).toBe(true);
    // the address without code is left out, said once, with its pair
    expect(log.records().filter((r) => String(r.msg) === `chain ${ARB}: token ${junk} left out (decimals() does not answer a number from 0 to 36); its pools are not quoted`)).toHaveLength(1);
    expect(app.dependencies.catalog.findToken(ARB, junk)).toBeUndefined();
    expect(app.dependencies.graph.pools.some((p) => p.tokens.includes(junk.toLowerCase()))).toBe(false);
  } finally {
    await mode.stop();
    app.dependencies.chains?.close();
    fs.rmSync(path.dirname(scanning), { recursive: true, force: true });
  }
});

test('prices follow the pools: a swap that moves WETH/USDC moves priceUSD of WETH and ETH, and the quotes\' USD figures', async () => {
  // only pools of at least $100M depth price a coin here: Uniswap's WETH/USDC 0.05 % pool alone prices WETH (and ETH)
  const chainsFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'prices-')), 'chains.json');
  fs.writeFileSync(chainsFile, JSON.stringify({ ...JSON.parse(fs.readFileSync(sandbox.chainsFile, 'utf8')), priceMinDepthUSD: 100_000_000 }));
  const app = await makeTestApp({ env: { CHAINS_FILE: chainsFile } });
  const reference = app.dependencies.catalog;
  const mode = await startChainMode(app.dependencies, app.config, captureLogger('info').logger);
  const pool = new Contract(livePool((p) => p.id === POOL_ID)!.address, ['function slot0() view returns (uint160 sqrtPriceX96, int24, uint16, uint16, uint16, uint8, bool)'], provider);
  const [usdc, weth] = [token('USDC'), token('WETH')];
  // token 0 is WETH on Arbitrum (0x82aF… < 0xaf88…): USDC per WETH = √P² · 10^(18 − 6)
  expect(BigInt(weth) < BigInt(usdc)).toBe(true);
  const poolPrice = async () => {
    const [sqrtPriceX96] = (await pool.slot0()) as [bigint];
    return formatPrice((Number(sqrtPriceX96) / 2 ** 96) ** 2 * 1e12);
  };
  const priceOf = async (chain: string, symbol: string) => {
    const res = await request(app.app).get('/v1/token').query({ chain, token: symbol });
    contract.expectResponse('getToken', res);
    return res.body.priceUSD as string;
  };
  try {
    expect(Number(await priceOf('arb', 'WETH'))).toBeCloseTo(Number(await poolPrice()), 0);
    const before = await priceOf('arb', 'WETH');

    // 300,000 USDC for WETH through the genuine SwapRouter: WETH's price goes up in that pool
    // a gas limit of its own: the estimate is made in the pending block, and a swap mined in a later second also writes
    // the pool's oracle observation (and crosses ticks at other prices), which can need more gas than estimated
    const router = new Contract(uniswap.swapRouter, uniswapInterface('SwapRouter'), sandbox.devnet.wallet(ARB, 2));
    await new Contract(usdc, ['function approve(address, uint256) returns (bool)'], sandbox.devnet.wallet(ARB, 2)).approve(uniswap.swapRouter, (1n << 256n) - 1n).then((tx) => mined(tx));
    await router.exactInputSingle({ tokenIn: usdc, tokenOut: weth, fee: 500, recipient: owner, deadline: 2n ** 40n, amountIn: 300_000n * 10n ** 6n, amountOutMinimum: 0n, sqrtPriceLimitX96: 0n }, SWAP_GAS).then((tx) => mined(tx));
    const moved = await poolPrice();
    expect(Number(moved)).toBeGreaterThan(Number(before) * 1.003);
    await until(() => app.dependencies.catalog.findToken(ARB, 'WETH')!.priceUSD === moved, 'the new WETH price');

    // one coin, one price: WETH and ETH everywhere (Ethereum's ETH too, though no pool of Ethereum is read here)
    expect(await priceOf('arb', 'WETH')).toBe(moved);
    expect(await priceOf('arb', 'ETH')).toBe(moved);
    expect(await priceOf('eth', 'ETH')).toBe(moved);
    // no pool of $100M prices WBTC: it keeps the reference price, and is still routed
    expect(await priceOf('arb', 'WBTC')).toBe(reference.findToken(ARB, 'WBTC')!.priceUSD);
    const res = await request(app.app).get('/v1/quote').query({ fromChain: 'arb', toChain: 'arb', fromToken: 'USDC', toToken: 'ETH', fromAmount: '1000000000', fromAddress: owner });
    contract.expectResponse('getQuote', res);
    expect(res.status).toBe(200);
    expect(res.body.action.toToken.priceUSD).toBe(moved);
    expect(Number(res.body.estimate.toAmountUSD)).toBeCloseTo(Number(res.body.estimate.toAmount) / 1e18 * Number(moved), 1);
    const gas = res.body.estimate.gasCosts[0];
    expect(Number(gas.amountUSD)).toBeCloseTo(Number(gas.amount) / 1e18 * Number(moved), 2);
    const wbtc = await request(app.app).get('/v1/quote').query({ fromChain: 'arb', toChain: 'arb', fromToken: 'USDC', toToken: 'WBTC', fromAmount: '1000000000', fromAddress: owner });
    expect(wbtc.status).toBe(200);

    // pushed past its deep band, the pool is thin (its in-range liquidity holds far less than $100M): it prices
    // nothing any more, and WETH goes back to the reference price
    await router.exactInputSingle({ tokenIn: usdc, tokenOut: weth, fee: 500, recipient: owner, deadline: 2n ** 40n, amountIn: 1_500_000n * 10n ** 6n, amountOutMinimum: 0n, sqrtPriceLimitX96: 0n }, SWAP_GAS).then((tx) => mined(tx));
    expect(Number(await poolPrice())).toBeGreaterThan(Number(moved) * 1.05);
    await until(() => app.dependencies.catalog.findToken(ARB, 'WETH')!.priceUSD === reference.findToken(ARB, 'WETH')!.priceUSD, 'the reference price again');
    expect(await priceOf('eth', 'ETH')).toBe(reference.getChain(1)!.nativeToken.priceUSD);
  } finally {
    await mode.stop();
    app.dependencies.chains?.close();
  }
});
