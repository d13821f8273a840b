/** An integrator's collected fees per chain, with USD values at the catalog's reference prices. */
import type { Catalog } from '../catalog/catalog';
import type { Token } from '../entities';
import { NotFoundError } from '../errors';
import { usd } from '../routing/pricing';
import type { FeeLedger, IntegratorFees } from './feeLedger';

export interface TokenFeeBalance {
  readonly token: Token;
  readonly amount: bigint;
  /** Float, display only (see routing/pricing usd()). */
  readonly amountUSD: number;
}

export interface ChainFeeBalances {
  readonly chainId: number;
  readonly tokenBalances: readonly TokenFeeBalance[];
}

export interface IntegratorFeeReport {
  readonly integratorId: string;
  /** Every chain of the catalog, by chain id; an empty list where nothing was collected. */
  readonly feeBalances: readonly ChainFeeBalances[];
  /** Chains whose figures are not current (their fee collector could not be read; see IntegratorFees). */
  readonly fallbackChains: readonly number[];
}

/** The integrator's record, or a 404 (code 1003) naming it. */
export async function requireIntegrator(ledger: Pick<FeeLedger, 'integrator'>, integratorId: string): Promise<IntegratorFees> {
  const integrator = await ledger.integrator(integratorId);
  if (!integrator) throw new NotFoundError(`integrator "${integratorId}" is unknown: no fees were ever collected for it`);
  return integrator;
}

/** Fee balances on every supported chain (ascending id); within a chain by symbol, then address. */
export async function integratorFeeReport(ledger: FeeLedger, catalog: Catalog, integratorId: string): Promise<IntegratorFeeReport> {
  return feeReportOf(await requireIntegrator(ledger, integratorId), catalog);
}

/** The report of an integrator's record (synchronous: no ledger read). */
export function feeReportOf(integrator: IntegratorFees, catalog: Catalog): IntegratorFeeReport {
  const chainIds = catalog.listChains().map((c) => c.id).sort((a, b) => a - b);
  return {
    integratorId: integrator.integratorId,
    feeBalances: chainIds.map((chainId) => ({ chainId, tokenBalances: balancesOn(integrator, chainId, catalog) })),
    fallbackChains: integrator.fallbackChains ?? [],
  };
}

/**
 * The integrator's non-zero balances on one chain, by symbol then address (code-unit order). With the catalog in use,
 * each token as it has it now (in chain mode its price follows the chains: a new catalog), so that amountUSD is
 * priced as quotes are; the ledger's token where the catalog does not know it.
 */
export function balancesOn(integrator: IntegratorFees, chainId: number, catalog?: Catalog): TokenFeeBalance[] {
  return integrator.balances
    .filter((b) => b.chainId === chainId && b.amount > 0n)
    .sort((a, b) => compare(a.token.symbol, b.token.symbol) || compare(a.token.address, b.token.address))
    .map((b) => {
      const token = catalog?.findToken(chainId, b.token.address) ?? b.token;
      return { token, amount: b.amount, amountUSD: usd(b.amount, token) };
    });
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
