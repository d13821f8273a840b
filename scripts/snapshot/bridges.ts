/**
 * Bridge routes: one per (bridge, ordered chain pair, coinKey) of data/catalog/tools.json where both chains hold a
 * token of that coinKey; the route moves that token to the token of the same coinKey on the destination chain.
 * Parameters come from `bridges` in data/sources/liquidity.json:
 *
 * - feePpm = 100 × basis points (by coinKey; `feeBpsFrom` overrides by source chain);
 * - fixedFee = fixedFeeUSD, destinationGasFee = destinationGasFactor × fillCostUSD of the destination chain, in raw
 *   units of fromToken at its catalog price, rounded up;
 * - minAmount = max(the bridge's documented minimum (minUSD, `minUSDFrom` overrides by source chain and coinKey;
 *   "0" where its documentation names none), the smallest input whose output is at least one unit of toToken),
 *   so a bridge without a documented floor carries any amount its fees leave something of. (Until issue 35 the
 *   floor was max(minUSD, 2 × (fixedFee + destinationGasFee)) with invented USD minimums; the factor 2 refused
 *   amounts the real bridges carry, e.g. 0.1 USDC on CCTP, which charges nothing.)
 * - maxAmount = maxUSD (by coinKey) in raw fromToken units, rounded down; for pool-based bridges × clamp(8 × the
 *   smaller depthScale of the two chains, 0.05, 1);
 * - nativeFee = nativeFeeUSD in raw units of the source chain's native coin (wei on EVM), rounded up;
 * - durationSeconds and gasUnits per route (source chain, else destination chain, else default); gasUnits is 0 when
 *   the source chain is not EVM (its cost is the chain's `txFee` in chains.json).
 *
 * Fee model (routing-models.md): out = (in − fixedFee)·(1 − feePpm/1e6) − destinationGasFee, in fromToken units,
 * then converted to toToken decimals.
 */
import type { CatalogToken, ToolsFile } from '../catalog/types';
import type { ChainContext } from './inputs';
import type { BridgeParams, BridgeRoute, PerRoute } from './types';
import { divCeil } from '../../src/core/math/rational';
import { compareStrings, max, mul, parseDecimal, usdToRaw, type Rational } from './units';

const PPM = 1_000_000n;

const POOL_CAP_DEPTH_FACTOR = 8n;
const POOL_CAP_FLOOR: Rational = { num: 1n, den: 20n };

export function perRoute<T>(value: PerRoute<T>, fromChainId: number, toChainId: number): T {
  return value.from?.[String(fromChainId)] ?? value.to?.[String(toChainId)] ?? value.default;
}

function feeBps(params: BridgeParams, fromChainId: number, coinKey: string): number {
  const override = params.feeBpsFrom?.[String(fromChainId)];
  const bps = override?.[coinKey] ?? override?.default ?? params.feeBps[coinKey] ?? params.feeBps.default;
  if (bps === undefined) throw new Error(`liquidity.json: bridge ${params.key} has no default feeBps`);
  return bps;
}

function documentedMinUSD(params: BridgeParams, fromChainId: number, coinKey: string): Rational {
  const override = params.minUSDFrom?.[String(fromChainId)];
  return parseDecimal(override?.[coinKey] ?? override?.default ?? params.minUSD);
}

/**
 * The smallest input (raw fromToken units) whose output is at least one raw unit of toToken: out =
 * floor((in − fixed)·(1e6 − feePpm)/1e6) − destinationGas ≥ unit ⇔ in ≥ ceil((unit + destinationGas)·1e6/(1e6 − feePpm))
 * + fixed, where unit = 10^(fromDecimals − toDecimals) when the destination token has fewer decimals (the output is
 * rescaled down), else 1. The same bound as the routing core's bridgeOut/bridgeIn (src/core/math/bridge.ts).
 */
export function smallestDeliveringInput(
  fixedFee: bigint, destinationGasFee: bigint, feePpm: bigint, fromDecimals: number, toDecimals: number,
): bigint {
  const unit = fromDecimals > toDecimals ? 10n ** BigInt(fromDecimals - toDecimals) : 1n;
  return divCeil((unit + destinationGasFee) * PPM, PPM - feePpm) + fixedFee;
}

