import { AbiCoder, Interface, makeError } from 'ethers';
import { compileContracts } from '../../../sandbox/compile';
import {
  decodeConcentrated, decodeReserves, decodeStableswap, readPools, sameState, STABLESWAP_POOL, STATE_CHANGE_TOPICS, UNISWAP_V3_LIQUIDITY_EVENTS, V2_PAIR, V3_POOL,
  type JsonRpcSender,
} from '../../../src/chain/poolReader';
import type { ConcentratedPoolState, ConstantProductPoolState, StableswapPoolState } from '../../../src/core/liquidity/snapshot';

const abi = AbiCoder.defaultAbiCoder();
const Q96 = 1n << 96n;

const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';
const DAI = '0x6b175474e89094c44da98b954eedeac495271d0f';

const USDC_WETH_V2: ConstantProductPoolState = {
  id: 'v2-usdc-weth', chainId: 1, exchange: 'uniswap', kind: 'constantProduct', address: '0x000000000000000000000000000000000000a001',
  tokens: [USDC, WETH], feePpm: 3000n, reserves: [5_000_000_000n, 2_000_000_000_000_000_000n],
};
const USDC_WETH_V3_500: ConcentratedPoolState = {
  id: 'v3-usdc-weth-500', chainId: 1, exchange: 'uniswap', kind: 'concentrated', address: '0x000000000000000000000000000000000000a002',
  tokens: [USDC, WETH], feePpm: 500n,
  v3: { sqrtPriceX96: Q96, tick: 0, liquidity: 1_000_000n, feePpm: 500n, tickSpacing: 10, ticks: [[-20, 400n], [20, -400n]] },
};
const DAI_USDC_CURVE: StableswapPoolState = {
  id: 'curve-dai-usdc', chainId: 1, exchange: 'curve', kind: 'stableswap', address: '0x000000000000000000000000000000000000a003',
  tokens: [DAI, USDC], amp: 200n, feeE10: 4_000_000n, balances: [10n ** 24n, 10n ** 12n], rates: [10n ** 18n, 10n ** 30n],
};

describe('pool state decoding', () => {
  it('takes a V2 pair\'s reserves from getReserves() and keeps its identity and fee', () => {
    const answer = abi.encode(['uint112', 'uint112', 'uint32'], [1234n, 5678n, 99n]);
    const pool = decodeReserves(USDC_WETH_V2, answer);
    expect(pool).toEqual({ ...USDC_WETH_V2, reserves: [1234n, 5678n] });
  });

  it('takes a V3 pool\'s price, tick (negative too) and active liquidity from slot0() and liquidity()', () => {
    const slot0 = abi.encode(['uint160', 'int24'], [2n * Q96, -887]);
    const liquidity = abi.encode(['uint128'], [7n]);
    const pool = decodeConcentrated(USDC_WETH_V3_500, slot0, liquidity);
    expect(pool.v3).toEqual({ ...USDC_WETH_V3_500.v3, sqrtPriceX96: 2n * Q96, tick: -887, liquidity: 7n });
    expect(pool.address).toBe(USDC_WETH_V3_500.address);
  });

  it('takes a Curve pool\'s balances, A and fee in call order, and refuses a short answer', () => {
    const word = (v: bigint) => abi.encode(['uint256'], [v]);
    const pool = decodeStableswap(DAI_USDC_CURVE, [word(11n), word(22n), word(300n), word(1_000_000n)]);
    expect(pool).toEqual({ ...DAI_USDC_CURVE, balances: [11n, 22n], amp: 300n, feeE10: 1_000_000n });
    expect(() => decodeStableswap(DAI_USDC_CURVE, [word(11n), word(22n), word(300n)])).toThrow('expected 4 answers, got 3');
  });

  it('tells state changes apart from equal states', () => {
    expect(sameState(USDC_WETH_V2, { ...USDC_WETH_V2, reserves: [...USDC_WETH_V2.reserves] })).toBe(true);
    expect(sameState(USDC_WETH_V2, { ...USDC_WETH_V2, reserves: [5_000_000_001n, USDC_WETH_V2.reserves[1]] })).toBe(false);
    expect(sameState(USDC_WETH_V3_500, { ...USDC_WETH_V3_500, v3: { ...USDC_WETH_V3_500.v3, ticks: [[-20, 400n], [20, -401n]] } })).toBe(false);
    expect(sameState(DAI_USDC_CURVE, { ...DAI_USDC_CURVE, amp: 201n })).toBe(false);
  });
});

