import fs from 'node:fs';
import path from 'node:path';
import { ConflictError, InvalidValueError } from '../../../src/persistence/errors';
import {
  checksumAddress,
  getIntegrator,
  getPartner,
  integratorWithKeys,
  listIntegrators,
  registerIntegrator,
  registerPartner,
  registeredAs,
  seedIntegrators,
} from '../../../src/persistence/integrators';
import { createKey, revokeKey } from '../../../src/persistence/keys';
import { PROJECT_ROOT } from '../../../src/projectRoot';
import { databaseEngines, emptyTables } from '../../support/postgres';

const WALLET = '0x552008c0F6870C2f77e5cC1d2Eb9bdff03E30Ea9';
const OTHER_WALLET = '0xD6345B798ADA3A1a36E85424003D1ff14e3883b7';
const by = { actor: 'test', now: new Date('2025-01-01T00:00:00Z') };

describe.each(databaseEngines())('integrators on $name', (engine) => {
  beforeAll(() => engine.start(), 120_000);
  afterAll(() => engine.stop());
  beforeEach(() => emptyTables(engine.shared()));
  const db = () => engine.shared().db;

  it('an integrator id is registered once for its fee wallet, stored checksummed', async () => {
    const integrator = await registerIntegrator(db(), { integratorId: 'acme', feeWallet: WALLET.toLowerCase() });
    expect(integrator).toEqual({ integratorId: 'acme', feeWallet: WALLET, createdAt: expect.any(String) });
    expect(await getPartner(db(), WALLET.toLowerCase())).toEqual({ wallet: WALLET, createdAt: expect.any(String) });
    await expect(registerIntegrator(db(), { integratorId: 'acme', feeWallet: OTHER_WALLET })).rejects.toThrow(new ConflictError('integrator id "acme" is already registered'));
    expect(await getIntegrator(db(), 'acme')).toMatchObject({ feeWallet: WALLET });
    await expect(registerIntegrator(db(), { integratorId: 'has space', feeWallet: WALLET })).rejects.toThrow(InvalidValueError);
    await expect(registerIntegrator(db(), { integratorId: 'x', feeWallet: '0x1234' })).rejects.toThrow(/feeWallet must be an EVM address/);
    // a mixed-case address with a wrong checksum is a typo, not an address
    await expect(registerIntegrator(db(), { integratorId: 'y', feeWallet: WALLET.replace('F6870C', 'f6870C') })).rejects.toThrow(InvalidValueError);
    expect(await getIntegrator(db(), 'nobody')).toBeUndefined();
  });

  it('registering the same id at the same moment: exactly one wins, the others get a clear error', async () => {
    const wallets = [WALLET, OTHER_WALLET, WALLET, OTHER_WALLET, WALLET];
    const results = await Promise.allSettled(wallets.map((feeWallet) => registerIntegrator(db(), { integratorId: 'race', feeWallet })));
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost.map((r) => (r.reason as Error).message)).toEqual(Array(4).fill('integrator id "race" is already registered'));
    expect(lost.every((r) => r.reason instanceof ConflictError)).toBe(true);
    expect(await listIntegrators(db())).toHaveLength(1);
  });

  it('ids are unique without regard to case: ALICE-DAPP is refused beside alice-dapp, naming the id registered, even at the same moment', async () => {
    await registerIntegrator(db(), { integratorId: 'alice-dapp', feeWallet: WALLET });
    for (const integratorId of ['ALICE-DAPP', 'Alice-Dapp', 'alice-DAPP']) {
      await expect(registerIntegrator(db(), { integratorId, feeWallet: OTHER_WALLET })).rejects.toThrow(
        new ConflictError(`integrator id "${integratorId}" is taken: "alice-dapp" is registered, and ids are compared without regard to case`),
      );
    }
    expect(await registeredAs(db(), 'ALICE-dapp')).toBe('alice-dapp');
    expect(await registeredAs(db(), 'bob')).toBeUndefined();
    // two case variants at the same moment: one wins, the other is told which
    const results = await Promise.allSettled([registerIntegrator(db(), { integratorId: 'bob', feeWallet: WALLET }), registerIntegrator(db(), { integratorId: 'BOB', feeWallet: OTHER_WALLET })]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const lost = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')!;
    expect(lost.reason).toBeInstanceOf(ConflictError);
    expect((lost.reason as Error).message).toMatch(/^integrator id "(bob|BOB)" is taken: "(BOB|bob)" is registered, and ids are compared without regard to case$/);
    // the fee ledger's seed does not add a case variant of a registered id either
    expect(await seedIntegrators(db(), [{ integratorId: 'ALICE-DAPP', feeWallet: OTHER_WALLET }])).toEqual({ added: [], existing: ['ALICE-DAPP'] });
    expect((await listIntegrators(db())).map((i) => i.integratorId.toLowerCase()).sort()).toEqual(['alice-dapp', 'bob']);
  });

  it('the cap of ids per wallet holds for 30 registrations at the same moment: exactly 20 registered, 10 refused', async () => {
    // two pools on PostgreSQL (transactions truly side by side); PGlite's single connection queues them
    const second = await engine.secondConnection();
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, (_, k) => registerIntegrator((k % 2 === 0 ? engine.shared() : second).db, { integratorId: `dapp-${k}`, feeWallet: WALLET }, { maxPerWallet: 20 })),
    );
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(20);
    expect(refused).toHaveLength(10);
    for (const r of refused) expect(r.reason).toEqual(new ConflictError(`wallet ${WALLET} has 20 integrator ids, the most a wallet may register (20)`));
    expect(await listIntegrators(db(), { feeWallet: WALLET })).toHaveLength(20);
    // the cap is per wallet
    expect(await registerIntegrator(db(), { integratorId: 'theirs', feeWallet: OTHER_WALLET }, { maxPerWallet: 20 })).toMatchObject({ feeWallet: OTHER_WALLET });
  });

  it('one place says what an integrator is: its id, fee wallet and keys', async () => {
    await registerPartner(db(), { wallet: WALLET, name: 'Acme Ltd' });
    await registerIntegrator(db(), { integratorId: 'acme', feeWallet: WALLET });
    await registerIntegrator(db(), { integratorId: 'acme-eu', feeWallet: WALLET });
    await registerIntegrator(db(), { integratorId: 'other', feeWallet: OTHER_WALLET });
    const live = await createKey(db(), { name: 'live', integratorId: 'acme' }, by);
    const gone = await createKey(db(), { name: 'gone', integratorId: 'acme' }, by);
    await revokeKey(db(), gone.view.id, by);
    expect(await integratorWithKeys(db(), 'acme', by.now)).toEqual({ integratorId: 'acme', feeWallet: WALLET, createdAt: expect.any(String), keys: [live.view] });
    expect(await integratorWithKeys(db(), 'nobody')).toBeUndefined();
    expect((await listIntegrators(db(), { feeWallet: WALLET.toLowerCase() })).map((i) => i.integratorId)).toEqual(['acme', 'acme-eu']);
    expect(await getPartner(db(), WALLET)).toMatchObject({ name: 'Acme Ltd' });
    expect(await registerPartner(db(), { wallet: WALLET })).toMatchObject({ name: 'Acme Ltd' }); // no name given: kept
  });

  it('seeds the fee ledger\'s integrators once; a registered one keeps its wallet', async () => {
    const ledger = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'data', 'integrators', 'ledger.json'), 'utf8')) as { integrators: Array<{ integratorId: string; feeWallet?: string }> };
    const entries = ledger.integrators.flatMap((i) => (i.feeWallet ? [{ integratorId: i.integratorId, feeWallet: i.feeWallet }] : []));
    expect(entries.length).toBeGreaterThan(0);
    await registerIntegrator(db(), { integratorId: entries[0]!.integratorId, feeWallet: OTHER_WALLET });
    const first = await seedIntegrators(db(), entries);
    expect(first).toEqual({ added: entries.slice(1).map((e) => e.integratorId), existing: [entries[0]!.integratorId] });
    expect(await seedIntegrators(db(), entries)).toEqual({ added: [], existing: entries.map((e) => e.integratorId) });
    expect(await getIntegrator(db(), entries[0]!.integratorId)).toMatchObject({ feeWallet: OTHER_WALLET });
    for (const entry of entries.slice(1)) expect(await getIntegrator(db(), entry.integratorId)).toMatchObject({ feeWallet: checksumAddress(entry.feeWallet) });
    await expect(seedIntegrators(db(), [{ integratorId: 'z', feeWallet: 'nope' }])).rejects.toThrow(/feeWallet of z must be an EVM address/);
    expect(await seedIntegrators(db(), [])).toEqual({ added: [], existing: [] });
  });
});
