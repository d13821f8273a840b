/**
 * Partners and their integrators, the one place that defines an integrator: its id (the contract's
 * IntegratorString, registered once), the wallet its fees are booked to and withdrawn by (`feeWallet`: the partner,
 * identified by that address, EIP-55 checksummed), and its keys.
 */
import { getAddress } from 'ethers';
import type { Kysely } from 'kysely';
import { INTEGRATOR_ID_PATTERN } from '../core/access/keyFile';
import { ConflictError, InvalidValueError, isUniqueViolation } from './errors';
import type { KeyView } from './keyRows';
import { listKeys } from './keys';
import type { Schema } from './schema';

export interface Partner {
  /** EIP-55 checksummed. */
  readonly wallet: string;
  readonly name?: string;
  /** ISO 8601. */
  readonly createdAt: string;
}

export interface Integrator {
  readonly integratorId: string;
  /** EIP-55 checksummed: the partner's wallet. */
  readonly feeWallet: string;
  /** ISO 8601. */
  readonly createdAt: string;
}

export interface IntegratorWithKeys extends Integrator {
  /** The keys that belong to the integrator and still authenticate. */
  readonly keys: readonly KeyView[];
}

/** The EIP-55 form of an EVM address; InvalidValueError naming `field` otherwise. */
export function checksumAddress(address: string, field = 'wallet'): string {
  try {
    return getAddress(address.trim());
  } catch {
    throw new InvalidValueError(`${field} must be an EVM address (0x and 40 hex digits, with a valid checksum if mixed-case): "${address}"`);
  }
}

function checkIntegratorId(integratorId: string): void {
  if (!INTEGRATOR_ID_PATTERN.test(integratorId)) throw new InvalidValueError(`integrator id must match ${INTEGRATOR_ID_PATTERN.source}: "${integratorId}"`);
}

/** Registers a partner by wallet, or names it if it exists; returns it. */
export async function registerPartner(db: Kysely<Schema>, input: { readonly wallet: string; readonly name?: string }): Promise<Partner> {
  const wallet = checksumAddress(input.wallet);
  const insert = db.insertInto('partners').values({ wallet, name: input.name ?? null });
  await (input.name === undefined ? insert.onConflict((oc) => oc.column('wallet').doNothing()) : insert.onConflict((oc) => oc.column('wallet').doUpdateSet({ name: input.name }))).execute();
  return (await getPartner(db, wallet))!;
}

export async function getPartner(db: Kysely<Schema>, wallet: string): Promise<Partner | undefined> {
  const row = await db.selectFrom('partners').selectAll().where('wallet', '=', checksumAddress(wallet)).executeTakeFirst();
  return row && { wallet: row.wallet, ...(row.name === null ? {} : { name: row.name }), createdAt: new Date(row.created_at).toISOString() };
}

export interface IntegratorCaps {
  /** The most integrator ids one fee wallet may have; one beyond it is refused with a ConflictError. Absent: no cap. */
  readonly maxPerWallet?: number;
}

/**
 * Registers an integrator id for the wallet that receives its fees (the partner is registered with it). An id is
 * registered once, without regard to case: `ALICE-DAPP` is refused beside `alice-dapp` (a unique index on
 * lower(id) holds it, migration 0004), and a second registration, even at the same moment from another instance,
 * gets a ConflictError naming the id registered.
 *
 * With `caps.maxPerWallet`, the wallet's ids are counted and the new one inserted in one transaction that holds the
 * partner's row locked (SELECT ... FOR UPDATE): registrations of one wallet at the same moment, on any instance, are
 * counted one after the other, so the cap is never exceeded (on PostgreSQL, where transactions run side by side,
 * the lock is what orders them; PGlite runs one at a time anyway).
 */
export async function registerIntegrator(
  db: Kysely<Schema>,
  input: { readonly integratorId: string; readonly feeWallet: string },
  caps: IntegratorCaps = {},
): Promise<Integrator> {
  checkIntegratorId(input.integratorId);
  const feeWallet = checksumAddress(input.feeWallet, 'feeWallet');
  try {
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('partners').values({ wallet: feeWallet, name: null }).onConflict((oc) => oc.column('wallet').doNothing()).execute();
      await trx.selectFrom('partners').select('wallet').where('wallet', '=', feeWallet).forUpdate().executeTakeFirstOrThrow();
      const registered = await registeredAs(trx, input.integratorId);
      if (registered !== undefined) throw idTaken(input.integratorId, registered);
      if (caps.maxPerWallet !== undefined) {
        const { count } = await trx.selectFrom('integrators').select((eb) => eb.fn.countAll().as('count')).where('fee_wallet', '=', feeWallet).executeTakeFirstOrThrow();
        if (Number(count) >= caps.maxPerWallet) throw new ConflictError(`wallet ${feeWallet} has ${Number(count)} integrator ids, the most a wallet may register (${caps.maxPerWallet})`);
      }
      await trx.insertInto('integrators').values({ id: input.integratorId, fee_wallet: feeWallet }).execute();
    });
  } catch (error) {
    // registered at the same moment by another transaction: the unique indexes decide, the message names the winner
    if (isUniqueViolation(error, 'integrators_pkey') || isUniqueViolation(error, INTEGRATOR_ID_FOLDED_INDEX)) {
      throw idTaken(input.integratorId, (await registeredAs(db, input.integratorId)) ?? input.integratorId);
    }
    throw error;
  }
  return (await getIntegrator(db, input.integratorId))!;
}

