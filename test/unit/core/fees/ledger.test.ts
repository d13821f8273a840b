import { DEFAULT_DATA_DIR } from '../../../../src/config';
import { loadCatalog } from '../../../../src/files/catalog';
import { ErrorCode, NotFoundError } from '../../../../src/core/errors';
import { integratorFeeReport, type IntegratorFeeReport } from '../../../../src/core/fees/balances';
import { DEFAULT_LEDGER_FILE } from '../../../../src/config';
import { FeeLedgerDataError, InMemoryFeeLedger, parseLedger } from '../../../../src/core/fees/ledger';
import { loadFeeLedger } from '../../../../src/files/feeLedger';
import { integratorAccount } from '../../../../src/core/transactions/ids';
import { bookingAddress } from '../../../../src/core/fees/booking';

const catalog = loadCatalog(DEFAULT_DATA_DIR);
const ledger = loadFeeLedger(DEFAULT_LEDGER_FILE, catalog);

const ARB_USDC = '0xaf88d065e77c8cC2239327C5EDb3A432268e5831';
const NATIVE = '0x0000000000000000000000000000000000000000';

describe('the seeded fee ledger (data/integrators/ledger.json)', () => {
  it('loads every integrator with catalog tokens and bigint amounts', () => {
    expect(ledger.integratorIds).toEqual(['example-dapp', 'acme', 'swapboard', 'fresh-partner']);
    const dapp = ledger.get('example-dapp')!;
    expect(dapp.feeWallet).toBe('0xD6345B798ADA3A1a36E85424003D1ff14e3883b7');
    expect(dapp.balances).toHaveLength(10); // 2 on Ethereum, 1 on Optimism, 2 on Polygon, 2 on Base, 3 on Arbitrum
    const usdc = dapp.balances.find((b) => b.chainId === 42161 && b.token.address === ARB_USDC)!;
    expect(usdc.amount).toBe(125_430_000n);
    expect(usdc.token).toBe(catalog.findToken(42161, 'USDC'));
    expect(ledger.get('acme')!.feeWallet).toBeUndefined();
    expect(ledger.get('fresh-partner')!.balances).toEqual([]);
  });

  it('records as fee wallets the addresses the fee collector books the seed integrators under', () => {
    for (const integratorId of ledger.integratorIds) {
      const wallet = ledger.get(integratorId)!.feeWallet;
      if (wallet !== undefined) expect(wallet).toBe(integratorAccount(integratorId));
    }
    expect(ledger.get('swapboard')!.feeWallet).toBe('0x5DFCcd230708762c06E655D08FD25c592593fD7c');
  });

  it('knows integrators by their exact id', async () => {
    expect(await ledger.integrator('Example-Dapp')).toBeUndefined();
    expect(await ledger.integrator('nobody')).toBeUndefined();
    expect(await ledger.integrator('example-dapp')).toBe(ledger.get('example-dapp'));
  });

  it('tells the registered fee wallet synchronously (transactions book fees under it), none for unknown ids', () => {
    expect(ledger.feeWallet('example-dapp')).toBe('0xD6345B798ADA3A1a36E85424003D1ff14e3883b7');
    expect(ledger.feeWallet('acme')).toBeUndefined();
    expect(ledger.feeWallet('nobody')).toBeUndefined();
  });
});

