/**
 * Sign-In with Ethereum (EIP-4361) for the partner portal: the server's nonces, and the checks of a signed message
 * before a session is opened.
 *
 * A nonce is 128 random bits (32 hex digits), kept in the service's database (table portal_nonces) until it expires
 * and taken out when a sign-in presents it, so that each one opens at most one session (a replayed message finds it
 * gone), whichever instance on the database issued it or receives the sign-in. The message must be the portal's own:
 * for one of its configured origins (PORTAL_ORIGIN: `domain` its host, `uri` on it, `scheme` if given its scheme)
 * and with the portal's statement, never checked against the Host a client sends, so that a message signed on
 * another site (another domain, or "Sign in to NFT Game") opens nothing here. It must name an accepted chain id, be
 * current (issued, not expired, living at most MAX_MESSAGE_MS) and be signed by the address it names (ECDSA;
 * contract wallets' EIP-1271 signatures are not checked: that would need a chain connection per sign-in).
 */
import { randomBytes } from 'node:crypto';
import { getAddress } from 'ethers';
import { SiweMessage } from 'siwe';
import { consumeNonce, insertNonce, portalDb, purgeNonces, type PortalDatabase } from '../persistence/portalSessions';

/** How long a nonce may wait for its sign-in. */
export const NONCE_TTL_MS = 5 * 60_000;
/** The longest a signed message may live: its expirationTime at most this after its issuedAt. */
export const MAX_MESSAGE_MS = 10 * 60_000;
/** How far ahead of this server's clock a wallet's clock may be (issuedAt, notBefore). */
export const CLOCK_SKEW_MS = 60_000;
/** Longer messages are refused before parsing. */
export const MAX_MESSAGE_CHARS = 4096;
/** The most expired nonces one issue removes (bounded work per request; several issues catch up). */
export const NONCE_PURGE_BATCH = 100;

/** The form of the nonces issued here: anything else is not looked up. */
const NONCE = /^[0-9a-f]{32}$/;

/** A sign-in refused, with the status to answer (400: the request is malformed; 401: it does not sign in) and why. */
export class SignInError extends Error {
  override readonly name = 'SignInError';
  constructor(
    message: string,
    readonly status: 400 | 401,
  ) {
    super(message);
  }
}

export interface NonceStoreOptions {
  readonly ttlMs?: number;
  /** Unix ms (default Date.now): issue, expiry, and the expiry check on consume. */
  readonly clock?: () => number;
  /** The most expired nonces removed per issue (default NONCE_PURGE_BATCH). */
  readonly purgeBatch?: number;
}

/**
 * The nonces issued and not used yet, each usable once until it expires, in the database (shared by every instance
 * on it, kept across restarts). What bounds the table: nonces are issued under the portal's per-address limit,
 * each lives NONCE_TTL_MS, and each issue first removes up to `purgeBatch` expired ones; so it holds about the
 * nonces issued in the last NONCE_TTL_MS.
 */
export class NonceStore {
  private readonly ttlMs: number;
  private readonly clock: () => number;
  private readonly purgeBatch: number;

  constructor(
    private readonly database: PortalDatabase,
    options: NonceStoreOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? NONCE_TTL_MS;
    this.clock = options.clock ?? Date.now;
    this.purgeBatch = options.purgeBatch ?? NONCE_PURGE_BATCH;
  }

  /** A new nonce and when it expires (Unix ms). */
  async issue(): Promise<{ nonce: string; expiresAt: number }> {
    const db = await portalDb(this.database);
    const nonce = randomBytes(16).toString('hex');
    const now = this.clock();
    const expiresAt = now + this.ttlMs;
    // expired nonces go, a bounded batch at a time
    await purgeNonces(db, new Date(now), this.purgeBatch);
    await insertNonce(db, nonce, new Date(expiresAt));
    return { nonce, expiresAt };
  }

  /**
   * Takes the nonce out: true if it was issued here, has not expired and was not taken before. One statement
   * (delete ... returning): of two sign-ins presenting one nonce at once, on any instances, one gets it.
   */
  async consume(nonce: string): Promise<boolean> {
    if (typeof nonce !== 'string' || !NONCE.test(nonce)) return false;
    const db = await portalDb(this.database);
    return consumeNonce(db, nonce, new Date(this.clock()));
  }

}

/** What a sign-in message must match: the portal's origins, and what it accepts. */
export interface SignInContext {
  /** The origins the portal is served at (PORTAL_ORIGIN): the message's `domain` is the host of one, its `uri` on it. */
  readonly origins: readonly string[];
  /** The chain ids a message may name. */
  readonly chainIds: ReadonlySet<number>;
  readonly now: number;
}

export interface SignedIn {
  /** EIP-55 checksummed. */
  readonly address: string;
  readonly chainId: number;
}

const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;

/**
 * Checks a sign-in: the message's form, its nonce (taken out, whatever follows: a nonce is tried once), its
 * domain, URI, chain, times and signature. Resolves with the signer; rejects with a SignInError saying what failed.
 */
