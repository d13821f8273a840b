/**
 * What the browser tests (test/browser/docs.ts, test/browser/widget.ts) share: Debian's Chromium, installed
 * with apt-get when it is missing, the flags it is launched with, and a step timer for the summary line.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

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
