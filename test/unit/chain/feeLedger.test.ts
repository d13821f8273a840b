/**
 * ChainFeeLedger against small JSON-RPC servers that answer the fee collector's getTokenBalance from a table
 * (and record every HTTP request), through the service's own chain providers (src/chain/access.ts makeChainProvider).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JsonRpcProvider } from 'ethers';
import { DEFAULT_DATA_DIR } from '../../../src/config';
import { makeChainProvider } from '../../../src/chain/rpc';
import { ChainFeeLedger } from '../../../src/chain/feeLedger';
import { loadCatalog } from '../../../src/files/catalog';
import { integratorFeeReport } from '../../../src/core/fees/balances';
import { NotFoundError } from '../../../src/core/errors';
import { loadFeeLedger } from '../../../src/files/feeLedger';
import { DEFAULT_LEDGER_FILE } from '../../../src/config';
import { feeCollectorInterface } from '../../../src/core/transactions/abi';
import { integratorAccount } from '../../../src/core/transactions/ids';

const catalog = loadCatalog(DEFAULT_DATA_DIR);
const seed = loadFeeLedger(DEFAULT_LEDGER_FILE, catalog);
const NATIVE = '0x0000000000000000000000000000000000000000';
const ARB_USDC = '0xaf88d065e77c8cC2239327C5EDb3A432268e5831';
const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const DAPP_WALLET = '0xD6345B798ADA3A1a36E85424003D1ff14e3883b7';
const FEE_COLLECTOR = '0xbD6C7B0d2f68c2b7805d88388319cfB6EcB50eA9';

/** A fee collector on a JSON-RPC server: balances[`${holder}:${token}`] (lower case), every request body kept. */
class FakeChain {
  readonly balances = new Map<string, bigint>();
  readonly requests: unknown[] = [];
  mode: 'ok' | 'rpc-error' | 'no-code' = 'ok';
  private server!: http.Server;
  url = '';

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const parsed = JSON.parse(body) as unknown;
        this.requests.push(parsed);
        const answer = (p: { id: number; method: string; params: [{ to: string; data: string }] }) => {
          if (this.mode === 'rpc-error') return { jsonrpc: '2.0', id: p.id, error: { code: -32000, message: 'header not found' } };
          if (this.mode === 'no-code') return { jsonrpc: '2.0', id: p.id, result: '0x' };
          const [holder, token] = feeCollectorInterface.decodeFunctionData('getTokenBalance', p.params[0].data) as unknown as [string, string];
          const amount = this.balances.get(`${holder}:${token}`.toLowerCase()) ?? 0n;
          return { jsonrpc: '2.0', id: p.id, result: feeCollectorInterface.encodeFunctionResult('getTokenBalance', [amount]) };
        };
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(Array.isArray(parsed) ? parsed.map(answer) : answer(parsed as never)));
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  set(holder: string, token: string, amount: bigint): void {
    this.balances.set(`${holder}:${token}`.toLowerCase(), amount);
  }

  /** eth_call requests of the recorded HTTP requests, as batches. */
  batches(): { params: [{ to: string; data: string }, string] }[][] {
    return this.requests.map((r) => (Array.isArray(r) ? r : [r]) as never);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const arb = new FakeChain();
const base = new FakeChain();
const providers: JsonRpcProvider[] = [];
let ledger: ChainFeeLedger;
let deadPort: number;

beforeAll(async () => {
  await Promise.all([arb.start(), base.start()]);
  // a port nobody listens on: taken, then released
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  deadPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  ledger = new ChainFeeLedger(seed, [endpoint(42161, arb.url), endpoint(8453, base.url)], catalog);
});

afterAll(async () => {
  for (const p of providers) p.destroy();
  await Promise.all([arb.stop(), base.stop()]);
});

beforeEach(() => {
  for (const c of [arb, base]) {
    c.balances.clear();
    c.requests.length = 0;
    c.mode = 'ok';
  }
});

function endpoint(chainId: number, url: string) {
  // no fake chain here hangs (a dead port refuses at once): the timeout only needs to outlast a loaded machine, where
  // 1 s once failed the first read of the full test run
  const provider = makeChainProvider(url, chainId, 5000);
  providers.push(provider);
  return { chainId, feeCollector: FEE_COLLECTOR, provider };
}

const chainOf = (fees: { balances: readonly { chainId: number; token: { symbol: string }; amount: bigint }[] }, chainId: number) =>
  fees.balances.filter((b) => b.chainId === chainId).map((b) => [b.token.symbol, b.amount]);

describe('ChainFeeLedger', () => {
  it('reads every catalog token of each connected chain in JSON-RPC batches of 100, at the fee wallet, the native coin as address 0', async () => {
    arb.set(DAPP_WALLET, ARB_USDC, 7_000_000n);
    arb.set(DAPP_WALLET, NATIVE, 5n);
    const fees = (await ledger.integrator('example-dapp'))!;
    for (const [chain, chainId] of [[arb, 42161], [base, 8453]] as const) {
      // Arbitrum 300 tokens, Base 403: 3 and 5 batches, each full but the last
      const count = catalog.tokensOf(chainId).length;
      expect(chain.requests).toHaveLength(Math.ceil(count / 100));
      expect(chain.batches().map((b) => b.length)).toEqual(chain.batches().map((_, k) => Math.min(100, count - 100 * k)));
      const asked = chain.batches().flat().map((call) => {
        expect(call.params[0].to).toBe(FEE_COLLECTOR);
        expect(call.params[1]).toBe('latest');
        const [holder, token] = feeCollectorInterface.decodeFunctionData('getTokenBalance', call.params[0].data);
        expect(holder).toBe(DAPP_WALLET);
        return String(token);
      });
      const expected = catalog.tokensOf(chainId).map((t) => (t.symbol === 'ETH' ? NATIVE : t.address));
      expect(asked).toEqual(expected);
    }
    expect(fees.feeWallet).toBe(DAPP_WALLET);
    expect(fees.fallbackChains).toEqual([]);
    // the chains' figures replace the seeded ones there (125.43 USDC, 0.0415 ETH...; Base's 97.04 USDC is now 0)
    expect(chainOf(fees, 42161)).toEqual([['ETH', 5n], ['USDC', 7_000_000n]]);
    expect(chainOf(fees, 8453)).toEqual([]);
    // chains not connected keep the seeded figures
    expect(chainOf(fees, 10)).toEqual([['USDC', 53_120_000n]]);
    expect(fees.balances.filter((b) => b.chainId === 1)).toEqual(seed.get('example-dapp')!.balances.filter((b) => b.chainId === 1));
  });

  it('reads an integrator without a fee wallet at integratorAccount(id)', async () => {
    base.set(integratorAccount('acme'), BASE_USDC, 42n);
    const fees = (await ledger.integrator('acme'))!;
    expect(fees.feeWallet).toBeUndefined();
    expect(chainOf(fees, 8453)).toEqual([['USDC', 42n]]);
    const [holder] = feeCollectorInterface.decodeFunctionData('getTokenBalance', base.batches()[0][0].params[0].data);
    expect(holder).toBe(integratorAccount('acme'));
  });

  it('keeps a seeded integrator known when every on-chain balance is zero', async () => {
    const fees = await ledger.integrator('swapboard');
    expect(fees).toBeDefined();
    expect(chainOf(fees!, 42161)).toEqual([]); // its seeded 21,000 WBTC units were withdrawn
    expect(chainOf(fees!, 59144)).toEqual([['USDC', 8_990_000n]]); // Linea: not connected, seeded
  });

  it('knows an id outside the seeded ledger once it has a non-zero balance on a connected chain, and only then', async () => {
    expect(await ledger.integrator('newcomer')).toBeUndefined();
    await expect(integratorFeeReport(ledger, catalog, 'newcomer')).rejects.toThrow(NotFoundError);
    arb.set(integratorAccount('newcomer'), ARB_USDC, 1_500n);
    const report = await integratorFeeReport(ledger, catalog, 'newcomer');
    expect(report.feeBalances).toHaveLength(20);
    expect(report.feeBalances.find((c) => c.chainId === 42161)!.tokenBalances.map((b) => [b.token.symbol, b.amount])).toEqual([['USDC', 1_500n]]);
    expect(report.feeBalances.filter((c) => c.tokenBalances.length > 0)).toHaveLength(1);
  });

  it('gives an unreachable chain the seeded figures and names it in fallbackChains, without failing', async () => {
    const down = new ChainFeeLedger(seed, [endpoint(42161, `http://127.0.0.1:${deadPort}`), endpoint(8453, base.url)], catalog);
    base.set(DAPP_WALLET, BASE_USDC, 9n);
    const fees = (await down.integrator('example-dapp'))!;
    expect(fees.fallbackChains).toEqual([42161]);
    expect(chainOf(fees, 42161)).toEqual([['ETH', 41_500_000_000_000_000n], ['USDC', 125_430_000n], ['USDT', 20_500_000n]]);
    expect(chainOf(fees, 8453)).toEqual([['USDC', 9n]]);
    const report = await integratorFeeReport(down, catalog, 'example-dapp');
    expect(report.fallbackChains).toEqual([42161]);
    // an id known only on chain, with every chain down and nothing read before: unknown
    const allDown = new ChainFeeLedger(seed, [endpoint(42161, `http://127.0.0.1:${deadPort}`)], catalog);
    expect(await allDown.integrator('newcomer')).toBeUndefined();
  });

  it('falls back to the last figures read in this process when a chain stops answering (error answers, no contract code)', async () => {
    const own = new ChainFeeLedger(seed, [endpoint(42161, arb.url), endpoint(8453, base.url)], catalog);
    arb.set(integratorAccount('newcomer'), ARB_USDC, 300n);
    arb.set(DAPP_WALLET, ARB_USDC, 11n);
    expect(chainOf((await own.integrator('newcomer'))!, 42161)).toEqual([['USDC', 300n]]);
    expect(chainOf((await own.integrator('example-dapp'))!, 42161)).toEqual([['USDC', 11n]]);
    arb.balances.clear();
    for (const mode of ['rpc-error', 'no-code'] as const) {
      arb.mode = mode;
      const dapp = (await own.integrator('example-dapp'))!;
      expect(dapp.fallbackChains).toEqual([42161]);
      expect(chainOf(dapp, 42161)).toEqual([['USDC', 11n]]); // not the seeded 125.43 USDC
      const newcomer = await own.integrator('newcomer');
      expect(newcomer?.fallbackChains).toEqual([42161]);
      expect(chainOf(newcomer!, 42161)).toEqual([['USDC', 300n]]);
    }
    arb.mode = 'ok';
    // the chain answers again: current figures (zero), the newcomer without any is unknown again
    expect(chainOf((await own.integrator('example-dapp'))!, 42161)).toEqual([]);
    expect(await own.integrator('newcomer')).toBeUndefined();
  });

  it('takes the fee wallet from the seeded ledger, synchronously', () => {
    expect(ledger.feeWallet('example-dapp')).toBe(DAPP_WALLET);
    expect(ledger.feeWallet('acme')).toBeUndefined();
  });
});
