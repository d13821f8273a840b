import { Wallet } from 'ethers';
import { SiweMessage } from 'siwe';
import { openDatabase, type Database } from '../../../src/persistence/database';
import { MAX_MESSAGE_MS, NONCE_TTL_MS, NonceStore, SIGN_IN_STATEMENT, SignInError, signInMessage, verifySignIn, type SignInContext } from '../../../src/portal/siwe';
import { databaseEngines, emptyTables } from '../../support/postgres';

const wallet = new Wallet(`0x${'42'.repeat(32)}`);
const other = new Wallet(`0x${'43'.repeat(32)}`);
const HOST = 'portal.example:8443';
const ORIGIN = `https://${HOST}`;
const NOW = Date.parse('2026-05-01T12:00:00.000Z');

function fakeClock(start = NOW) {
  const clock = { now: start, read: () => clock.now };
  return clock;
}

describe.each(databaseEngines())('NonceStore on $name', (engine) => {
  beforeAll(() => engine.start(), 120_000);
  afterAll(() => engine.stop());
  beforeEach(() => emptyTables(engine.shared()));
  const db = () => engine.shared().db;
  const held = async () => (await db().selectFrom('portal_nonces').select('nonce').execute()).map((row) => row.nonce).sort();

  test('issues 128-bit hex nonces, each taken once', async () => {
    const nonces = new NonceStore(db(), { clock: () => NOW });
    const { nonce, expiresAt } = await nonces.issue();
    expect(nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(expiresAt).toBe(NOW + NONCE_TTL_MS);
    expect((await nonces.issue()).nonce).not.toBe(nonce);
    expect(await nonces.consume(nonce)).toBe(true);
    expect(await nonces.consume(nonce)).toBe(false);
    expect(await nonces.consume('0123456789abcdef0123456789abcdef')).toBe(false);
    expect(await nonces.consume('not a nonce; drop table portal_nonces')).toBe(false);
    expect(await nonces.consume(nonce.toUpperCase())).toBe(false);
  });

  test('a nonce expires after its time to live', async () => {
    const clock = fakeClock();
    const nonces = new NonceStore(db(), { clock: clock.read, ttlMs: 1000 });
    const early = (await nonces.issue()).nonce;
    const late = (await nonces.issue()).nonce;
    clock.now += 999;
    expect(await nonces.consume(early)).toBe(true);
    clock.now += 1;
    expect(await nonces.consume(late)).toBe(false);
  });

  test('a nonce issued by one store is taken by another on the database (another instance, a restart), once', async () => {
    const issuer = new NonceStore(db(), { clock: () => NOW });
    const { nonce } = await issuer.issue();
    const connection = await engine.secondConnection();
    const other = new NonceStore(async () => connection.db, { clock: () => NOW + 1000 });
    expect(await other.consume(nonce)).toBe(true);
    expect(await issuer.consume(nonce)).toBe(false);
  });

  test('presented at the same moment, on two connections, a nonce is taken once', async () => {
    const first = new NonceStore(db(), { clock: () => NOW });
    const second = new NonceStore((await engine.secondConnection()).db, { clock: () => NOW });
    for (let round = 0; round < 5; round += 1) {
      const { nonce } = await first.issue();
      const taken = await Promise.all([first.consume(nonce), second.consume(nonce), first.consume(nonce), second.consume(nonce)]);
      expect(taken.filter(Boolean)).toHaveLength(1);
    }
    expect(await held()).toEqual([]);
  });

  test('issuing removes expired nonces, a bounded batch at a time', async () => {
    const clock = fakeClock();
    const nonces = new NonceStore(db(), { clock: clock.read, ttlMs: 1000, purgeBatch: 2 });
    const old = await Promise.all([1, 2, 3].map(async () => (await nonces.issue()).nonce));
    clock.now += 1000; // all three expired
    const fresh = (await nonces.issue()).nonce;
    expect(await held()).toHaveLength(2); // two of the three expired went, the new one is there
    expect(await held()).toContain(fresh);
    await nonces.issue();
    const remaining = await held();
    expect(remaining).toHaveLength(2);
    for (const nonce of old) expect(remaining).not.toContain(nonce);
    expect(await nonces.consume(fresh)).toBe(true);
  });
});

describe('verifySignIn', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ dir: 'memory://' });
  }, 60_000);
  afterAll(() => database?.close());
  const nonceStore = () => new NonceStore(database.db, { clock: () => NOW });

  const context = (overrides: Partial<SignInContext> = {}): SignInContext => ({ origins: [ORIGIN, 'http://localhost:8080'], chainIds: new Set([1, 42161]), now: NOW, ...overrides });

  async function signed(nonces: NonceStore, fields: Partial<ConstructorParameters<typeof SiweMessage>[0] & object> = {}, signer: Wallet = wallet) {
    const nonce = (await nonces.issue()).nonce;
    const message = new SiweMessage({
      domain: HOST,
      address: wallet.address,
      statement: SIGN_IN_STATEMENT,
      uri: `${ORIGIN}/portal`,
      version: '1',
      chainId: 42161,
      nonce,
      issuedAt: new Date(NOW).toISOString(),
      expirationTime: new Date(NOW + 5 * 60_000).toISOString(),
      ...fields,
    }).prepareMessage();
    return { message, signature: await signer.signMessage(message), nonce };
  }

  async function refusal(promise: Promise<unknown>): Promise<SignInError> {
    const error = await promise.then(() => undefined, (e: unknown) => e);
    if (!(error instanceof SignInError)) throw new Error(`expected a SignInError, got ${String(error)}`);
    return error;
  }

  test('a message for this host, an accepted chain, current and signed by its address signs that address in', async () => {
    const nonces = nonceStore();
    const input = await signed(nonces);
    await expect(verifySignIn(input, context(), nonces)).resolves.toEqual({ address: wallet.address, chainId: 42161 });
  });

  test('the message the page builds (signInMessage) verifies', async () => {
    const nonces = nonceStore();
    const message = signInMessage({ origin: ORIGIN, address: wallet.address, chainId: 1, nonce: (await nonces.issue()).nonce, now: NOW });
    expect(message).toContain(`${HOST} wants you to sign in with your Ethereum account:\n${wallet.address}\n\n`);
    expect(message).toContain(`\nURI: ${ORIGIN}/portal\nVersion: 1\nChain ID: 1\n`);
    await expect(verifySignIn({ message, signature: await wallet.signMessage(message) }, context(), nonces)).resolves.toEqual({ address: wallet.address, chainId: 1 });
  });

  test('a nonce signs in once', async () => {
    const nonces = nonceStore();
    const input = await signed(nonces);
    await verifySignIn(input, context(), nonces);
    const error = await refusal(verifySignIn(input, context(), nonces));
    expect(error.status).toBe(401);
    expect(error.message).toMatch(/nonce was not issued here, has expired or was used already/);
  });

  test('a refused attempt uses its nonce up too', async () => {
    const nonces = nonceStore();
    const input = await signed(nonces, {}, other);
    expect((await refusal(verifySignIn(input, context(), nonces))).message).toMatch(/is not the signature of/);
    expect(await nonces.consume(input.nonce)).toBe(false);
  });

  test.each([
    ['another domain', { domain: 'evil.example' }, {}, /is for domain "evil\.example", not this portal \(portal\.example:8443, localhost:8080\)/],
    ['a URI on another host', { uri: 'https://evil.example/portal' }, {}, /URI https:\/\/evil\.example\/portal is not on https:\/\/portal\.example:8443/],
    ['a URI on the portal\'s host with another scheme', { uri: `http://${HOST}/portal` }, {}, /is not on https:\/\/portal\.example:8443/],
    ['a URI on another of the portal\'s origins', { uri: 'http://localhost:8080/portal' }, {}, /is not on https:\/\/portal\.example:8443/],
    ['another statement', { statement: 'Sign in to NFT Game' }, {}, /statement is not the portal's/],
    ['no statement', { statement: undefined }, {}, /statement is not the portal's/],
    ['a scheme other than the portal\'s', { scheme: 'http' }, {}, /scheme "http" is not the portal's \(https\)/],
    ['a message for the origin a client claims as its Host', { domain: 'nft-game.example', uri: 'https://nft-game.example/login' }, {}, /is for domain "nft-game\.example", not this portal/],
    ['a chain not accepted', { chainId: 56 }, {}, /chain id 56 is not accepted: .*\(1, 42161\)/],
    ['an expired message', { issuedAt: new Date(NOW - 10 * 60_000).toISOString(), expirationTime: new Date(NOW - 1).toISOString() }, {}, /the message expired at/],
    ['a message issued in the future', { issuedAt: new Date(NOW + 5 * 60_000).toISOString(), expirationTime: new Date(NOW + 9 * 60_000).toISOString() }, {}, /issued in the future/],
    ['a message living too long', { expirationTime: new Date(NOW + MAX_MESSAGE_MS + 1).toISOString() }, {}, /lives longer than 10 minutes/],
    ['a message not valid yet', { notBefore: new Date(NOW + 5 * 60_000).toISOString() }, {}, /not valid before/],
    ['any message when no origin is configured', {}, { origins: [] }, /not this portal \(\)/],
  ] as const)('refuses %s', async (_what, fields, contextOverrides, expected) => {
    const nonces = nonceStore();
    const error = await refusal(verifySignIn(await signed(nonces, fields), context(contextOverrides), nonces));
    expect(error.message).toMatch(expected);
  });

  test('refuses a message without an expiration time (400)', async () => {
    const nonces = nonceStore();
    const error = await refusal(verifySignIn(await signed(nonces, { expirationTime: undefined }), context(), nonces));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/has no Expiration Time/);
  });

  test('refuses malformed input before checking anything (400)', async () => {
    const nonces = nonceStore();
    const good = await signed(nonces);
    const cases: Array<[unknown, unknown, RegExp]> = [
      [undefined, good.signature, /message must be the signed EIP-4361/],
      ['x'.repeat(5000), good.signature, /longer than 4096/],
      [good.message, '0x1234', /0x and 130 hex digits/],
      [good.message, 42, /0x and 130 hex digits/],
      ['not a message', good.signature, /not an EIP-4361/],
      [good.message.replace(/\n/g, '\r\n'), good.signature, /not an EIP-4361|canonical/],
    ];
    for (const [message, signature, expected] of cases) {
      const error = await refusal(verifySignIn({ message, signature }, context(), nonces));
      expect(error.status).toBe(400);
      expect(error.message).toMatch(expected);
    }
    // none of those used the nonce up
    await expect(verifySignIn(good, context(), nonces)).resolves.toMatchObject({ address: wallet.address });
  });

  test('a message with a scheme must have the portal origin\'s', async () => {
    const nonces = nonceStore();
    await expect(verifySignIn(await signed(nonces, { scheme: 'https' }), context(), nonces)).resolves.toMatchObject({ address: wallet.address });
    const error = await refusal(verifySignIn(await signed(nonces, { scheme: 'ftp' }), context(), nonces));
    expect(error.message).toMatch(/scheme "ftp"/);
  });

  test('a message for any of the portal\'s origins signs in', async () => {
    const nonces = nonceStore();
    const message = signInMessage({ origin: 'http://localhost:8080', address: wallet.address, chainId: 1, nonce: (await nonces.issue()).nonce, now: NOW });
    await expect(verifySignIn({ message, signature: await wallet.signMessage(message) }, context(), nonces)).resolves.toEqual({ address: wallet.address, chainId: 1 });
  });
});