function poolCapFactor(from: ChainContext, to: ChainContext): Rational {
  const [a, b] = [from.depthScale, to.depthScale];
  const smaller = a.num * b.den <= b.num * a.den ? a : b;
  const scaled = { num: smaller.num * POOL_CAP_DEPTH_FACTOR, den: smaller.den };
  const capped = scaled.num >= scaled.den ? { num: 1n, den: 1n } : scaled;
  return max(capped, POOL_CAP_FLOOR);
}

function buildRoute(
  params: BridgeParams, from: ChainContext, to: ChainContext, coinKey: string, fromToken: CatalogToken,
  toToken: CatalogToken,
): BridgeRoute {
  const [fromId, toId] = [from.chain.id, to.chain.id];
  const price = parseDecimal(fromToken.priceUSD);
  const raw = (usd: Rational, round: 'down' | 'up') => usdToRaw(usd, price, fromToken.decimals, round);
  const fixedUSD = parseDecimal(params.fixedFeeUSD);
  const destinationUSD = mul(parseDecimal(params.destinationGasFactor), parseDecimal(to.params.fillCostUSD));
  const capUSD = parseDecimal(params.maxUSD[coinKey] ?? params.maxUSD.default!);
  const maxUSD = params.maxScalesWithDepth ? mul(capUSD, poolCapFactor(from, to)) : capUSD;
  const native = from.chain.nativeToken;
  const nativeFee = usdToRaw(
    parseDecimal(perRoute(params.nativeFeeUSD, fromId, toId)), parseDecimal(native.priceUSD), native.decimals, 'up',
  );
  const feePpm = feeBps(params, fromId, coinKey) * 100;
  const fixedFee = raw(fixedUSD, 'up');
  const destinationGasFee = raw(destinationUSD, 'up');
  const documentedMin = raw(documentedMinUSD(params, fromId, coinKey), 'up');
  const delivering = smallestDeliveringInput(fixedFee, destinationGasFee, BigInt(feePpm), fromToken.decimals, toToken.decimals);
  const route: BridgeRoute = {
    bridge: params.key,
    fromChainId: fromId,
    toChainId: toId,
    coinKey,
    fromToken: fromToken.address,
    toToken: toToken.address,
    feePpm,
    fixedFee: fixedFee.toString(),
    destinationGasFee: destinationGasFee.toString(),
    minAmount: (documentedMin > delivering ? documentedMin : delivering).toString(),
    maxAmount: raw(maxUSD, 'down').toString(),
    durationSeconds: perRoute(params.durationSeconds, fromId, toId),
    gasUnits: from.isEvm ? perRoute(params.gasUnits, fromId, toId) : 0,
    nativeFee: nativeFee.toString(),
    mechanism: params.mechanism,
  };
  if (BigInt(route.minAmount) >= BigInt(route.maxAmount)) {
    throw new Error(`bridge ${params.key} ${fromId}→${toId} ${coinKey}: minAmount is not below maxAmount`);
  }
  return route;
}

export function buildRoutes(tools: ToolsFile, contexts: ChainContext[], table: BridgeParams[]): BridgeRoute[] {
  const byId = new Map(contexts.map((c) => [c.chain.id, c]));
  const routes: BridgeRoute[] = [];
  for (const bridge of tools.bridges) {
    const params = table.find((p) => p.key === bridge.key);
    if (!params) throw new Error(`liquidity.json: no parameters for bridge ${bridge.key}`);
    for (const { fromChainId, toChainId } of bridge.supportedChains) {
      const from = byId.get(fromChainId)!;
      const to = byId.get(toChainId)!;
      for (const coinKey of bridge.tokens) {
        const fromToken = from.tokenByCoinKey.get(coinKey);
        const toToken = to.tokenByCoinKey.get(coinKey);
        if (fromToken && toToken) routes.push(buildRoute(params, from, to, coinKey, fromToken, toToken));
      }
    }
  }
  const byNumber = (a: number, b: number) => (a < b ? -1 : a > b ? 1 : 0);
  return routes.sort((a, b) => compareStrings(a.bridge, b.bridge) || byNumber(a.fromChainId, b.fromChainId)
    || byNumber(a.toChainId, b.toChainId) || compareStrings(a.coinKey, b.coinKey));
}
