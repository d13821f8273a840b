/**
 * Contract tests: starts the real server on an ephemeral loopback port and runs Dredd against it
 * with the hooks in contract-tests/hooks.js (real bad inputs for the error answers, a schema check
 * of every real response, and a printed reason for every skipped transaction).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { loadConfig } from '../src/config';
import { createApp } from '../src/server/app';
import { buildDependencies } from '../src/server/dependencies';
import { handlers } from '../handlers';

const ROOT = path.resolve(__dirname, '..');

async function main(): Promise<number> {
  const config = loadConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' });
  const app = await createApp(buildDependencies(config), config, { handlers, logger: pino({ level: config.logLevel }) });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  process.stdout.write(`contract tests: real server on ${endpoint}\n`);
  try {
    return await runDredd(endpoint);
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

function runDredd(endpoint: string): Promise<number> {
  const dredd = path.join(ROOT, 'node_modules', '.bin', 'dredd');
  const args = [
    'openapi.yaml',
    endpoint,
    '--hookfiles=contract-tests/hooks.js',
    '--language=nodejs',
    '--loglevel=warning',
    '--reporter=markdown',
    '--output=contract-tests/artifacts/dredd-report.md',
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(dredd, args, {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, IMPLEMENTED_OPERATIONS: Object.keys(handlers).join(',') },
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`contract tests failed to run: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