/** The unique index on lower(id) (migration 0004): ids are unique without regard to case. */
const INTEGRATOR_ID_FOLDED_INDEX = 'integrators_id_folded';

/** The registered id that equals `integratorId` without regard to case, if any (ids are ASCII: lower() folds them). */
export async function registeredAs(db: Kysely<Schema>, integratorId: string): Promise<string | undefined> {
  const row = await db.selectFrom('integrators').select('id').where((eb) => eb(eb.fn('lower', ['id']), '=', integratorId.toLowerCase())).executeTakeFirst();
  return row?.id;
}

function idTaken(integratorId: string, registered: string): ConflictError {
  if (registered === integratorId) return new ConflictError(`integrator id "${integratorId}" is already registered`);
  return new ConflictError(`integrator id "${integratorId}" is taken: "${registered}" is registered, and ids are compared without regard to case`);
}

/** The integrator (without its keys), or undefined. */
export async function getIntegrator(db: Kysely<Schema>, integratorId: string): Promise<Integrator | undefined> {
  const row = await db.selectFrom('integrators').selectAll().where('id', '=', integratorId).executeTakeFirst();
  return row && toIntegrator(row);
}

/** The integrator with the keys that belong to it and still authenticate, or undefined. */
export async function integratorWithKeys(db: Kysely<Schema>, integratorId: string, now: Date = new Date()): Promise<IntegratorWithKeys | undefined> {
  const integrator = await getIntegrator(db, integratorId);
  if (!integrator) return undefined;
  return { ...integrator, keys: await listKeys(db, { integratorId, now }) };
}

/** Integrators by id; only those of one fee wallet with `feeWallet`. */
export async function listIntegrators(db: Kysely<Schema>, options: { readonly feeWallet?: string } = {}): Promise<Integrator[]> {
  let query = db.selectFrom('integrators').selectAll();
  if (options.feeWallet !== undefined) query = query.where('fee_wallet', '=', checksumAddress(options.feeWallet, 'feeWallet'));
  return (await query.orderBy('id').execute()).map(toIntegrator);
}

export interface SeedEntry {
  readonly integratorId: string;
  readonly feeWallet: string;
}

/**
 * Registers the integrators of a seed (the fee ledger's `integrators`: id and feeWallet) that are not registered
 * yet; one registered already keeps its fee wallet. Returns the ids added and those already there.
 */
export async function seedIntegrators(db: Kysely<Schema>, entries: readonly SeedEntry[]): Promise<{ added: string[]; existing: string[] }> {
  const seeds = entries.map((entry) => {
    checkIntegratorId(entry.integratorId);
    return { id: entry.integratorId, fee_wallet: checksumAddress(entry.feeWallet, `feeWallet of ${entry.integratorId}`) };
  });
  if (seeds.length === 0) return { added: [], existing: [] };
  const added = await db.transaction().execute(async (trx) => {
    const wallets = [...new Set(seeds.map((seed) => seed.fee_wallet))];
    await trx.insertInto('partners').values(wallets.map((wallet) => ({ wallet, name: null }))).onConflict((oc) => oc.column('wallet').doNothing()).execute();
    // an id registered already, in any case (the pkey, or the unique index on lower(id)), is left as it is
    const rows = await trx.insertInto('integrators').values(seeds).onConflict((oc) => oc.doNothing()).returning('id').execute();
    return rows.map((row) => row.id);
  });
  const addedSet = new Set(added);
  return { added: seeds.filter((seed) => addedSet.has(seed.id)).map((seed) => seed.id), existing: seeds.filter((seed) => !addedSet.has(seed.id)).map((seed) => seed.id) };
}

function toIntegrator(row: { id: string; fee_wallet: string; created_at: Date }): Integrator {
  return { integratorId: row.id, feeWallet: row.fee_wallet, createdAt: new Date(row.created_at).toISOString() };
}

/**
 * The registered integrators' fee wallets, read again every `refreshMs` (one query), for what must know them at once:
 * the transactions book an integrator's fees under its fee wallet (src/server/dependencies.ts integratorAddress), so
 * an integrator registered in the portal withdraws its fees with the wallet it signed in with.
 */
export class IntegratorDirectory {
  private wallets = new Map<string, string>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly db: Kysely<Schema>,
    private readonly options: { readonly refreshMs?: number; readonly onError?: (error: Error) => void } = {},
  ) {}

  feeWallet(integratorId: string): string | undefined {
    return this.wallets.get(integratorId);
  }

  async refresh(): Promise<void> {
    const rows = await this.db.selectFrom('integrators').select(['id', 'fee_wallet']).execute();
    this.wallets = new Map(rows.map((row) => [row.id, row.fee_wallet]));
  }

  start(): void {
    this.timer = setInterval(() => this.refresh().catch((error: Error) => this.options.onError?.(error)), this.options.refreshMs ?? 2000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
