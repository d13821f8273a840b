import { gasPricesOf, allGasPrices } from '../../../../src/core/gas/prices';
import { loadCatalog } from '../../../../src/files/catalog';
import type { ChainGas } from '../../../../src/core/liquidity/snapshot';
import path from 'node:path';

const gas = (chainId: number, gasPriceWei: bigint, updatedAt?: number): ChainGas => ({
  chainId, gasPriceWei, nativePriceUSD: 3250, blockTimeSeconds: 12, finalitySeconds: 768, ...(updatedAt !== undefined ? { updatedAt } : {}),
});

describe('gasPricesOf', () => {
  it('adds 10 % and 25 % to the quoted price (18 gwei: 19.8 and 22.5 gwei)', () => {
    expect(gasPricesOf(gas(1, 18_000_000_000n), '2026-11-21')).toEqual({
      chainId: 1, standard: 18_000_000_000n, fast: 19_800_000_000n, fastest: 22_500_000_000n, lastUpdated: Date.UTC(2026, 10, 21),
    });
  });

  it('rounds the margins up (7 wei: 7.7 → 8, 8.75 → 9) and takes the time of the chain read when there is one', () => {
    expect(gasPricesOf(gas(42161, 7n, 1_795_000_000_123), '2026-11-21')).toMatchObject({ standard: 7n, fast: 8n, fastest: 9n, lastUpdated: 1_795_000_000_123 });
  });

  it('lists the EVM chains of the catalog that have a gas price, and no other', () => {
    const catalog = loadCatalog(path.join(__dirname, '../../../../data/catalog'));
    const solana = catalog.chains.find((c) => c.chainType === 'SVM')!;
    const prices = allGasPrices(catalog, new Map([[1, gas(1, 1n)], [solana.id, gas(solana.id, 1n)]]), '2026-11-21');
    expect(prices.map((p) => p.chainId)).toEqual([1]);
  });
});
