/**
 * Differential check of the core's integer math against the Solidity contracts on the devnet: for every pool of
 * the chains (V2 pairs through their exchange router's getAmountsOut, V3 pools' quote — the genuine Uniswap V3 pools
 * (and SushiSwap V3's) through their factory's QuoterV2's quoteExactInputSingle —, Curve pools' get_dy) and every bridge route between them (the endpoint's
 * quote), at amounts from 1 unit to beyond the liquidity, the contract must give the core's figure bit for bit, and
 * fail exactly where the core reports no liquidity (a genuine pool: QuoterV2's swap runs to the price limit).
 */
import path from 'node:path';
import { Interface } from 'ethers';
import { startDevnet, type Devnet } from '../../sandbox/devnet';
import { batchEthCall } from '../../sandbox/rpc';
import { loadCatalog } from '../../src/files/catalog';
import { loadSnapshot } from '../../src/files/snapshot';
import type { BridgeRoute, PoolState } from '../../src/core/liquidity/snapshot';
import { quoteHopExactIn } from '../../src/core/liquidity/poolQuote';
import * as v3 from '../../src/core/math/concentrated';
import { bridgeOut } from '../../src/core/math/bridge';
import { rescale } from '../../src/core/routing/pricing';
import { MAX_SQRT_RATIO, MIN_SQRT_RATIO } from '../../src/core/math/tickMath';
import { uniswapInterface } from '../../sandbox/uniswap';

jest.setTimeout(120_000);

const ROOT = path.resolve(__dirname, '../..');
const CHAINS = [1, 42161, 8453];
let devnet: Devnet;
const catalog = loadCatalog(path.join(ROOT, 'data', 'catalog'));
const snapshot = loadSnapshot(path.join(ROOT, 'data', 'snapshot'), catalog);

beforeAll(async () => {
  devnet = await startDevnet({ chains: CHAINS, relayer: false, wallets: 1 });
}, 90_000);

afterAll(async () => {
  await devnet?.stop();
});

const FRACTIONS: readonly [bigint, bigint][] = [[1n, 10n ** 12n], [1n, 10n ** 9n], [1n, 10n ** 6n], [1n, 10n ** 4n], [1n, 1000n], [1n, 100n], [3n, 100n], [1n, 10n], [3n, 10n], [1n, 1n], [3n, 1n]];

function amountsFor(p: PoolState, i: number): bigint[] {
  let scale: bigint;
  if (p.kind === 'constantProduct') scale = p.reserves[i];
  else if (p.kind === 'stableswap') scale = p.balances[i];
  else {
    // virtual reserves of the active range: token0 = L·2^96/√P, token1 = L·√P/2^96
    const q96 = 1n << 96n;
    scale = i === 0 ? (p.v3.liquidity * q96) / p.v3.sqrtPriceX96 : (p.v3.liquidity * p.v3.sqrtPriceX96) / q96;
  }
  const out = new Set<bigint>([1n, 7n, 1000n]);
  for (const [n, d] of FRACTIONS) if ((scale * n) / d > 0n) out.add((scale * n) / d + 1n);
  return [...out];
}

interface Mismatch {
  pool: string;
  i: number;
  j: number;
  amount: string;
  core: string;
  chain: string;
}