describe('the ABI fragments written in poolReader.ts', () => {
  it('are the compiled contracts\' own (same selectors and event topics)', async () => {
    const artifacts = await compileContracts();
    const pairs: [Interface, string][] = [[V2_PAIR, 'V2Pair'], [V3_POOL, 'V3Pool'], [STABLESWAP_POOL, 'StableSwapPool']];
    for (const [ours, name] of pairs) {
      const compiled = new Interface(artifacts[name].abi as never);
      ours.forEachFunction((f) => expect(compiled.getFunction(f.selector)?.format('sighash')).toBe(f.format('sighash')));
      ours.forEachEvent((e) => expect(compiled.getEvent(e.topicHash)?.format('sighash')).toBe(e.format('sighash')));
    }
    // the events after which a pool is read again: V2 Sync, V3 Swap (and the genuine pool's Mint and Burn), Curve TokenExchange
    expect(STATE_CHANGE_TOPICS.constantProduct).toEqual([new Interface(artifacts.V2Pair.abi as never).getEvent('Sync')!.topicHash]);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const genuinePool = new Interface((require('@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json') as { abi: never }).abi);
    UNISWAP_V3_LIQUIDITY_EVENTS.forEachEvent((e) => expect(genuinePool.getEvent(e.topicHash)?.format('sighash')).toBe(e.format('sighash')));
    expect(STATE_CHANGE_TOPICS.concentrated).toEqual(['Swap', 'Mint', 'Burn'].map((name) => genuinePool.getEvent(name)!.topicHash));
  });
});

/**
 * A fake chain: answers eth_call by (address, selector) a millisecond later, and records every request with its
 * round trip: 0 when it was sent before any answer came back (so it could share the first batch), more after.
 */
class FakeChain implements JsonRpcSender {
  readonly requests: { method: string; params: unknown[]; tick: number }[] = [];
  private answered = 0;
  constructor(private readonly answer: (method: string, params: unknown[]) => string | Error) {}
  send(method: string, params: unknown[]): Promise<unknown> {
    this.requests.push({ method, params, tick: this.answered });
    const result = this.answer(method, params);
    return new Promise((resolve, reject) => setTimeout(() => {
      this.answered++;
      if (result instanceof Error) reject(result);
      else resolve(result);
    }, 1));
  }
}

const revert = () => makeError('execution reverted', 'CALL_EXCEPTION', { action: 'call', data: '0x', reason: null, transaction: { to: null, data: '' }, invocation: null, revert: null });

function poolChain(overrides: Partial<Record<string, string | Error>> = {}): FakeChain {
  return new FakeChain((method, params) => {
    if (method === 'eth_getCode') return overrides[`code:${(params[0] as string).toLowerCase()}`] ?? '0x6080';
    const { to, data } = params[0] as { to: string; data: string };
    const key = `${to.toLowerCase()}:${data.slice(0, 10)}`;
    if (key in overrides) return overrides[key]!;
    if (data.startsWith(V2_PAIR.getFunction('getReserves')!.selector)) return abi.encode(['uint112', 'uint112', 'uint32'], [1n, 2n, 0n]);
    if (data.startsWith(V3_POOL.getFunction('slot0')!.selector)) return abi.encode(['uint160', 'int24'], [Q96 + 1n, 3]);
    if (data.startsWith(V3_POOL.getFunction('liquidity')!.selector)) return abi.encode(['uint128'], [999n]);
    if (data.startsWith(V3_POOL.getFunction('initializedTicks')!.selector)) return abi.encode(['int24[]'], [[-20, 20]]);
    if (data.startsWith(V3_POOL.getFunction('liquidityNet')!.selector)) {
      const [tick] = V3_POOL.decodeFunctionData('liquidityNet', data);
      return abi.encode(['int128'], [BigInt(tick) * -25n]);
    }
    if (data.startsWith(STABLESWAP_POOL.getFunction('balances')!.selector)) {
      const [k] = STABLESWAP_POOL.decodeFunctionData('balances', data);
      return abi.encode(['uint256'], [100n + BigInt(k)]);
    }
    if (data.startsWith(STABLESWAP_POOL.getFunction('A')!.selector)) return abi.encode(['uint256'], [200n]);
    if (data.startsWith(STABLESWAP_POOL.getFunction('fee')!.selector)) return abi.encode(['uint256'], [4_000_000n]);
    return revert();
  });
}

