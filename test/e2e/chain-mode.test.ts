/**
 * Chain mode end to end: the real app with CHAINS_FILE naming a devnet (Ethereum and Arbitrum on anvil, seeded with
 * the snapshot's exact state). At start it reads every pool from the chains and quotes exactly as on the embedded
 * snapshot; after a swap made directly on a V2 pair it quotes exactly what the core's math gives on the pair's new
 * reserves (checked against the pair's own getReserves); quotes never wait for a chain (they answer while the
 * chain's anvil is frozen with SIGSTOP); a wrong chain id stops the start-up; a chain down at start is logged and
 * quoted from the snapshot. FIGURES=1 prints the initial read time and the refresh latency.
 */
import request from 'supertest';
import { contractValidator } from '../support/contract';
import { Contract } from 'ethers';
import { startDevnet, type Devnet } from '../../sandbox/devnet';
import { waitForReceipt } from '../../sandbox/rpc';
import { chainsFileOf } from '../../sandbox/service';
import { startChainMode, type ChainMode } from '../../src/chain/mode';
import { getAmountOut } from '../../src/core/math/constantProduct';
import type { ConstantProductPoolState, LiquiditySnapshot } from '../../src/core/liquidity/snapshot';
import { RoutingGraph } from '../../src/core/routing/graph';
import { captureLogger } from '../support/logCapture';
import { makeTestApp, type TestApp } from '../support/app';
import { useScratchDir } from '../support/files';
import { ETH_USDC as USDC, ETH_WETH as WETH } from '../support/fixtures';
import { freePort } from '../support/processes';

jest.setTimeout(30_000);

/** The pair swapped on directly: Uniswap V2 USDC/WETH on Ethereum (USDC is token0). */
const PAIR_ID = '1:uniswap:constantProduct:USDC-WETH:3000';

