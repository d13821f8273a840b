import { KEY_ID_PATTERN } from './keys';
import { INTEGRATOR_ID_PATTERN, MAX_PER_MINUTE } from './keyFile';
import { parseTrustProxy, type TrustProxy } from './ipAddress';

/** Access-control settings read from the environment (see README, Configuration). */
export interface AccessConfig {
  /** API_KEYS_FILE: JSON key document, re-read when it changes. */
  readonly apiKeysFile?: string;
  /** API_KEYS: the same document inline (for secret stores that inject environment variables). */
  readonly apiKeysJson?: string;
  /** REDIS_URL: shared limiter store; absent = in memory, per instance. */
  readonly redisUrl?: string;
  readonly trustProxy: TrustProxy;
  /** RATE_LIMITS=off: nothing counted, no rate-limit headers (behind a gateway that already limits). */
  readonly rateLimits: 'on' | 'off';
  /** RATE_LIMIT_OVERRIDE: replaces every limit (windows unchanged), e.g. for load tests. */
  readonly rateLimitOverride?: number;
  /** ALLOWED_KEY_IDS: a dedicated instance accepting only these keys. */
  readonly allowedKeyIds?: readonly string[];
  /** ALLOWED_INTEGRATORS: a dedicated instance accepting only these integrator ids. */
  readonly allowedIntegrators?: readonly string[];
}

/** Reads the access settings, adding a message to `problems` for each invalid one. */
export function parseAccessConfig(env: Record<string, string | undefined>, problems: string[], resolvePath: (p: string) => string): AccessConfig {
  const text = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value ? value : undefined;
  };
  const apiKeysFile = text('API_KEYS_FILE');
  const apiKeysJson = text('API_KEYS');
  if (apiKeysFile && apiKeysJson) problems.push('API_KEYS_FILE and API_KEYS are both set: keep one source of keys');

  const redisUrl = text('REDIS_URL');
  if (redisUrl) {
    let valid = false;
    try {
      valid = ['redis:', 'rediss:'].includes(new URL(redisUrl).protocol);
    } catch {
      valid = false;
    }
    if (!valid) problems.push('REDIS_URL must be a redis:// or rediss:// URL');
  }

  let trustProxy: TrustProxy = { kind: 'none' };
  try {
    trustProxy = parseTrustProxy(env.TRUST_PROXY);
  } catch (error) {
    problems.push((error as Error).message);
  }

  const rateLimitsText = (text('RATE_LIMITS') ?? 'on').toLowerCase();
  if (rateLimitsText !== 'on' && rateLimitsText !== 'off') problems.push(`RATE_LIMITS must be on or off (got "${env.RATE_LIMITS}")`);
  const rateLimits = rateLimitsText === 'off' ? 'off' : 'on';

  let rateLimitOverride: number | undefined;
  const overrideText = text('RATE_LIMIT_OVERRIDE');
  if (overrideText !== undefined) {
    const max = MAX_PER_MINUTE * 120;
    if (!/^[0-9]+$/.test(overrideText) || Number(overrideText) < 1 || Number(overrideText) > max) {
      problems.push(`RATE_LIMIT_OVERRIDE must be an integer from 1 to ${max} (got "${env.RATE_LIMIT_OVERRIDE}")`);
    } else {
      rateLimitOverride = Number(overrideText);
    }
  }

  const list = (name: string, check?: (item: string) => boolean): readonly string[] | undefined => {
    const value = text(name);
    if (value === undefined) return undefined;
    const items = value.split(',').map((item) => item.trim()).filter((item) => item !== '');
    if (items.length === 0) {
      problems.push(`${name} must list at least one id`);
      return undefined;
    }
    const bad = check ? items.filter((item) => !check(item)) : [];
    if (bad.length > 0) problems.push(`${name} has invalid ids: ${bad.join(', ')}`);
    return Object.freeze(items);
  };
  const allowedKeyIds = list('ALLOWED_KEY_IDS', (id) => KEY_ID_PATTERN.test(id));
  const allowedIntegrators = list('ALLOWED_INTEGRATORS', (id) => INTEGRATOR_ID_PATTERN.test(id));

  return Object.freeze({
    apiKeysFile: apiKeysFile ? resolvePath(apiKeysFile) : undefined,
    apiKeysJson,
    redisUrl,
    trustProxy,
    rateLimits,
    rateLimitOverride,
    allowedKeyIds,
    allowedIntegrators,
  });
}
