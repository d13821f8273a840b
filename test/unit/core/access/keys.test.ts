import { checkIntegrators, identifyAnonymous, identifyKey, type Caller } from '../../../../src/core/access/access';
import { parseAccessConfig } from '../../../../src/core/access/config';
import { AddressSet, clientAddress, clientLimitId, normalizeIp, parseTrustProxy } from '../../../../src/core/access/ipAddress';
import { KeyDocumentError, parseKeyDocument, serializeKeyDocument } from '../../../../src/core/access/keyFile';
import { generateApiKey, hashApiKey, keyFingerprint, type ApiKeyRecord } from '../../../../src/core/access/keys';
import { StaticKeyStore } from '../../../../src/core/access/keyStore';
import { DEFAULT_OPERATION_ACCESS, keyLimits, limitRule } from '../../../../src/core/access/policy';

const KEY_A = 'svc_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const KEY_B = 'svc_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
const recordA: ApiKeyRecord = { id: 'key_a', name: 'A', sha256: hashApiKey(KEY_A) };
const recordB: ApiKeyRecord = { id: 'key_b', sha256: hashApiKey(KEY_B), perMinute: 500, integrators: ['acme'], ipAllowlist: ['203.0.113.0/24', '2001:db8::/32'] };

describe('keys', () => {
  it('generates 256-bit keys and stores only their SHA-256', () => {
    const key = generateApiKey();
    expect(key).toMatch(/^svc_[A-Za-z0-9_-]{43}$/);
    expect(generateApiKey()).not.toBe(key);
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(keyFingerprint(key)).toHaveLength(12);
    expect(key).not.toContain(keyFingerprint(key));
  });

  it('StaticKeyStore finds a key by its hash and nothing else', async () => {
    const store = new StaticKeyStore([recordA, recordB]);
    expect((await store.authenticate(KEY_A))?.record.id).toBe('key_a');
    expect((await store.authenticate(KEY_B))?.record.id).toBe('key_b');
    expect(await store.authenticate(recordA.sha256)).toBeUndefined();
    expect(await store.authenticate('')).toBeUndefined();
    expect(await store.authenticate(`${KEY_A} `)).toBeUndefined();
    expect((await store.list()).map((k) => k.record.id)).toEqual(['key_a', 'key_b']);
  });
});

describe('key document', () => {
  it('round-trips and validates every field, naming every problem', () => {
    const text = serializeKeyDocument({ keys: [recordA, recordB] });
    expect(parseKeyDocument(text, 'f').keys).toEqual([recordA, recordB]);
    const bad = JSON.stringify({
      keys: [
        { id: 'ok', sha256: 'A'.repeat(64) },
        { id: 'has space', sha256: recordA.sha256, perMinue: 5 },
        { id: 'x', sha256: recordB.sha256, perMinute: 0, ipAllowlist: ['300.1.1.1'], integrators: ['bad id'], blocked: 'yes' },
        { id: 'x', sha256: recordB.sha256 },
      ],
    });
    try {
      parseKeyDocument(bad, 'keys.json');
      throw new Error('expected a KeyDocumentError');
    } catch (error) {
      expect(error).toBeInstanceOf(KeyDocumentError);
      const { problems, message } = error as KeyDocumentError;
      expect(message).toMatch(/^keys\.json: invalid API key document/);
      expect(problems).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/keys\[0\]\.sha256 must be 64 lower-case hex/),
          'keys[1] has an unknown field "perMinue"',
          expect.stringMatching(/keys\[1\]\.id must match/),
          expect.stringMatching(/keys\[2\]\.perMinute must be an integer/),
          expect.stringMatching(/keys\[2\]\.ipAllowlist: "300\.1\.1\.1" is not an IP/),
          expect.stringMatching(/keys\[2\]\.integrators must be/),
          'keys[2].blocked must be true or false',
          expect.stringMatching(/keys\[3\]\.sha256 is the hash of another key too/),
          'keys[3].id "x" is used twice',
        ]),
      );
    }
    expect(() => parseKeyDocument('nope', 'f')).toThrow(/not valid JSON/);
    expect(() => parseKeyDocument('[]', 'f')).toThrow(/expected an object/);
  });
});