describe('readPools', () => {
  it('sends every call of every pool in the same tick, at the block asked, and decodes each kind', async () => {
    const chain = poolChain();
    const outcomes = await readPools(chain, [USDC_WETH_V2, USDC_WETH_V3_500, DAI_USDC_CURVE], { blockTag: 0x1234, ticks: true });
    // V2: 1 call; V3: slot0, liquidity, initializedTicks, 2 liquidityNet; Curve: 2 balances, A, fee
    expect(chain.requests).toHaveLength(1 + 5 + 4);
    expect(new Set(chain.requests.map((r) => r.tick))).toEqual(new Set([0]));
    expect(chain.requests.every((r) => r.method === 'eth_call' && r.params[1] === '0x1234')).toBe(true);
    expect(outcomes.map((o) => o.kind)).toEqual(['read', 'read', 'read']);
    const [v2, v3, curve] = outcomes.map((o) => o.pool);
    expect(v2).toEqual({ ...USDC_WETH_V2, reserves: [1n, 2n] });
    // liquidityNet answered as −25·tick
    expect(v3).toEqual({ ...USDC_WETH_V3_500, v3: { ...USDC_WETH_V3_500.v3, sqrtPriceX96: Q96 + 1n, tick: 3, liquidity: 999n, ticks: [[-20, 500n], [20, -500n]] } });
    expect(curve).toEqual({ ...DAI_USDC_CURVE, balances: [100n, 101n], amp: 200n, feeE10: 4_000_000n });
  });

  it('without ticks reads a V3 pool\'s slot0 and liquidity only, keeping its ticks', async () => {
    const chain = poolChain();
    const [outcome] = await readPools(chain, [USDC_WETH_V3_500], { blockTag: 'latest', ticks: false });
    expect(chain.requests).toHaveLength(2);
    expect(outcome.pool).toEqual({ ...USDC_WETH_V3_500, v3: { ...USDC_WETH_V3_500.v3, sqrtPriceX96: Q96 + 1n, tick: 3, liquidity: 999n } });
  });

  it('reads in a second round trip the liquidityNet of ticks the chain has and the snapshot does not', async () => {
    const chain = poolChain({ [`${USDC_WETH_V3_500.address.toLowerCase()}:${V3_POOL.getFunction('initializedTicks')!.selector}`]: abi.encode(['int24[]'], [[-20, 10, 20]]) });
    const [outcome] = await readPools(chain, [USDC_WETH_V3_500], { blockTag: 1, ticks: true });
    expect(outcome.kind).toBe('read');
    expect(outcome.kind === 'read' && outcome.pool.kind === 'concentrated' && outcome.pool.v3.ticks).toEqual([[-20, 500n], [10, -250n], [20, -500n]]);
    expect(chain.requests.filter((r) => r.tick > 0)).toHaveLength(1);
  });

  it('reports a pool without code as missing and a pool that reverts as failed', async () => {
    const chain = poolChain({
      [`${USDC_WETH_V2.address.toLowerCase()}:${V2_PAIR.getFunction('getReserves')!.selector}`]: '0x',
      [`code:${USDC_WETH_V2.address.toLowerCase()}`]: '0x',
      [`${DAI_USDC_CURVE.address.toLowerCase()}:${STABLESWAP_POOL.getFunction('A')!.selector}`]: revert(),
    });
    const outcomes = await readPools(chain, [USDC_WETH_V2, USDC_WETH_V3_500, DAI_USDC_CURVE], { blockTag: 7, ticks: false });
    expect(outcomes.map((o) => o.kind)).toEqual(['missing', 'read', 'failed']);
    expect(outcomes[2].kind === 'failed' && outcomes[2].reason).toMatch(/^reverted/);
    expect(chain.requests.filter((r) => r.method === 'eth_getCode').map((r) => r.params)).toEqual([[USDC_WETH_V2.address, '0x7']]);
  });

  it('rejects when the chain itself fails (timeout, connection refused)', async () => {
    const chain = new FakeChain(() => makeError('request timeout', 'TIMEOUT', { operation: 'eth_call', reason: 'timeout' }));
    await expect(readPools(chain, [USDC_WETH_V2, DAI_USDC_CURVE], { blockTag: 1, ticks: true })).rejects.toThrow('request timeout');
  });
});
