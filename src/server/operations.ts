/**
 * The operators' endpoints, outside /v1 and outside the contract (mounted before access control: no key, no rate
 * limit, no rate-limit headers):
 *
 * - `GET /health`: 200 `{"status":"ok"}` while the process serves (liveness);
 * - `GET /ready`: 200 when every readiness check passes, 503 otherwise, with each check, ok or not, and a short
 *   detail (readiness: take the instance out of a load balancer's rotation while it is 503);
 * - `GET /metrics`: the Prometheus text exposition of the application's Metrics (metrics.ts).
 *
 * Readiness is a list of named checks the composition root assembles ({@link readinessChecks}); each runs with a
 * time limit, so /ready answers within about CHECK_TIMEOUT_MS whatever a dependency does. Details never carry a
 * URL, a key or an RPC's error text (which may name a URL with its key).
 */
import express, { type Request, type Response } from 'express';
import type { ChainLiquidityStatus } from '../chain/liveLiquidity';
import type { Config } from '../config';
import type { Dependencies } from './dependencies';
import { methodNotAllowed, sendError } from './httpErrors';
import type { Metrics } from './metrics';

/** A check that does not settle within this many milliseconds fails. */
export const CHECK_TIMEOUT_MS = 1000;
/** The longest detail a failed check reports. */
const MAX_DETAIL_LENGTH = 200;

export interface ReadinessCheck {
  readonly name: string;
  /** Resolves with a short detail when ready; rejects (or throws) with an Error saying why not. */
  check(): Promise<string>;
}

export type ReadinessChecks = readonly ReadinessCheck[];

export interface CheckResult {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

export interface Readiness {
  readonly ready: boolean;
  readonly checks: readonly CheckResult[];
}

/** Runs every check at once, each bounded by `timeoutMs`. */
export async function runReadiness(checks: ReadinessChecks, timeoutMs = CHECK_TIMEOUT_MS): Promise<Readiness> {
  const results = await Promise.all(checks.map((c) => runCheck(c, timeoutMs)));
  return { ready: results.every((r) => r.ok), checks: results };
}

async function runCheck(check: ReadinessCheck, timeoutMs: number): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const detail = await Promise.race([Promise.resolve().then(() => check.check()), timeout]);
    return { name: check.name, ok: true, detail: safeDetail(detail) };
  } catch (error) {
    return { name: check.name, ok: false, detail: safeDetail(error instanceof Error ? error.message : String(error)) };
  } finally {
    clearTimeout(timer);
  }
}

/** One line, no URL (it may hold credentials), at most MAX_DETAIL_LENGTH characters. */
export function safeDetail(text: string): string {
  const line = text.split('\n')[0].replace(/[a-z][a-z0-9+.-]*:\/\/\S+/gi, '<url>').trim();
  return line.length > MAX_DETAIL_LENGTH ? `${line.slice(0, MAX_DETAIL_LENGTH - 1)}…` : line;
}

/** What the composition root knows beyond the dependencies and the configuration. */
export interface ReadinessParts {
  /** Chain mode: the state of each chain (ChainMode.status, after startChainMode). Checked when CHAINS_FILE is set. */
  readonly chains?: () => readonly ChainLiquidityStatus[];
  /** A worker fed by the primary (WORKERS > 1 in chain mode): whether the primary's pool state has arrived. */
  readonly fed?: () => boolean;
  /** The database, once there is one: resolves when it answers. */
  readonly database?: () => Promise<void>;
}

/**
 * The service's readiness checks: `data` (the catalog and the liquidity graph are loaded: true once the
 * dependencies are built); `chains` in chain mode (every configured chain followed, none connecting or rejected);
 * `redis` when REDIS_URL is set (the rate-limit store answers PING); `database` when one is given.
 */
export function readinessChecks(dependencies: Dependencies, config: Config, parts: ReadinessParts = {}): ReadinessCheck[] {
  const checks: ReadinessCheck[] = [
    {
      name: 'data',
      check: async () => `${dependencies.catalog.chains.length} chains, ${dependencies.graph.pools.length} pools`,
    },
  ];
  const { chains, fed, database } = parts;
  if (config.chains && chains) checks.push({ name: 'chains', check: async () => chainsDetail(chains(), fed) });
  if (config.access.redisUrl) {
    const store = dependencies.access.store;
    checks.push({ name: 'redis', check: () => answers(() => store.ping()) });
  }
  if (database) checks.push({ name: 'database', check: () => answers(database) });
  return checks;
}

async function answers(ping: () => Promise<void>): Promise<string> {
  const started = performance.now();
  await ping();
  return `answers (${Math.round(performance.now() - started)} ms)`;
}

/** Ready when every chain is followed (and a fed worker has the primary's state); throws naming the others. */
export function chainsDetail(statuses: readonly ChainLiquidityStatus[], fed?: () => boolean): string {
  const following = statuses.filter((s) => s.state === 'following').length;
  const problems: string[] = [];
  if (fed && !fed()) problems.push('no pool state from the primary yet');
  const connecting = statuses.filter((s) => s.state === 'connecting').map((s) => s.chainId);
  const rejected = statuses.filter((s) => s.state === 'rejected').map((s) => s.chainId);
  if (connecting.length > 0) problems.push(`connecting: ${connecting.join(', ')}`);
  if (rejected.length > 0) problems.push(`rejected (wrong chain id): ${rejected.join(', ')}`);
  const summary = `${following} of ${statuses.length} chains followed`;
  if (problems.length > 0) throw new Error(`${summary}; ${problems.join('; ')}`);
  return summary;
}

/** The router of GET /health, /ready and /metrics (other methods on these paths: 405). */
export function operationsRouter(metrics: Metrics, checks: ReadinessChecks): express.Router {
  const router = express.Router();
  const json = (res: Response, status: number, body: unknown) => {
    res.setHeader('cache-control', 'no-store');
    res.status(status).json(body);
  };
  const only = (path: string) => (req: Request, res: Response) => sendError(res, methodNotAllowed(req.method, path, ['GET', 'HEAD']));

  router.route('/health')
    .get((_req, res) => json(res, 200, { status: 'ok', uptimeSeconds: Math.round(process.uptime()) }))
    .all(only('/health'));
  router.route('/ready')
    .get(async (_req, res) => {
      const { ready, checks: results } = await runReadiness(checks);
      json(res, ready ? 200 : 503, { status: ready ? 'ready' : 'not ready', checks: results });
    })
    .all(only('/ready'));
  router.route('/metrics')
    .get(async (_req, res, next) => {
      try {
        const { contentType, text } = await metrics.exposition();
        res.setHeader('cache-control', 'no-store');
        res.type(contentType).send(text);
      } catch (error) {
        next(error);
      }
    })
    .all(only('/metrics'));
  return router;
}
