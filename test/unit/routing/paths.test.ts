import { DEFAULT_DATA_DIR, DEFAULT_SNAPSHOT_DIR } from '../../../src/config';
import { loadCatalog } from '../../../src/core/catalog/load';
import { loadSnapshot } from '../../../src/core/liquidity/load';
import type { LiquiditySnapshot, PoolState } from '../../../src/core/liquidity/types';
import { RoutingGraph } from '../../../src/core/routing/graph';
import { searchExactIn } from '../../../src/core/routing/paths';

const catalog = loadCatalog(DEFAULT_DATA_DIR);
const snapshot = loadSnapshot(DEFAULT_SNAPSHOT_DIR, catalog);
const pool = (id: string): PoolState => snapshot.pools.find((p) => p.id === id)!;
const address = (symbol: string) => catalog.addressKey(1, catalog.findToken(1, symbol)!.address);
const options = { maxHops: 3, allowExchange: () => true };

/** USDC → WETH → LINK on mainnet through two pools only; `sameId` gives the second pool the first one's id. */
function usdcToLink(sameId: boolean) {
  const first = pool('1:sushiswap:constantProduct:USDC-WETH:3000');
  const second = pool('1:sushiswap:constantProduct:LINK-WETH:10000');
  const pools = [first, sameId ? { ...second, id: first.id } : second];
  const graph = new RoutingGraph(catalog, { ...snapshot, pools, bridges: [] } satisfies LiquiditySnapshot);
  const paths = searchExactIn(graph, 1, address('USDC'), 1_000_000_000n, [address('LINK')], options, new Map()).get(address('LINK')) ?? [];
  return { graph, paths };
}

describe('searchExactIn: a path never uses a pool twice', () => {
  it('finds the two-pool path when the pools have their own ids', () => {
    const { graph, paths } = usdcToLink(false);
    expect(graph.poolIdsUnique).toBe(true);
    expect(paths.map((p) => p.legs.map((l) => (l.edge.kind === 'pool' ? l.edge.pool.id : l.edge.kind)))).toEqual([
      ['1:sushiswap:constantProduct:USDC-WETH:3000', '1:sushiswap:constantProduct:LINK-WETH:10000'],
    ]);
  });

  it('counts two pool objects sharing an id as one pool: no path through both', () => {
    const { graph, paths } = usdcToLink(true);
    expect(graph.poolIdsUnique).toBe(false);
    expect(paths).toEqual([]);
  });
});
