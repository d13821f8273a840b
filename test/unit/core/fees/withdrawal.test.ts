import { AbiCoder, id } from 'ethers';
import { DEFAULT_DATA_DIR, DEFAULT_SNAPSHOT_DIR } from '../../../../src/config';
import { loadCatalog } from '../../../../src/files/catalog';
import { loadRouters } from '../../../../src/files/routers';
import { InvalidRequestError, NotFoundError } from '../../../../src/core/errors';
import { loadFeeLedger } from '../../../../src/files/feeLedger';
import { DEFAULT_LEDGER_FILE } from '../../../../src/config';
import { buildFeeWithdrawal, type WithdrawalRequest } from '../../../../src/core/fees/withdrawal';
import { loadSnapshot } from '../../../../src/files/snapshot';

const catalog = loadCatalog(DEFAULT_DATA_DIR);
const snapshot = loadSnapshot(DEFAULT_SNAPSHOT_DIR, catalog);
const routers = loadRouters(DEFAULT_DATA_DIR, catalog);
const context = { ledger: loadFeeLedger(DEFAULT_LEDGER_FILE, catalog), catalog, routers, gas: (chainId: number) => snapshot.gas.get(chainId) };
const withdraw = (request: WithdrawalRequest) => buildFeeWithdrawal(context, request);

const ARB_USDC = '0xaf88d065e77c8cC2239327C5EDb3A432268e5831';
const ARB_USDT = '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9';
const NATIVE = '0x0000000000000000000000000000000000000000';
const FEE_WALLET = '0xD6345B798ADA3A1a36E85424003D1ff14e3883b7';

/** One 32-byte ABI word. */
const word = (hex: string) => hex.replace(/^0x/, '').toLowerCase().padStart(64, '0');

describe('fee collector selectors', () => {
  it('are the first 4 bytes of keccak256 of the signatures', () => {
    expect(id('batchWithdrawIntegratorFees(address[])').slice(0, 10)).toBe('0xe5d64766');
    expect(id('withdrawIntegratorFees(address)').slice(0, 10)).toBe('0xbd0b380b');
  });
});

