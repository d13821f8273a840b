/**
 * Debian packages that tests need (redis-server, postgresql), installed when missing: CI starts from a clean machine.
 * One install at a time across jest workers (apt and dpkg take their own locks and fail if busy), as root or with
 * passwordless sudo, and without letting the package's post-install script start a system-wide server (left running
 * on its default port).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The path of a command on PATH, if any. */
export function which(name: string): string | undefined {
  const result = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  const found = result.stdout.trim();
  return result.status === 0 && found ? found : undefined;
}

/** `found()` once `apt-get install <pkg>` ran if it had to; throws if it is still missing. */
export function ensureDebianPackage<T>(pkg: string, found: () => T | undefined): T {
  const present = found();
  if (present !== undefined) return present;
  withInstallLock(() => {
    if (found() !== undefined) return;
    const asRoot = process.getuid?.() === 0;
    if (!asRoot && !which('sudo')) throw new Error(`${pkg} is missing and this user cannot install it: run \`apt-get install -y ${pkg}\` as root`);
    const run = (args: string[]): void => {
      const command = asRoot ? args[0]! : 'sudo';
      const argv = asRoot ? args.slice(1) : ['-n', ...args];
      const result = spawnSync(command, argv, { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, encoding: 'utf8', timeout: 10 * 60_000 });
      if (result.status !== 0) throw new Error(`${args.join(' ')} failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`.slice(-4000));
    };
    const policy = '/usr/sbin/policy-rc.d';
    const addedPolicy = asRoot && !fs.existsSync(policy);
    if (addedPolicy) fs.writeFileSync(policy, '#!/bin/sh\nexit 101\n', { mode: 0o755 });
    try {
      run(['apt-get', 'update', '-q']);
      run(['apt-get', 'install', '-y', '-q', '--no-install-recommends', pkg]);
    } finally {
      if (addedPolicy) fs.rmSync(policy, { force: true });
    }
  });
  const installed = found();
  if (installed === undefined) throw new Error(`still missing after apt-get install ${pkg}`);
  return installed;
}

function withInstallLock(fn: () => void): void {
  const lock = path.join(os.tmpdir(), 'xchain-router-apt-install.lock');
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
