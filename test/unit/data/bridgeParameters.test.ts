/**
 * Bridges as their own documentation describes them (issue 35; data/README.md, "Bridge routes", cites every source):
 * for each modelled bridge a fee and a minimum worked by hand from its cited statement, checked against the generated
 * data/snapshot/bridges.json; the minimum rule on every route (the documented floor, else the smallest amount that
 * delivers one unit after the fees, never an invented USD figure); and, through the real app, the small amounts the
 * real bridges carry: 0.1 USDC from OP Mainnet to Arbitrum and a 0.0001 WETH contract call.
 *
 * Reference prices (data/sources/prices.json): USDC 1.00, ETH 3250.00. Destination fill costs (sources/liquidity.json,
 * `fillCostUSD`): Ethereum $6, Arbitrum $0.15, OP Mainnet and Base $0.10.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { BRIDGES_FILE, REPO_ROOT } from '../../../scripts/build-snapshot';
import type { TokensFile } from '../../../scripts/catalog/types';
import type { BridgeRoute, BridgesFile, LiquidityTable } from '../../../scripts/snapshot/types';
import { bridgeOut } from '../../../src/core/math/bridge';
import { useAppAndContract } from '../../support/app';
import { ARB_USDC, ARB_WETH, BASE_WETH, OP_USDC, WALLET } from '../../support/fixtures';

const readJson = <T>(path: string): T => JSON.parse(readFileSync(join(REPO_ROOT, path), 'utf8')) as T;
const { routes } = readJson<BridgesFile>(BRIDGES_FILE);
const { tokens } = readJson<TokensFile>('data/catalog/tokens.json');
const liquidity = readJson<LiquidityTable>('data/sources/liquidity.json');

const route = (bridge: string, from: number, to: number, coinKey: string): BridgeRoute => {
  const found = routes.find((r) => r.bridge === bridge && r.fromChainId === from && r.toChainId === to && r.coinKey === coinKey);
  if (!found) throw new Error(`no ${bridge} route ${from}→${to} ${coinKey}`);
  return found;
};
const decimals = (chainId: number, address: string) => tokens.find((t) => t.chainId === chainId && t.address === address)!.decimals;
const model = (r: BridgeRoute) => ({
  fixedFee: BigInt(r.fixedFee), feePpm: BigInt(r.feePpm), destinationGasFee: BigInt(r.destinationGasFee),
  minAmount: BigInt(r.minAmount), maxAmount: BigInt(r.maxAmount),
});
/** ceil(a / b) for non-negative bigints */
const ceil = (a: bigint, b: bigint) => (a + b - 1n) / b;
/** USD → wei of ETH at $3250, rounded up (the builder's rounding of fees) */
const weiOfUSD = (cents: bigint) => ceil(cents * 10n ** 18n, 3250n * 100n);

const [OP, ARB, BASE, ETH, POLYGON, ZKSYNC, SCROLL, LINEA, GNOSIS, AVALANCHE] = [10, 42161, 8453, 1, 137, 324, 534352, 59144, 100, 43114];

