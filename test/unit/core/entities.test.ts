/** hasPrice and isListedOnly: which tokens the per-token parts of the service (start-up pool lookups, the Solana
 *  escrow's followed accounts, the sandbox's contracts) act on. */
import { hasPrice, isListedOnly } from '../../../src/core/entities';
import { loadCatalog } from '../../../src/files/catalog';
import { DEFAULT_DATA_DIR } from '../../../src/config';

describe('isListedOnly', () => {
  it.each([
    [{ priceUSD: '1.00' }, true, false],
    [{ priceUSD: '0.0000068' }, true, false],
    [{ priceUSD: '0' }, false, true], // a listed token without a price
    [{ priceUSD: '0.000' }, false, true],
    [{ priceUSD: '0', verificationStatus: 'unverified' as const }, false, false], // discovered from a pool: acted on
  ])('%o: priced %s, listed-only %s', (token, priced, listedOnly) => {
    expect(hasPrice(token)).toBe(priced);
    expect(isListedOnly(token)).toBe(listedOnly);
  });

  it('holds for the embedded catalog\'s unpriced listed tokens only: never a curated coin, a pool\'s or a bridge\'s', () => {
    const catalog = loadCatalog(DEFAULT_DATA_DIR);
    const tokens = catalog.chains.flatMap((c) => catalog.tokensOf(c.id));
    const listedOnly = tokens.filter(isListedOnly);
    expect(listedOnly.length).toBeGreaterThan(2000);
    for (const t of listedOnly) expect(t.priceUSD).toBe('0');
    expect(listedOnly.some((t) => catalog.chains.some((c) => c.nativeToken.address === t.address && c.id === t.chainId))).toBe(false);
    const bridged = new Set(catalog.bridges.flatMap((b) => b.tokens));
    expect(listedOnly.some((t) => bridged.has(t.coinKey))).toBe(false);
  });
});