export async function verifySignIn(input: { readonly message?: unknown; readonly signature?: unknown }, context: SignInContext, nonces: NonceStore): Promise<SignedIn> {
  const { message: text, signature } = input;
  if (typeof text !== 'string' || text.length === 0) throw new SignInError('message must be the signed EIP-4361 (Sign-In with Ethereum) message, as a string', 400);
  if (text.length > MAX_MESSAGE_CHARS) throw new SignInError(`message is longer than ${MAX_MESSAGE_CHARS} characters`, 400);
  if (typeof signature !== 'string' || !SIGNATURE.test(signature)) throw new SignInError('signature must be the wallet\'s personal_sign signature: 0x and 130 hex digits', 400);
  let message: SiweMessage;
  try {
    message = new SiweMessage(text);
  } catch {
    throw new SignInError('message is not an EIP-4361 (Sign-In with Ethereum) message', 400);
  }
  // what was signed must be exactly the message that is checked (no other spacing or line endings)
  if (message.prepareMessage() !== text) throw new SignInError('message is not in the canonical EIP-4361 form (its lines, spacing and order)', 400);

  if (!(await nonces.consume(message.nonce))) {
    throw new SignInError('the message\'s nonce was not issued here, has expired or was used already: ask for a new nonce and sign again', 401);
  }
  const origin = context.origins.map((o) => new URL(o)).find((o) => o.host === message.domain);
  if (!origin) throw new SignInError(`the message is for domain "${message.domain}", not this portal (${context.origins.map((o) => new URL(o).host).join(', ')})`, 401);
  if (message.statement !== SIGN_IN_STATEMENT) throw new SignInError(`the message's statement is not the portal's ("${SIGN_IN_STATEMENT}"): sign in on the portal's own page`, 401);
  if (message.scheme !== undefined && `${message.scheme}:` !== origin.protocol) {
    throw new SignInError(`the message's scheme "${message.scheme}" is not the portal's (${origin.protocol.slice(0, -1)})`, 401);
  }
  if (uriOrigin(message.uri) !== origin.origin) throw new SignInError(`the message's URI ${message.uri} is not on ${origin.origin}`, 401);
  if (message.version !== '1') throw new SignInError(`the message's version is ${message.version}, not 1`, 401);
  if (!context.chainIds.has(message.chainId)) throw new SignInError(`chain id ${message.chainId} is not accepted: sign in on an EVM chain the service supports (${[...context.chainIds].join(', ')})`, 401);
  checkTimes(message, context.now);

  const verified = await message.verify({ signature, domain: message.domain, nonce: message.nonce, time: new Date(context.now).toISOString() }, { suppressExceptions: true });
  if (!verified.success) throw new SignInError(`the signature is not the signature of ${message.address} over this message`, 401);
  return { address: getAddress(message.address), chainId: message.chainId };
}

/** issuedAt present and not ahead of now; expirationTime present, ahead of now, and at most MAX_MESSAGE_MS after issuedAt; notBefore reached. */
function checkTimes(message: SiweMessage, now: number): void {
  const issuedAt = timeOf(message.issuedAt, 'Issued At');
  const expiresAt = timeOf(message.expirationTime, 'Expiration Time');
  if (issuedAt === undefined) throw new SignInError('the message has no Issued At time', 400);
  if (expiresAt === undefined) throw new SignInError(`the message has no Expiration Time: sign a message that expires within ${MAX_MESSAGE_MS / 60_000} minutes`, 400);
  if (issuedAt > now + CLOCK_SKEW_MS) throw new SignInError(`the message was issued in the future (${message.issuedAt}): check the computer's clock`, 401);
  if (expiresAt <= now) throw new SignInError(`the message expired at ${message.expirationTime}: sign in again`, 401);
  if (expiresAt - issuedAt > MAX_MESSAGE_MS) throw new SignInError(`the message lives longer than ${MAX_MESSAGE_MS / 60_000} minutes (from Issued At to Expiration Time)`, 401);
  const notBefore = timeOf(message.notBefore, 'Not Before');
  if (notBefore !== undefined && notBefore > now + CLOCK_SKEW_MS) throw new SignInError(`the message is not valid before ${message.notBefore}`, 401);
}

function timeOf(text: string | undefined, field: string): number | undefined {
  if (text === undefined) return undefined;
  const time = Date.parse(text);
  if (!Number.isFinite(time)) throw new SignInError(`the message's ${field} is not a time: ${text}`, 400);
  return time;
}

function uriOrigin(uri: string): string | undefined {
  try {
    return new URL(uri).origin;
  } catch {
    return undefined;
  }
}

/**
 * The EIP-4361 message the portal's page builds (the same text, for tests and tools that sign in without the page).
 * `now` and `lifetimeMs` set issuedAt and expirationTime.
 */
export function signInMessage(fields: { readonly origin: string; readonly address: string; readonly chainId: number; readonly nonce: string; readonly now: number; readonly lifetimeMs?: number }): string {
  const url = new URL(fields.origin);
  return new SiweMessage({
    domain: url.host,
    address: fields.address,
    statement: SIGN_IN_STATEMENT,
    uri: `${url.origin}/portal`,
    version: '1',
    chainId: fields.chainId,
    nonce: fields.nonce,
    issuedAt: new Date(fields.now).toISOString(),
    expirationTime: new Date(fields.now + (fields.lifetimeMs ?? 5 * 60_000)).toISOString(),
  }).prepareMessage();
}

/** The statement of the portal's sign-in messages (the page's script uses the same words). */
export const SIGN_IN_STATEMENT = 'Sign in to the partner portal to manage your integrators, API keys and fees.';