describe('bridge parameters, worked by hand from each bridge\'s documentation', () => {
  it('cctp: standard transfers are free and have no minimum; at most $10M per burn; ~13–19 min from rollups', () => {
    // developers.circle.com/cctp/concepts/fees: "CCTP charges fees on Fast Transfers only. Standard Transfers are free."
    // contract-interfaces: "There is a $10 million limit on the amount of USDC that can be burned in a single CCTP transaction."
    const r = route('cctp', OP, ARB, 'USDC');
    expect(r).toMatchObject({ feePpm: 0, fixedFee: '0', destinationGasFee: '0', nativeFee: '0', durationSeconds: 1140 });
    expect(r.minAmount).toBe('1'); // one raw unit (0.000001 USDC) arrives whole
    expect(r.maxAmount).toBe('10000000000000'); // 10,000,000 USDC · 10^6
    // required-block-confirmations: Avalanche ~8 s; Linea's hard finality ~6 to 32 hours
    expect(route('cctp', AVALANCHE, BASE, 'USDC').durationSeconds).toBe(8);
    expect(route('cctp', LINEA, BASE, 'USDC').durationSeconds).toBe(21600);
  });

  it('across: no minimum of its own, the floor is the relayer fee (its gas on the destination): cents on rollups', () => {
    // docs.across.to/introduction/fees: the fee covers "Gas on both chains" ...; "Gas is roughly fixed per transfer, so
    // the fee is a larger share of a small transfer". Relayer gas to Arbitrum = 1 × $0.15 = 150,000 units;
    // 4 bps (LP + capital fee) = 400 ppm. Smallest input delivering one unit: ceil((1 + 150,000)·10^6 / 999,600) = 150,062
    const r = route('across', OP, ARB, 'USDC');
    expect(r).toMatchObject({ feePpm: 400, fixedFee: '0', destinationGasFee: '150000', minAmount: '150062', durationSeconds: 2 });
    expect(bridgeOut(150_062n, model(r))).toMatchObject({ ok: true, amountOut: 1n });
    // 1 USDC: 1,000,000 − ceil(1,000,000 · 0.0004) − 150,000 = 849,600
    expect(bridgeOut(1_000_000n, model(r))).toMatchObject({ ok: true, amountOut: 849_600n });
    // to Ethereum the relayer's gas is $6: floor 6,002,402 units (6 USDC and cents), as Across' limits follow gas
    expect(route('across', ARB, ETH, 'USDC').minAmount).toBe('6002402');
  });

  it('allbridge: 0.15 % to the source pool + 0.15 % to the destination pool; a relayer fee in the source chain\'s coin', () => {
    // docs-core.allbridge.io/product/how-does-allbridge-core-work/fees: "the user always pays 0.3% to the liquidity providers"
    const r = route('allbridge', ARB, BASE, 'USDC');
    expect(r).toMatchObject({ feePpm: 3000, fixedFee: '0', destinationGasFee: '0' });
    expect(r.minAmount).toBe('2'); // ceil(1·10^6 / 997,000) = 2: nothing but the percentage comes out of the amount
    expect(r.nativeFee).toBe(weiOfUSD(50n).toString()); // $0.50 relayer fee, "does not depend on the transfer amount"
  });

  it('debridge: 4 bps protocol fee + ≈4 bps taker margin + the solver\'s gas; a flat fee in the native coin', () => {
    // docs.debridge.finance .../fee-structure: "Variable protocol fee (4 bps)", "Taker margin (≈ 4 bps)", "Operating
    // expenses – the gas a solver spends", "Flat fee – a fixed amount in the source-chain native token"
    const r = route('debridge', ARB, OP, 'USDC');
    expect(r).toMatchObject({ feePpm: 800, destinationGasFee: '100000', durationSeconds: 30 });
    expect(r.minAmount).toBe('100082'); // ceil(100,001·10^6 / 999,200)
    expect(r.nativeFee).toBe('1000000000000000'); // $3.25 = 0.001 ETH
  });

  it('hop: AMM 0.01–0.04 % per swap (two swaps L2↔L2) + bonder fee 0.05–0.30 % + destination tx fee; no bonder fee from L1', () => {
    // docs.hop.exchange/basics/fees; developer-docs/fees/fee-calculation: "A bonder fee is required when sending L2->L2 or L2->L1"
    const r = route('hop', OP, ARB, 'USDC');
    expect(r).toMatchObject({ feePpm: 2000, destinationGasFee: '150000', durationSeconds: 60 }); // 2 × 4 + 12 bps
    expect(r.minAmount).toBe('150302'); // ceil(150,001·10^6 / 998,000)
    expect(route('hop', OP, ARB, 'ETH').feePpm).toBe(1300); // 2 × 4 + 5 bps
    expect(route('hop', ETH, OP, 'USDC')).toMatchObject({ feePpm: 400, durationSeconds: 600 }); // one AMM swap; ~10 min
  });

  it('mayan: Swift charges 3 bps; the driver\'s gas on the destination', () => {
    // docs.mayan.finance/architecture/swift: "Swift charges a fee of 3 basis points (0.03%)"; up to ~$1M a transfer
    const r = route('mayan', ARB, OP, 'USDC');
    expect(r).toMatchObject({ feePpm: 300, destinationGasFee: '100000', minAmount: '100032', maxAmount: '1000000000000' });
  });

  it('relay: $0.02 flat + the fill gas; no Relay fee on a token bridge', () => {
    // docs.relay.link/references/api/api_core_concepts/fees: "$0.02 flat fee — always included", "Destination (fill)
    // gas estimate — always included"; Relay fee 0.00 % for "Token Bridge" (the 3 bps stand for the solver's rebalancing)
    const r = route('relay', ARB, OP, 'USDC');
    expect(r).toMatchObject({ feePpm: 300, fixedFee: '20000', destinationGasFee: '100000', durationSeconds: 3 });
    expect(r.minAmount).toBe('120032'); // ceil(100,001·10^6 / 999,700) + 20,000
  });

  it('stargate: 6 bps, the LayerZero message fee in the native coin, no minimum', () => {
    // stargateprotocol.gitbook.io .../protocol-fees: "Each non-STG transfer ... will incur a 6 bps fee"; v2 fees: the gas
    // paid in the native token covers "LayerZero's execution fee" and the DVN fee
    const r = route('stargate', ARB, OP, 'USDC');
    expect(r).toMatchObject({ feePpm: 600, destinationGasFee: '0', minAmount: '2' }); // ceil(10^6 / 999,400)
    expect(r.nativeFee).toBe(weiOfUSD(50n).toString());
  });

  it('thorchain: at least 4 × the $1.00 minimum outbound fee', () => {
    // dev.thorchain.org/swap-guide/fees-and-wait-times: swap at least the largest of the outbound fees and "$1.00 (the
    // minimum outboundFee)", "multiplied by at least a 4x buffer"
    const r = route('thorchain', ETH, BASE, 'USDC');
    expect(r).toMatchObject({ feePpm: 1500, destinationGasFee: '200000', minAmount: '4000000' });
  });

  it('canonical bridges: free, no minimum, deposits in minutes, withdrawals as each documents them', () => {
    const deposits: Array<[string, number, string]> = [
      ['arbitrum', ARB, 'ETH'], ['optimism', OP, 'ETH'], ['base', BASE, 'ETH'], ['polygon', POLYGON, 'DAI'], ['zksync', ZKSYNC, 'ETH'],
      ['scroll', SCROLL, 'ETH'], ['linea', LINEA, 'ETH'],
    ];
    for (const [bridge, chain, coinKey] of deposits) {
      // no fee, no destination gas: one raw unit arrives whole (the invented $0.01 floor is gone)
      expect([bridge, route(bridge, ETH, chain, coinKey)]).toEqual([bridge, expect.objectContaining({ feePpm: 0, fixedFee: '0', destinationGasFee: '0', minAmount: '1' })]);
    }
    expect(route('arbitrum', ETH, ARB, 'ETH').durationSeconds).toBe(600); // "around 10 minutes"
    expect(route('optimism', ETH, OP, 'ETH').durationSeconds).toBe(180); // "usually completed within 1-3 minutes"
    expect(route('polygon', ETH, POLYGON, 'DAI').durationSeconds).toBe(480); // "deposits within 7-8 minutes"
    const withdrawals: Array<[string, number, string, number]> = [
      ['arbitrum', ARB, 'ETH', 604800], ['optimism', OP, 'ETH', 604800], ['base', BASE, 'ETH', 604800], // 7-day challenge
      ['polygon', POLYGON, 'DAI', 1800], // "withdrawals within 30 minutes"
      ['zksync', ZKSYNC, 'ETH', 86400], // "withdrawals in ZKsync Era take 24 hours"
      ['scroll', SCROLL, 'ETH', 3600], // a batch "takes about 50 minutes to finalize on L1", then the claim
      ['linea', LINEA, 'ETH', 21600], // hard finality ~6 to 32 hours (Circle)
      ['gnosis', GNOSIS, 'WETH', 1200], // "bridging assets takes about 20 minutes"
    ];
    for (const [bridge, chain, coinKey, seconds] of withdrawals) {
      expect([bridge, route(bridge, chain, ETH, coinKey).durationSeconds]).toEqual([bridge, seconds]);
    }
    // Gnosis: the xDai bridge (DAI ↔ xDAI) has "Minimum Transfer 0.005 Dai / 10 xDai", "Max Single Deposit 9,999,999"
    // and no transfer fee; the Omnibridge charges 0 % to Gnosis and 0.1 % from Gnosis
    expect(route('gnosis', ETH, GNOSIS, 'DAI')).toMatchObject({ feePpm: 0, minAmount: '5000000000000000', maxAmount: '9999999000000000000000000' });
    expect(route('gnosis', GNOSIS, ETH, 'DAI')).toMatchObject({ feePpm: 0, minAmount: '10000000000000000000' });
    expect(route('gnosis', GNOSIS, ETH, 'WETH')).toMatchObject({ feePpm: 1000, minAmount: '2' });
    expect(route('gnosis', ETH, GNOSIS, 'WETH')).toMatchObject({ feePpm: 0, minAmount: '1' });
  });
});

