import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_TOLERANCE_SEC, newWebhookSecret, signWebhook, verifyWebhook, WEBHOOK_ID_HEADER, WEBHOOK_SIGNATURE_HEADER } from '../../../src/webhooks/signature';

const SECRET = 'whsec_test_4eC39HqLyjWDarjtT1zdp7dc';
const OTHER_SECRET = 'whsec_other_ZbXk9q2m7LwP0aRt5vYc8nHe';
const BODY = '{"id":"evt_1","type":"transfer.status","data":{"status":"DONE"}}';
const T = 1_700_000_000;

/** The HMAC worked out here, by the definition, independently of the module. */
const expectedHex = (secret: string, t: number, body: string) => createHmac('sha256', Buffer.from(secret, 'utf8')).update(Buffer.from(`${t}.${body}`, 'utf8')).digest('hex');

test('the headers are named in lower case', () => {
  expect(WEBHOOK_SIGNATURE_HEADER).toBe('x-webhook-signature');
  expect(WEBHOOK_ID_HEADER).toBe('x-webhook-id');
  expect(DEFAULT_TOLERANCE_SEC).toBe(300);
});

test('a hand-worked signature: t=<seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">', () => {
  const header = signWebhook(SECRET, BODY, T);
  expect(header).toBe(`t=1700000000,v1=${expectedHex(SECRET, T, BODY)}`);
  // fixed vectors, computed once with openssl: printf '<t>.<body>' | openssl dgst -sha256 -hmac '<secret>'
  expect(header).toBe('t=1700000000,v1=aa46b77d49927a85978c8e86a58efaaba0a21222bf0bf25fc5b6e34183de5ca4');
  expect(signWebhook('key', 'x', 1)).toBe('t=1,v1=fc4913c41a7bf793267e2a384f3261c9436ec2cd097bd745e7b0d99113f510ec');
  expect(verifyWebhook(SECRET, header, BODY, { nowSec: T })).toEqual({ ok: true, timestampSec: T });
});

test('a header written by a receiver\'s own code (not signWebhook) verifies', () => {
  const header = `t=${T},v1=${expectedHex(SECRET, T, BODY)}`;
  expect(verifyWebhook(SECRET, header, BODY, { nowSec: T + 10 })).toEqual({ ok: true, timestampSec: T });
  expect(verifyWebhook(SECRET, header.toUpperCase().replace('T=', 't=').replace('V1=', 'v1='), BODY, { nowSec: T }).ok).toBe(true); // hex in either case
});

test('unicode bodies are signed as UTF-8', () => {
  const body = '{"name":"Ünïcødé ✓ 🚀"}';
  expect(signWebhook(SECRET, body, T)).toBe(`t=${T},v1=${expectedHex(SECRET, T, body)}`);
  expect(verifyWebhook(SECRET, signWebhook(SECRET, body, T), body, { nowSec: T }).ok).toBe(true);
});

