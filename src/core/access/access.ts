import type { BlockSubject } from './blocking';
import type { KeyStore, KnownKey } from './keyStore';
import { isTwoHourClass, type EndpointClass, type LimitSubject, type OperationAccess } from './policy';

/** Instance-wide restrictions of a dedicated instance (ALLOWED_KEY_IDS, ALLOWED_INTEGRATORS). */
export interface InstanceRestrictions {
  readonly allowedKeyIds?: ReadonlySet<string>;
  readonly allowedIntegrators?: ReadonlySet<string>;
}

/**
 * Why a request is refused. The reasons say who the caller is not (no key, an unknown one: `unauthenticated`) or
 * what it may not do (everything else: `forbidden`); the transport turns them into its own terms (HTTP 401 / 403).
 */
export type RefusalReason = 'key-required' | 'instance-key-required' | 'unknown-key' | 'blocked' | 'address-not-allowed' | 'key-not-accepted' | 'integrator-not-allowed' | 'integrator-required';

export interface Refusal {
  readonly reason: RefusalReason;
  readonly message: string;
  /** For `blocked`: until when (ISO 8601; absent: until lifted by an operator). */
  readonly until?: string;
}

/** Refusals of a caller that is not known (no key where one is needed, or a key nobody issued). */
export function isUnauthenticated(refusal: Refusal): boolean {
  return refusal.reason === 'key-required' || refusal.reason === 'unknown-key';
}

export interface Identification {
  /** The authenticated key, when a valid, usable one was presented. */
  readonly key?: KnownKey;
  /** Id of the presented key when it is known (also when refused), for logs. */
  readonly keyId?: string;
  /** Whose counter the request is charged to: the key when authenticated, else the client address. */
  readonly subject: LimitSubject;
  /** Set when the request must be refused (after it has been counted). */
  readonly refusal?: Refusal;
}

/** A block in force (blocking.ts decides them, an operator may make and lift them). */
export interface ActiveBlock {
  readonly rule: string;
  readonly reason: string;
  /** ISO 8601; absent: until an operator lifts it. */
  readonly until?: string;
}

/** Where the blocks in force are looked up (the database's, shared by every instance; none: nothing blocked). */
export interface BlockList {
  blockOf(subject: BlockSubject): ActiveBlock | undefined;
  /**
   * Until the blocks in force have been read once (the database opening), a promise that settles when they have
   * (or cannot be): requests wait for it, so that a block is in force from the first request after a start.
   * Undefined from then on.
   */
  pending?(): Promise<void> | undefined;
}

const NOTHING_BLOCKED: BlockList = { blockOf: () => undefined };

function blockedRefusal(who: string, block: ActiveBlock): Refusal {
  const until = block.until ? `until ${block.until}` : 'until an operator lifts the block';
  return { reason: 'blocked', message: `${who} is blocked ${until}: ${block.reason} (rule ${block.rule})`, ...(block.until ? { until: block.until } : {}) };
}

/**
 * What became of one request at the access control, for whatever follows callers over time (usage per key, the
 * automatic blocking rules): emitted once per request that reached a decision.
 */
export interface AccessOutcome {
  /** Unix ms. */
  readonly at: number;
  /** The operation called (undefined: the request matched none). */
  readonly operationId?: string;
  readonly limit: EndpointClass;
  /** Whom the request was charged to. */
  readonly subject: LimitSubject;
  /** The presented key's id, when the key is known (also when it was refused). */
  readonly keyId?: string;
  /** The client's rate-limit id. */
  readonly clientId: string;
  readonly outcome: 'admitted' | 'rate-limited' | 'invalid' | RefusalReason;
}

/** Who calls, as the access rules see it: the key presented (undefined: none) and where the call comes from. */
export interface Caller {
  readonly presentedKey: string | undefined;
  readonly clientAddress: string;
  readonly clientLimitId: string;
}

/**
 * Decides who a caller without a key is and whether it may call `operation`. On a dedicated instance (ALLOWED_KEY_IDS)
 * or for an operation only keys may call, it may not.
 */
