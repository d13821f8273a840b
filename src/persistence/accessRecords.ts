/**
 * The access control's records in the database, shared by every instance that uses it:
 * - `DatabaseBlockList`: the blocks in force, read again every `refreshMs` (one query for all of them), so that the
 *   access rules ask a map, not the database, on every request; a block made on any instance (or by an operator
 *   with `npm run keys`) is in force everywhere within that time.
 * - `UsageRecorder`: every request's outcome counted per minute in memory and added to the database every
 *   `flushMs` (per subject and operation: requests and refusals; per key and client address: what the blocking
 *   rules read), so usage costs one batch per interval, not a write per request.
 * - `BlockingMonitor`: every `intervalMs`, the automatic blocking rules (src/core/access/blocking.ts) on the last
 *   window of that usage; the blocks they call for are made, for a duration that grows with the subject's earlier
 *   blocks. Instances may all run it: a subject already blocked is not blocked again.
 */
import type { Kysely } from 'kysely';
import type { AccessOutcome, ActiveBlock, BlockList } from '../core/access/access';
import { blockMinutes, blocksToMake, type BlockingThresholds, type BlockSubject } from '../core/access/blocking';
import { activeBlocks, block, listBlocks } from './blocks';
import type { Schema } from './schema';
import { recordKeyClients, recordUsage, usageWindow, type KeyClientIncrement, type UsageIncrement } from './usage';

const MINUTE_MS = 60_000;
const subjectKey = (subject: BlockSubject) => `${subject.kind}:${subject.id}`;

