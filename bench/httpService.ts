/**
 * The processes of bench:http: the service (the production build, or the source through tsx) started per worker count
 * and followed (its memory, its live heap read from --trace-gc), its start-up measured launch by launch, the baseline
 * started; each stopped at the end.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import type { RedisServer } from '../test/support/redis';
import { freePort } from '../test/support/processes';
import { DATABASE, LIFTED_LIMIT, LIMITS, NODE_ARGS, ROOT, SERVICE_ARGS, TRACE_GC_ASKED, WALLET } from './httpOptions';

export interface Started {
  child: ChildProcess;
  port: number;
}

/** Starts a process; ready when its output matches `ready`, whose first group is the port it listens on. */
export function start(command: string, argv: string[], env: Record<string, string>, ready: RegExp): Promise<Started> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${command} did not start: ${out.slice(-500)}`)), 60_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = ready.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ child, port: Number(match[1]) });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`${command} exited with ${code}: ${out.slice(-500)}`)));
  });
}

/**
 * Resident memory of a process tree (the service and its cluster workers), in MB: now (VmRSS), or the peak of
 * each process since it started (VmHWM, the kernel's high-water mark), summed over the processes.
 */
export function rssMb(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  const pids = [pid, ...childrenOf(pid)];
  let kb = 0;
  for (const p of pids) {
    try {
      const status = fs.readFileSync(`/proc/${p}/status`, 'utf8');
      kb += Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
    } catch {
      // gone
    }
  }
  return kb / 1024;
}

function childrenOf(pid: number): number[] {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number).flatMap((c) => [c, ...childrenOf(c)]);
  } catch {
    return [];
  }
}

/**
 * The live heap of the service: per process (primary and workers), the heap in use after its last major
 * collection (V8's Mark-Compact, read from --trace-gc), in MB. Unlike RSS, which moves with the garbage that V8
 * lets accumulate between major collections, it grows only with what the service keeps: the leak check.
 */
class LiveHeap {
  private readonly afterMajor = new Map<number, number>();
  majors = 0;

  /** Reads one line of the service's stdout; false when it is not a GC trace line. */
  read(line: string): boolean {
    if (!/^\[\d+:0x[0-9a-f]+\]\s+[\d.]+ ms: /.test(line)) return false;
    const major = /^\[(\d+):[^\]]*\]\s+[\d.]+ ms: Mark-Compact(?: \(reduce\))? [\d.]+ \([\d.]+\) -> ([\d.]+) \(/.exec(line);
    if (major) {
      this.afterMajor.set(Number(major[1]), Number(major[2]));
      this.majors += 1;
    }
    return true;
  }

  /** Sum over the processes of the heap after their last major collection (MB). */
  get mb(): number {
    let sum = 0;
    for (const mb of this.afterMajor.values()) sum += mb;
    return sum;
  }
}

/** DATABASE_URL / DATABASE_DIR of the service for a --database choice (embedded: `npm start`'s default folder, with one worker). */
function databaseEnv(database: string, postgres: string | undefined): Record<string, string> {
  if (database === 'postgres' && postgres) return { DATABASE_URL: postgres, DATABASE_DIR: '' };
  if (database === 'embedded') return { DATABASE_URL: '', DATABASE_DIR: '' };
  return { DATABASE_URL: '', DATABASE_DIR: 'off' };
}

/** The real service (the production build) on a free loopback port; ready when /v1/chains answers. */
export async function startService(workers: number, redis: RedisServer | undefined, postgres: string | undefined): Promise<Started & { heap: LiveHeap }> {
  const port = await freePort();
  // --trace-gc (one line per collection, a few per second under load) gives the live heap after major collections
  const child = spawn(process.execPath, [...NODE_ARGS, ...(TRACE_GC_ASKED ? [] : ['--trace-gc']), ...SERVICE_ARGS], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      WORKERS: String(workers),
      ...databaseEnv(workers > 1 && DATABASE === 'embedded' ? 'off' : DATABASE, postgres),
      ...(LIMITS === 'off' ? { RATE_LIMITS: 'off' } : { RATE_LIMITS: 'on', RATE_LIMIT_OVERRIDE: LIFTED_LIMIT, ...(redis ? { REDIS_URL: redis.url } : {}) }),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const heap = new LiveHeap();
  let partial = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop()!;
    for (const line of lines) if (!heap.read(line) || TRACE_GC_ASKED) process.stdout.write(`${line}\n`);
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/v1/chains`);
      if (res.ok) return { child, port, heap };
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGTERM');
  throw new Error('the service did not start within 60 s');
}

export interface StartUp {
  /** From launch to the first answer of /v1/chains (ms). */
  readonly readyMs: number;
  /** The first quote, on a new connection, right after (ms, from connecting to the answer's last byte). */
  readonly firstQuoteMs: number;
  /** Resident memory of the service a second after its first quote (MB). */
  readonly rssMb: number;
}

/** Launches the build once (one worker), times its first answer and first quote, reads its memory, stops it. */
export async function measureStartUp(database: string, postgres: string | undefined): Promise<StartUp> {
  const port = await freePort();
  const launched = performance.now();
  const child = spawn(process.execPath, SERVICE_ARGS, {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', WORKERS: '1', ...databaseEnv(database, postgres) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    let readyMs = 0;
    while (!readyMs) {
      if (performance.now() - launched > 60_000) throw new Error('the service did not start within 60 s');
      if (await fetch(`http://127.0.0.1:${port}/v1/chains`).then((r) => r.ok, () => false)) readyMs = performance.now() - launched;
      else await new Promise((r) => setTimeout(r, 5));
    }
    const quote = await rawGet(port, `/v1/quote?fromChain=42161&toChain=10&fromToken=USDC&toToken=USDC&fromAmount=1234567890&fromAddress=${WALLET}`);
    const firstQuoteMs = quote.ms;
    if (quote.status !== 200) throw new Error(`the first quote answered ${quote.status}`);
    await new Promise((r) => setTimeout(r, 1000));
    return { readyMs, firstQuoteMs, rssMb: rssMb(child.pid!) };
  } finally {
    await stop({ child, port });
  }
}

/**
 * A GET on a new connection, written and read on a plain socket (HTTP/1.1, `connection: close`: the answer ends with
 * the connection), timed from connecting to the last byte. The start-up's first quote is timed so because an HTTP
 * client's own first request on a new connection (undici's, fetch's) adds several milliseconds of its own cold code.
 */
function rawGet(port: number, requestPath: string): Promise<{ status: number; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const chunks: Buffer[] = [];
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(`GET ${requestPath} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nconnection: close\r\n\r\n`);
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => {
      const ms = performance.now() - started;
      const head = Buffer.concat(chunks).toString('latin1', 0, 64);
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), ms });
    });
    socket.on('error', reject);
  });
}

/** Stops a started process (and, for the service, its workers) and waits for it to exit. */
export function stop(started: Started): Promise<void> {
  return new Promise((resolve) => {
    if (started.child.exitCode !== null || started.child.signalCode !== null) {
      resolve();
      return;
    }
    const timer = setTimeout(() => started.child.kill('SIGKILL'), 15_000);
    started.child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    started.child.kill('SIGTERM');
  });
}
