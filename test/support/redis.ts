/**
 * A throw-away redis-server for tests: installs Debian's redis-server package when the binary is
 * missing (CI starts from a clean machine), starts it on a free loopback port without persistence,
 * and stops it afterwards. No process is left behind, even if a test fails.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './processes';

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
  const found = which('redis-server');
  if (found) return found;
  withInstallLock(() => {
    if (which('redis-server')) return;
    const asRoot = process.getuid?.() === 0;
    if (!asRoot && !which('sudo')) {
      throw new Error('redis-server is missing and this user cannot install it: run `apt-get install -y redis-server` as root');
    }
    const run = (args: string[]): void => {
      const command = asRoot ? args[0]! : 'sudo';
      const argv = asRoot ? args.slice(1) : ['-n', ...args];
      const result = spawnSync(command, argv, {
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
        encoding: 'utf8',
        timeout: 10 * 60_000,
      });
      if (result.status !== 0) {
        throw new Error(`${args.join(' ')} failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`.slice(-4000));
      }
    };
    // keep the package's post-install script from starting a system-wide redis (port 6379, left running)
    const policy = '/usr/sbin/policy-rc.d';
    const addedPolicy = asRoot && !fs.existsSync(policy);
    if (addedPolicy) fs.writeFileSync(policy, '#!/bin/sh\nexit 101\n', { mode: 0o755 });
    try {
      run(['apt-get', 'update', '-q']);
      run(['apt-get', 'install', '-y', '-q', '--no-install-recommends', 'redis-server']);
    } finally {
      if (addedPolicy) fs.rmSync(policy, { force: true });
    }
  });
  const installed = which('redis-server');
  if (!installed) throw new Error('redis-server is still missing after apt-get install redis-server');
  return installed;
}

function which(name: string): string | undefined {
  const result = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  const found = result.stdout.trim();
  return result.status === 0 && found ? found : undefined;
}

/** Serialises installs between jest workers (apt and dpkg take their own locks and fail if busy). */
function withInstallLock(fn: () => void): void {
  const lock = path.join(os.tmpdir(), 'xchain-router-redis-install.lock');
  const deadline = Date.now() + 15 * 60_000;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 15 * 60_000) fs.rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${lock}`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
    }
  }
  try {
    fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

function launch(binary: string, port: number, dir: string): Promise<ChildProcess> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no', '--protected-mode', 'yes', '--loglevel', 'notice'];
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-server on port ${port} not ready after 10 s:\n${output}`));
    }, 10_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        child.stderr?.resume();
        resolve(child);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`redis-server on port ${port} exited (${code ?? signal}) before it was ready:\n${output}`));
    });
  });
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