describe('the minimum of every route', () => {
  it('is the documented floor, else the smallest input that delivers one unit of the destination token', () => {
    const floors = new Map(liquidity.bridges.map((b) => [b.key, b]));
    const problems: string[] = [];
    for (const r of routes) {
      const where = `${r.bridge} ${r.fromChainId}→${r.toChainId} ${r.coinKey}`;
      const m = model(r);
      const [dFrom, dTo] = [decimals(r.fromChainId, r.fromToken), decimals(r.toChainId, r.toToken)];
      const unit = dFrom > dTo ? 10n ** BigInt(dFrom - dTo) : 1n;
      const delivering = ceil((unit + m.destinationGasFee) * 1_000_000n, 1_000_000n - m.feePpm) + m.fixedFee;
      // the smallest delivering input delivers one unit (after the rescale to the destination's decimals); one less does not
      const at = bridgeOut(delivering, { ...m, minAmount: 0n });
      if (!at.ok || at.amountOut < unit) problems.push(`${where}: ${delivering} does not deliver a unit`);
      const below = bridgeOut(delivering - 1n, { ...m, minAmount: 0n });
      if (below.ok && below.amountOut >= unit) problems.push(`${where}: ${delivering - 1n} already delivers`);
      // a documented floor, where there is one, is the only other thing that can raise the minimum
      const params = floors.get(r.bridge)!;
      const documented = params.minUSDFrom?.[String(r.fromChainId)]?.[r.coinKey] ?? params.minUSD;
      if (documented === '0' ? m.minAmount !== delivering : m.minAmount < delivering) problems.push(`${where}: minAmount ${m.minAmount}`);
    }
    expect(problems).toEqual([]);
  });

  it('names no invented USD floor: only THORChain and Gnosis\' xDai bridge document one', () => {
    const withFloor = liquidity.bridges.filter((b) => b.minUSD !== '0' || b.minUSDFrom).map((b) => b.key);
    expect(withFloor.sort()).toEqual(['gnosis', 'thorchain']);
  });
});