describe('addresses', () => {
  it('normalises addresses', () => {
    expect(normalizeIp('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(normalizeIp('[2001:DB8::1]')).toBe('2001:db8::1');
    expect(normalizeIp('fe80::1%eth0')).toBe('fe80::1');
    expect(normalizeIp('nonsense')).toBeUndefined();
  });

  it('gives the same answers when asked again, after many other addresses', () => {
    const asked = ['::ffff:127.0.0.1', '[2001:DB8::1]', 'fe80::1%eth0', 'nonsense', ' 10.0.0.1 ', '', '__proto__', 'constructor'];
    const first = asked.map((raw) => normalizeIp(raw));
    expect(first).toEqual(['127.0.0.1', '2001:db8::1', 'fe80::1', undefined, '10.0.0.1', undefined, undefined, undefined]);
    for (let k = 0; k < 10_000; k++) expect(normalizeIp(`10.${k >> 8}.${k & 255}.1`)).toBe(`10.${k >> 8}.${k & 255}.1`);
    expect(asked.map((raw) => normalizeIp(raw))).toEqual(first);
    expect(normalizeIp(`${'1'.repeat(100)}`)).toBeUndefined();
    expect(normalizeIp(` ${' '.repeat(80)}10.0.0.1 `)).toBe('10.0.0.1');
  });

  it('matches addresses and CIDR ranges of both families', () => {
    const set = new AddressSet(['203.0.113.0/24', '2001:db8::/32', '198.51.100.7']);
    expect(set.has('203.0.113.200')).toBe(true);
    expect(set.has('::ffff:203.0.113.5')).toBe(true);
    expect(set.has('203.0.114.1')).toBe(false);
    expect(set.has('2001:db8:1::5')).toBe(true);
    expect(set.has('198.51.100.7')).toBe(true);
    expect(set.has('198.51.100.8')).toBe(false);
    expect(() => new AddressSet(['10.0.0.0/33'])).toThrow(/invalid prefix length/);
  });

  it('believes X-Forwarded-For only from trusted proxies', () => {
    const none = parseTrustProxy(undefined);
    expect(clientAddress('::ffff:10.0.0.1', '1.2.3.4', none)).toBe('10.0.0.1');
    const oneHop = parseTrustProxy('1');
    expect(clientAddress('10.0.0.1', '6.6.6.6, 1.2.3.4', oneHop)).toBe('1.2.3.4');
    expect(clientAddress('10.0.0.1', undefined, oneHop)).toBe('10.0.0.1');
    const listed = parseTrustProxy('loopback, 10.0.0.0/8');
    // spoofed leftmost entry is ignored: the first untrusted address from the right is the client
    expect(clientAddress('127.0.0.1', '6.6.6.6, 1.2.3.4, 10.1.1.1', listed)).toBe('1.2.3.4');
    expect(clientAddress('192.0.2.1', '1.2.3.4', listed)).toBe('192.0.2.1');
    expect(() => parseTrustProxy('true')).toThrow(/would believe any client/);
    expect(() => parseTrustProxy('proxy.local')).toThrow(/TRUST_PROXY must be/);
  });

  it('counts IPv6 clients per /64', () => {
    expect(clientLimitId('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientLimitId('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(clientLimitId('::1')).toBe('0:0:0:0::/64');
    expect(clientLimitId('203.0.113.9')).toBe('203.0.113.9');
  });
});

describe('policy', () => {
  it('gives the spec limits', () => {
    const client = { kind: 'client', clientId: '1.2.3.4' } as const;
    expect(limitRule(client, 'quote')).toMatchObject({ limit: 75, windowMs: 7_200_000, bucket: 'c:1.2.3.4:quote' });
    expect(limitRule(client, 'routes')).toMatchObject({ limit: 75, windowMs: 7_200_000 });
    expect(limitRule(client, 'stepTransaction')).toMatchObject({ limit: 50, windowMs: 7_200_000 });
    expect(limitRule(client, 'minute')).toMatchObject({ limit: 100, windowMs: 60_000 });
    const key = { kind: 'key', keyId: 'key_a' } as const;
    expect(limitRule(key, 'quote')).toMatchObject({ limit: 12_000, windowMs: 7_200_000, bucket: 'k:key_a:quote' });
    expect(limitRule(key, 'minute')).toMatchObject({ limit: 100, windowMs: 60_000, bucket: 'k:key_a:minute' });
    expect(limitRule({ ...key, perMinute: 500 }, 'stepTransaction')).toMatchObject({ limit: 60_000 });
    expect(limitRule(key, 'quote', 7)).toMatchObject({ limit: 7, windowMs: 7_200_000 });
    expect(keyLimits(undefined)).toEqual({ perMinute: 100, twoHourWindow: 12_000 });
  });
});

describe('identify and checkIntegrators', () => {
  const keys = new StaticKeyStore([recordA, recordB, { id: 'key_blocked', sha256: hashApiKey('svc_blocked'), blocked: true, blockedReason: 'abuse' }]);
  const caller = (presentedKey: string, clientAddress = '203.0.113.9'): Caller & { presentedKey: string } => ({ presentedKey, clientAddress, clientLimitId: clientAddress });
  const anonymous: Caller = { presentedKey: undefined, clientAddress: '203.0.113.9', clientLimitId: '203.0.113.9' };
  const keyOnly = { limit: 'minute', keyRequired: true } as const;

  it('charges anonymous and refused requests to the client, authenticated ones to the key', async () => {
    expect(identifyAnonymous({}, DEFAULT_OPERATION_ACCESS, anonymous)).toEqual({ subject: { kind: 'client', clientId: '203.0.113.9' } });
    expect(await identifyKey(keys, {}, caller(KEY_A))).toMatchObject({ subject: { kind: 'key', keyId: 'key_a' } });
    expect((await identifyKey(keys, {}, caller(KEY_A))).refusal).toBeUndefined();
    expect(await identifyKey(keys, {}, caller('svc_unknown'))).toMatchObject({ subject: { kind: 'client' }, refusal: { reason: 'unknown-key' } });
    expect(await identifyKey(keys, {}, caller(''))).toMatchObject({ refusal: { reason: 'unknown-key' } });
    expect(await identifyKey(keys, {}, caller('svc_blocked'))).toMatchObject({ subject: { kind: 'client' }, refusal: { reason: 'blocked', message: expect.stringMatching(/key_blocked is blocked \(abuse\)/) } });
    expect(await identifyKey(keys, {}, caller(KEY_B, '198.51.100.1'))).toMatchObject({ subject: { kind: 'client' }, refusal: { reason: 'address-not-allowed' } });
    expect(await identifyKey(keys, {}, caller(KEY_B, '2001:db8::9'))).toMatchObject({ subject: { kind: 'key', keyId: 'key_b', perMinute: 500 } });
    // an operation only keys may call (declared by the contract's security), by operation, not by URL
    expect(identifyAnonymous({}, keyOnly, anonymous)).toMatchObject({ refusal: { reason: 'key-required' } });
    expect((await identifyKey(keys, {}, caller(KEY_A))).refusal).toBeUndefined();
  });

  it('a blocked key or address is refused with the block\'s reason and end; other keys and addresses are not', async () => {
    const until = '2026-11-26T18:00:00.000Z';
    const blocks = { blockOf: (s: { kind: string; id: string }) => (s.kind === 'key' && s.id === 'key_a') || (s.kind === 'client' && s.id === '198.51.100.66') ? { rule: 'sustained-429', reason: 'persistently exceeding its limits', until } : undefined };
    expect(await identifyKey(keys, {}, caller(KEY_A), blocks)).toMatchObject({ subject: { kind: 'client' }, keyId: 'key_a', refusal: { reason: 'blocked', until, message: `API key key_a is blocked until ${until}: persistently exceeding its limits (rule sustained-429)` } });
    expect((await identifyKey(keys, {}, caller(KEY_B, '2001:db8::9'), blocks)).refusal).toBeUndefined();
    expect(identifyAnonymous({}, DEFAULT_OPERATION_ACCESS, { ...anonymous, clientAddress: '198.51.100.66', clientLimitId: '198.51.100.66' }, blocks)).toMatchObject({ refusal: { reason: 'blocked', until } });
    expect(await identifyKey(keys, {}, caller(KEY_B, '198.51.100.66'), blocks)).toMatchObject({ refusal: { reason: 'blocked', message: expect.stringMatching(/^Address 198\.51\.100\.66 is blocked/) } });
    expect(identifyAnonymous({}, DEFAULT_OPERATION_ACCESS, anonymous, blocks).refusal).toBeUndefined();
  });

  it('dedicated instance restrictions', async () => {
    const onlyA = { allowedKeyIds: new Set(['key_a']) };
    expect(identifyAnonymous(onlyA, DEFAULT_OPERATION_ACCESS, anonymous)).toMatchObject({ refusal: { reason: 'instance-key-required' } });
    expect(await identifyKey(keys, onlyA, caller(KEY_B))).toMatchObject({ subject: { kind: 'key', keyId: 'key_b' }, refusal: { reason: 'key-not-accepted' } });
    expect((await identifyKey(keys, onlyA, caller(KEY_A))).refusal).toBeUndefined();

    const acme = { allowedIntegrators: new Set(['acme']) };
    expect(checkIntegrators(undefined, acme, 'quote', ['acme'])).toBeUndefined();
    expect(checkIntegrators(undefined, acme, 'quote', ['evil'])).toMatchObject({ reason: 'integrator-not-allowed' });
    expect(checkIntegrators(undefined, acme, 'quote', [])).toMatchObject({ reason: 'integrator-required' });
    expect(checkIntegrators(undefined, acme, 'minute', [])).toBeUndefined();
    const keyB = await keys.authenticate(KEY_B);
    expect(checkIntegrators(keyB, {}, 'minute', ['other'])).toMatchObject({ reason: 'integrator-not-allowed', message: 'API key key_b may not be used for integrator "other"' });
    expect(checkIntegrators(keyB, {}, 'quote', [])).toBeUndefined();
  });
});

describe('access configuration', () => {
  it('reads and validates every setting', () => {
    const problems: string[] = [];
    const config = parseAccessConfig(
      { API_KEYS_FILE: 'keys.json', REDIS_URL: 'redis://127.0.0.1:6379', TRUST_PROXY: '2', RATE_LIMITS: 'OFF', RATE_LIMIT_OVERRIDE: '500', ALLOWED_KEY_IDS: 'key_a, key_b', ALLOWED_INTEGRATORS: 'acme' },
      problems,
      (p) => `/abs/${p}`,
    );
    expect(problems).toEqual([]);
    expect(config).toMatchObject({ apiKeysFile: '/abs/keys.json', redisUrl: 'redis://127.0.0.1:6379', trustProxy: { kind: 'hops', hops: 2 }, rateLimits: 'off', rateLimitOverride: 500, allowedKeyIds: ['key_a', 'key_b'], allowedIntegrators: ['acme'] });
    expect(parseAccessConfig({}, problems, (p) => p)).toMatchObject({ rateLimits: 'on', trustProxy: { kind: 'none' }, redisUrl: undefined, apiKeysFile: undefined });
  });

  it('names every invalid setting', () => {
    const problems: string[] = [];
    parseAccessConfig(
      { API_KEYS_FILE: 'a', API_KEYS: '{}', REDIS_URL: 'http://x', TRUST_PROXY: 'true', RATE_LIMITS: 'maybe', RATE_LIMIT_OVERRIDE: '0', ALLOWED_KEY_IDS: ' , ', ALLOWED_INTEGRATORS: 'ok,not ok' },
      problems,
      (p) => p,
    );
    expect(problems).toEqual([
      'API_KEYS_FILE and API_KEYS are both set: keep one source of keys',
      'REDIS_URL must be a redis:// or rediss:// URL',
      expect.stringMatching(/^TRUST_PROXY=true would believe any client/),
      'RATE_LIMITS must be on or off (got "maybe")',
      expect.stringMatching(/^RATE_LIMIT_OVERRIDE must be an integer from 1 to/),
      'ALLOWED_KEY_IDS must list at least one id',
      'ALLOWED_INTEGRATORS has invalid ids: not ok',
    ]);
  });
});
