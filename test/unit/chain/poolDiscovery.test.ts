/**
 * Pools found from the factories' creation logs: a PoolCreated / PairCreated of two catalog tokens by a factory of
 * routers.json is a pool of the graph (named as the snapshot names its pools, at the address the log gives, which is
 * the factory's CREATE2 address); logs of other contracts, other events and tokens outside the catalog are left out.
 */
import { DEFAULT_DATA_DIR } from '../../../src/config';
import { loadCatalog } from '../../../src/files/catalog';
import { isListedOnly } from '../../../src/core/entities';
import { loadRouters } from '../../../src/files/routers';
import { UNISWAP_V2_FACTORY, UNISWAP_V3_FACTORY, v2PairAddress, v3PoolAddress } from '../../../src/core/liquidity/poolAddress';
import { AbiCoder } from 'ethers';
import { inBlockRanges, PoolDiscovery, UNISWAP_FACTORY, UNISWAP_FACTORY_EVENTS } from '../../../src/chain/poolDiscovery';

const catalog = loadCatalog(DEFAULT_DATA_DIR);
const discovery = PoolDiscovery.fromRouters(catalog, loadRouters(DEFAULT_DATA_DIR, catalog));
const ARB = 42161;
const token = (symbol: string) => catalog.findToken(ARB, symbol)!.address;

function log(address: string, name: 'PairCreated' | 'PoolCreated', args: unknown[]) {
  const { topics, data } = UNISWAP_FACTORY_EVENTS.encodeEventLog(name, args);
  return { address, topics, data };
}

test('listens to the canonical Uniswap factories', () => {
  expect(discovery.addressesOn(ARB)).toEqual(expect.arrayContaining([UNISWAP_V2_FACTORY.factory.toLowerCase(), UNISWAP_V3_FACTORY.factory.toLowerCase()]));
  expect(discovery.topics).toHaveLength(2);
});

test('a V3 pool and a V2 pair of catalog tokens become pools whose state is to be read', () => {
  const [link, usdc] = [token('SUSHI'), token('USDC')].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
  const v3 = v3PoolAddress(UNISWAP_V3_FACTORY, link, usdc, 10000);
  const v2 = v2PairAddress(UNISWAP_V2_FACTORY, link, usdc);
  const pools = discovery.poolsOf(ARB, [
    log(UNISWAP_V3_FACTORY.factory, 'PoolCreated', [link, usdc, 10000, 200, v3]),
    log(UNISWAP_V2_FACTORY.factory, 'PairCreated', [link, usdc, v2, 7n]),
  ]);
  const symbols = [link, usdc].map((a) => catalog.findToken(ARB, a)!.symbol).join('-');
  expect(pools).toEqual([
    expect.objectContaining({ id: `${ARB}:uniswap:concentrated:${symbols}:10000`, kind: 'concentrated', address: v3, feePpm: 10000n, tokens: [link.toLowerCase(), usdc.toLowerCase()], v3: expect.objectContaining({ tickSpacing: 200, liquidity: 0n }) }),
    expect.objectContaining({ id: `${ARB}:uniswap:constantProduct:${symbols}:3000`, kind: 'constantProduct', address: v2, feePpm: 3000n, reserves: [0n, 0n] }),
  ]);
});

test('leaves out other contracts, other events and tokens outside the catalog', () => {
  const unknownToken = '0x000000000000000000000000000000000000dEaD';
  expect(discovery.poolsOf(ARB, [
    log('0x1111111111111111111111111111111111111111', 'PoolCreated', [token('SUSHI'), token('USDC'), 3000, 60, '0x2222222222222222222222222222222222222222']),
    log(UNISWAP_V3_FACTORY.factory, 'PoolCreated', [unknownToken, token('USDC'), 3000, 60, '0x2222222222222222222222222222222222222222']),
    { address: UNISWAP_V3_FACTORY.factory, topics: ['0x' + '00'.repeat(32)], data: '0x' },
  ])).toEqual([]);
});

test('at start, asks every factory where each pair of the chain\'s catalog tokens has its pool (per V3 fee tier), listed-only tokens left out', () => {
  const lookups = discovery.lookups(ARB);
  // the 300 tokens of Arbitrum, less the native coin and the ~270 listed-only tokens (no price, no pool in the data:
  // every pair of them would be ~450,000 questions; their pools are found from the factories' creation events)
  const asked = catalog.tokensOf(ARB).filter((t) => t.address !== '0x0000000000000000000000000000000000000000' && !isListedOnly(t));
  expect(asked.length).toBeGreaterThan(20);
  expect(asked.length).toBeLessThan(catalog.tokensOf(ARB).length / 5);
  const tokens = asked.length;
  const listedOnly = catalog.tokensOf(ARB).find((t) => isListedOnly(t))!.address.slice(2).toLowerCase();
  expect(lookups.some((l) => l.data.toLowerCase().includes(listedOnly))).toBe(false);
  const pairs = (tokens * (tokens - 1)) / 2;
  // V2: getPair of Uniswap's and SushiSwap's factories; V3: getPool of Uniswap's and SushiSwap's for 100, 500, 3000 and 10000
  expect(lookups).toHaveLength(pairs * 10);
  expect(new Set(lookups.map((l) => l.factory))).toEqual(new Set([UNISWAP_V2_FACTORY.factory, UNISWAP_V3_FACTORY.factory, '0xC0AEe478e3658e2610c5F7A4A2E1777cE9e4f2Ac', '0xbACEB8eC6b9355Dfc0269C18bac9d6E2Bdc29C4F']));
  const [a, b] = [token('SUSHI'), token('USDC')].sort((x, y) => (BigInt(x) < BigInt(y) ? -1 : 1));
  const v3 = v3PoolAddress(UNISWAP_V3_FACTORY, a, b, 500);
  const lookup = lookups.find((l) => l.factory === UNISWAP_V3_FACTORY.factory && l.data === UNISWAP_FACTORY.encodeFunctionData('getPool', [a, b, 500]))!;
  // SushiSwap V3's factory is asked the same question (its answer is its own pool's address)
  expect(lookups.filter((l) => l.data === lookup.data).map((l) => l.factory).sort()).toEqual([UNISWAP_V3_FACTORY.factory, '0xbACEB8eC6b9355Dfc0269C18bac9d6E2Bdc29C4F'].sort());
  expect(lookup.pool(AbiCoder.defaultAbiCoder().encode(['address'], [v3]))).toMatchObject({ address: v3, feePpm: 500n, v3: expect.objectContaining({ tickSpacing: 10 }) });
  expect(lookup.pool(AbiCoder.defaultAbiCoder().encode(['address'], ['0x0000000000000000000000000000000000000000']))).toBeUndefined();
});

