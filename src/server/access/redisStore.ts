import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from 'pino';
import { decide } from '../../core/access/slidingWindow';
import type { LimitDecision, LimiterStore } from './limiterStore';
import { MemoryLimiterStore } from './memoryStore';

/**
 * The sliding-window log of src/core/access/slidingWindow.ts in one Redis sorted set per counter
 * (score = time in ms), updated by one Lua script, so that concurrent requests from any number of
 * instances are counted exactly. The clock is Redis's own (TIME), so instances with skewed clocks
 * still agree; tests pass their fake clock instead (ARGV[3] >= 0).
 *   KEYS[1] sorted set of the counter, KEYS[2] sequence making members unique
 *   ARGV[1] limit, ARGV[2] window in ms, ARGV[3] now in ms, or -1 for Redis's TIME
 *   returns {admitted 0/1, count after, oldest score or -1, now}
 */
export const SLIDING_WINDOW_LUA = `
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
if now < 0 then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local admitted = 0
if count < limit then
  local seq = redis.call('INCR', KEYS[2])
  redis.call('ZADD', KEYS[1], now, string.format('%d-%d', now, seq))
  redis.call('PEXPIRE', KEYS[1], window)
  redis.call('PEXPIRE', KEYS[2], window)
  count = count + 1
  admitted = 1
end
local oldest = -1
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if first[2] then oldest = tonumber(first[2]) end
return {admitted, count, oldest, now}
`;

type ConsumeReply = [number, number, number, number];
interface WithConsume {
  rateLimitConsume(zset: string, seq: string, limit: number, windowMs: number, now: number): Promise<ConsumeReply>;
}

export interface RedisStoreOptions {
  readonly url: string;
  readonly logger: Logger;
  /** Prefix of every Redis key (default "rl:"). */
  readonly prefix?: string;
  /** A fake clock for tests; by default Redis's TIME. The fallback uses it too (or Date.now). */
  readonly clock?: () => number;
  /** Extra ioredis options (tests shorten the reconnection delay). */
  readonly redisOptions?: RedisOptions;
  /** Where requests are counted while Redis is unreachable (default: a MemoryLimiterStore). */
  readonly fallback?: LimiterStore;
}

export type RedisStoreState = 'connecting' | 'up' | 'down';

/** How long a readiness PING may take. */
const PING_TIMEOUT_MS = 500;

/**
 * Limits shared by every instance through Redis. When Redis is unreachable the store fails open to
 * in-memory limits of this instance (each instance then enforces the full limit on its own), logs one
 * error line when that starts and one line when Redis is back; requests never wait for Redis to
 * return, and commands time out after a second.
 */
export class RedisLimiterStore implements LimiterStore {
  readonly client: Redis;
  private readonly prefix: string;
  private readonly clock?: () => number;
  private readonly fallback: LimiterStore;
  private readonly logger: Logger;
  private readonly where: string;
  private stateValue: RedisStoreState = 'connecting';
  private closing = false;

  constructor(options: RedisStoreOptions) {
    this.prefix = options.prefix ?? 'rl:';
    this.clock = options.clock;
    this.logger = options.logger;
    this.where = redactUrl(options.url);
    this.fallback = options.fallback ?? new MemoryLimiterStore({ clock: options.clock });
    this.client = new Redis(options.url, {
      enableOfflineQueue: false, // never queue a request behind a reconnection: fail over at once
      maxRetriesPerRequest: 0,
      commandTimeout: 1000,
      connectTimeout: 2000,
      retryStrategy: (attempt) => Math.min(100 * 2 ** Math.min(attempt, 5), 2000),
      ...options.redisOptions,
    });
    this.client.defineCommand('rateLimitConsume', { numberOfKeys: 2, lua: SLIDING_WINDOW_LUA });
    this.client.on('ready', () => this.markUp());
    this.client.on('error', (error: Error) => this.markDown(error.message));
    this.client.on('close', () => this.markDown('connection closed'));
  }

  get state(): RedisStoreState {
    return this.stateValue;
  }

  async consume(bucket: string, limit: number, windowMs: number): Promise<LimitDecision> {
    if (this.client.status !== 'ready') return this.fallback.consume(bucket, limit, windowMs);
    const key = `${this.prefix}{${bucket}}`;
    const now = this.clock ? this.clock() : -1;
    try {
      const [admitted, count, oldest, at] = await (this.client as unknown as WithConsume).rateLimitConsume(key, `${key}:seq`, limit, windowMs, now);
      if (this.stateValue !== 'up') this.markUp();
      return decide(admitted === 1, limit, windowMs, Number(at), Number(count), Number(oldest) < 0 ? undefined : Number(oldest));
    } catch (error) {
      this.markDown((error as Error).message);
      return this.fallback.consume(bucket, limit, windowMs);
    }
  }

  /** PING, answered within PING_TIMEOUT_MS; rejects at once while the connection is not up (no queueing). */
  async ping(): Promise<void> {
    if (this.client.status !== 'ready') throw new Error(`Redis is ${this.stateValue === 'connecting' ? 'not connected yet' : 'unreachable'} (${this.client.status})`);
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.client.ping(),
        new Promise<never>((_resolve, reject) => {
          timer = setTimeout(() => reject(new Error(`Redis: no PONG within ${PING_TIMEOUT_MS} ms`)), PING_TIMEOUT_MS);
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    if (this.client.status === 'ready') {
      await Promise.race([this.client.quit().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 500).unref())]);
    }
    if (this.client.status !== 'end') this.client.disconnect();
    await this.fallback.close();
  }

  private markUp(): void {
    const previous = this.stateValue;
    this.stateValue = 'up';
    if (previous === 'down') {
      this.logger.warn({ redis: this.where }, `rate limits: Redis at ${this.where} is reachable again; limits are shared across instances again`);
    } else if (previous === 'connecting') {
      this.logger.info({ redis: this.where }, `rate limits: counting in Redis at ${this.where}, shared across instances`);
    }
  }

  private markDown(reason: string): void {
    if (this.closing || this.stateValue === 'down') return;
    this.stateValue = 'down';
    this.logger.error(
      { redis: this.where, reason },
      `rate limits: Redis at ${this.where} is unreachable (${reason}); failing open to in-memory limits per instance until it returns`,
    );
  }
}

/** The URL without its password, for logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = 'redacted';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return 'redis';
  }
}
