/**
 * Gas suggestion: how much of a chain's native coin to bring there, from the average gas of 10 approvals
 * and 10 swaps on that chain (sample.ts) at the chain's gas price (liquidity snapshot):
 *
 *   recommended = averageGas · RECOMMENDED_TRANSACTIONS (5) · gasPriceWei
 *                 (enough native gas for five average transactions: an approval and a swap, twice, and one more)
 *   limit       = max(LIMIT_MULTIPLE (10) · recommended, the native amount worth LIMIT_FLOOR_USD ($50))
 *                 (the largest refuel worth suggesting: $50 of gas, more where ten recommended amounts cost more)
 *
 * With a fromToken, `fromAmount` is what the routing core asks for an exact output of `recommended` of the
 * native coin (the cheapest route, exact output), i.e. what to pass as fromAmountForGas in a quote.
 * Not available (`available: false` with a message): non-EVM chains, chains without gas price or pools,
 * and fromTokens with no route to the native coin for that amount.
 */
import type { Chain, Token } from '../entities';
import { familyOf } from '../chains/families';
import type { ChainGas, PoolKind } from '../liquidity/snapshot';
import { scaledPrice, usd } from '../routing/pricing';
import { transactionSample, type TransactionSample } from './sample';

export const RECOMMENDED_TRANSACTIONS = 5n;
export const LIMIT_MULTIPLE = 10n;
export const LIMIT_FLOOR_USD = '50';

export interface GasAmount {
  readonly token: Token;
  readonly amount: bigint;
  /** Float, display only. */
  readonly amountUSD: number;
}

export interface ChainGasSuggestion {
  readonly available: true;
  readonly chain: Chain;
  readonly gasPriceWei: bigint;
  readonly sample: TransactionSample;
  readonly recommended: GasAmount;
  readonly limit: GasAmount;
}

export interface UnavailableGasSuggestion {
  readonly available: false;
  readonly message: string;
}

/** The suggestion for a chain from its gas price and the kinds of its pools (pure). */
export function chainGasSuggestion(chain: Chain, gas: ChainGas | undefined, poolKinds: readonly PoolKind[]): ChainGasSuggestion | UnavailableGasSuggestion {
  const name = `${chain.name} (${chain.id})`;
  if (!familyOf(chain).evmContracts) {
    return { available: false, message: `gas suggestions and refuels are supported on EVM chains only; ${name} is a ${chain.chainType} chain` };
  }
  if (!gas || gas.gasPriceWei <= 0n) return { available: false, message: `no gas price is known for ${name}` };
  const sample = transactionSample(poolKinds);
  if (!sample) return { available: false, message: `no swap pools are known on ${name} to base a suggestion on` };
  const native = chain.nativeToken;
  const recommended = sample.averageGas * RECOMMENDED_TRANSACTIONS * gas.gasPriceWei;
  const limit = max(recommended * LIMIT_MULTIPLE, usdInToken(LIMIT_FLOOR_USD, native));
  return {
    available: true,
    chain,
    gasPriceWei: gas.gasPriceWei,
    sample,
    recommended: gasAmount(native, recommended),
    limit: gasAmount(native, limit),
  };
}

export function gasAmount(token: Token, amount: bigint): GasAmount {
  return { token, amount, amountUSD: usd(amount, token) };
}

/** The amount of `token` worth `dollars` at its reference price, rounded down: floor(USD·10^dec / price). */
export function usdInToken(dollars: string, token: Token): bigint {
  const price = scaledPrice(token.priceUSD);
  if (price === 0n) return 0n;
  return (scaledPrice(dollars) * 10n ** BigInt(token.decimals)) / price;
}

const max = (a: bigint, b: bigint): bigint => (a > b ? a : b);