export function identifyAnonymous(restrictions: InstanceRestrictions, operation: OperationAccess, caller: Caller, blocks: BlockList = NOTHING_BLOCKED): Identification {
  const subject: LimitSubject = { kind: 'client', clientId: caller.clientLimitId };
  const block = blocks.blockOf({ kind: 'client', id: caller.clientLimitId });
  if (block) return { subject, refusal: blockedRefusal(`Address ${caller.clientLimitId}`, block) };
  if (restrictions.allowedKeyIds) {
    return { subject, refusal: { reason: 'instance-key-required', message: 'This instance accepts only requests with one of its API keys' } };
  }
  if (operation.keyRequired) return { subject, refusal: { reason: 'key-required', message: 'This endpoint requires an API key' } };
  return { subject };
}

/**
 * Decides who a caller presenting a key is and whether its key lets it in (a present but empty key is an invalid key,
 * like any unknown one). Only a valid, unblocked key used from an allowed address is charged to the key; every other
 * request, refused ones included, is charged to the client address at the unauthenticated limits (so guessing keys
 * or using a stolen one from elsewhere eats the guesser's quota, not the owner's).
 */
export async function identifyKey(keys: KeyStore, restrictions: InstanceRestrictions, caller: Caller & { readonly presentedKey: string }, blocks: BlockList = NOTHING_BLOCKED): Promise<Identification> {
  const client: LimitSubject = { kind: 'client', clientId: caller.clientLimitId };
  const clientBlock = blocks.blockOf({ kind: 'client', id: caller.clientLimitId });
  if (clientBlock) return { subject: client, refusal: blockedRefusal(`Address ${caller.clientLimitId}`, clientBlock) };
  const key = await keys.authenticate(caller.presentedKey);
  if (!key) return { subject: client, refusal: { reason: 'unknown-key', message: 'Invalid API key: it is not a key this service issued (or it was revoked)' } };
  const { record } = key;
  const keyBlock = blocks.blockOf({ kind: 'key', id: record.id });
  if (keyBlock) return { subject: client, keyId: record.id, refusal: blockedRefusal(`API key ${record.id}`, keyBlock) };
  if (record.blocked) {
    const reason = record.blockedReason ? ` (${record.blockedReason})` : '';
    return { subject: client, keyId: record.id, refusal: { reason: 'blocked', message: `API key ${record.id} is blocked${reason}; contact support to have it unblocked` } };
  }
  if (key.allowlist && !key.allowlist.has(caller.clientAddress)) {
    return { subject: client, keyId: record.id, refusal: { reason: 'address-not-allowed', message: `API key ${record.id} may not be used from address ${caller.clientAddress}: it is bound to an allowlist of source addresses` } };
  }
  const subject: LimitSubject = { kind: 'key', keyId: record.id, perMinute: record.perMinute };
  if (restrictions.allowedKeyIds && !restrictions.allowedKeyIds.has(record.id)) {
    return { key, keyId: record.id, subject, refusal: { reason: 'key-not-accepted', message: `API key ${record.id} is not accepted by this instance` } };
  }
  return { key, keyId: record.id, subject };
}

/**
 * Checks the integrator ids a request names against its key's list and the instance's list.
 * On a dedicated instance (ALLOWED_INTEGRATORS), quote, routes and stepTransaction requests must
 * name an accepted integrator; other requests (catalog, status...) pass when they name none.
 */
export function checkIntegrators(
  key: KnownKey | undefined,
  restrictions: InstanceRestrictions,
  endpoint: EndpointClass,
  named: readonly string[],
): Refusal | undefined {
  const allowedByKey = key?.record.integrators;
  if (allowedByKey) {
    const foreign = named.find((id) => !allowedByKey.includes(id));
    if (foreign !== undefined) {
      return { reason: 'integrator-not-allowed', message: `API key ${key.record.id} may not be used for integrator "${foreign}"` };
    }
  }
  const allowed = restrictions.allowedIntegrators;
  if (allowed) {
    const foreign = named.find((id) => !allowed.has(id));
    if (foreign !== undefined) {
      return { reason: 'integrator-not-allowed', message: `Integrator "${foreign}" is not accepted by this instance` };
    }
    if (named.length === 0 && isTwoHourClass(endpoint)) {
      return { reason: 'integrator-required', message: 'This instance accepts these requests only for its integrators: name one in the integrator parameter' };
    }
  }
  return undefined;
}