describe('small amounts through the real app', () => {
  const { t, contract } = useAppAndContract();

  it('GET /v1/quote: 0.1 USDC from OP Mainnet to Arbitrum routes (CCTP carries it whole)', async () => {
    const res = await request(t.app).get('/v1/quote').query({ fromChain: 'opt', toChain: 'arb', fromToken: 'USDC', toToken: 'USDC', fromAmount: '100000', fromAddress: WALLET });
    contract.expectResponse('getQuote', res);
    expect(res.status).toBe(200);
    expect(res.body.action).toMatchObject({ fromChainId: OP, toChainId: ARB, fromAmount: '100000' });
    expect(res.body.action.fromToken.address).toBe(OP_USDC);
    expect(res.body.action.toToken.address).toBe(ARB_USDC);
    // the cheapest: a standard CCTP transfer, free of fees, so the whole 0.1 USDC arrives
    const cross = res.body.includedSteps.find((s: { type: string }) => s.type === 'cross');
    expect(cross.tool).toBe('cctp');
    expect(res.body.estimate.toAmount).toBe('100000');
  });

  it('POST /v1/quote/contractCalls: a call funded by 0.0001 WETH on Base, paid from Arbitrum, routes', async () => {
    // Aave's supply(...) call data of the contract-calls suite; the call takes 0.0001 WETH
    const SUPPLY = '0x617ba037000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda029130000000000000000000000000000000000000000000000000000000000985be8000000000000000000000000552008c0f6870c2f77e5cc1d2eb9bdff03e30ea90000000000000000000000000000000000000000000000000000000000000000';
    const amount = '100000000000000'; // 0.0001 WETH = $0.325
    const res = await request(t.app).post('/v1/quote/contractCalls').send({
      fromChain: ARB, fromToken: ARB_WETH, fromAddress: WALLET, toChain: BASE, toToken: BASE_WETH, toAmount: amount,
      contractCalls: [{ fromAmount: amount, fromTokenAddress: BASE_WETH, toContractAddress: '0xA238Dd80C259a72e81d7e4664a9801593F98d1c5', toContractCallData: SUPPLY, toContractGasLimit: '300000' }],
    });
    contract.expectResponse('postContractCallsQuote', res);
    expect(res.status).toBe(200);
    expect(BigInt(res.body.estimate.toAmount)).toBeGreaterThanOrEqual(BigInt(amount));
    // every bridge between Arbitrum and Base refused it before issue 35 (invented minimums of $1–10); now the cheapest
    // carries it (through USDC over CCTP, which is free, with a swap at each end, on these reference pools)
    expect(res.body.includedSteps.some((s: { type: string }) => s.type === 'cross')).toBe(true);
    // what it costs above the 0.0001 WETH stays in cents: less than $0.25 (7.7·10^13 wei) on top
    expect(BigInt(res.body.estimate.fromAmount) - BigInt(amount)).toBeLessThan(77_000_000_000_000n);
  });
});