const files = useScratchDir('chain-mode-e2e-');
let devnet: Devnet;
let live: TestApp;
let mode: ChainMode;
let reference: TestApp;
/** The app on the embedded snapshot with the swapped pair's new reserves (set by the swap test). */
let afterSwap: TestApp | undefined;
/** Reverts the devnet to its state before the swap (set by the swap test). */
let beforeSwap: (() => Promise<void>) | undefined;
let wallet: string;
const others: { mode?: ChainMode; app: TestApp }[] = [];
const figures: Record<string, number> = {};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function quote(t: TestApp, query: Record<string, string>): Promise<Record<string, unknown>> {
  const res = await request(t.app).get('/v1/quote').query({ ...query, fromAddress: wallet });
  if (res.status !== 200) throw new Error(`quote ${JSON.stringify(query)}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return res.body as Record<string, unknown>;
}

const toAmount = (q: Record<string, unknown>) => BigInt((q.estimate as { toAmount: string }).toAmount);

const REQUESTS: Record<string, string>[] = [
  { fromChain: '1', toChain: '1', fromToken: 'WETH', toToken: 'USDC', fromAmount: '1000000000000000000' },
  { fromChain: '1', toChain: '1', fromToken: 'USDC', toToken: 'USDT', fromAmount: '250000000000' },
  { fromChain: '42161', toChain: '42161', fromToken: 'USDC', toToken: 'WETH', fromAmount: '5000000000' },
  { fromChain: '42161', toChain: '1', fromToken: 'USDC', toToken: 'WETH', fromAmount: '20000000000' },
];

beforeAll(async () => {
  const [d, r] = await Promise.all([startDevnet({ chains: [1, 42161], wallets: 1, relayer: false }), makeTestApp()]);
  devnet = d;
  reference = r;
  wallet = devnet.wallet(1).address;
  // 3 s: the start-up's first read (every snapshot pool and ~5,000 factory lookups on Ethereum, in batches) must fit
  // in it on a loaded machine; 1 s once left a chain "connecting" there
  const file = files.writeJson('chains.json', chainsFileOf(devnet, { pollIntervalMs: 50, rpcTimeoutMs: 3000 }));
  live = await makeTestApp({ env: { CHAINS_FILE: file } });
  const started = performance.now();
  mode = await startChainMode(live.dependencies, live.config, captureLogger().logger);
  figures.startChainModeMs = Math.round(performance.now() - started);
}, 60_000);

afterAll(async () => {
  for (const c of devnet?.chains.values() ?? []) {
    try {
      process.kill(c.pid, 'SIGCONT');
    } catch {
      /* gone */
    }
  }
  await mode?.stop();
  live?.dependencies.chains?.close();
  for (const o of others) {
    await o.mode?.stop();
    o.app.dependencies.chains?.close();
  }
  await devnet?.stop();
  if (process.env.FIGURES) process.stdout.write(`chain mode figures: ${JSON.stringify(figures)}\n`);
});

describe('chain mode against the devnet', () => {
  it('reads every snapshot pool of each chain at start, finds the snapshot\'s exact state, and quotes as on the snapshot', async () => {
    const snapshot = reference.dependencies.graph.snapshot;
    for (const s of mode.status()) {
      expect(s).toMatchObject({ state: 'following', poolsRead: snapshot.pools.filter((p) => p.chainId === s.chainId).length, poolsMissing: 0, poolsFailed: 0 });
      expect(s.lastError).toBeUndefined();
      figures[`initialReadMs_${s.chainId}`] = s.initialReadMs!;
    }
    // the chains hold the snapshot's state exactly: nothing to replace
    expect(live.dependencies.liquidity.version).toBe(0);
    for (const query of REQUESTS) expect(await quote(live, query)).toEqual(await quote(reference, query));
  });

  it('after a swap on a V2 pair, quotes exactly what the pool math gives on the new reserves', async () => {
    const query = REQUESTS[0]; // WETH → USDC on Ethereum
    const before = await quote(live, query);
    const previous = live.dependencies.graph.snapshot;
    const pair = live.dependencies.graph.snapshot.pools.find((p) => p.id === PAIR_ID) as ConstantProductPoolState;
    expect(pair.tokens).toEqual([USDC.toLowerCase(), WETH.toLowerCase()]);

    // sell 500,000 USDC into the pair: transfer, then swap (the pair's own interface, as a V2 router does)
    const [r0, r1] = pair.reserves;
    const amountIn = 500_000n * 10n ** 6n;
    const amountOut = getAmountOut(amountIn, r0, r1, pair.feePpm);
    const signer = devnet.wallet(1);
    const provider = devnet.chain(1).provider;
    const usdc = new Contract(USDC, ['function transfer(address to, uint256 amount) returns (bool)'], signer);
    const pairContract = new Contract(pair.address, ['function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes data)', 'function getReserves() view returns (uint112, uint112, uint32)'], signer);
    const version = live.dependencies.liquidity.version;
    beforeSwap = await devnet.checkpoint();
    await waitForReceipt(provider, (await usdc.transfer(pair.address, amountIn)).hash);
    const receipt = await waitForReceipt(provider, (await pairContract.swap(0n, amountOut, signer.address, '0x')).hash);
    expect(receipt.status).toBe(1);
    const mined = performance.now();

    // the service notices within a few polls
    while (live.dependencies.liquidity.version === version) {
      if (performance.now() - mined > 5000) throw new Error(`no refresh within 5 s: ${JSON.stringify(mode.status())}`);
      await sleep(2);
    }
    figures.refreshLatencyMs = Math.round(performance.now() - mined);
    figures.lastRefreshMs = mode.status().find((s) => s.chainId === 1)!.lastRefreshMs!;
    expect(live.dependencies.liquidity.version).toBe(version + 1);

    // the pair's reserves are what the V2 math says, on chain and in the service's graph
    const expected = [r0 + amountIn, r1 - amountOut];
    const onChain = (await pairContract.getReserves()) as bigint[];
    expect([onChain[0], onChain[1]]).toEqual(expected);
    const readPair = live.dependencies.graph.snapshot.pools.find((p) => p.id === PAIR_ID) as ConstantProductPoolState;
    expect(readPair.reserves).toEqual(expected);
    // every other pool is the same object as before (untouched state is kept, not re-read)
    const changed = live.dependencies.graph.snapshot.pools.filter((p, k) => p !== previous.pools[k]);
    expect(changed.map((p) => p.id)).toEqual([PAIR_ID]);

    // the same request now: exactly the core's quote on a snapshot with the new reserves, and a different amount
    const base = reference.dependencies.graph.snapshot;
    const modified: LiquiditySnapshot = { ...base, pools: base.pools.map((p) => (p.id === PAIR_ID ? { ...pair, reserves: expected } : p)) };
    afterSwap = await makeTestApp({ dependencies: { graph: new RoutingGraph(reference.dependencies.catalog, modified) } });
    const after = await quote(live, query);
    expect(after).toEqual(await quote(afterSwap, query));
    expect(toAmount(after)).not.toBe(toAmount(before));
    // selling WETH into a pair that now holds more USDC per WETH pays more
    expect(toAmount(after)).toBeGreaterThan(toAmount(before));
  });

  it('quotes never wait for a chain: they answer while its node is frozen, which the status then reports', async () => {
    if (!afterSwap) throw new Error('runs after the swap test');
    const pid = devnet.chain(1).pid;
    process.kill(pid, 'SIGSTOP');
    try {
      // requests not answered before (no response cache): each is a route search, and none may touch the chain
      for (const fromAmount of ['2000000000000000000', '3000000000000000000', '4000000000000000000']) {
        const query = { ...REQUESTS[0], fromAmount };
        const started = performance.now();
        const q = await quote(live, query);
        expect(performance.now() - started).toBeLessThan(500); // an RPC call would wait for rpcTimeoutMs (3 s)
        expect(q).toEqual(await quote(afterSwap, query)); // on the last state read
      }
      const deadline = performance.now() + 8000;
      while (!mode.status().find((s) => s.chainId === 1)!.lastError) {
        if (performance.now() > deadline) throw new Error('the frozen chain is not reported');
        await sleep(20);
      }
      expect(mode.status().find((s) => s.chainId === 1)!.lastError!.message).toMatch(/timeout/i);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    const deadline = performance.now() + 8000;
    while (mode.status().find((s) => s.chainId === 1)!.lastError) {
      if (performance.now() > deadline) throw new Error(`the chain is not followed again: ${JSON.stringify(mode.status())}`);
      await sleep(20);
    }
    expect(mode.status().find((s) => s.chainId === 1)!.state).toBe('following');
  });

  it('when the chain goes back (evm_revert, as in a reorganisation), reads every pool again', async () => {
    if (!beforeSwap) throw new Error('runs after the swap test');
    const version = live.dependencies.liquidity.version;
    await beforeSwap();
    const deadline = performance.now() + 5000;
    while (live.dependencies.liquidity.version === version) {
      if (performance.now() > deadline) throw new Error(`no full read after the revert: ${JSON.stringify(mode.status())}`);
      await sleep(5);
    }
    const pair = live.dependencies.graph.snapshot.pools.find((p) => p.id === PAIR_ID) as ConstantProductPoolState;
    const seeded = reference.dependencies.graph.snapshot.pools.find((p) => p.id === PAIR_ID) as ConstantProductPoolState;
    expect(pair.reserves).toEqual(seeded.reserves);
    expect(await quote(live, REQUESTS[0])).toEqual(await quote(reference, REQUESTS[0]));
  });

  it("GET /v1/gas/prices follows the chain's gas price: standard is eth_gasPrice, fast and fastest add 10 % and 25 %", async () => {
    const contract = await contractValidator();
    // the sandbox's chains file quotes the snapshot's gas price (its anvils run at base fee 0): this one follows the chain's
    const chain = devnet.chain(42161);
    const file = files.writeJson('gas.json', { chains: [{ chainId: 42161, rpcUrl: chain.url, gasPrice: 'chain' }], pollIntervalMs: 50, rpcTimeoutMs: 1000 });
    const following = await makeTestApp({ env: { CHAINS_FILE: file } });
    others.push({ app: following, mode: await startChainMode(following.dependencies, following.config, captureLogger().logger) });
    const before = await request(following.app).get('/v1/gas/prices/42161');
    contract.expectResponse('getGasPrice', before);
    const current = BigInt(await chain.provider.send('eth_gasPrice', []));
    // a base fee four times the current price, then a block: eth_gasPrice moves, the service reads it on the next poll
    await chain.provider.send('anvil_setNextBlockBaseFeePerGas', [`0x${(current * 4n).toString(16)}`]);
    await chain.provider.send('evm_mine', []);
    const expected = BigInt(await chain.provider.send('eth_gasPrice', []));
    expect(expected).toBeGreaterThan(current * 2n);
    const deadline = performance.now() + 5000;
    let res = before;
    while (BigInt(res.body.standard) !== expected) {
      if (performance.now() > deadline) throw new Error(`gas price not followed: ${JSON.stringify(res.body)}, chain says ${expected}`);
      await sleep(20);
      res = await request(following.app).get('/v1/gas/prices/42161');
    }
    contract.expectResponse('getGasPrice', res);
    expect(res.body).toEqual({ standard: Number(expected), fast: Number((expected * 110n + 99n) / 100n), fastest: Number((expected * 125n + 99n) / 100n), lastUpdated: expect.any(Number) });
    expect(Date.now() - res.body.lastUpdated).toBeLessThan(10_000);
    const all = await request(following.app).get('/v1/gas/prices');
    contract.expectResponse('getGasPrices', all);
    expect(all.body['42161']).toEqual(res.body);
  });

  it('a wrong chain id stops the start-up with a message naming the chain', async () => {
    const url = devnet.chain(1).url;
    const file = files.writeJson('wrong.json', { chains: [{ chainId: 10, rpcUrl: url }], rpcTimeoutMs: 1000 });
    const app = await makeTestApp({ env: { CHAINS_FILE: file } });
    others.push({ app });
    await expect(startChainMode(app.dependencies, app.config, captureLogger().logger)).rejects.toThrow(/chain 10: its RPC answers chain id 1, not 10/);
  });

  it('a chain down at start: the service starts, logs it, quotes its pools from the snapshot, and keeps trying', async () => {
    const port = await freePort(); // nothing listens there
    const up = devnet.chain(42161);
    const file = files.writeJson('down.json', {
      chains: [{ chainId: 42161, rpcUrl: up.url, gasPrice: 'snapshot' }, { chainId: 8453, rpcUrl: `http://127.0.0.1:${port}` }],
      pollIntervalMs: 50, rpcTimeoutMs: 1000,
    });
    const app = await makeTestApp({ env: { CHAINS_FILE: file } });
    const log = captureLogger('info');
    const started = await startChainMode(app.dependencies, app.config, log.logger);
    others.push({ app, mode: started });
    const [arbitrum, base] = started.status();
    expect(arbitrum).toMatchObject({ chainId: 42161, state: 'following', poolsRead: reference.dependencies.graph.pools.filter((p) => p.chainId === 42161).length });
    expect(base).toMatchObject({ chainId: 8453, state: 'connecting', poolsRead: 0 });
    expect(base.lastError).toBeDefined();
    const warnings = log.records().filter((r) => r.level === 40).map((r) => String(r.msg));
    expect(warnings.some((m) => m.startsWith(`chain 8453 (http://127.0.0.1:${port}) does not answer`))).toBe(true);
    const baseQuery = { fromChain: '8453', toChain: '8453', fromToken: 'USDC', toToken: 'WETH', fromAmount: '1000000000' };
    expect(await quote(app, baseQuery)).toEqual(await quote(reference, baseQuery));
    // retried, with the failures logged at most every 30 s
    await sleep(400);
    expect(log.records().filter((r) => r.level === 40 && String(r.msg).startsWith('chain 8453 does not answer')).length).toBeLessThanOrEqual(1);
  });
});
