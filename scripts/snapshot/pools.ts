/**
 * Pools of every EVM chain, from the pair templates, profiles and stableswap rules of data/sources/liquidity.json.
 *
 * Constant product and concentrated pools: each pair template whose two coinKeys are ERC-20 tokens of the chain
 * (`NATIVE` = the wrapped native token) gives one pair (the first template wins for a token pair). Its depth,
 * depthUSD × chain depthScale, is split over the profile's slots by weight (slots whose exchange is missing on the
 * chain are dropped and the weights renormalised), then each pool's share gets a ±15 % deterministic jitter from
 * SHA-256 of the pool id. A pair of two USD stablecoins always uses the `stable` profile.
 *
 * Stableswap pools hold the chain's USD stablecoins only: a base pool of the first three `mainCoinKeys` present
 * (at the first stableswap exchange), a pair pool of the first two (at the second exchange, or the first), and one
 * minor 2-pool [first main stablecoin, X] for every other stablecoin X. Balances are depth/n USD per coin with a
 * deterministic deviation of at most `imbalancePpm`.
 */
import type { CatalogToken } from '../catalog/types';
import { buildConcentratedPool } from './concentratedPool';
import { isNativeAddress, type ChainContext } from './inputs';
import type {
  ConstantProductPool, LiquidityTable, ProfileSlot, SnapshotPool, StablePoolParams, StableswapPool,
} from './types';
import { v2PairAddress, v3PoolAddress } from '../../src/core/liquidity/poolAddress';
import { exchangeRouterOn } from '../../src/core/catalog/routers';
import { compareStrings, jitter, modelAddress, mul, parseDecimal, usdToRaw, type Rational } from './units';

const POOL_DEPTH_SPREAD_PPM = 150_000;

const isStable = (token: CatalogToken) => token.tags.includes('stablecoin');

function poolToken(ctx: ChainContext, role: string): CatalogToken | undefined {
  const coinKey = role === 'NATIVE' ? ctx.params.wrappedNative! : role;
  const token = ctx.tokenByCoinKey.get(coinKey);
  return token && !isNativeAddress(token) ? token : undefined;
}

/**
 * The address the exchange's factory gives the pool (CREATE2: src/core/liquidity/poolAddress.ts), when its pools are
 * addressed by their factory; undefined otherwise (a model address then). A V3 factory must have the fee tier, with
 * the tick spacing the hand table uses.
 */
function factoryAddress(
  ctx: ChainContext, exchange: string, kind: 'constantProduct' | 'concentrated', pair: [CatalogToken, CatalogToken], feePpm: number, tickSpacing?: number,
): string | undefined {
  const f = ctx.factoryOf(exchange, kind);
  if (!f) return undefined;
  if (!exchangeRouterOn(f, ctx.chain.id)) {
    throw new Error(`routers.json: the ${exchange} ${kind} factory is on chains ${f.chainIds!.join(', ')} only, but liquidity.json gives it pools on chain ${ctx.chain.id}`);
  }
  const factory = { factory: f.factory.address, initCodeHash: f.factory.initCodeHash };
  if (kind === 'constantProduct') return v2PairAddress(factory, pair[0].address, pair[1].address);
  const spacing = f.feeTiers?.[String(feePpm)];
  if (spacing === undefined) throw new Error(`routers.json: the ${exchange} V3 factory has no fee tier ${feePpm}`);
  if (spacing !== tickSpacing) throw new Error(`routers.json: the ${exchange} V3 fee tier ${feePpm} has tick spacing ${spacing}, liquidity.json ${tickSpacing}`);
  return v3PoolAddress(factory, pair[0].address, pair[1].address, feePpm);
}

/** token0 < token1 by lower-case address, as in Uniswap. */
function sortPair(a: CatalogToken, b: CatalogToken): [CatalogToken, CatalogToken] {
  return compareStrings(a.address.toLowerCase(), b.address.toLowerCase()) < 0 ? [a, b] : [b, a];
}

function constantProductPool(
  id: string, ctx: ChainContext, exchange: string, pair: [CatalogToken, CatalogToken], feePpm: number, usd: Rational,
): ConstantProductPool {
  const half = { num: usd.num, den: usd.den * 2n };
  return {
    id,
    chainId: ctx.chain.id,
    exchange,
    kind: 'constantProduct',
    address: factoryAddress(ctx, exchange, 'constantProduct', pair, feePpm) ?? modelAddress(id),
    tokens: [pair[0].address, pair[1].address],
    feePpm,
    reserves: pair.map((t) => usdToRaw(half, parseDecimal(t.priceUSD), t.decimals, 'down').toString()) as [
      string, string,
    ],
  };
}

interface PlannedPool {
  id: string;
  slot: ProfileSlot;
  exchange: string;
  feePpm: number;
  weight: number;
}

function planSlots(
  ctx: ChainContext, table: LiquidityTable, pair: [CatalogToken, CatalogToken], profile: ProfileSlot[],
): PlannedPool[] {
  const planned = new Map<string, PlannedPool>();
  for (const slot of profile) {
    const exchange = ctx.exchangesByKind[slot.kind][slot.slot];
    if (!exchange) continue;
    // a V2 factory has one fee: its pairs charge it whatever the profile says
    const feePpm = ctx.factoryOf(exchange, slot.kind)?.feePpm ?? slot.feePpm ?? table.constantProductFeePpm[exchange] ?? table.constantProductFeePpm.default!;
    const id = `${ctx.chain.id}:${exchange}:${slot.kind}:${pair[0].symbol}-${pair[1].symbol}:${feePpm}`;
    const existing = planned.get(id);
    if (existing) existing.weight += slot.weight;
    else planned.set(id, { id, slot, exchange, feePpm, weight: slot.weight });
  }
  return [...planned.values()];
}

