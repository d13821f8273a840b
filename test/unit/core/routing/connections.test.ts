import { DEFAULT_DATA_DIR, DEFAULT_SNAPSHOT_DIR } from '../../../../src/config';
import { loadCatalog } from '../../../../src/core/catalog/load';
import { InvalidRequestError } from '../../../../src/core/errors';
import { loadSnapshot } from '../../../../src/core/liquidity/load';
import { bridgeFee, findConnections, findPossibilities, type Connection, type ConnectionsQuery } from '../../../../src/core/routing/connections';
import { RoutingGraph } from '../../../../src/core/routing/graph';
import { bridgeOut } from '../../../../src/core/math/bridge';

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
const issueOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidRequestError);
    return { message: (error as Error).message, issue: ((error as InvalidRequestError).details as { issues: { name: string; rule: string }[] }).issues[0] };
  }
  throw new Error('expected an InvalidRequestError');
};

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

describe('findPossibilities', () => {
  it('lists bridge routes between the given chains, restricted by the tool policies', () => {
    const p = findPossibilities(graph, { chains: [OPT, ARB], bridges: { allow: ['across', 'cctp'], deny: ['cctp'] } });
    expect(p.chains.map((c) => c.id)).toEqual([OPT, ARB]);
    expect(p.bridges.length).toBe(graph.bridgeRoutes.filter((r) => r.bridge === 'across' && [OPT, ARB].includes(r.fromChainId) && [OPT, ARB].includes(r.toChainId)).length);
    expect(p.bridges.every((b) => b.tool === 'across')).toBe(true);
    const usdc = p.bridges.find((b) => b.fromChainId === ARB && b.fromToken.symbol === 'USDC' && b.toToken.symbol === 'USDC')!;
    const route = graph.bridgeRoutes.find((r) => r.bridge === 'across' && r.fromChainId === ARB && r.toChainId === OPT && r.fromToken === catalog.addressKey(ARB, usdc.fromToken.address))!;
    expect(usdc).toMatchObject({ minimumTransfer: route.minAmount, maximumTransfer: route.maxAmount, swapFeePpm: route.feePpm });
    // the fee at the bounds is what the bridge model keeps
    const atMax = bridgeOut(route.maxAmount, route);
    expect(atMax.ok && usdc.swapFeeMaximum).toBe(route.maxAmount - (atMax.ok ? atMax.amountOut : 0n));
  });

  it('lists exchanges on the given chains and the tokens the listed tools touch', () => {
    const p = findPossibilities(graph, { chains: [ARB], exchanges: { deny: ['sushiswap'] } });
    expect(p.bridges).toEqual([]);
    expect(p.exchanges.map((e) => e.tool)).not.toContain('sushiswap');
    expect(p.exchanges.every((e) => e.chains.length === 1 && e.chains[0] === ARB)).toBe(true);
    expect(p.tokens.every((t) => t.chainId === ARB)).toBe(true);
    expect(p.tokens.map((t) => t.symbol)).toEqual(expect.arrayContaining(['ETH', 'USDC', 'WETH']));
  });

  it('without filters lists every bridge route, sorted', () => {
    const p = findPossibilities(graph, {});
    expect(p.chains.length).toBe(catalog.chains.length);
    expect(p.bridges.length).toBe(graph.bridgeRoutes.length);
    const keys = p.bridges.map((b) => [b.fromChainId, b.toChainId]);
    expect(keys).toEqual([...keys].sort((a, b) => a[0] - b[0] || a[1] - b[1]));
  });

  it('names body fields in its errors', () => {
    expect(issueOf(() => findPossibilities(graph, { chains: [ARB, 12345] })).issue).toMatchObject({ name: '/chains/1', rule: 'supportedChain' });
    const { message, issue } = issueOf(() => findPossibilities(graph, { exchanges: { allow: ['nodex'] } }));
    expect(message).toContain('body field /exchanges/allow names unknown tool(s) nodex');
    expect(issue).toMatchObject({ name: '/exchanges/allow', rule: 'knownTool' });
  });
});

describe('bridgeFee', () => {
  it('is fixed + proportional (rounded up) + destination gas, at most the amount', () => {
    const route = { fixedFee: 100n, feePpm: 1_000n, destinationGasFee: 50n };
    expect(bridgeFee(route, 1_000_100n)).toBe(100n + 1_000n + 50n);
    expect(bridgeFee(route, 1_100n)).toBe(100n + 1n + 50n);
    expect(bridgeFee(route, 120n)).toBe(120n);
  });
});
