import request from 'supertest';
import { useAppAndContract } from '../support/app';
import { expectInvalidRequest } from '../support/contract';

const { t, contract } = useAppAndContract();

interface WireToken { symbol: string; chainId: number; address: string }
interface WireConnection { fromChainId: number; toChainId: number; fromTokens: WireToken[]; toTokens: WireToken[] }

const connections = (query: Record<string, string>) => request(t.app).get('/v1/connections').query(query);
const possibilities = (body?: unknown) => {
  const req = request(t.app).post('/v1/advanced/possibilities');
  return body === undefined ? req : req.send(body as object);
};
const symbols = (tokens: WireToken[]) => tokens.map((x) => x.symbol);

describe('GET /v1/connections', () => {
  it('connects USDC on Arbitrum to USDC on Optimism', async () => {
    const res = await connections({ fromChain: 'arb', toChain: 'opt', fromToken: 'USDC', toToken: 'USDC' });
    contract.expectResponse('getConnections', res);
    expect(res.status).toBe(200);
    expect(res.body.connections).toHaveLength(1);
    const [c] = res.body.connections as WireConnection[];
    expect(c).toMatchObject({ fromChainId: 42161, toChainId: 10 });
    expect(c.fromTokens.map((x) => x.address)).toEqual(['0xaf88d065e77c8cC2239327C5EDb3A432268e5831']);
    expect(c.toTokens.map((x) => x.address)).toEqual(['0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85']);
  });

  it('answers every destination chain for fromChain alone, in chain order, quickly', async () => {
    const started = performance.now();
    const res = await connections({ fromChain: 'eth' });
    const elapsed = performance.now() - started;
    contract.expectResponse('getConnections', res);
    expect(res.status).toBe(200);
    const list = res.body.connections as WireConnection[];
    expect(list.length).toBeGreaterThan(10);
    expect(list.every((c) => c.fromChainId === 1)).toBe(true);
    const toIds = list.map((c) => c.toChainId);
    expect(toIds).toEqual([...toIds].sort((a, b) => a - b));
    expect(toIds).toContain(1); // swaps on Ethereum itself
    for (const c of list) {
      expect(c.toTokens.every((x) => x.chainId === c.toChainId)).toBe(true);
      const syms = symbols(c.fromTokens);
      expect(syms).toEqual([...syms].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    }
    expect(elapsed).toBeLessThan(1000);
  });

  it('accepts chain ids, token addresses and a toChain-only filter', async () => {
    const res = await connections({ toChain: '10', toToken: '0x0b2c639c533813f4aa9d7837caf62653d097ff85' });
    contract.expectResponse('getConnections', res);
    expect(res.status).toBe(200);
    const list = res.body.connections as WireConnection[];
    expect(list.length).toBeGreaterThan(5);
    expect(list.every((c) => c.toChainId === 10 && symbols(c.toTokens).join() === 'USDC')).toBe(true);
  });

  it('drops the pairs of a denied bridge and restricts destination tokens without destination calls', async () => {
    const base = { fromChain: 'arb', toChain: 'opt', fromToken: 'USDC' };
    const all = await connections(base);
    const noCall = await connections({ ...base, allowDestinationCall: 'false' });
    const switchChain = await connections({ ...base, allowDestinationCall: 'false', allowSwitchChain: 'true' });
    const none = await connections({ ...base, allowBridges: 'none' });
    for (const res of [all, noCall, switchChain, none]) {
      contract.expectResponse('getConnections', res);
      expect(res.status).toBe(200);
    }
    const allTo = symbols(all.body.connections[0].toTokens);
    const noCallTo = symbols(noCall.body.connections[0].toTokens);
    expect(noCallTo.length).toBeLessThan(allTo.length);
    expect(noCallTo.every((s) => allTo.includes(s))).toBe(true);
    expect(symbols(switchChain.body.connections[0].toTokens)).toEqual(allTo);
    expect(none.body.connections).toEqual([]);
  });

  it('restricts chains by chainTypes', async () => {
    const res = await connections({ toChain: 'sol', chainTypes: 'EVM' });
    contract.expectResponse('getConnections', res);
    expect(res.body.connections).toEqual([]);
    const svm = await connections({ fromChain: 'arb', chainTypes: 'EVM' });
    expect((svm.body.connections as WireConnection[]).some((c) => c.toChainId === 1151111081099710)).toBe(false);
  });

  it.each([
    [{}, /at least one of fromChain, toChain, fromToken, toToken is required/],
    [{ chainTypes: 'EVM' }, /at least one of fromChain, toChain, fromToken, toToken is required/],
    [{ fromToken: 'USDC' }, /fromToken needs fromChain/],
    [{ fromChain: 'arb', toToken: 'USDC' }, /toToken needs toChain/],
    [{ fromChain: 'nochain' }, /fromChain: "nochain" is not a supported chain/],
    [{ fromChain: 'arb', fromToken: 'NOPE' }, /fromToken "NOPE" is not a known token/],
    [{ fromChain: 'arb', denyBridges: 'teleporter' }, /denyBridges names unknown tool\(s\) teleporter/],
    [{ fromChain: 'arb', allowSwitchChain: 'maybe' }, /allowSwitchChain/],
  ])('answers 400 code 1011 naming the parameter for %o', async (query, message) => {
    expectInvalidRequest(contract, 'getConnections', await connections(query), message);
  });
});

describe('POST /v1/advanced/possibilities', () => {
  it('lists the bridge routes and exchanges of the given chains under the tool filters', async () => {
    const res = await possibilities({ chains: [42161, 10], bridges: { allow: ['across'] }, exchanges: { deny: ['sushiswap'] } });
    contract.expectResponse('postPossibilities', res);
    expect(res.status).toBe(200);
    const { chains, tokens, bridges, exchanges } = res.body;
    expect(chains.map((c: { id: number }) => c.id)).toEqual([10, 42161]);
    expect(bridges.length).toBeGreaterThan(0);
    expect(bridges.every((b: { tool: string; fromChainId: number; toChainId: number }) => b.tool === 'across' && [10, 42161].includes(b.fromChainId) && [10, 42161].includes(b.toChainId))).toBe(true);
    const usdc = bridges.find((b: { fromChainId: number; fromToken: WireToken; toToken: WireToken }) => b.fromChainId === 42161 && b.fromToken.symbol === 'USDC' && b.toToken.symbol === 'USDC');
    expect(usdc).toBeDefined();
    expect(BigInt(usdc.minimumTransfer)).toBeLessThanOrEqual(BigInt(usdc.maximumTransfer));
    expect(BigInt(usdc.swapFeeMinimum)).toBeLessThanOrEqual(BigInt(usdc.swapFeeMaximum));
    expect(Number(usdc.swapFeeRate)).toBeGreaterThan(0);
    expect(exchanges.map((e: { tool: string }) => e.tool)).not.toContain('sushiswap');
    expect(exchanges.find((e: { tool: string }) => e.tool === 'uniswap')).toEqual({ tool: 'uniswap', chains: [10, 42161] });
    expect(tokens.every((x: WireToken) => [10, 42161].includes(x.chainId))).toBe(true);
    expect(tokens.some((x: WireToken) => x.chainId === 42161 && x.symbol === 'USDC')).toBe(true);
  });

  it('lists no bridge for a single chain: a bridge needs both of its chains in the list', async () => {
    const res = await possibilities({ chains: [1] });
    contract.expectResponse('postPossibilities', res);
    expect(res.status).toBe(200);
    expect(res.body.bridges).toEqual([]);
    expect(res.body.exchanges.length).toBeGreaterThan(3);
  });

  it('answers without a body with every chain and bridge route of the snapshot', async () => {
    const res = await possibilities();
    contract.expectResponse('postPossibilities', res);
    expect(res.status).toBe(200);
    expect(res.body.chains).toHaveLength(t.dependencies.catalog.chains.length);
    // every bridge route a transfer can start with: none from a chain the service cannot send from (Sui, Tron...)
    const sendable = t.dependencies.graph.bridgeRoutes.filter((r) => ['EVM', 'SVM'].includes(t.dependencies.catalog.getChain(r.fromChainId)?.chainType ?? ''));
    expect(sendable.length).toBeLessThan(t.dependencies.graph.bridgeRoutes.length);
    expect(res.body.bridges).toHaveLength(sendable.length);
  });

  it.each([
    [{ chains: [999999] }, /\/chains\/0: 999999 is not a supported chain id/],
    [{ chains: ['arb'] }, /chains\/0/],
    [{ bridges: { deny: ['teleporter'] } }, /body field \/bridges\/deny names unknown tool\(s\) teleporter/],
  ])('answers 400 code 1011 naming the field for %o', async (body, message) => {
    expectInvalidRequest(contract, 'postPossibilities', await possibilities(body), message);
  });
});
