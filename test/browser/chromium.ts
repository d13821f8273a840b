/**
 * What the browser tests (test/browser/docs.ts, test/browser/widget.ts) share: Debian's Chromium, installed
 * with apt-get when it is missing, the flags it is launched with, a step timer for the summary line, servers
 * on loopback ports, and how a run ends (within its time, with an exit code).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Headless, no sandbox (containers run as root), and none of Chromium's own background traffic. */
export const LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function ensureChromium(): void {
  if (fs.existsSync(CHROMIUM)) return;
  if (process.getuid?.() !== 0) {
    throw new Error(`${CHROMIUM} is missing and this is not root: install it with apt-get install -y chromium chromium-driver`);
  }
  process.stdout.write('browser test: installing chromium and chromium-driver with apt-get\n');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update'], { stdio: ['ignore', 'ignore', 'inherit'], env });
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium', 'chromium-driver'], { stdio: ['ignore', 'ignore', 'inherit'], env });
  if (!fs.existsSync(CHROMIUM)) throw new Error(`apt-get install chromium did not provide ${CHROMIUM}`);
}

export interface Step {
  name: string;
  ms: number;
}

/** Runs named steps and keeps how long each took, for the summary line of a run (passed or failed). */
export class StepTimer {
  readonly steps: Step[] = [];

  async step<T>(name: string, run: () => Promise<T> | T): Promise<T> {
    const started = Date.now();
    try {
      return await run();
    } finally {
      this.steps.push({ name, ms: Date.now() - started });
    }
  }

  summary(): string {
    return this.steps.map((s) => `${s.name} ${(s.ms / 1000).toFixed(1)} s`).join(', ');
  }
}

/** Headless Chromium with its profile in `userDataDir`, and its first page. */
export async function launchChromium(userDataDir: string, viewport: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM, headless: true, args: LAUNCH_ARGS, viewport });
  return { context, page: context.pages()[0] ?? (await context.newPage()) };
}

/** Waits until `server` listens (it was told to listen on a loopback port); its origin. */
export async function listening(server: http.Server): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('listening', () => resolve());
    server.once('error', reject);
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export async function closeServer(server: http.Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

/** Fails the run (exit code 1) unless the timer returned is cleared within `timeoutMs`. */
export function failAfter(label: string, timeoutMs: number): NodeJS.Timeout {
  const deadline = setTimeout(() => {
    process.stderr.write(`${label}: FAILED: not finished within ${timeoutMs / 1000} s\n`);
    process.exit(1);
  }, timeoutMs);
  deadline.unref();
  return deadline;
}

/** Runs a browser test's main: exit code 0 when it resolves, 1 with the error and the steps' summary when it fails. */
export function runBrowserTest(label: string, timer: StepTimer, main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error) => {
      process.stderr.write(`${label}: FAILED: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
      process.stderr.write(`  steps: ${timer.summary()}\n`);
      process.exit(1);
    },
  );
}
