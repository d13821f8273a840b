/**
 * Pure bigint math of the routing core. Each pool model is a namespace because several share function names
 * (midPrice, getAmountIn…): `constantProduct.getAmountOut`, `concentrated.quoteExactInput`, `stableswap.getDy`.
 */
export * as amounts from './amounts';
export * as bridge from './bridge';
export * as concentrated from './concentrated';
export * as constantProduct from './constantProduct';
export * as fullMath from './fullMath';
export * as sqrtPriceMath from './sqrtPriceMath';
export * as stableswap from './stableswap';
export * as swapMath from './swapMath';
export * as tickMath from './tickMath';
export { MathDomainError } from './rational';
export type { Rational } from './rational';