test('every pool: the contracts give the core\'s output bit for bit', async () => {
  const v2Router = new Interface(devnet.artifacts.V2Router.abi as string[]);
  const v3Pool = new Interface(devnet.artifacts.V3Pool.abi as string[]);
  const curve = new Interface(devnet.artifacts.StableSwapPool.abi as string[]);
  const quoter = uniswapInterface('QuoterV2');
  const genuine = new Set(devnet.data.routers.exchangeRouters.filter((e) => e.genuine).map((e) => `${e.exchange}:${e.kind}`));
  let genuinePools = 0;
  interface Case { p: PoolState; i: number; j: number; amount: bigint; to: string; data: string; iface: Interface; fn: string }
  const cases = new Map<number, Case[]>();
  for (const p of snapshot.pools.filter((x) => CHAINS.includes(x.chainId))) {
    const deployment = devnet.chain(p.chainId).deployment;
    const isGenuine = genuine.has(`${p.exchange}:${p.kind}`);
    if (isGenuine) genuinePools++;
    const router = deployment.exchangeRouters.find((r) => r.exchange === p.exchange && r.kind === p.kind)?.address;
    const tokens = p.tokens.map((t) => catalog.findToken(p.chainId, t)!.address);
    for (let i = 0; i < p.tokens.length; i++) {
      for (let j = 0; j < p.tokens.length; j++) {
        if (i === j) continue;
        for (const amount of amountsFor(p, i)) {
          const c: Case = p.kind === 'constantProduct'
            ? { p, i, j, amount, to: router!, iface: v2Router, fn: 'getAmountsOut', data: v2Router.encodeFunctionData('getAmountsOut', [amount, [tokens[i], tokens[j]]]) }
            : p.kind === 'stableswap'
              ? { p, i, j, amount, to: p.address, iface: curve, fn: 'get_dy', data: curve.encodeFunctionData('get_dy', [i, j, amount]) }
              : isGenuine
                ? { p, i, j, amount, to: deployment.uniswap!.v3Periphery[p.exchange].quoterV2, iface: quoter, fn: 'quoteExactInputSingle', data: quoter.encodeFunctionData('quoteExactInputSingle', [[tokens[i], tokens[j], amount, p.feePpm, 0n]]) }
                : { p, i, j, amount, to: p.address, iface: v3Pool, fn: 'quote', data: v3Pool.encodeFunctionData('quote', [i === 0, amount]) };
          if (!cases.has(p.chainId)) cases.set(p.chainId, []);
          cases.get(p.chainId)!.push(c);
        }
      }
    }
  }
  const mismatches: Mismatch[] = [];
  let compared = 0;
  let failuresAgreed = 0;
  await Promise.all([...cases].map(async ([chainId, list]) => {
    const results = await batchEthCall(devnet.chain(chainId).url, list);
    list.forEach((c, k) => {
      const { p, i, j, amount } = c;
      const r = results[k];
      const core = quoteHopExactIn(p, i, j, amount);
      let chain: bigint | string;
      let state: string | undefined;
      if (!r.ok) chain = `revert ${r.data ?? r.error}`;
      else {
        const out = c.iface.decodeFunctionResult(c.fn, r.data);
        if (p.kind === 'constantProduct') chain = (out[0] as bigint[])[1];
        else if (p.kind === 'stableswap') chain = out[0] as bigint;
        else if (c.fn === 'quoteExactInputSingle') {
          // QuoterV2 gives the output and the price after (not the tick or liquidity after); a swap the ticks cannot
          // absorb runs to the price limit with what they hold: the chain's "no liquidity"
          const limit = i === 0 ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n;
          const sqrtPriceAfter = out.sqrtPriceX96After as bigint;
          chain = sqrtPriceAfter === limit ? `exhausted (${out.amountOut} out)` : (out.amountOut as bigint);
          const q = v3.quoteExactInput(p.v3, i === 0, amount);
          if (!q.exhausted && typeof chain === 'bigint' && q.sqrtPriceAfter !== sqrtPriceAfter) state = `price after ${sqrtPriceAfter} ≠ core ${q.sqrtPriceAfter}`;
        } else {
          chain = out.amountOut as bigint;
          const q = v3.quoteExactInput(p.v3, i === 0, amount);
          // the whole state after the swap, not only the output
          const want = `${q.sqrtPriceAfter}/${q.tickAfter}/${q.liquidityAfter}/${q.amountInUsed}`;
          const got = `${out.sqrtPriceAfter}/${out.tickAfter}/${out.liquidityAfter}/${out.amountIn}`;
          if (!q.exhausted && want !== got) state = `state ${got} ≠ core ${want}`;
        }
      }
      compared++;
      // the core answers "no liquidity" with ok: false; the pools then revert (V3 window exhausted) or give 0
      if (!core.ok) {
        if (typeof chain === 'string' || chain === 0n) failuresAgreed++;
        else mismatches.push({ pool: p.id, i, j, amount: String(amount), core: `no liquidity (${core.message})`, chain: String(chain) });
        return;
      }
      if (chain !== core.amountOut || state) mismatches.push({ pool: p.id, i, j, amount: String(amount), core: String(core.amountOut), chain: state ?? String(chain) });
    });
  }));
  expect(compared).toBeGreaterThan(1000);
  expect(genuinePools).toBeGreaterThan(50); // Uniswap's, created through the genuine factories
  expect(failuresAgreed).toBeGreaterThan(0); // the windows of the V3 pools do run out at the large amounts
  expect(mismatches).toEqual([]);
});

