import { loadCatalog } from '../../../../src/files/catalog';
import { DEFAULT_DATA_DIR } from '../../../../src/config';
import { InvalidRequestError } from '../../../../src/core/errors';
import { buildRouteRequest, parseTiming, STABLECOIN_PRESET } from '../../../../src/core/routing/request';
import { toolPolicy } from '../../../../src/core/routing/tools';

const KNOWN = ['across', 'cctp', 'hop'];

describe('toolPolicy', () => {
  it.each([
    [{}, ['across', 'cctp', 'hop']],
    [{ allow: ['all'] }, ['across', 'cctp', 'hop']],
    [{ allow: ['default'] }, ['across', 'cctp', 'hop']],
    [{ allow: ['none'] }, []],
    [{ allow: ['[]'] }, []],
    [{ allow: ['across', 'hop'] }, ['across', 'hop']],
    [{ allow: ['across,hop'] }, ['across', 'hop']],
    [{ deny: ['cctp'] }, ['across', 'hop']],
    [{ allow: ['across', 'cctp'], deny: ['cctp'] }, ['across']],
    [{ deny: ['all'] }, []],
  ])('%o allows %o', (selection, allowed) => {
    const policy = toolPolicy('bridge', selection, KNOWN);
    expect(KNOWN.filter((k) => policy.allows(k))).toEqual(allowed);
  });

  it('says why a tool is not usable', () => {
    expect(toolPolicy('bridge', { allow: ['across'] }, KNOWN).whyNot('hop')).toBe('bridge hop is not in allowBridges');
    expect(toolPolicy('exchange', { deny: ['hop'] }, KNOWN).whyNot('hop')).toBe('exchange hop is in denyExchanges');
  });

  it('tracks preferences', () => {
    const policy = toolPolicy('bridge', { prefer: ['cctp'] }, KNOWN);
    expect(policy.hasPreferences).toBe(true);
    expect(policy.prefers('cctp')).toBe(true);
    expect(policy.prefers('across')).toBe(false);
  });

  it('rejects unknown tools naming the parameter', () => {
    expect(() => toolPolicy('bridge', { deny: ['teleporter'] }, KNOWN)).toThrow(/denyBridges names unknown tool\(s\) teleporter/);
  });
});

describe('parseTiming', () => {
  it('reads the minWaitTime format and keeps the tightest budget', () => {
    expect(parseTiming(['minWaitTime-600-4-300', 'minWaitTime-250-1-100'])).toEqual({ minWaitTimeMs: 250, startingExpectedResults: 1, reduceEveryMs: 100 });
  });
  it('rejects anything else', () => {
    expect(() => parseTiming(['minWaitTime-600-4'])).toThrow(InvalidRequestError);
  });
});

describe('buildRouteRequest', () => {
  const catalog = loadCatalog(DEFAULT_DATA_DIR);
  const base = { fromChain: 'arb', toChain: '10', fromToken: 'usdc', toToken: 'USDC', amount: '1000000', mode: 'exactIn' as const };

  it('resolves chains and tokens and applies the defaults', () => {
    const request = buildRouteRequest(catalog, { ...base, fromAddress: '0xabc' });
    expect(request.fromChain.id).toBe(42161);
    expect(request.toChain.key).toBe('opt');
    expect(request.toAddress).toBe('0xabc');
    expect(request).toMatchObject({ order: 'CHEAPEST', maxPriceImpact: 0.1, allowDestinationCall: true, allowSwitchChain: false, slippage: undefined });
  });

  it("ranks the ecosystem's RECOMMENDED and SAFEST orders as the default, CHEAPEST", () => {
    for (const order of ['RECOMMENDED', 'SAFEST', 'CHEAPEST'] as const) expect(buildRouteRequest(catalog, { ...base, order }).order).toBe('CHEAPEST');
    expect(buildRouteRequest(catalog, { ...base, order: 'FASTEST' }).order).toBe('FASTEST');
  });

  it('lets explicit parameters override the stablecoin preset', () => {
    const preset = buildRouteRequest(catalog, { ...base, preset: 'stablecoin' });
    expect(preset.slippage).toBe(STABLECOIN_PRESET.slippage);
    expect(preset.maxPriceImpact).toBe(STABLECOIN_PRESET.maxPriceImpact);
    expect(preset.exchanges.prefer).toEqual(['curve']);
    const explicit = buildRouteRequest(catalog, { ...base, preset: 'stablecoin', slippage: 0.01, maxPriceImpact: 0.2, exchanges: { prefer: ['uniswap'] } });
    expect(explicit).toMatchObject({ slippage: 0.01, maxPriceImpact: 0.2 });
    expect(explicit.exchanges.prefer).toEqual(['uniswap']);
  });

  it.each([
    [{ preset: 'turbo' }, /preset "turbo" is unknown/],
    [{ amount: '0' }, /fromAmount must be greater than 0/],
    [{ fee: 0.01 }, /fee needs an integrator/],
    [{ toToken: 'NOPE' }, /toToken "NOPE" is not a known token on OP/],
  ])('refuses %o', (patch, message) => {
    expect(() => buildRouteRequest(catalog, { ...base, ...patch })).toThrow(message);
  });
});
