import { KEY_ID_PATTERN } from './keys';
import { INTEGRATOR_ID_PATTERN, MAX_PER_MINUTE } from './keyFile';
import { parseTrustProxy, type TrustProxy } from './ipAddress';
import { BLOCKING_DEFAULTS, type BlockingThresholds } from './blocking';

/** Access-control settings read from the environment (see docs/running.md, "Configuration"). */
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
  /**
   * Automatic blocking (blocking.ts; it needs the database): BLOCKING=off turns it off; BLOCKING_THRESHOLDS, a JSON
   * object, replaces some of the defaults (e.g. {"sustainedMinutes": 5}).
   */
  readonly blocking?: BlockingThresholds;
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

  const blocking = parseBlocking(env, problems);

  return Object.freeze({
    blocking,
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

function parseBlocking(env: Record<string, string | undefined>, problems: string[]): BlockingThresholds | undefined {
  const mode = (env.BLOCKING?.trim() || 'on').toLowerCase();
  if (mode !== 'on' && mode !== 'off') problems.push(`BLOCKING must be on or off (got "${env.BLOCKING}")`);
  if (mode === 'off') return undefined;
  const text = env.BLOCKING_THRESHOLDS?.trim();
  if (!text) return BLOCKING_DEFAULTS;
  let given: unknown;
  try {
    given = JSON.parse(text);
  } catch {
    problems.push('BLOCKING_THRESHOLDS must be a JSON object, e.g. {"sustainedMinutes": 5}');
    return BLOCKING_DEFAULTS;
  }
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    problems.push('BLOCKING_THRESHOLDS must be a JSON object, e.g. {"sustainedMinutes": 5}');
    return BLOCKING_DEFAULTS;
  }
  const thresholds: Record<string, number> = { ...BLOCKING_DEFAULTS };
  for (const [name, value] of Object.entries(given)) {
    if (!(name in BLOCKING_DEFAULTS)) problems.push(`BLOCKING_THRESHOLDS: unknown threshold "${name}" (known: ${Object.keys(BLOCKING_DEFAULTS).join(', ')})`);
    else if (typeof value !== 'number' || !(value > 0) || (name !== 'expensiveShare' && !Number.isInteger(value)) || (name === 'expensiveShare' && value > 1)) {
      problems.push(`BLOCKING_THRESHOLDS: ${name} must be a positive ${name === 'expensiveShare' ? 'fraction up to 1' : 'integer'} (got ${JSON.stringify(value)})`);
    } else thresholds[name] = value;
  }
  if (thresholds.sustainedMinutes > thresholds.windowMinutes) problems.push('BLOCKING_THRESHOLDS: sustainedMinutes must not exceed windowMinutes');
  return Object.freeze(thresholds as unknown as BlockingThresholds);
}
