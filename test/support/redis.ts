/**
 * A throw-away redis-server for tests: installs Debian's redis-server package when the binary is
 * missing (CI starts from a clean machine), starts it on a free loopback port without persistence,
 * and stops it afterwards. No process is left behind, even if a test fails.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, untilReady } from './processes';
import { ensureDebianPackage, which } from './debian';

export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** Stops the server (SIGTERM, then SIGKILL after 5 s) and deletes its folder; its data is gone. */
  stop(): Promise<void>;
  /** Starts it again on the same port (after stop(), or stopping it first), empty. */
  restart(): Promise<void>;
}

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

/** Starts a fresh redis-server on 127.0.0.1 and a free port. */
export async function startRedisServer(): Promise<RedisServer> {
  const binary = ensureRedisServerBinary();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'redis-test-'));
  installExitHook();
  let lastError: Error | undefined;
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const port = await freePort();
    try {
      let child = await launch(binary, port, dir);
      return {
        port,
        url: `redis://127.0.0.1:${port}`,
        async stop() {
          await terminate(child);
          fs.rmSync(dir, { recursive: true, force: true });
        },
        async restart() {
          await terminate(child);
          fs.mkdirSync(dir, { recursive: true });
          child = await launch(binary, port, dir);
        },
      };
    } catch (error) {
      lastError = error as Error; // most likely the port was taken meanwhile: try another
    }
  }
  fs.rmSync(dir, { recursive: true, force: true });
  throw lastError ?? new Error('redis-server did not start');
}

/** The path of redis-server, installing Debian's package first when it is missing. */
export function ensureRedisServerBinary(): string {
  return ensureDebianPackage('redis-server', () => which('redis-server'));
}

function launch(binary: string, port: number, dir: string): Promise<ChildProcess> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no', '--protected-mode', 'yes', '--loglevel', 'notice'];
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return untilReady(child, { what: `redis-server on port ${port}`, readyLine: 'Ready to accept connections', readyOn: 'stdout', timeoutMs: 10_000 });
}

function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const child of running) child.kill('SIGKILL');
  });
}
