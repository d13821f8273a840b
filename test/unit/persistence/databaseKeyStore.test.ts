import { DatabaseKeyStore } from '../../../src/persistence/databaseKeyStore';
import { createKey } from '../../../src/persistence/keys';
import { databaseEngines, emptyTables } from '../../support/postgres';

const T0 = new Date('2025-01-01T00:00:00Z');
const by = { actor: 'cli:ops', now: T0 };

describe.each(databaseEngines())('the database key store on $name', (engine) => {
  beforeAll(() => engine.start(), 120_000);
  afterAll(() => engine.stop());
  beforeEach(() => emptyTables(engine.shared()));
  const db = () => engine.shared().db;

  it('the store remembers answers for a second and asks once for lookups at the same time; a failed query is not remembered', async () => {
    let now = T0.getTime();
    const { key, view } = await createKey(db(), { name: 'a' }, by);
    let queries = 0;
    const counting = db().withPlugin({
      transformQuery: (args) => {
        queries += 1;
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    const store = new DatabaseKeyStore(counting, { clock: () => now });
    await Promise.all([store.authenticate(key), store.authenticate(key), store.authenticate(key)]);
    expect(queries).toBe(1);
    now += 500;
    await store.authenticate(key);
    await store.authenticate('svc_unknown');
    await store.authenticate('svc_unknown');
    expect(queries).toBe(2);
    now += 500;
    await store.authenticate(key);
    expect(queries).toBe(3);

    let fail = true;
    const flaky = db().withPlugin({
      transformQuery: (args) => {
        if (fail) throw new Error('connection lost');
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    const flakyStore = new DatabaseKeyStore(flaky, { clock: () => now });
    await expect(flakyStore.authenticate(key)).rejects.toThrow('connection lost');
    fail = false;
    expect((await flakyStore.authenticate(key))?.record.id).toBe(view.id);
  });
});
