/**
 * The staging mock (mocks/README.md): Prism serving openapi.yaml, started here as `npm run mock`
 * starts it, on a free loopback port. Its answers must validate against the contract like the real
 * server's, and it must refuse requests that break the contract. Prism is killed (its whole process
 * group) after the suite, even when a test fails.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import request from 'supertest';
import { loadContract } from '../../src/server/contract';
import { contractValidator, OPENAPI_PATH, type ContractValidator } from '../support/contract';

const ROOT = path.resolve(__dirname, '..', '..');
const PRISM = path.join(ROOT, 'node_modules', '.bin', 'prism');
const STARTUP_TIMEOUT_MS = 30_000;

jest.setTimeout(60_000);

interface Mock {
  readonly url: string;
  readonly child: ChildProcess;
  output(): string;
}

let mock: Mock | undefined;
let contract: ContractValidator;

beforeAll(async () => {
  contract = await contractValidator();
  mock = await startPrism();
});

afterAll(async () => {
  if (mock) await stop(mock.child);
});

function base(): string {
  if (!mock) throw new Error('Prism did not start');
  return mock.url;
}

describe('staging mock (Prism)', () => {
  it('GET /v1/chains answers 200 with a body that validates against the contract', async () => {
    const res = await request(base()).get('/v1/chains');
    expect(res.status).toBe(200);
    contract.expectResponse('getChains', res);
    expect(res.body.chains.length).toBeGreaterThan(0);
  });

  it('GET /v1/token?chain=arb&token=USDC answers the documented token', async () => {
    const res = await request(base()).get('/v1/token').query({ chain: 'arb', token: 'USDC' });
    expect(res.status).toBe(200);
    contract.expectResponse('getToken', res);
    expect(res.body).toMatchObject({ chainId: 42161, symbol: 'USDC' });
  });

  it('GET /v1/quote with the example parameters answers a quote', async () => {
    const query = exampleQuery('/v1/quote', 'get');
    expect(query).toMatchObject({ fromChain: expect.any(String), fromAmount: expect.any(String) });
    const res = await request(base()).get('/v1/quote').query(query);
    expect(res.status).toBe(200);
    contract.expectResponse('getQuote', res);
    expect(res.body).toMatchObject({ type: expect.any(String), action: expect.any(Object), estimate: expect.any(Object) });
  });

  it('refuses fee=1 on /v1/quote (the fee must be below 1: an exclusive maximum) with a contract 400', async () => {
    const query = { ...exampleQuery('/v1/quote', 'get'), fee: '1' };
    const res = await request(base()).get('/v1/quote').query(query);
    expect(res.status).toBe(400);
    contract.expectResponse('getQuote', res);
    expect(violations(res)).toEqual(expect.arrayContaining([expect.stringMatching(/fee/)]));
    // just below the bound is fine
    const ok = await request(base()).get('/v1/quote').query({ ...query, fee: '0.99' });
    expect(ok.status).toBe(200);
  });

  it('refuses a request without a required parameter with a contract 400 naming it', async () => {
    const res = await request(base()).get('/v1/token').query({ chain: 'arb' });
    expect(res.status).toBe(400);
    contract.expectResponse('getToken', res);
    expect(violations(res)).toEqual(expect.arrayContaining([expect.stringMatching(/token/)]));
  });
});

/** Prism describes what a refused request breaks in its sl-violations header (the body is the contract's example). */
function violations(res: request.Response): string[] {
  const header = res.headers['sl-violations'];
  if (typeof header !== 'string') return [];
  return (JSON.parse(header) as { message: string }[]).map((v) => v.message);
}

/** The query of an operation built from the examples of its parameters, as Dredd and the README use them. */
function exampleQuery(pathTemplate: string, method: string): Record<string, string> {
  const document = loadContract(OPENAPI_PATH) as unknown as {
    paths: Record<string, Record<string, { parameters?: ({ $ref: string } | Parameter)[] }>>;
    components: { parameters: Record<string, Parameter> };
  };
  const operation = document.paths[pathTemplate]?.[method];
  if (!operation) throw new Error(`no operation ${method.toUpperCase()} ${pathTemplate}`);
  const query: Record<string, string> = {};
  for (const entry of operation.parameters ?? []) {
    const parameter = '$ref' in entry ? document.components.parameters[entry.$ref.split('/').pop()!]! : entry;
    if (parameter.in !== 'query' || parameter.example === undefined) continue;
    query[parameter.name] = Array.isArray(parameter.example) ? parameter.example.join(',') : String(parameter.example);
  }
  return query;
}

interface Parameter {
  name: string;
  in: string;
  example?: unknown;
}

/** Starts `prism mock openapi.yaml` on a free loopback port and waits until it answers. */
async function startPrism(): Promise<Mock> {
  if (!fs.existsSync(PRISM)) throw new Error(`${PRISM} is missing: run npm install`);
  let lastError: Error | undefined;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const port = await freePort();
    let output = '';
    // its own process group (detached), so that stopping it also stops anything it started
    const child = spawn(process.execPath, [fs.realpathSync(PRISM), 'mock', OPENAPI_PATH, '--host', '127.0.0.1', '--port', String(port), '--errors'], {
      cwd: ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    const collect = (chunk: Buffer): void => {
      output = (output + chunk.toString()).slice(-20_000);
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    // Prism is detached from jest's process group: if jest exits without afterAll, kill it anyway
    const killOnExit = (): void => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    process.once('exit', killOnExit);
    child.once('exit', () => process.off('exit', killOnExit));
    const started: Mock = { url: `http://127.0.0.1:${port}`, child, output: () => output };
    try {
      await waitUntilAnswering(started);
      return started;
    } catch (error) {
      lastError = error as Error;
      await stop(child);
    }
  }
  throw lastError ?? new Error('Prism did not start');
}

async function waitUntilAnswering(started: Mock): Promise<void> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  let exited: string | undefined;
  started.child.once('exit', (code, signal) => {
    exited = `exited (${code ?? signal})`;
  });
  while (Date.now() < deadline) {
    if (exited) throw new Error(`Prism ${exited} before answering:\n${started.output()}`);
    try {
      const res = await fetch(`${started.url}/v1/chains`, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`Prism did not answer within ${STARTUP_TIMEOUT_MS / 1000} s:\n${started.output()}`);
}

/** SIGTERM to the whole process group, SIGKILL after 5 s; resolves once the process is gone. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signalGroup = (signal: NodeJS.Signals): void => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  signalGroup('SIGTERM');
  const timer = setTimeout(() => signalGroup('SIGKILL'), 5_000);
  await gone;
  clearTimeout(timer);
  signalGroup('SIGKILL'); // anything left in the group
  child.stdout?.destroy();
  child.stderr?.destroy();
}

function freePort(): Promise<number> {
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
