import type { Token } from '../../../../src/core/entities';
import { feeStillCovers, relayerFee } from '../../../../src/core/relay/fee';

const token = (symbol: string, decimals: number, priceUSD: string): Token => ({
  chainId: 42161, address: `0x${symbol.padEnd(40, '0')}`, symbol, decimals, name: symbol, coinKey: symbol, priceUSD, logoURI: '', tags: [],
} as unknown as Token);
const ETH = token('e', 18, '3000');
const USDC = token('c', 6, '1');

test('the relayer\'s gas, with the 25 % margin, in the sending token, rounded up (hand-worked)', () => {
  // 200,000 gas at 0.1 gwei = 2e13 wei; +25 % = 2.5e13 wei = 0.000025 ETH = 0.075 USD = 75,000 USDC units
  expect(relayerFee({ gasUnits: 200_000n, gasPriceWei: 100_000_000n, native: ETH }, USDC)).toBe(75_000n);
  // one wei more of gas price: the fee rounds up, never down (the relayer is not short)
  expect(relayerFee({ gasUnits: 200_000n, gasPriceWei: 100_000_001n, native: ETH }, USDC)).toBe(75_001n);
  // in the native token itself (as its wrapped form would be): the wei, with the margin
  expect(relayerFee({ gasUnits: 200_000n, gasPriceWei: 100_000_000n, native: ETH }, ETH)).toBe(25_000_000_000_000n);
  // a token without a price: no fee can be made (such a step is not offered)
  expect(relayerFee({ gasUnits: 200_000n, gasPriceWei: 100_000_000n, native: ETH }, token('x', 18, '0'))).toBe(0n);
});

test('a quoted fee still covers today\'s cost within the tolerance, not beyond', () => {
  expect(feeStillCovers(75_000n, 75_000n, 0n)).toBe(true);
  expect(feeStillCovers(75_000n, 78_947n, 50_000n)).toBe(true); // 75,000 ≥ 95 % of 78,947 (75,000 - 0.35)
  expect(feeStillCovers(75_000n, 78_948n, 50_000n)).toBe(false); // the gas price rose by more than 5.26 %
});
