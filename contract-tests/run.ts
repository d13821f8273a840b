/**
 * Contract tests: starts the real server on an ephemeral loopback port and runs Dredd against it
 * with the hooks in contract-tests/hooks.js (real bad inputs for the error answers, a schema check
 * of every real response, and a printed reason for every skipped transaction).
 *
 * The server is hermetic (contract-tests/server.ts; only CONTRACT_LOG_LEVEL is read), with three API keys
 * generated for the run so that the hooks can drive 401 (an unknown key), 403 (a blocked key) and 429 (a key
 * allowed one request a minute).
 *
 * Files written to contract-tests/artifacts/ (gitignored):
 *   openapi.translated.json  openapi.yaml as the server reads it (loadContract: OpenAPI 3.0 exclusive
 *                            bounds translated for ajv); hooks.js validates against it
 *   summary.json             written by hooks.js at the end: every transaction and its outcome
 *   dredd-report.md          Dredd's markdown report
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { loadContract } from '../src/server/contract';
import { handlers } from '../handlers';
import { startTestServer, type KeyKind } from './server';

const ROOT = path.resolve(__dirname, '..');
const OPENAPI = path.join(ROOT, 'openapi.yaml');
const ARTIFACTS = path.join(__dirname, 'artifacts');
const TRANSLATED = path.join(ARTIFACTS, 'openapi.translated.json');
const SUMMARY = path.join(ARTIFACTS, 'summary.json');
/** Dredd normally needs ~10 s (most of it parsing the contract); it is stopped after this. */
const DREDD_TIMEOUT_MS = 120_000;

interface Summary {
  passed: number;
  failed: number;
  skipped: number;
  skipReasons: Record<string, number>;
  failures: { name: string; reason: string }[];
}

async function main(): Promise<number> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  fs.rmSync(SUMMARY, { force: true });
  fs.writeFileSync(TRANSLATED, `${JSON.stringify(loadContract(OPENAPI), null, 2)}\n`);

  const server = await startTestServer('contract', process.env.CONTRACT_LOG_LEVEL ?? 'silent');
  if (server.ignoredFormats.size > 0) {
    const list = [...server.ignoredFormats].map(([format, count]) => `${format} (${count})`).join(', ');
    process.stdout.write(`contract tests: note: the server's validator ignores the formats ${list} (ajv warnings, summed up)\n`);
  }
  process.stdout.write(`contract tests: real server on ${server.url}, implemented: ${Object.keys(handlers).join(', ')}\n`);
  try {
    const code = await runDredd(server.url, server.keys);
    return report(code);
  } finally {
    await server.close();
  }
}

function runDredd(endpoint: string, keys: Readonly<Record<KeyKind, string>>): Promise<number> {
  const args = [
    require.resolve('dredd/bin/dredd'),
    OPENAPI,
    endpoint,
    '--hookfiles=contract-tests/hooks.js',
    '--language=nodejs',
    // the parser warns about every schema keyword Dredd does not support (hundreds of lines);
    // failures and hook output are not log messages, so they are still printed
    '--loglevel=error',
    // colours only on a terminal (Dredd's output is piped through this process)
    process.stdout.isTTY ? '--color' : '--no-color',
    '--reporter=markdown',
    `--output=${path.relative(ROOT, path.join(ARTIFACTS, 'dredd-report.md'))}`,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        NODE_NO_WARNINGS: '1',
        IMPLEMENTED_OPERATIONS: Object.keys(handlers).join(','),
        CONTRACT_TRANSLATED: TRANSLATED,
        CONTRACT_SUMMARY: SUMMARY,
        CONTRACT_API_KEY: keys.valid,
        CONTRACT_BLOCKED_KEY: keys.blocked,
        CONTRACT_LIMITED_KEY: keys.limited,
      },
    });
    // Dredd's CLI reporter prints "skip: <request>" for every skipped transaction; the hooks print a
    // line with the reason for each of them instead, so only that reporter line is dropped
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      if (!/^(\u001b\[\d+m)?skip(\u001b\[\d+m)?: /.test(line)) process.stdout.write(`${line}\n`);
    });
    child.stderr.pipe(process.stderr);
    const timer = setTimeout(() => {
      process.stderr.write(`contract tests: Dredd did not finish within ${DREDD_TIMEOUT_MS / 1000} s, stopping it\n`);
      child.kill('SIGKILL');
    }, DREDD_TIMEOUT_MS);
    const stop = (): void => {
      child.kill('SIGTERM');
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(code ?? (signal ? 128 : 1));
    });
  });
}

/** The one-line summary, from what the hooks recorded; the run fails on any failure, and when nothing passed. */
function report(dreddCode: number): number {
  if (!fs.existsSync(SUMMARY)) {
    process.stdout.write(`contract tests: FAILED: the hooks wrote no summary (Dredd exit code ${dreddCode})\n`);
    return dreddCode || 1;
  }
  const summary = JSON.parse(fs.readFileSync(SUMMARY, 'utf8')) as Summary;
  const reasons = Object.entries(summary.skipReasons)
    .map(([reason, count]) => `${count} ${reason}`)
    .join('; ');
  const ok = dreddCode === 0 && summary.failed === 0 && summary.passed > 0;
  process.stdout.write(
    `contract tests: ${ok ? 'OK' : 'FAILED'}: ${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped (${reasons})` +
      `${dreddCode === 0 ? '' : `, Dredd exit code ${dreddCode}`}${summary.passed === 0 ? ', nothing passed' : ''}\n`,
  );
  for (const failure of summary.failures) process.stdout.write(`  failed: ${failure.name}: ${failure.reason}\n`);
  return ok ? 0 : dreddCode || 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`contract tests failed to run: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