describe('integratorFeeReport', () => {
  let report: IntegratorFeeReport;
  beforeAll(async () => {
    report = await integratorFeeReport(ledger, catalog, 'example-dapp');
  });

  it('lists every supported chain by ascending id, with an empty list where nothing was collected', () => {
    const ids = catalog.listChains().map((c) => c.id).sort((a, b) => a - b);
    expect(report.feeBalances.map((c) => c.chainId)).toEqual(ids);
    expect(report.feeBalances).toHaveLength(20);
    const withFees = report.feeBalances.filter((c) => c.tokenBalances.length > 0).map((c) => c.chainId);
    expect(withFees).toEqual([1, 10, 137, 8453, 42161]);
    expect(report.feeBalances.find((c) => c.chainId === 1151111081099710)!.tokenBalances).toEqual([]);
  });

  it('orders a chain by symbol and prices each balance at the reference price (worked by hand)', () => {
    const arb = report.feeBalances.find((c) => c.chainId === 42161)!.tokenBalances;
    expect(arb.map((b) => b.token.symbol)).toEqual(['ETH', 'USDC', 'USDT']);
    // ETH: 41,500,000,000,000,000 wei = 0.0415 ETH · 3250.00 = 134.875 USD
    expect(arb[0]).toMatchObject({ amount: 41_500_000_000_000_000n, amountUSD: 134.875 });
    // USDC: 125,430,000 / 10^6 = 125.43 · 1.00 = 125.43 USD
    expect(arb[1]).toMatchObject({ amount: 125_430_000n, amountUSD: 125.43 });
    // POL on Polygon: 86 · 0.24 = 20.64 USD
    const pol = report.feeBalances.find((c) => c.chainId === 137)!.tokenBalances[0];
    expect(pol).toMatchObject({ amount: 86n * 10n ** 18n, amountUSD: 20.64 });
  });

  it('prices each balance at the catalog in use: in chain mode the chains\' prices, as quotes are', async () => {
    const repriced = catalog.withPrices(new Map([['ETH', '4000.00']]));
    const now = await integratorFeeReport(ledger, repriced, 'example-dapp');
    const arb = now.feeBalances.find((c) => c.chainId === 42161)!.tokenBalances;
    // ETH: 0.0415 ETH · 4000.00 = 166 USD (the ledger was loaded at 3250.00)
    expect(arb[0]).toMatchObject({ amount: 41_500_000_000_000_000n, amountUSD: 166 });
    expect(arb[0].token).toBe(repriced.findToken(42161, NATIVE));
    expect(arb[0].token.priceUSD).toBe('4000.00');
    // a coin the new prices leave alone keeps its price
    expect(arb[1]).toMatchObject({ amount: 125_430_000n, amountUSD: 125.43 });
  });

  it('gives a known integrator without fees every chain, all empty', async () => {
    const fresh = await integratorFeeReport(ledger, catalog, 'fresh-partner');
    expect(fresh.feeBalances).toHaveLength(20);
    expect(fresh.feeBalances.every((c) => c.tokenBalances.length === 0)).toBe(true);
  });

  it('refuses an unknown integrator with a not-found (code 1003) naming it', async () => {
    const error = await integratorFeeReport(ledger, catalog, 'nobody').then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).code).toBe(ErrorCode.NotFoundError);
    expect((error as Error).message).toContain('"nobody"');
  });

  it('has no fallback chains on the seeded ledger', () => {
    expect(report.fallbackChains).toEqual([]);
  });

  it('reads any FeeLedger (an in-memory fixture here)', async () => {
    const usdt = catalog.findToken(10, 'USDT')!;
    const fixture = new InMemoryFeeLedger([{ integratorId: 'fixture', balances: [{ chainId: 10, token: usdt, amount: 2_500_000n }] }]);
    const opt = (await integratorFeeReport(fixture, catalog, 'fixture')).feeBalances.find((c) => c.chainId === 10)!;
    expect(opt.tokenBalances).toEqual([{ token: usdt, amount: 2_500_000n, amountUSD: 2.5 }]);
  });
});

describe('parseLedger refuses a bad seed file, naming the entry', () => {
  const file = (integrators: unknown[]) => ({ schemaVersion: 1, integrators });
  const one = (patch: object, balances: unknown = { 42161: [{ token: ARB_USDC, symbol: 'USDC', amount: '1' }] }) =>
    file([{ integratorId: 'x', balances, ...patch }]);

  it('accepts a minimal file', () => {
    expect(parseLedger(one({}), catalog)[0].balances[0].amount).toBe(1n);
  });

  it.each([
    ['a wrong schemaVersion', { schemaVersion: 2, integrators: [] }, /schemaVersion 2/],
    ['an id outside the contract pattern', one({ integratorId: 'bad id' }), /integratorId must match/],
    ['an id listed twice', file([{ integratorId: 'x', balances: {} }, { integratorId: 'x', balances: {} }]), /listed twice/],
    ['a fee wallet that is not checksummed', one({ feeWallet: '0xfb617e1871c0dec8b242a0a91994a1dfc278c897' }), /feeWallet must be an EIP-55/],
    ['a chain outside the catalog', one({}, { 999: [] }), /chain 999 is not in the catalog/],
    ['a non-EVM chain', one({}, { 1151111081099710: [] }), /not an EVM chain/],
    ['a token outside the catalog', one({}, { 42161: [{ token: '0x1111111111111111111111111111111111111111', amount: '1' }] }), /not a catalog token address/],
    ['a token address not written as in the catalog', one({}, { 42161: [{ token: ARB_USDC.toLowerCase(), amount: '1' }] }), /not a catalog token address/],
    ['a symbol that does not match the address', one({}, { 42161: [{ token: NATIVE, symbol: 'WETH', amount: '1' }] }), /is ETH, not WETH/],
    ['a zero amount', one({}, { 42161: [{ token: ARB_USDC, amount: '0' }] }), /positive integer string/],
    ['a decimal amount', one({}, { 42161: [{ token: ARB_USDC, amount: '1.5' }] }), /positive integer string/],
    ['a token listed twice on a chain', one({}, { 42161: [{ token: ARB_USDC, amount: '1' }, { token: ARB_USDC, amount: '2' }] }), /listed twice/],
  ])('%s', (_name, data, message) => {
    expect(() => parseLedger(data, catalog)).toThrow(FeeLedgerDataError);
    expect(() => parseLedger(data, catalog)).toThrow(message);
  });
});

describe('bookingAddress', () => {
  it('is the fee wallet when the ledger records one, integratorAccount(id) otherwise', () => {
    const wallet = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
    const fixture = new InMemoryFeeLedger([{ integratorId: 'walleted', feeWallet: wallet, balances: [] }]);
    expect(bookingAddress(fixture, 'walleted')).toBe(wallet);
    expect(bookingAddress(fixture, 'acme')).toBe(integratorAccount('acme'));
    expect(bookingAddress(ledger, 'acme')).toBe(integratorAccount('acme'));
  });
});
