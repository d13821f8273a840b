/**
 * The local fee ledger: integrators' collected fees from a seed file (data/integrators/ledger.json, or the file
 * of FEE_LEDGER_FILE), validated against the catalog at start-up. A bad file stops the start with a message
 * naming the entry. In chain mode it still names the integrators and their fee wallets, and gives the figures of
 * the chains that are not connected (src/chain/feeLedger.ts).
 */
import { getAddress } from 'ethers';
import type { Catalog } from '../catalog/catalog';
import { familyOf } from '../chains/families';
import type { FeeBalance, FeeLedger, IntegratorFees } from './feeLedger';

const SCHEMA_VERSION = 1;
/** Integrator ids as the contract accepts them (IntegratorString). */
const INTEGRATOR_ID = /^[a-zA-Z0-9._-]{1,64}$/;
const AMOUNT = /^[0-9]{1,78}$/;

export class FeeLedgerDataError extends Error {
  constructor(message: string) {
    super(`fee ledger: ${message}`);
    this.name = 'FeeLedgerDataError';
  }
}

/* Wire shape of the ledger file. */
interface RawBalance { token: string; symbol?: string; amount: string }
interface RawIntegrator { integratorId: string; feeWallet?: string; balances: Record<string, RawBalance[]> }
interface RawLedger { schemaVersion: number; asOf?: string; note?: string; integrators: RawIntegrator[] }

/** An in-memory ledger (the seed file, or fixtures in tests). */
export class InMemoryFeeLedger implements FeeLedger {
  private readonly byId = new Map<string, IntegratorFees>();

  constructor(integrators: readonly IntegratorFees[]) {
    for (const integrator of integrators) this.byId.set(integrator.integratorId, integrator);
  }

  /** The integrator's seeded record, synchronously. */
  get(integratorId: string): IntegratorFees | undefined {
    return this.byId.get(integratorId);
  }

  integrator(integratorId: string): Promise<IntegratorFees | undefined> {
    return Promise.resolve(this.byId.get(integratorId));
  }

  feeWallet(integratorId: string): string | undefined {
    return this.byId.get(integratorId)?.feeWallet;
  }

  get integratorIds(): readonly string[] {
    return [...this.byId.keys()];
  }
}

/**
 * Checks a parsed ledger file: known integrator ids (contract pattern, each once), checksummed fee
 * wallets, EVM catalog chains, catalog tokens given by their exact catalog address (and symbol, when
 * written), positive integer amounts, each (chain, token) once per integrator.
 */
export function parseLedger(parsed: unknown, catalog: Catalog, where = 'ledger'): IntegratorFees[] {
  const fail = (message: string): never => {
    throw new FeeLedgerDataError(`${where}: ${message}`);
  };
  const data = parsed as Partial<RawLedger> | null;
  if (!data || typeof data !== 'object') return fail('not a JSON object');
  if (data.schemaVersion !== SCHEMA_VERSION) fail(`schemaVersion ${String(data.schemaVersion)}, this build reads ${SCHEMA_VERSION}`);
  if (!Array.isArray(data.integrators)) return fail('integrators must be an array');
  const seen = new Set<string>();
  return data.integrators.map((raw, k): IntegratorFees => {
    const id = raw?.integratorId;
    if (typeof id !== 'string' || !INTEGRATOR_ID.test(id)) return fail(`integrators[${k}].integratorId must match ${INTEGRATOR_ID}, got ${JSON.stringify(id)}`);
    if (seen.has(id)) fail(`integrator ${id} is listed twice`);
    seen.add(id);
    const where = `integrator ${id}`;
    if (raw.feeWallet !== undefined && !isChecksummed(raw.feeWallet)) fail(`${where}: feeWallet must be an EIP-55 checksummed EVM address, got ${JSON.stringify(raw.feeWallet)}`);
    if (!raw.balances || typeof raw.balances !== 'object' || Array.isArray(raw.balances)) return fail(`${where}: balances must be an object of chain id to token balances`);
    const balances: FeeBalance[] = [];
    for (const [chainKey, list] of Object.entries(raw.balances)) {
      const chain = /^[0-9]+$/.test(chainKey) ? catalog.getChain(Number(chainKey)) : undefined;
      if (!chain) return fail(`${where}: chain ${chainKey} is not in the catalog`);
      if (!familyOf(chain).evmContracts) fail(`${where}: chain ${chainKey} is not an EVM chain (the fee collector runs on EVM chains)`);
      if (!Array.isArray(list)) return fail(`${where}: balances of chain ${chainKey} must be an array`);
      const tokens = new Set<string>();
      for (const b of list) {
        const token = typeof b?.token === 'string' ? catalog.findToken(chain.id, b.token) : undefined;
        if (!token || token.address !== b.token) return fail(`${where}: token ${JSON.stringify(b?.token)} is not a catalog token address of chain ${chain.id}`);
        if (b.symbol !== undefined && b.symbol !== token.symbol) fail(`${where}: token ${b.token} on chain ${chain.id} is ${token.symbol}, not ${b.symbol}`);
        if (tokens.has(token.address)) fail(`${where}: token ${token.symbol} on chain ${chain.id} is listed twice`);
        tokens.add(token.address);
        if (typeof b.amount !== 'string' || !AMOUNT.test(b.amount) || BigInt(b.amount) === 0n) {
          fail(`${where}: amount of ${token.symbol} on chain ${chain.id} must be a positive integer string, got ${JSON.stringify(b.amount)}`);
        }
        balances.push({ chainId: chain.id, token, amount: BigInt(b.amount) });
      }
    }
    return { integratorId: id, ...(raw.feeWallet !== undefined ? { feeWallet: raw.feeWallet } : {}), balances };
  });
}

function isChecksummed(value: unknown): boolean {
  try {
    return typeof value === 'string' && getAddress(value) === value;
  } catch {
    return false;
  }
}
