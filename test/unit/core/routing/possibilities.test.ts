import { DEFAULT_DATA_DIR, DEFAULT_SNAPSHOT_DIR } from '../../../../src/config';
import { loadCatalog } from '../../../../src/files/catalog';
import { loadSnapshot } from '../../../../src/files/snapshot';
import { bridgeOut } from '../../../../src/core/math/bridge';
import { RoutingGraph } from '../../../../src/core/routing/graph';
import { bridgeFee, findPossibilities } from '../../../../src/core/routing/possibilities';
import { invalidRequestOf as issueOf } from '../../../support/domainErrors';

const catalog = loadCatalog(DEFAULT_DATA_DIR);
const graph = new RoutingGraph(catalog, loadSnapshot(DEFAULT_SNAPSHOT_DIR, catalog));
const ARB = 42161;
const OPT = 10;

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
    // every bridge route from a chain the service can send from (EVM and Solana here)
    const sends = (chainId: number) => ['EVM', 'SVM'].includes(catalog.getChain(chainId)?.chainType ?? '');
    expect(p.bridges.length).toBe(graph.bridgeRoutes.filter((r) => sends(r.fromChainId)).length);
    expect(p.bridges.every((b) => sends(b.fromChainId))).toBe(true);
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
