import { DEFAULT_DATA_DIR, DEFAULT_SNAPSHOT_DIR } from '../../../../src/config';
import { loadCatalog } from '../../../../src/files/catalog';
import { loadSnapshot } from '../../../../src/files/snapshot';
import type { LiquiditySnapshot, PoolState } from '../../../../src/core/liquidity/snapshot';
import { RoutingGraph } from '../../../../src/core/routing/graph';
import { searchExactIn } from '../../../../src/core/routing/paths';

const catalog = loadCatalog(DEFAULT_DATA_DIR);
const snapshot = loadSnapshot(DEFAULT_SNAPSHOT_DIR, catalog);
const pool = (id: string): PoolState => snapshot.pools.find((p) => p.id === id)!;
const address = (symbol: string) => catalog.addressKey(1, catalog.findToken(1, symbol)!.address);
const options = { maxHops: 3, allowExchange: () => true };

/** USDC → WETH → LINK on mainnet through two pools only; `sameId` gives the second pool the first one's id. */
function usdcToLink(sameId: boolean) {
  const first = pool('1:sushiswap:constantProduct:USDC-WETH:3000');
  const second = pool('1:sushiswap:constantProduct:LINK-WETH:3000');
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
      ['1:sushiswap:constantProduct:USDC-WETH:3000', '1:sushiswap:constantProduct:LINK-WETH:3000'],
    ]);
  });

  it('counts two pool objects sharing an id as one pool: no path through both', () => {
    const { graph, paths } = usdcToLink(true);
    expect(graph.poolIdsUnique).toBe(false);
    expect(paths).toEqual([]);
  });
});

describe('RoutingGraph memo of reaches', () => {
  it('stays bounded however many target sets are searched, and answers the same after being cleared', () => {
    const graph = new RoutingGraph(catalog, snapshot);
    const chains = [...new Set(snapshot.pools.map((p) => p.chainId))];
    const tokensOf = (chainId: number) => [...new Set(snapshot.pools.filter((p) => p.chainId === chainId).flatMap((p) => p.tokens))].sort();
    const first = new Map(graph.hopsToTargets(1, [tokensOf(1)[0]], 3));
    let sets = 0;
    let largest = 0;
    for (const chainId of chains) {
      const tokens = tokensOf(chainId);
      // every set of 2 to 4 of the chain's pool tokens
      for (let mask = 1; mask < 1 << Math.min(tokens.length, 14); mask++) {
        const targets = tokens.filter((_, k) => (mask >> k) & 1);
        if (targets.length < 2 || targets.length > 4) continue;
        const reach = graph.reachOf(chainId, targets, 3);
        for (const token of reach.distance.keys()) reach.stepsFrom(token);
        largest = Math.max(largest, graph.reachMemoSize().steps);
        sets++;
      }
    }
    expect(sets).toBeGreaterThan(4_000); // enough target sets to go past the bound
    expect(largest).toBeGreaterThan(150_000);
    expect(largest).toBeLessThanOrEqual(200_000 + 1_000); // the list that goes past the bound clears the memo
    expect(graph.hopsToTargets(1, [tokensOf(1)[0]], 3)).toEqual(first);
  });
});