describe('refused', () => {
  const header = signWebhook(SECRET, BODY, T);
  const refused = (result: ReturnType<typeof verifyWebhook>) => {
    expect(result.ok).toBe(false);
    return result.ok ? '' : result.reason;
  };

  test('a forged signature', () => {
    const forged = `t=${T},v1=${'ab'.repeat(32)}`;
    expect(refused(verifyWebhook(SECRET, forged, BODY, { nowSec: T }))).toMatch(/no v1 signature matches/);
    // one digit changed
    const hex = expectedHex(SECRET, T, BODY);
    const flipped = `t=${T},v1=${hex.slice(0, -1)}${hex.endsWith('0') ? '1' : '0'}`;
    expect(refused(verifyWebhook(SECRET, flipped, BODY, { nowSec: T }))).toMatch(/no v1 signature matches/);
  });

  test('the body changed by one byte', () => {
    expect(refused(verifyWebhook(SECRET, header, BODY.replace('DONE', 'DONF'), { nowSec: T }))).toMatch(/no v1 signature matches/);
    expect(refused(verifyWebhook(SECRET, header, `${BODY} `, { nowSec: T }))).toMatch(/no v1 signature matches/);
    expect(refused(verifyWebhook(SECRET, header, BODY.slice(1), { nowSec: T }))).toMatch(/no v1 signature matches/);
  });

  test('another secret', () => {
    expect(refused(verifyWebhook(OTHER_SECRET, header, BODY, { nowSec: T }))).toMatch(/no v1 signature matches/);
    expect(refused(verifyWebhook('', header, BODY, { nowSec: T }))).toMatch(/no webhook secret/);
    expect(refused(verifyWebhook([], header, BODY, { nowSec: T }))).toMatch(/no webhook secret/);
  });

  test('another timestamp with the same signature (the timestamp is signed)', () => {
    const moved = header.replace(`t=${T}`, `t=${T + 1}`);
    expect(refused(verifyWebhook(SECRET, moved, BODY, { nowSec: T }))).toMatch(/no v1 signature matches/);
  });

  test('a replayed old delivery, outside the tolerance', () => {
    expect(verifyWebhook(SECRET, header, BODY, { nowSec: T + 300 }).ok).toBe(true); // the edge is inside
    expect(refused(verifyWebhook(SECRET, header, BODY, { nowSec: T + 301 }))).toMatch(/more than 300 s from now/);
    expect(refused(verifyWebhook(SECRET, header, BODY, { nowSec: T + 86_400 }))).toMatch(/more than 300 s/);
    expect(refused(verifyWebhook(SECRET, header, BODY, { nowSec: T + 61, toleranceSec: 60 }))).toMatch(/more than 60 s/);
    // by default against the clock: a 2023 timestamp is long past
    expect(refused(verifyWebhook(SECRET, header, BODY))).toMatch(/more than 300 s/);
  });

  test('a timestamp in the future', () => {
    expect(verifyWebhook(SECRET, header, BODY, { nowSec: T - 300 }).ok).toBe(true);
    expect(refused(verifyWebhook(SECRET, header, BODY, { nowSec: T - 301 }))).toMatch(/more than 300 s/);
  });

  const v1 = expectedHex(SECRET, T, BODY);
  test.each([
    ['missing', undefined, /missing/],
    ['empty', '', /missing/],
    ['blank', '   ', /missing/],
    ['no timestamp', `v1=${v1}`, /no timestamp/],
    ['no signature', `t=${T}`, /no v1 signature/],
    ['only another scheme', `t=${T},v0=${v1}`, /no v1 signature/],
    ['two timestamps', `t=${T},t=${T + 1},v1=${v1}`, /two timestamps/],
    ['a timestamp that is not a number', `t=abc,v1=${v1}`, /malformed X-Webhook-Signature timestamp/],
    ['a negative timestamp', `t=-1,v1=${v1}`, /malformed X-Webhook-Signature timestamp/],
    ['a fractional timestamp', `t=${T}.5,v1=${v1}`, /malformed X-Webhook-Signature timestamp/],
    ['a short signature', `t=${T},v1=${v1.slice(0, 62)}`, /64 hex digits/],
    ['a long signature', `t=${T},v1=${v1}00`, /64 hex digits/],
    ['a signature that is not hex', `t=${T},v1=${'zz'.repeat(32)}`, /64 hex digits/],
    ['an entry without a value', `t=${T},v1`, /malformed X-Webhook-Signature entry/],
    ['an entry with two =', `t=${T},v1=${v1}=`, /malformed X-Webhook-Signature entry/],
    ['too many signatures', `t=${T},${new Array(9).fill(`v1=${v1}`).join(',')}`, /too many signatures/],
    ['a huge header', `t=${T},v1=${v1},x=${'a'.repeat(2000)}`, /too long/],
  ])('a malformed header: %s', (_name, value, reason) => {
    expect(refused(verifyWebhook(SECRET, value, BODY, { nowSec: T }))).toMatch(reason);
  });
});

