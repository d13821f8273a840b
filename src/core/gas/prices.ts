/**
 * Gas prices per chain, as the ecosystem's `GET /v1/gas/prices` gives them: three tiers in wei and when the price was
 * last read. `standard` is the price the quotes use (the liquidity graph's: the chain's eth_gasPrice in chain mode,
 * the snapshot's otherwise); `fast` and `fastest` add a priority margin of 10 % and 25 % (rounded up), for a wallet
 * that wants its transaction in sooner than the quotes assume. EVM chains only (the unit is wei).
 */
import type { Catalog } from '../catalog/catalog';
import type { Chain } from '../entities';
import { familyOf } from '../chains/families';
import type { ChainGas } from '../liquidity/snapshot';

export const FAST_MARGIN_PERCENT = 10n;
export const FASTEST_MARGIN_PERCENT = 25n;

export interface GasPrices {
  readonly chainId: number;
  readonly standard: bigint;
  readonly fast: bigint;
  readonly fastest: bigint;
  /** Unix time in milliseconds of the price read (chain mode), or of the snapshot. */
  readonly lastUpdated: number;
}

export function gasPricesOf(gas: ChainGas, snapshotAsOf: string): GasPrices {
  const standard = gas.gasPriceWei;
  const withMargin = (percent: bigint): bigint => (standard * (100n + percent) + 99n) / 100n;
  return {
    chainId: gas.chainId,
    standard,
    fast: withMargin(FAST_MARGIN_PERCENT),
    fastest: withMargin(FASTEST_MARGIN_PERCENT),
    // the snapshot's asOf: a date (UTC midnight) for the embedded one, the time it was read in chain mode
    lastUpdated: gas.updatedAt ?? Date.parse(snapshotAsOf),
  };
}

/** The gas prices of every EVM chain of the catalog that has one, by chain id. */
export function allGasPrices(catalog: Catalog, gas: ReadonlyMap<number, ChainGas>, snapshotAsOf: string): GasPrices[] {
  return catalog.chains.flatMap((chain: Chain) => {
    const chainGas = familyOf(chain).evmContracts ? gas.get(chain.id) : undefined;
    return chainGas ? [gasPricesOf(chainGas, snapshotAsOf)] : [];
  });
}
