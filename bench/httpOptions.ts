/**
 * The command line of npm run bench:http (bench/http.ts's header), read and checked when this module loads, and the
 * settings derived from it: how the service is run, with which database and rate limits, and the load's size.
 */
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '..');
/** --name=value (split at the first `=`, so a value may hold more) */
const args = Object.fromEntries(process.argv.slice(2).map((a) => /^--([^=]+)(?:=(.*))?$/s.exec(a)?.slice(1) ?? [a, undefined])) as Record<string, string | undefined>;
export const CONNECTIONS = Number(args.connections ?? 50);
export const SECONDS = Number(args.seconds ?? 8);
export const ROUNDS = Math.max(1, Number(args.rounds ?? 2));
export const WORKER_COUNTS = String(args.workers ?? '1,2').split(',').map(Number).filter((n) => Number.isInteger(n) && n >= 1);
export const SOAK = Number(args.soak ?? 100_000);
/** Only the endpoints whose name contains this text (e.g. --only=quote), all by default. */
export const ONLY = args.only ? String(args.only) : undefined;
/** Node flags for the service (e.g. --node-args=--trace-gc or "--cpu-prof --max-semi-space-size=32"), space-separated. */
export const NODE_ARGS = args['node-args'] ? String(args['node-args']).split(' ').filter(Boolean) : [];
export const LIMITS = String(args.limits ?? 'counted');
if (LIMITS !== 'counted' && LIMITS !== 'off') throw new Error(`--limits must be counted or off (got ${LIMITS})`);
/** RATE_LIMIT_OVERRIDE's largest value: every limit that high, per window, is out of the benchmark's reach. */
export const LIFTED_LIMIT = '120000000';
export const WALLET = '0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea9';
export const DATABASE = String(args.database ?? 'postgres');
if (!['postgres', 'embedded', 'off'].includes(DATABASE)) throw new Error(`--database must be postgres, embedded or off (got ${DATABASE})`);
export const STARTS = Number(args.starts ?? 3);
/** `build` (default): the production build as npm start runs it; `source`: src/main.ts through tsx (npm run start:dev, and how earlier commits ran). */
export const SERVICE = String(args.service ?? 'build');
if (SERVICE !== 'build' && SERVICE !== 'source') throw new Error(`--service must be build or source (got ${SERVICE})`);
export const SERVICE_ARGS = SERVICE === 'build' ? [path.join(ROOT, 'dist', 'main.js')] : ['-r', 'tsx/cjs', 'src/main.ts'];

/** --trace-gc as the user asked for it: then its lines are shown too. */
export const TRACE_GC_ASKED = NODE_ARGS.includes('--trace-gc');
