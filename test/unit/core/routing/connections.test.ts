import { DEFAULT_DATA_DIR, DEFAULT_SNAPSHOT_DIR } from '../../../../src/config';
import { loadCatalog } from '../../../../src/files/catalog';
import { loadSnapshot } from '../../../../src/files/snapshot';
import { findConnections, type Connection, type ConnectionsQuery } from '../../../../src/core/routing/connections';
import { RoutingGraph } from '../../../../src/core/routing/graph';
import { invalidRequestOf } from '../../../support/domainErrors';

const catalog = loadCatalog(DEFAULT_DATA_DIR);
const graph = new RoutingGraph(catalog, loadSnapshot(DEFAULT_SNAPSHOT_DIR, catalog));
const ARB = 42161;
const OPT = 10;

const symbols = (tokens: Connection['fromTokens']) => tokens.map((t) => t.symbol);
const one = (query: ConnectionsQuery): Connection | undefined => {
  const list = findConnections(graph, query);
  expect(list.length).toBeLessThanOrEqual(1);
  return list[0];
};
const issueOf = invalidRequestOf;

describe('findConnections', () => {
  it('connects USDC on Arbitrum to USDC on Optimism through cctp', () => {
    const c = one({ fromChain: 'arb', toChain: 'opt', fromToken: 'USDC', toToken: 'USDC', bridges: { allow: ['cctp'] } });
    expect(c).toBeDefined();
    expect(c!.fromChainId).toBe(ARB);
    expect(c!.toChainId).toBe(OPT);
    expect(symbols(c!.fromTokens)).toEqual(['USDC']);
    expect(symbols(c!.toTokens)).toEqual(['USDC']);
  });

  it('cctp alone delivers only USDC without destination calls, and more with them', () => {
    const bare = one({ fromChain: ARB, toChain: OPT, bridges: { allow: ['cctp'] }, allowDestinationCall: false });
    expect(symbols(bare!.toTokens)).toEqual(['USDC']);
    // every source token within 3 hops of USDC on Arbitrum, USDC itself included
    expect(symbols(bare!.fromTokens)).toContain('USDC');
    expect(symbols(bare!.fromTokens)).toContain('WETH');
    const withCalls = one({ fromChain: ARB, toChain: OPT, bridges: { allow: ['cctp'] } });
    expect(withCalls!.toTokens.length).toBeGreaterThan(1);
    expect(symbols(withCalls!.toTokens)).toEqual(expect.arrayContaining(['USDC', 'WETH']));
    expect(withCalls!.fromTokens).toEqual(bare!.fromTokens);
  });

  it('allowDestinationCall=false shrinks the destination tokens to those bridges deliver; allowSwitchChain restores them', () => {
    const all = one({ fromChain: 'arb', toChain: 'opt', fromToken: 'USDC' })!;
    const noCall = one({ fromChain: 'arb', toChain: 'opt', fromToken: 'USDC', allowDestinationCall: false })!;
    const delivered = new Set(graph.bridgesBetween(ARB, OPT).map((r) => r.toToken));
    expect(noCall.toTokens.length).toBeLessThan(all.toTokens.length);
    expect(noCall.toTokens.every((t) => delivered.has(catalog.addressKey(OPT, t.address)))).toBe(true);
    expect(noCall.toTokens.every((t) => all.toTokens.includes(t))).toBe(true);
    const switched = one({ fromChain: 'arb', toChain: 'opt', fromToken: 'USDC', allowDestinationCall: false, allowSwitchChain: true })!;
    expect(switched.toTokens).toEqual(all.toTokens);
  });

  it('a denied bridge removes the pairs only it connects', () => {
    const pairs = (deny?: string[]) =>
      new Set(findConnections(graph, { fromChain: 'eth', bridges: { deny } }).map((c) => `${c.fromChainId}>${c.toChainId}`));
    const onlyCctp = one({ fromChain: ARB, toChain: OPT, fromToken: 'USDC', toToken: 'USDC', bridges: { allow: ['cctp'], deny: ['cctp'] } });
    expect(onlyCctp).toBeUndefined();
    // Tron is reached from Ethereum only by some bridges: deny all of those and the pair disappears
    const toTron = new Set(graph.bridgesBetween(1, 728126428).map((r) => r.bridge));
    expect(toTron.size).toBeGreaterThan(0);
    expect(pairs().has('1>728126428')).toBe(true);
    expect(pairs([...toTron]).has('1>728126428')).toBe(false);
    expect(pairs([...toTron]).has('1>1')).toBe(true);
    expect(findConnections(graph, { fromChain: 'eth', bridges: { allow: ['none'] } }).map((c) => c.toChainId)).toEqual([1]);
  });

  it('same chain: tokens joined by pools of allowed exchanges within 3 hops (wraps included)', () => {
    const c = one({ fromChain: 'arb', toChain: 'arb', fromToken: 'ETH' })!;
    expect(symbols(c.fromTokens)).toEqual(['ETH']);
    expect(symbols(c.toTokens)).toEqual(expect.arrayContaining(['WETH', 'USDC']));
    expect(symbols(c.toTokens)).not.toContain('ETH');
    const wrapOnly = one({ fromChain: 'arb', toChain: 'arb', fromToken: 'ETH', exchanges: { allow: ['none'] } })!;
    expect(symbols(wrapOnly.toTokens)).toEqual(['WETH']);
    // agrees with the graph's own hop bound when every exchange is allowed
    const reachable = graph.hopsToTargets(ARB, [catalog.addressKey(ARB, c.fromTokens[0].address)], 3);
    expect(new Set(c.toTokens.map((t) => catalog.addressKey(ARB, t.address)))).toEqual(new Set([...reachable.keys()].filter((k) => k !== '0x0000000000000000000000000000000000000000')));
  });

  it('orders pairs by chain ids and tokens by symbol, deterministically', () => {
    const a = findConnections(graph, { toChain: 'opt' });
    const b = findConnections(graph, { toChain: 'opt' });
    expect(a).toEqual(b);
    const ids = a.map((c) => c.fromChainId);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(a.every((c) => c.toChainId === OPT)).toBe(true);
    for (const c of a) {
      for (const list of [c.fromTokens, c.toTokens]) {
        const s = symbols(list);
        expect(s).toEqual([...s].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)));
      }
    }
  });

  it('restricts both sides to chainTypes', () => {
    expect(findConnections(graph, { fromChain: 'sol', chainTypes: ['EVM'] })).toEqual([]);
    const evm = findConnections(graph, { fromChain: 'arb', chainTypes: ['EVM'] });
    expect(evm.every((c) => catalog.getChain(c.toChainId)!.chainType === 'EVM')).toBe(true);
    expect(findConnections(graph, { fromChain: 'arb' }).length).toBeGreaterThan(evm.length);
  });

  it('answers a fromChain-only request fast, once reachability is cached', () => {
    findConnections(graph, { fromChain: 'bas' });
    const started = performance.now();
    for (const chain of catalog.chains) findConnections(graph, { fromChain: chain.id });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it.each<[ConnectionsQuery, string, string]>([
    [{}, 'fromChain,toChain,fromToken,toToken', 'at least one of fromChain, toChain, fromToken, toToken is required'],
    [{ chainTypes: ['EVM'], allowSwitchChain: true }, 'fromChain,toChain,fromToken,toToken', 'at least one of'],
    [{ fromToken: 'USDC' }, 'fromToken', 'fromToken needs fromChain'],
    [{ toChain: 'opt', fromToken: 'USDC' }, 'fromToken', 'fromToken needs fromChain'],
    [{ fromChain: 'arb', toToken: 'USDC' }, 'toToken', 'toToken needs toChain'],
    [{ toChain: 'nochain' }, 'toChain', 'toChain "nochain" is not a supported chain'],
    [{ fromChain: 'arb', fromToken: 'NOPE' }, 'fromToken', 'fromToken "NOPE" is not a known token on'],
    [{ fromChain: 'arb', exchanges: { prefer: ['nodex'] } }, 'preferExchanges', 'preferExchanges names unknown tool(s) nodex'],
  ])('%o is refused naming %s', (query, name, message) => {
    const { message: text, issue } = issueOf(() => findConnections(graph, query));
    expect(text).toContain(message);
    expect(issue.name).toBe(name);
  });
});