function pairPools(ctx: ChainContext, table: LiquidityTable): SnapshotPool[] {
  const pools: SnapshotPool[] = [];
  const seen = new Set<string>();
  for (const template of table.pairs) {
    const a = poolToken(ctx, template.tokens[0]);
    const b = poolToken(ctx, template.tokens[1]);
    if (!a || !b || a.address === b.address) continue;
    const pair = sortPair(a, b);
    const pairKey = `${pair[0].address}/${pair[1].address}`;
    if (seen.has(pairKey)) continue;
    seen.add(pairKey);
    const profileName = isStable(a) && isStable(b) ? 'stable' : template.profile;
    const profile = table.profiles[profileName];
    if (!profile) throw new Error(`liquidity.json: unknown profile ${profileName}`);
    const depth = mul(parseDecimal(template.depthUSD), ctx.depthScale);
    const planned = planSlots(ctx, table, pair, profile);
    const totalWeight = BigInt(planned.reduce((sum, p) => sum + p.weight, 0));
    for (const p of planned) {
      const share = mul({ num: depth.num * BigInt(p.weight), den: depth.den * totalWeight }, jitter(p.id, POOL_DEPTH_SPREAD_PPM));
      if (p.slot.kind === 'constantProduct') {
        pools.push(constantProductPool(p.id, ctx, p.exchange, pair, p.feePpm, share));
        continue;
      }
      const tier = table.concentratedBands[String(p.feePpm)];
      if (!tier) throw new Error(`liquidity.json: no concentratedBands for fee ${p.feePpm}`);
      pools.push(buildConcentratedPool({
        id: p.id, chainId: ctx.chain.id, exchange: p.exchange, token0: pair[0], token1: pair[1], feePpm: p.feePpm,
        tickSpacing: tier.tickSpacing, bands: tier.bands, usd: share,
        address: factoryAddress(ctx, p.exchange, 'concentrated', pair, p.feePpm, tier.tickSpacing),
      }));
    }
  }
  return pools;
}

function stableswapPool(
  ctx: ChainContext, table: LiquidityTable, exchange: string, coins: CatalogToken[], params: StablePoolParams,
): StableswapPool {
  if (params.feeE10 % 10_000 !== 0) throw new Error('liquidity.json: stableswap feeE10 must be a whole number of ppm');
  const feePpm = params.feeE10 / 10_000;
  const id = `${ctx.chain.id}:${exchange}:stableswap:${coins.map((c) => c.symbol).join('-')}:${feePpm}`;
  const perCoin = mul(parseDecimal(params.depthUSD), { num: ctx.depthScale.num, den: ctx.depthScale.den * BigInt(coins.length) });
  return {
    id,
    chainId: ctx.chain.id,
    exchange,
    kind: 'stableswap',
    address: modelAddress(id),
    tokens: coins.map((c) => c.address),
    feePpm,
    amp: params.amp,
    feeE10: params.feeE10,
    balances: coins.map((coin, i) => {
      const usd = mul(perCoin, jitter(`${id}#balance${i}`, table.stableswap.imbalancePpm));
      return usdToRaw(usd, parseDecimal(coin.priceUSD), coin.decimals, 'down').toString();
    }),
  };
}

function stableswapPools(ctx: ChainContext, table: LiquidityTable): StableswapPool[] {
  const rules = table.stableswap;
  const stables = [...ctx.tokenByCoinKey.values()].filter((t) => isStable(t) && !isNativeAddress(t));
  const main = rules.mainCoinKeys
    .map((key) => stables.find((t) => t.coinKey === key))
    .filter((t): t is CatalogToken => t !== undefined);
  const exchanges = ctx.exchangesByKind.stableswap;
  if (!main.length) throw new Error(`chain ${ctx.chain.id}: no main stablecoin for the stableswap pools`);
  const pools: StableswapPool[] = [];
  const pooled = new Set<string>();
  if (main.length >= 3) {
    pools.push(stableswapPool(ctx, table, exchanges[0]!, main.slice(0, 3), rules.basePool));
    main.slice(0, 3).forEach((t) => pooled.add(t.address));
  }
  if (main.length >= 2) {
    pools.push(stableswapPool(ctx, table, exchanges[1] ?? exchanges[0]!, main.slice(0, 2), rules.pairPool));
    main.slice(0, 2).forEach((t) => pooled.add(t.address));
  }
  const others = stables
    .filter((t) => !pooled.has(t.address) && t.address !== main[0]!.address)
    .sort((a, b) => compareStrings(a.symbol, b.symbol));
  for (const other of others) pools.push(stableswapPool(ctx, table, exchanges[0]!, [main[0]!, other], rules.minorPool));
  return pools;
}

/** All pools of one EVM chain (unsorted). */
export function buildChainPools(ctx: ChainContext, table: LiquidityTable): SnapshotPool[] {
  return [...pairPools(ctx, table), ...stableswapPools(ctx, table)];
}