test('every bridge route between the chains: the endpoint gives bridgeOut (rescaled) bit for bit', async () => {
  const endpointI = new Interface(devnet.artifacts.BridgeEndpoint.abi as string[]);
  const routes = snapshot.bridges.filter((r) => CHAINS.includes(r.fromChainId) && CHAINS.includes(r.toChainId));
  expect(routes.length).toBeGreaterThan(50);
  const byChain = new Map<number, { route: BridgeRoute; amount: bigint; to: string; data: string }[]>();
  for (const r of routes) {
    const sent = catalog.findToken(r.fromChainId, r.fromToken)!;
    const amounts = new Set<bigint>([r.minAmount - 1n, r.minAmount, r.minAmount + 1n, r.minAmount * 10n + 12_345n, r.maxAmount, r.maxAmount + 1n, (r.minAmount + r.maxAmount) / 3n]);
    const endpoint = devnet.chain(r.toChainId).deployment.bridgeEndpoint;
    for (const amount of amounts) {
      if (amount < 0n) continue;
      if (!byChain.has(r.toChainId)) byChain.set(r.toChainId, []);
      byChain.get(r.toChainId)!.push({ route: r, amount, to: endpoint, data: endpointI.encodeFunctionData('quote', [r.bridge, r.fromChainId, sent.address, amount]) });
    }
  }
  const mismatches: Mismatch[] = [];
  let released = 0;
  await Promise.all([...byChain].map(async ([chainId, list]) => {
    const results = await batchEthCall(devnet.chain(chainId).url, list);
    list.forEach(({ route: r, amount }, k) => {
      const sent = catalog.findToken(r.fromChainId, r.fromToken)!;
      const received = catalog.findToken(r.toChainId, r.toToken)!;
      const core = bridgeOut(amount, r);
      // a rescale to fewer decimals may round a positive amount down to 0: the endpoint refuses that too
      const rescaled = core.ok ? rescale(core.amountOut, sent.decimals, received.decimals) : 0n;
      const want = rescaled > 0n ? rescaled : undefined;
      let got: bigint | undefined;
      const res = results[k];
      if (res.ok) {
        const [token, out] = endpointI.decodeFunctionResult('quote', res.data) as unknown as [string, bigint];
        if (token.toLowerCase() !== received.address.toLowerCase()) throw new Error(`route ${r.bridge} pays ${token}, not ${received.address}`);
        got = out;
        released++;
      }
      if (got !== want) {
        mismatches.push({ pool: `${r.bridge} ${r.fromChainId}→${r.toChainId} ${sent.symbol}`, i: 0, j: 0, amount: String(amount), core: String(want ?? (core.ok ? 0 : core.reason)), chain: String(got ?? 'revert') });
      }
    });
  }));
  expect(released).toBeGreaterThan(100);
  expect(mismatches).toEqual([]);
});
