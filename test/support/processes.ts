/**
 * Child processes for tests that need a real server in front of them (Prism mock or proxy): started on a
 * free loopback port in their own process group, waited for, and stopped with the whole group, also
 * when the parent exits without cleaning up.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { PROJECT_ROOT } from '../../sandbox/data';

export const PRISM = path.join(PROJECT_ROOT, 'node_modules', '.bin', 'prism');

export interface Started {
  readonly url: string;
  readonly port: number;
  readonly child: ChildProcess;
  output(): string;
}

/**
 * `prism mock|proxy <args>` on a free loopback port, ready when `readyPath` answers (any status).
 * Retries on another port when the first one is taken in between.
 */
export async function startPrism(prismArgs: string[], options: { readyPath?: string; timeoutMs?: number } = {}): Promise<Started> {
  if (!fs.existsSync(PRISM)) throw new Error(`${PRISM} is missing: run npm install`);
  let lastError: Error | undefined;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const port = await freePort();
    const started = startProcess(process.execPath, [fs.realpathSync(PRISM), ...prismArgs, '--host', '127.0.0.1', '--port', String(port)], port);
    try {
      await waitUntilAnswering(started, options.readyPath ?? '/v1/chains', options.timeoutMs ?? 30_000);
      return started;
    } catch (error) {
      lastError = error as Error;
      await stopProcess(started.child);
    }
  }
  throw lastError ?? new Error('Prism did not start');
}

function startProcess(command: string, args: string[], port: number): Started {
  let output = '';
  // its own process group (detached), so that stopping it also stops anything it started
  const child = spawn(command, args, {
    cwd: PROJECT_ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  const collect = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-50_000);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const killOnExit = (): void => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  return { url: `http://127.0.0.1:${port}`, port, child, output: () => output };
}

async function waitUntilAnswering(started: Started, readyPath: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited: string | undefined;
  started.child.once('exit', (code, signal) => {
    exited = `exited (${code ?? signal})`;
  });
  while (Date.now() < deadline) {
    if (exited) throw new Error(`process ${exited} before answering:\n${started.output()}`);
    try {
      const res = await fetch(`${started.url}${readyPath}`, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error(`process did not answer within ${timeoutMs / 1000} s:\n${started.output()}`);
}

/** SIGTERM to the whole process group, SIGKILL after 5 s; resolves once the process is gone. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  const signalGroup = (signal: NodeJS.Signals): void => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  if (child.pid === undefined) return;
  if (child.exitCode === null && child.signalCode === null) {
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    signalGroup('SIGTERM');
    const timer = setTimeout(() => signalGroup('SIGKILL'), 5_000);
    await gone;
    clearTimeout(timer);
  }
  signalGroup('SIGKILL'); // anything left in the group
  child.stdout?.destroy();
  child.stderr?.destroy();
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Resolves with `child` once the stream `readyOn` has printed `readyLine` (both streams are kept as the output that
 * errors show); rejects when it exits first, fails to spawn, or is not ready within `timeoutMs` (then it is killed).
 * `what` names the server in the errors. With `unref`, a ready server no longer keeps the test process alive.
 */
export function untilReady(child: ChildProcess, o: { readonly what: string; readonly readyLine: string; readonly readyOn: 'stdout' | 'stderr'; readonly timeoutMs: number; readonly unref?: boolean }): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${o.what} not ready after ${o.timeoutMs / 1000} s:\n${output}`));
    }, o.timeoutMs);
    const ready = child[o.readyOn];
    const other = o.readyOn === 'stdout' ? child.stderr : child.stdout;
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (!output.includes(o.readyLine)) return;
      clearTimeout(timer);
      ready?.off('data', onData);
      child.stdout?.resume();
      child.stderr?.resume();
      if (o.unref) {
        child.unref();
        (child.stdout as { unref?: () => void } | null)?.unref?.();
        (child.stderr as { unref?: () => void } | null)?.unref?.();
      }
      resolve(child);
    };
    ready?.on('data', onData);
    other?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${o.what} exited (${code ?? signal}) before it was ready:\n${output}`));
    });
  });
}