export class DatabaseBlockList implements BlockList {
  private inForce = new Map<string, ActiveBlock>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly db: Kysely<Schema>,
    private readonly options: { readonly refreshMs?: number; readonly clock?: () => number; readonly onError?: (error: Error) => void } = {},
  ) {}

  blockOf(subject: BlockSubject): ActiveBlock | undefined {
    const found = this.inForce.get(subjectKey(subject));
    // a block that ended since the last refresh no longer counts
    if (found?.until && Date.parse(found.until) <= (this.options.clock ?? Date.now)()) return undefined;
    return found;
  }

  /** Reads the blocks in force now. */
  async refresh(): Promise<void> {
    const now = new Date((this.options.clock ?? Date.now)());
    const blocks = await listBlocks(this.db, { active: true, now, limit: 100_000 });
    const inForce = new Map<string, ActiveBlock>();
    // newest first: the newest block of a subject is the one it is told about
    for (const b of blocks) {
      const key = subjectKey(b.subject);
      if (!inForce.has(key)) inForce.set(key, { rule: b.rule, reason: b.reason, ...(b.until ? { until: b.until } : {}) });
    }
    this.inForce = inForce;
  }

  start(): void {
    this.timer = setInterval(() => this.refresh().catch((error: Error) => this.options.onError?.(error)), this.options.refreshMs ?? 2000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/** The most usage entries (subject × operation × minute) kept in memory while the database does not answer. */
const MAX_PENDING = 100_000;

export class UsageRecorder {
  private usage = new Map<string, { -readonly [K in keyof UsageIncrement]: UsageIncrement[K] }>();
  private pairs = new Map<string, { -readonly [K in keyof KeyClientIncrement]: KeyClientIncrement[K] }>();
  private timer?: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  /** `db` may be the database still opening: outcomes are counted meanwhile, and flushes wait for it. */
  constructor(
    private readonly db: Kysely<Schema> | PromiseLike<Kysely<Schema>>,
    private readonly options: { readonly flushMs?: number; readonly onError?: (error: Error) => void } = {},
  ) {}

  /** Counts one request's outcome (in memory until the next flush). */
  record(o: AccessOutcome): void {
    const minute = Math.floor(o.at / MINUTE_MS) * MINUTE_MS;
    const subject = o.subject.kind === 'key' ? { kind: 'key' as const, id: o.subject.keyId } : { kind: 'client' as const, id: o.subject.clientId };
    const operationId = o.operationId ?? 'unmatched';
    const usageKey = `${subject.kind}:${subject.id}|${operationId}|${minute}`;
    let usage = this.usage.get(usageKey);
    if (!usage) this.usage.set(usageKey, (usage = { subject, operationId, at: new Date(minute), requests: 0, refused401: 0, refused403: 0, refused429: 0 }));
    usage.requests! += 1;
    if (o.outcome === 'rate-limited') usage.refused429! += 1;
    else if (o.outcome === 'key-required' || o.outcome === 'unknown-key') usage.refused401! += 1;
    else if (o.outcome !== 'admitted' && o.outcome !== 'invalid') usage.refused403! += 1;
    if (o.keyId) {
      const pairKey = `${o.keyId}|${o.clientId}|${minute}`;
      let pair = this.pairs.get(pairKey);
      if (!pair) this.pairs.set(pairKey, (pair = { keyId: o.keyId, clientId: o.clientId, at: new Date(minute), requests: 0, refused429: 0, outsideAllowlist: 0 }));
      pair.requests! += 1;
      if (o.outcome === 'rate-limited') pair.refused429! += 1;
      if (o.outcome === 'address-not-allowed') pair.outsideAllowlist! += 1;
    }
  }

  /**
   * Adds what was counted since the last flush to the database, in one transaction (flushes run one after the other).
   * When the database does not answer, the counts are kept for the next flush (added to what is counted meanwhile),
   * up to MAX_PENDING entries; beyond that the oldest outage's counts are dropped and reported.
   */
  flush(): Promise<void> {
    const run = this.flushing.catch(() => undefined).then(async () => {
      const usage = this.usage;
      const pairs = this.pairs;
      this.usage = new Map();
      this.pairs = new Map();
      if (usage.size === 0 && pairs.size === 0) return;
      try {
        const db = await this.db;
        await db.transaction().execute(async (trx) => {
          if (usage.size > 0) await recordUsage(trx, [...usage.values()]);
          if (pairs.size > 0) await recordKeyClients(trx, [...pairs.values()]);
        });
      } catch (error) {
        this.putBack(usage, pairs);
        throw error;
      }
    });
    this.flushing = run;
    return run;
  }

  /** Counts a failed flush did not write, added back to those counted since (see flush). */
  private putBack(usage: UsageRecorder['usage'], pairs: UsageRecorder['pairs']): void {
    if (this.usage.size + usage.size > MAX_PENDING || this.pairs.size + pairs.size > MAX_PENDING) {
      this.options.onError?.(new Error(`usage of ${usage.size} subject-minutes dropped: the database has not answered for longer than ${MAX_PENDING} entries can wait`));
      return;
    }
    for (const [key, entry] of usage) {
      const now = this.usage.get(key);
      if (!now) this.usage.set(key, entry);
      else for (const field of ['requests', 'refused401', 'refused403', 'refused429'] as const) now[field] = (now[field] ?? 0) + (entry[field] ?? 0);
    }
    for (const [key, entry] of pairs) {
      const now = this.pairs.get(key);
      if (!now) this.pairs.set(key, entry);
      else for (const field of ['requests', 'refused429', 'outsideAllowlist'] as const) now[field] = (now[field] ?? 0) + (entry[field] ?? 0);
    }
  }

  start(): void {
    this.timer = setInterval(() => this.flush().catch((error: Error) => this.options.onError?.(error)), this.options.flushMs ?? 5000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}

export interface BlockingMonitorOptions {
  readonly thresholds: BlockingThresholds;
  /** The operations whose requests are route searches (the quote and routes classes). */
  readonly expensiveOperations: readonly string[];
  readonly intervalMs?: number;
  readonly clock?: () => number;
  /** Told of every block made (logs, metrics). */
  readonly onBlock?: (made: { subject: BlockSubject; rule: string; reason: string; until: string }) => void;
  readonly onError?: (error: Error) => void;
}

export class BlockingMonitor {
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly db: Kysely<Schema>,
    private readonly options: BlockingMonitorOptions,
  ) {}

  /** Runs the rules on the window ending now; makes and returns the blocks they call for. */
  async evaluate(): Promise<{ subject: BlockSubject; rule: string; reason: string; until: string }[]> {
    const { thresholds } = this.options;
    const now = (this.options.clock ?? Date.now)();
    const to = new Date(Math.floor(now / MINUTE_MS) * MINUTE_MS + MINUTE_MS);
    const from = new Date(to.getTime() - thresholds.windowMinutes * MINUTE_MS);
    const usage = await usageWindow(this.db, { from, to, expensiveOperations: this.options.expensiveOperations });
    const candidates = blocksToMake(usage, thresholds, { active: () => false, earlierBlocks: () => 0 });
    const made = [];
    for (const decision of candidates) {
      // a subject blocked meanwhile (by another instance, an operator) is not blocked again
      if ((await activeBlocks(this.db, decision.subject, new Date(now))).length > 0) continue;
      const b = await block(this.db, {
        subject: decision.subject, rule: decision.rule, reason: decision.reason, actor: 'automatic', now: new Date(now),
        until: (level) => new Date(now + blockMinutes(level - 1, thresholds) * MINUTE_MS),
      });
      const result = { subject: decision.subject, rule: decision.rule, reason: decision.reason, until: b.until! };
      this.options.onBlock?.(result);
      made.push(result);
    }
    return made;
  }

  start(): void {
    this.timer = setInterval(() => this.evaluate().catch((error: Error) => this.options.onError?.(error)), this.options.intervalMs ?? 30_000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
