import type { KeyStore, KnownKey } from './keyStore';
import { isProtectedPath, isTwoHourClass, type EndpointClass, type LimitSubject } from './policy';

/** Instance-wide restrictions of a dedicated instance (ALLOWED_KEY_IDS, ALLOWED_INTEGRATORS). */
export interface InstanceRestrictions {
  readonly allowedKeyIds?: ReadonlySet<string>;
  readonly allowedIntegrators?: ReadonlySet<string>;
}

export interface Refusal {
  readonly status: 401 | 403;
  readonly message: string;
  /** Short machine-readable reason for logs. */
  readonly reason: 'key-required' | 'unknown-key' | 'blocked' | 'address-not-allowed' | 'key-not-accepted' | 'integrator-not-allowed' | 'integrator-required';
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

export const API_KEY_HEADER = 'x-svc-api-key';

/**
 * Decides who a request is and whether its key lets it in. `presentedKey` is undefined when the
 * header is absent; a present but empty header is an invalid key, like any unknown one.
 * Only a valid, unblocked key used from an allowed address is charged to the key; every other
 * request, refused ones included, is charged to the client address at the unauthenticated limits
 * (so guessing keys or using a stolen one from elsewhere eats the guesser's quota, not the owner's).
 */
export function identify(
  keys: KeyStore,
  restrictions: InstanceRestrictions,
  request: { path: string; presentedKey: string | undefined; clientAddress: string; clientLimitId: string },
): Identification {
  const client: LimitSubject = { kind: 'client', clientId: request.clientLimitId };
  if (request.presentedKey === undefined) {
    if (restrictions.allowedKeyIds) {
      return { subject: client, refusal: { status: 403, reason: 'key-required', message: `This instance accepts only requests with one of its API keys; send the key in the ${API_KEY_HEADER} header` } };
    }
    if (isProtectedPath(request.path)) {
      return { subject: client, refusal: { status: 401, reason: 'key-required', message: `This endpoint requires an API key; send it in the ${API_KEY_HEADER} header` } };
    }
    return { subject: client };
  }
  const key = keys.authenticate(request.presentedKey);
  if (!key) {
    return {
      subject: client,
      refusal: {
        status: 401,
        reason: 'unknown-key',
        message: `Invalid API key: the ${API_KEY_HEADER} header does not hold a known key. Check the key (GET /v1/keys/test), or send no ${API_KEY_HEADER} header to use the public limits`,
      },
    };
  }
  const { record } = key;
  if (record.blocked) {
    const reason = record.blockedReason ? ` (${record.blockedReason})` : '';
    return { subject: client, keyId: record.id, refusal: { status: 403, reason: 'blocked', message: `API key ${record.id} is blocked${reason}; contact support to have it unblocked` } };
  }
  if (key.allowlist && !key.allowlist.has(request.clientAddress)) {
    return { subject: client, keyId: record.id, refusal: { status: 403, reason: 'address-not-allowed', message: `API key ${record.id} may not be used from address ${request.clientAddress}: it is bound to an allowlist of source addresses` } };
  }
  const subject: LimitSubject = { kind: 'key', keyId: record.id, perMinute: record.perMinute };
  if (restrictions.allowedKeyIds && !restrictions.allowedKeyIds.has(record.id)) {
    return { key, keyId: record.id, subject, refusal: { status: 403, reason: 'key-not-accepted', message: `API key ${record.id} is not accepted by this instance` } };
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
      return { status: 403, reason: 'integrator-not-allowed', message: `API key ${key.record.id} may not be used for integrator "${foreign}"` };
    }
  }
  const allowed = restrictions.allowedIntegrators;
  if (allowed) {
    const foreign = named.find((id) => !allowed.has(id));
    if (foreign !== undefined) {
      return { status: 403, reason: 'integrator-not-allowed', message: `Integrator "${foreign}" is not accepted by this instance` };
    }
    if (named.length === 0 && isTwoHourClass(endpoint)) {
      return { status: 403, reason: 'integrator-required', message: 'This instance accepts these requests only for its integrators: name one in the integrator parameter' };
    }
  }
  return undefined;
}