test('a fork\'s factory is asked and listened to on its own chains only (Trader Joe V1 on Avalanche, not on Arbitrum)', () => {
  const AVA = 43114;
  const joe = loadRouters(DEFAULT_DATA_DIR, catalog).exchangeRouter('traderjoe', 'constantProduct')!;
  expect(joe.chainIds).toEqual([AVA]);
  const joeFactory = joe.factory!.address;
  expect(discovery.addressesOn(AVA)).toContain(joeFactory.toLowerCase());
  expect(discovery.addressesOn(ARB)).not.toContain(joeFactory.toLowerCase());
  expect(discovery.lookups(ARB).some((l) => l.factory === joeFactory)).toBe(false);
  const tokens = catalog.tokensOf(AVA).filter((t) => t.address !== '0x0000000000000000000000000000000000000000' && !isListedOnly(t)).length;
  // V2: Uniswap's, SushiSwap's, Trader Joe's and Pangolin's factories; V3: Uniswap's and SushiSwap's four tiers
  expect(discovery.lookups(AVA)).toHaveLength(((tokens * (tokens - 1)) / 2) * 12);
  // its PairCreated is a pool on Avalanche, and nothing on Arbitrum (where no such factory is)
  const [a, b] = [catalog.findToken(AVA, 'USDC')!.address, catalog.findToken(AVA, 'WAVAX')!.address].sort((x, y) => (BigInt(x) < BigInt(y) ? -1 : 1));
  const pair = v2PairAddress({ factory: joeFactory, initCodeHash: joe.factory!.initCodeHash }, a, b);
  expect(discovery.poolsOf(AVA, [log(joeFactory, 'PairCreated', [a, b, pair, 1n])])).toEqual([expect.objectContaining({ exchange: 'traderjoe', address: pair, feePpm: 3000n })]);
  const [x, y] = [token('SUSHI'), token('USDC')].sort((p, q) => (BigInt(p) < BigInt(q) ? -1 : 1));
  expect(discovery.poolsOf(ARB, [log(joeFactory, 'PairCreated', [x, y, v2PairAddress({ factory: joeFactory, initCodeHash: joe.factory!.initCodeHash }, x, y), 1n])])).toEqual([]);
});

describe('inBlockRanges (the creation logs read from a configured block)', () => {
  it('walks the blocks in consecutive ranges of the span, the last one short', async () => {
    const read: [number, number][] = [];
    expect(await inBlockRanges(100, 124, 10, async (start, end) => void read.push([start, end]))).toBe(3);
    expect(read).toEqual([[100, 109], [110, 119], [120, 124]]);
  });

  it('halves a range the node refuses, and carries the smaller span on (a node that takes at most 3 blocks)', async () => {
    const tried: [number, number][] = [];
    const read: [number, number][] = [];
    const ranges = await inBlockRanges(0, 9, 8, async (start, end) => {
      tried.push([start, end]);
      if (end - start + 1 > 3) throw new Error('range too large');
      read.push([start, end]);
    });
    // 8 refused, 4 refused, 2 taken; then 2 at a time
    expect(tried.slice(0, 3)).toEqual([[0, 7], [0, 3], [0, 1]]);
    expect(read).toEqual([[0, 1], [2, 3], [4, 5], [6, 7], [8, 9]]);
    expect(ranges).toBe(5);
  });

  it('every block once, whatever the refusals', async () => {
    const seen: number[] = [];
    let calls = 0;
    await inBlockRanges(5, 40, 16, async (start, end) => {
      calls++;
      if (calls % 3 === 0 && end > start) throw new Error('busy'); // a refusal now and then
      for (let b = start; b <= end; b++) seen.push(b);
    });
    expect(seen).toEqual(Array.from({ length: 36 }, (_, k) => 5 + k));
  });

  it('stops with the node\'s error when it refuses a single block, naming the block', async () => {
    await expect(inBlockRanges(7, 20, 4, async () => {
      throw new Error('node down');
    })).rejects.toThrow('block 7: node down');
  });

  it('reads nothing for an empty range', async () => {
    expect(await inBlockRanges(10, 9, 5, async () => {
      throw new Error('not called');
    })).toBe(0);
  });
});