describe('buildFeeWithdrawal', () => {
  it('withdraws several tokens with batchWithdrawIntegratorFees(address[]), laid out by hand', async () => {
    const w = await withdraw({ integratorId: 'example-dapp', chain: '42161', tokenAddresses: [ARB_USDC, NATIVE] });
    expect(w.functionName).toBe('batchWithdrawIntegratorFees');
    expect(w.tokens.map((t) => t.symbol)).toEqual(['USDC', 'ETH']);
    const tx = w.transactionRequest;
    // selector, then the head: the offset of the dynamic array (0x20, right after the head's one word),
    // then the tail: the array length (2) and one word per address, left-padded.
    const expected = '0xe5d64766' + word('20') + word('2') + word(ARB_USDC) + word(NATIVE);
    expect(tx.data).toBe(expected);
    // the same bytes as ethers' AbiCoder; also the example of the contract (openapi.yaml)
    expect(tx.data.slice(10)).toBe(AbiCoder.defaultAbiCoder().encode(['address[]'], [[ARB_USDC, NATIVE]]).slice(2));
    expect(tx.data).toBe(
      '0xe5d6476600000000000000000000000000000000000000000000000000000000000000200000000000000000000000000000000000000000000000000000000000000002000000000000000000000000af88d065e77c8cc2239327c5edb3a432268e58310000000000000000000000000000000000000000000000000000000000000000',
    );
    expect(tx).toMatchObject({ chainId: 42161, to: routers.feeCollectorOf(42161), from: FEE_WALLET, value: 0n });
    // gas price of Arbitrum in the snapshot (0.02 gwei); limit = ceil((30,000 + 2 · 45,000) · 1.25) = 150,000
    expect(tx.gasPrice).toBe(20_000_000n);
    expect(tx.gasLimit).toBe(150_000n);
  });

  it('withdraws every token with a balance when none is named, by symbol', async () => {
    const w = await withdraw({ integratorId: 'example-dapp', chain: 'arb' });
    expect(w.tokens.map((t) => t.address)).toEqual([NATIVE, ARB_USDC, ARB_USDT]);
    expect(w.transactionRequest.data).toBe('0xe5d64766' + word('20') + word('3') + word(NATIVE) + word(ARB_USDC) + word(ARB_USDT));
    // ceil((30,000 + 3 · 45,000) · 1.25) = 206,250
    expect(w.transactionRequest.gasLimit).toBe(206_250n);
  });

  it('withdraws a single token with withdrawIntegratorFees(address)', async () => {
    const w = await withdraw({ integratorId: 'example-dapp', chain: 'opt' });
    expect(w.functionName).toBe('withdrawIntegratorFees');
    expect(w.transactionRequest.data).toBe('0xbd0b380b' + word('0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85'));
    expect(w.transactionRequest.gasLimit).toBe(93_750n); // ceil(75,000 · 1.25)
  });

  it('matches token addresses in any letter case, once each, and leaves out those without a balance', async () => {
    const w = await withdraw({
      integratorId: 'example-dapp',
      chain: 42161,
      tokenAddresses: [ARB_USDT.toLowerCase(), ARB_USDT.toUpperCase().replace('0X', '0x'), '0x82aF49447D8a07e3bd95BD0d56f35241523fBab1'],
    });
    expect(w.tokens.map((t) => t.symbol)).toEqual(['USDT']);
    expect(w.transactionRequest.data).toBe('0xbd0b380b' + word(ARB_USDT));
  });

  it('sends no from when the ledger records no fee wallet', async () => {
    const tx = (await withdraw({ integratorId: 'acme', chain: 'bsc' })).transactionRequest;
    expect(tx.from).toBeUndefined();
    expect(tx.to).toBe(routers.feeCollectorOf(56));
  });

  it.each([
    ['tokens without a balance', { integratorId: 'example-dapp', chain: 'arb', tokenAddresses: ['0x82aF49447D8a07e3bd95BD0d56f35241523fBab1'] }, /no collected fees on Arbitrum \(42161\) in 0x82af.*; it has fees in ETH/],
    ['a chain without fees', { integratorId: 'acme', chain: 'opt' }, /"acme" has no collected fees on OP Mainnet \(10\)/],
    ['an integrator without any fees', { integratorId: 'fresh-partner', chain: 'eth' }, /no collected fees/],
    ['an unknown chain', { integratorId: 'example-dapp', chain: 'nochain' }, /chainId "nochain" is not a supported chain/],
    ['a non-EVM chain', { integratorId: 'example-dapp', chain: 'sol' }, /EVM chains only, and Solana .* is a SVM chain/],
  ])('answers 400 (code 1011) for %s', async (_name, request, message) => {
    await expect(withdraw(request)).rejects.toThrow(InvalidRequestError);
    await expect(withdraw(request)).rejects.toThrow(message);
  });

  it('answers 404 (code 1003) for an unknown integrator', async () => {
    await expect(withdraw({ integratorId: 'nobody', chain: 'arb' })).rejects.toThrow(NotFoundError);
    await expect(withdraw({ integratorId: 'nobody', chain: 'arb' })).rejects.toThrow(/"nobody"/);
  });

  it('checks the chain before reading the ledger (no ledger read for a bad chain)', async () => {
    let reads = 0;
    const counting = { ...context, ledger: { integrator: async (id: string) => { reads++; return context.ledger.get(id); }, feeWallet: () => undefined } };
    await expect(buildFeeWithdrawal(counting, { integratorId: 'example-dapp', chain: 'sol' })).rejects.toThrow(InvalidRequestError);
    await expect(buildFeeWithdrawal(counting, { integratorId: 'example-dapp', chain: 'nochain' })).rejects.toThrow(InvalidRequestError);
    expect(reads).toBe(0);
    await buildFeeWithdrawal(counting, { integratorId: 'example-dapp', chain: 'arb' });
    expect(reads).toBe(1);
  });
});
