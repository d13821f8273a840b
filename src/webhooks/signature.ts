/**
 * The signature of a webhook delivery, in the scheme payment APIs use (Stripe's): every POST carries
 *
 *   X-Webhook-Id: <the delivery's id, the same on every retry of it>
 *   X-Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the webhook secret>
 *
 * The key is the secret string exactly as the portal shows it (`whsec_…`, prefix included, UTF-8). While a secret
 * is rotated, a delivery is signed with the old and the new secret: two v1 entries, either of which verifies.
 *
 * How a receiver checks a delivery (Node; any language with HMAC-SHA256 does the same):
 *
 *   1. read the body as raw bytes, before any JSON parsing (a re-serialised body does not verify);
 *   2. split the signature header at ',' into t and the v1 values; compute
 *      hex(HMAC-SHA256(secret, `${t}.${rawBody}`)) and compare it with each v1 in constant time
 *      (crypto.timingSafeEqual) — or call verifyWebhook(secret, header, rawBody) below;
 *   3. refuse a t more than 5 minutes away from your clock, in either direction (an old delivery replayed);
 *   4. remember each X-Webhook-Id for those 5 minutes and refuse one seen already (a replay inside the window);
 *      answer 2xx to a delivery you already processed (a retry of it after your answer was lost) without doing it
 *      twice. The t check bounds how long ids must be remembered; the id check closes the window.
 *
 * Answer 2xx quickly and do the work afterwards: anything else (a timeout, 3xx, 4xx, 5xx) is retried (backoff.ts).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The signature header (lower case, as node's http module presents header names). */
export const WEBHOOK_SIGNATURE_HEADER = 'x-webhook-signature';
/** The delivery id header: one id per delivery, repeated on its retries, for the receiver's replay check. */
export const WEBHOOK_ID_HEADER = 'x-webhook-id';
/** How far a delivery's timestamp may be from the receiver's clock, by default. */
export const DEFAULT_TOLERANCE_SEC = 300;

/** A header longer than this, or with more v1 entries, is refused before any HMAC is computed. */
const MAX_HEADER_LENGTH = 1024;
const MAX_SIGNATURES = 8;

export type WebhookVerification = { readonly ok: true; readonly timestampSec: number } | { readonly ok: false; readonly reason: string };

/** A new webhook secret: `whsec_` and 256 random bits in base64url. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/**
 * The X-Webhook-Signature value of a body sent at `timestampSec` (unix seconds): one v1 entry per secret given
 * (two while a secret is rotated, the newest first). Throws a RangeError for an empty secret or a timestamp that is
 * not a non-negative integer.
 */
export function signWebhook(secret: string | readonly string[], body: string, timestampSec: number): string {
  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (secrets.length === 0 || secrets.some((s) => s.length === 0)) throw new RangeError('a webhook secret must not be empty');
  if (!Number.isSafeInteger(timestampSec) || timestampSec < 0) throw new RangeError(`a webhook timestamp must be whole unix seconds (got ${timestampSec})`);
  return [`t=${timestampSec}`, ...secrets.map((s) => `v1=${hmac(s, timestampSec, body).toString('hex')}`)].join(',');
}

/**
 * Checks a delivery: the header is well formed, one of its v1 values is the HMAC of this body and timestamp under
 * one of the secrets (compared in constant time), and the timestamp is within `toleranceSec` (default 300) of
 * `nowSec` (default the clock), in either direction. Never throws.
 */
export function verifyWebhook(
  secret: string | readonly string[],
  header: string | undefined,
  body: string,
  options: { readonly nowSec?: number; readonly toleranceSec?: number } = {},
): WebhookVerification {
  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (secrets.length === 0 || secrets.some((s) => s.length === 0)) return { ok: false, reason: 'no webhook secret to verify with' };
  const parsed = parseSignatureHeader(header);
  if ('reason' in parsed) return { ok: false, reason: parsed.reason };
  let matched = false;
  for (const s of secrets) {
    const expected = hmac(s, parsed.timestampSec, body);
    // every value is 32 bytes (parseSignatureHeader accepts 64 hex digits only), as timingSafeEqual requires
    for (const presented of parsed.signatures) matched = timingSafeEqual(expected, presented) || matched;
  }
  if (!matched) return { ok: false, reason: 'no v1 signature matches this body and secret' };
  const nowSec = options.nowSec ?? Math.floor(Date.now() / 1000);
  const toleranceSec = options.toleranceSec ?? DEFAULT_TOLERANCE_SEC;
  if (Math.abs(nowSec - parsed.timestampSec) > toleranceSec) {
    return { ok: false, reason: `the timestamp ${parsed.timestampSec} is more than ${toleranceSec} s from now (${nowSec})` };
  }
  return { ok: true, timestampSec: parsed.timestampSec };
}

function hmac(secret: string, timestampSec: number, body: string): Buffer {
  return createHmac('sha256', secret).update(`${timestampSec}.${body}`).digest();
}

/** The timestamp and v1 signatures of a header (entries of other schemes ignored), or why it is malformed. */
function parseSignatureHeader(header: string | undefined): { timestampSec: number; signatures: Buffer[] } | { reason: string } {
  if (header === undefined || header.trim() === '') return { reason: 'the X-Webhook-Signature header is missing' };
  if (header.length > MAX_HEADER_LENGTH) return { reason: 'the X-Webhook-Signature header is too long' };
  let timestampSec: number | undefined;
  const signatures: Buffer[] = [];
  for (const entry of header.split(',')) {
    const [key, value, ...rest] = entry.trim().split('=');
    if (key === undefined || value === undefined || rest.length > 0) return { reason: `malformed X-Webhook-Signature entry "${entry.trim()}"` };
    if (key === 't') {
      if (timestampSec !== undefined) return { reason: 'the X-Webhook-Signature header has two timestamps' };
      if (!/^[0-9]{1,12}$/.test(value)) return { reason: `malformed X-Webhook-Signature timestamp "${value}"` };
      timestampSec = Number(value);
    } else if (key === 'v1') {
      if (!/^[0-9a-fA-F]{64}$/.test(value)) return { reason: 'malformed v1 signature (64 hex digits expected)' };
      signatures.push(Buffer.from(value, 'hex'));
    }
  }
  if (timestampSec === undefined) return { reason: 'the X-Webhook-Signature header has no timestamp (t=)' };
  if (signatures.length === 0) return { reason: 'the X-Webhook-Signature header has no v1 signature' };
  if (signatures.length > MAX_SIGNATURES) return { reason: 'the X-Webhook-Signature header has too many signatures' };
  return { timestampSec, signatures };
}