test('other schemes\' entries and spaces around entries are ignored', () => {
  const header = `t=${T}, v0=deadbeef, v1=${expectedHex(SECRET, T, BODY)}`;
  expect(verifyWebhook(SECRET, header, BODY, { nowSec: T })).toEqual({ ok: true, timestampSec: T });
});

describe('secret rotation: two v1 values', () => {
  const header = signWebhook([OTHER_SECRET, SECRET], BODY, T);

  test('the delivery carries one v1 per secret', () => {
    expect(header).toBe(`t=${T},v1=${expectedHex(OTHER_SECRET, T, BODY)},v1=${expectedHex(SECRET, T, BODY)}`);
  });

  test('a receiver holding either secret accepts it', () => {
    expect(verifyWebhook(SECRET, header, BODY, { nowSec: T }).ok).toBe(true);
    expect(verifyWebhook(OTHER_SECRET, header, BODY, { nowSec: T }).ok).toBe(true);
    // a receiver holding both (during its own switch) accepts a delivery signed with either
    expect(verifyWebhook([SECRET, OTHER_SECRET], signWebhook(SECRET, BODY, T), BODY, { nowSec: T }).ok).toBe(true);
  });

  test('a receiver holding neither refuses it', () => {
    expect(verifyWebhook('whsec_third', header, BODY, { nowSec: T }).ok).toBe(false);
  });
});

test('signWebhook refuses an empty secret and a timestamp that is not whole seconds', () => {
  expect(() => signWebhook('', BODY, T)).toThrow(RangeError);
  expect(() => signWebhook([], BODY, T)).toThrow(RangeError);
  expect(() => signWebhook([SECRET, ''], BODY, T)).toThrow(RangeError);
  expect(() => signWebhook(SECRET, BODY, T + 0.5)).toThrow(/whole unix seconds/);
  expect(() => signWebhook(SECRET, BODY, -1)).toThrow(/whole unix seconds/);
  expect(() => signWebhook(SECRET, BODY, Date.now())).not.toThrow(); // milliseconds are an integer too: the receiver's tolerance refuses them
});

test('new secrets are whsec_ and 256 random bits', () => {
  const secret = newWebhookSecret();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
  expect(newWebhookSecret()).not.toBe(secret);
  expect(verifyWebhook(secret, signWebhook(secret, BODY, T), BODY, { nowSec: T }).ok).toBe(true);
});

describe("the docs' receiver check (the few lines an integrator copies)", () => {
  // the ```js block after "A receiver checks a delivery like this" in docs/api.md ("A page per transfer, and its
  // changes pushed"), run as it is written
  const page = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'docs', 'api.md'), 'utf8');
  const block = /A receiver checks a delivery like this:\n\n```js\n([\s\S]*?)```/.exec(page)?.[1];
  const verify = new Function('require', `${block}\nreturn verify;`)(require) as (secret: string, header: string, body: string, seen: Set<string>, id: string) => boolean;
  const secret = 'whsec_readme';
  const body = '{"id":"7","type":"transfer.status","data":{"status":"DONE"}}';

  test('accepts a delivery signed now, once; refuses a replay, a forgery, another body and an old signature', () => {
    expect(block).toBeDefined();
    const now = Math.floor(Date.now() / 1000);
    const seen = new Set<string>();
    const header = signWebhook(secret, body, now);
    expect(verify(secret, header, body, seen, '7')).toBe(true);
    expect(verify(secret, header, body, seen, '7')).toBe(false); // the same delivery again
    expect(verify('whsec_other', header, body, new Set(), '7')).toBe(false);
    expect(verify(secret, header, body.replace('DONE', 'FAILED'), new Set(), '7')).toBe(false);
    expect(verify(secret, `t=${now},v1=${'ab'.repeat(32)}`, body, new Set(), '7')).toBe(false);
    expect(verify(secret, signWebhook(secret, body, now - 600), body, new Set(), '8')).toBe(false);
    expect(verify(secret, signWebhook(['whsec_new', secret], body, now), body, new Set(), '9')).toBe(true); // during a rotation
  });
});
