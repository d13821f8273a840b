/**
 * The transfer states of GET /v1/status (and a gas refuel of GET /v1/gas/status) as the service answers them in
 * chain mode: on the embedded data alone a status can only be NOT_FOUND, so these scenarios start the sandbox's
 * devnet (sandbox/devnet.ts: anvil chains Ethereum, Arbitrum and Base seeded from the snapshot, with the relayer),
 * build the real app in chain mode on it (CHAINS_FILE in a temporary folder, Base configured with 3 confirmations),
 * send real transfers with the devnet's test wallets exactly as test/e2e/status.test.ts does (quote over HTTP,
 * approve, send the transactionRequest as it is) and record the status answers, `service: 'devnet'`.
 *
 * One devnet for every flow; each flow starts from the seeded state (checkpoint, reverted after it), since the
 * quotes price the snapshot, which is that state. The answers are returned in the order of DEVNET_SCENARIO_NAMES
 * (the first one, `done`, is the answer's default example).
 *
 * What varies between two recordings (hashes, block times) is replaced by placeholders by normalizeDevnetAnswer,
 * for comparing a recording with the examples of openapi.yaml (test/e2e/statusExamples.test.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import request from 'supertest';
import { handlers } from '../handlers';
import { startDevnet, type Devnet } from '../sandbox/devnet';
import { approveIfNeeded, sendTransactionRequest, type WireTransactionRequest } from '../sandbox/execute';
import { chainsFileOf } from '../sandbox/service';
import { loadConfig } from '../src/config';
import { createApp } from '../src/server/app';
import { buildDependencies, type Dependencies } from '../src/server/dependencies';
import type { RecordedAnswer, RecordedRequest } from './scenarios';
import type { Scenario } from './scenarios';

/** The scenarios recorded, in the order returned: `getStatus` ones, then `getGasStatus`. */
export const DEVNET_SCENARIO_NAMES = {
  getStatus: ['done', 'sameChainDone', 'pendingSourceConfirmations', 'pendingDestination', 'failed', 'invalid'],
  getGasStatus: ['done'],
} as const;

/** A recorded answer with the answer's headers (for validating it against the contract; writeExamples ignores them). */
export interface DevnetRecordedAnswer extends RecordedAnswer {
  readonly headers: Readonly<Record<string, string>>;
}

const ETHEREUM = 1;
const ARBITRUM = 42161;
const BASE = 8453;
/** Base is configured with this many confirmations: a transfer from Base is first PENDING WAIT_SOURCE_CONFIRMATIONS. */
const BASE_CONFIRMATIONS = 3;

const SUMMARIES: Readonly<Record<string, string>> = {
  'getStatus.done': '1,000 USDC from Base to Arbitrum: DONE COMPLETED, with the sending and receiving transactions',
  'getStatus.sameChainDone': '1 WETH to LINK on Ethereum: a same-chain swap, DONE COMPLETED in its sending transaction',
  'getStatus.pendingSourceConfirmations': `The same transfer just mined on Base, configured with ${BASE_CONFIRMATIONS} confirmations: PENDING WAIT_SOURCE_CONFIRMATIONS`,
  'getStatus.pendingDestination': 'The same transfer confirmed, the bridge holding the funds: PENDING WAIT_DESTINATION_TRANSACTION',
  'getStatus.failed': 'A swap whose price moved beyond its slippage before it ran: FAILED SLIPPAGE_EXCEEDED, the revert decoded',
  'getStatus.invalid': 'An approval, not a transfer of the service: INVALID',
  'getGasStatus.done': 'The gas refuel leg of a transfer from Base to Arbitrum: DONE, ETH delivered on Arbitrum',
};

interface Quote {
  id: string;
  tool: string;
  action: { fromChainId: number; toChainId: number; fromAmount: string; fromToken: { address: string } };
  estimate: { approvalAddress: string };
  transactionRequest: WireTransactionRequest;
}

type App = Parameters<typeof request>[0];
interface Answer {
  readonly status: number;
  readonly body: { status?: string; substatus?: string } & Record<string, unknown>;
  readonly headers: Record<string, string>;
}

/**
 * Starts a devnet, sends the scenarios' transfers there and records the service's status answers (see the module
 * comment). The devnet is stopped and the app's chain connections and access control closed, also on failure.
 */
export async function recordDevnetScenarios(options: { log?: (line: string) => void } = {}): Promise<DevnetRecordedAnswer[]> {
  const log = options.log ?? (() => undefined);
  const started = Date.now();
  const devnet = await startDevnet({ wallets: 2 });
  log(`devnet ready in ${Date.now() - started} ms`);
  let dir: string | undefined;
  let dependencies: Dependencies | undefined;
  try {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'devnet-scenarios-'));
    const chainsFile = path.join(dir, 'chains.json');
    fs.writeFileSync(chainsFile, JSON.stringify(chainsFileOf(devnet, { confirmations: { [BASE]: BASE_CONFIRMATIONS } }), null, 2));
    // as mocks/examples.ts make(): the real app on a silent logger, limits out of the way
    const config = loadConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_OVERRIDE: '1000000', CHAINS_FILE: chainsFile });
    dependencies = buildDependencies(config);
    const app = await createApp(dependencies, config, { handlers, logger: pino({ level: 'silent' }) });
    const recorder = new Recorder(app, devnet);
    for (const flow of [bridgeFlow, sameChainFlow, failedFlow, invalidFlow, gasRefuelFlow]) {
      const restore = await devnet.checkpoint();
      try {
        await flow(recorder);
      } finally {
        await restore();
      }
      log(`${flow.name} recorded (${Date.now() - started} ms)`);
    }
    return recorder.inOrder();
  } finally {
    // the app's chain connections close before the chains stop
    dependencies?.chains?.close();
    await dependencies?.access.close();
    await devnet.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }
}

class Recorder {
  private readonly recorded = new Map<string, DevnetRecordedAnswer>();

  constructor(readonly app: App, readonly devnet: Devnet) {}

  async quote(query: Record<string, string>, walletIndex = 0): Promise<Quote> {
    const wallet = this.devnet.wallet(Number(query.fromChain), walletIndex);
    const res = await request(this.app).get('/v1/quote').query({ ...query, fromAddress: wallet.address });
    if (res.status !== 200) throw new Error(`quote ${JSON.stringify(query)}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    return res.body as Quote;
  }

  /** Approves (unless told not to) and sends the quote's transactionRequest as it is, as an integrator's client does. */
  async send(q: Quote, { walletIndex = 0, expectStatus = 1 } = {}) {
    const wallet = this.devnet.wallet(q.action.fromChainId, walletIndex);
    await approveIfNeeded(wallet, q.action.fromToken.address, q.estimate.approvalAddress, BigInt(q.action.fromAmount));
    const receipt = await sendTransactionRequest(wallet, q.transactionRequest);
    if (receipt.status !== expectStatus) throw new Error(`the ${q.tool} transaction ${receipt.hash} ended with status ${receipt.status}, not ${expectStatus}`);
    return receipt;
  }

  async get(url: string): Promise<Answer> {
    const res = await request(this.app).get(url);
    return { status: res.status, body: res.body as Answer['body'], headers: res.headers as Record<string, string> };
  }

  /** Asks until the answer is `expected` (polled every 50 ms, as a client polls), or fails naming the last answer. */
  async until(url: string, expected: { status: string; substatus?: string }, timeoutMs = 20_000): Promise<Answer> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const answer = await this.get(url);
      if (answer.status === 200 && answer.body.status === expected.status && (expected.substatus === undefined || answer.body.substatus === expected.substatus)) return answer;
      if (Date.now() > deadline) {
        throw new Error(`GET ${url}: still ${answer.status} ${JSON.stringify(answer.body).slice(0, 400)} after ${timeoutMs} ms, not ${expected.status} ${expected.substatus ?? ''}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Asks once; the answer must be `expected` now. */
  async now(url: string, expected: { status: string; substatus?: string }): Promise<Answer> {
    return this.until(url, expected, 0);
  }

  record(operationId: 'getStatus' | 'getGasStatus', name: string, url: string, answer: Answer): void {
    const req: RecordedRequest = { method: 'GET', url, service: 'devnet' };
    const key = `${operationId}.${name}`;
    const summary = SUMMARIES[key];
    if (!summary) throw new Error(`no scenario ${key}`);
    // a transfer that went through is what a status client most likely wants to see first
    const scenario: Scenario = { name, operationId, summary, status: 200, service: 'devnet', request: req, ...(name === 'done' ? { default: true } : {}) };
    this.recorded.set(key, { scenario, request: req, status: answer.status, body: answer.body, headers: answer.headers });
  }

  inOrder(): DevnetRecordedAnswer[] {
    return (Object.entries(DEVNET_SCENARIO_NAMES) as [string, readonly string[]][]).flatMap(([operationId, names]) => names.map((name) => {
      const answer = this.recorded.get(`${operationId}.${name}`);
      if (!answer) throw new Error(`scenario ${operationId}.${name} was not recorded`);
      return answer;
    }));
  }
}

const statusUrl = (txHash: string, fromChain: string) => `/v1/status?${new URLSearchParams({ txHash, fromChain })}`;

/**
 * One bridge transfer, Base → Arbitrum, followed as a client polls it: mined with 1 of 3 confirmations, then
 * confirmed with the bridge holding the funds (the relayer stopped), then released on Arbitrum.
 */
async function bridgeFlow(r: Recorder): Promise<void> {
  const relayer = r.devnet.relayer!;
  const q = await r.quote({ fromChain: String(BASE), toChain: String(ARBITRUM), fromToken: 'USDC', toToken: 'USDC', fromAmount: '1000000000' });
  relayer.stop();
  let stopped = true;
  try {
    const receipt = await r.send(q);
    const url = statusUrl(receipt.hash, 'bas');
    r.record('getStatus', 'pendingSourceConfirmations', url, await r.now(url, { status: 'PENDING', substatus: 'WAIT_SOURCE_CONFIRMATIONS' }));
    await r.devnet.chain(BASE).provider.send('anvil_mine', [`0x${(BASE_CONFIRMATIONS - 1).toString(16)}`]);
    r.record('getStatus', 'pendingDestination', url, await r.now(url, { status: 'PENDING', substatus: 'WAIT_DESTINATION_TRANSACTION' }));
    await relayer.start();
    stopped = false;
    r.record('getStatus', 'done', url, await r.until(url, { status: 'DONE', substatus: 'COMPLETED' }));
  } finally {
    // running again for the next flows (the checkpoint's revert resyncs a running relayer)
    if (stopped) await relayer.start();
  }
}

/** A swap on Ethereum through a constant-product pool: DONE in its sending transaction. */
async function sameChainFlow(r: Recorder): Promise<void> {
  const q = await r.quote({ fromChain: String(ETHEREUM), toChain: String(ETHEREUM), fromToken: 'WETH', toToken: 'LINK', fromAmount: '1000000000000000000' });
  const receipt = await r.send(q);
  const url = statusUrl(receipt.hash, 'eth');
  r.record('getStatus', 'sameChainDone', url, await r.until(url, { status: 'DONE', substatus: 'COMPLETED' }));
}

/** A swap quoted at 0.1 % slippage, sent after another wallet moved the pool's price: FAILED SLIPPAGE_EXCEEDED. */
async function failedFlow(r: Recorder): Promise<void> {
  const query = { fromChain: String(ETHEREUM), toChain: String(ETHEREUM), fromToken: 'USDC', toToken: 'WETH', fromAmount: '1000000000', slippage: '0.001' };
  const first = await r.quote(query, 0);
  const mover = await r.quote({ ...query, fromAmount: '2000000000000', slippage: '0.5' }, 1);
  await r.send(mover, { walletIndex: 1 });
  const receipt = await r.send(first, { expectStatus: 0 });
  const url = statusUrl(receipt.hash, 'eth');
  r.record('getStatus', 'failed', url, await r.until(url, { status: 'FAILED', substatus: 'SLIPPAGE_EXCEEDED' }));
}

/** An ERC-20 approval of the router: a transaction of the chain, not a transfer of the service. */
async function invalidFlow(r: Recorder): Promise<void> {
  const q = await r.quote({ fromChain: String(ETHEREUM), toChain: String(ETHEREUM), fromToken: 'USDC', toToken: 'WETH', fromAmount: '1000000000' });
  const approval = await approveIfNeeded(r.devnet.wallet(ETHEREUM), q.action.fromToken.address, q.estimate.approvalAddress, 1n);
  if (!approval) throw new Error('the test wallet already had an allowance: no approval sent');
  const url = statusUrl(approval.hash, 'eth');
  r.record('getStatus', 'invalid', url, await r.until(url, { status: 'INVALID' }));
}

/** 1,000 USDC Base → Arbitrum, 10 USDC of it as ETH on Arbitrum (fromAmountForGas): the refuel leg DONE. */
async function gasRefuelFlow(r: Recorder): Promise<void> {
  const q = await r.quote({ fromChain: String(BASE), toChain: String(ARBITRUM), fromToken: 'USDC', toToken: 'USDC', fromAmount: '1000000000', fromAmountForGas: '10000000' });
  const receipt = await r.send(q);
  const url = `/v1/gas/status?${new URLSearchParams({ txHash: receipt.hash })}`;
  r.record('getGasStatus', 'done', url, await r.until(url, { status: 'DONE' }));
}

// ---------------------------------------------------------------------------------------------------------------
// normalization

/** A transaction hash standing alone (not a part of longer hex such as call data). */
const TX_HASH = /(?<![0-9A-Za-z])0x[0-9a-fA-F]{64}(?![0-9A-Za-z])/g;
/** Keys of Unix-time fields (seconds or milliseconds). */
const TIME_KEY = /^(timestamp|lastUpdated)$|Timestamp$|At$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
export const TIMESTAMP_PLACEHOLDER = '<timestamp>';
/** A 65-byte signature (0x and 130 hex digits). */
const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;
/** A Permit2 nonce drawn from a hash (relayNonce: 70-odd decimal digits), not a counter. */
const DRAWN_NONCE = /^[0-9]{20,}$/;

/**
 * A recorded answer (or request) with what legitimately varies between two recordings replaced by placeholders,
 * for comparing a recording with the examples of openapi.yaml:
 * - block times: every Unix-time field (`timestamp` of the sending and receiving transactions; `lastUpdated` and
 *   `…At` / `…Timestamp` fields if an answer ever has them) and ISO date-time strings become `<timestamp>`. The
 *   devnet's anvils stamp blocks with the wall clock, so these differ in every recording (the only thing that did
 *   between two recordings here);
 * - transaction hashes (0x + 64 hex, wherever they stand: `txHash`, the hash in `txLink`, in a message, in the
 *   request's URL) become `<txHash#n>`, numbered by first appearance in the document, so that which hashes are the
 *   same one still counts (a same-chain swap's receiving hash is its sending hash; the link names its hash). They
 *   were identical in two recordings (same nonces, calldata and gas prices on a fresh devnet), but change with any
 *   change to the contracts, the seeding, a quote or the order of the flows, which is no change of the answers.
 * - a relayed step's signed messages: their `deadline` (the clock's time at the quote, plus its validity), the witness
 *   permit's `nonce` drawn from it, and every `signature`, become `<deadline>`, `<nonce>`, `<signature>`.
 * `transactionId` is kept: it is derived from the quote's id, itself derived from the request. Amounts, tokens,
 * chain ids, block numbers, gas, statuses, substatuses and messages (apart from the hashes in them) are kept.
 */
export function normalizeDevnetAnswer(body: unknown): unknown {
  const numbers = new Map<string, number>();
  const hash = (h: string) => {
    const key = h.toLowerCase();
    if (!numbers.has(key)) numbers.set(key, numbers.size + 1);
    return `<txHash#${numbers.get(key)}>`;
  };
  const walk = (value: unknown, key?: string): unknown => {
    if (Array.isArray(value)) return value.map((v) => walk(v));
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]));
    if (key !== undefined && TIME_KEY.test(key) && (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value)))) return TIMESTAMP_PLACEHOLDER;
    // a relayed step's messages: signed with a deadline from the clock, and the witness's nonce drawn from it
    if (key === 'deadline' && typeof value === 'string' && /^\d+$/.test(value)) return '<deadline>';
    if (key === 'nonce' && typeof value === 'string' && DRAWN_NONCE.test(value)) return '<nonce>';
    if (key === 'signature' && typeof value === 'string' && SIGNATURE.test(value)) return '<signature>';
    if (typeof value !== 'string' || key === 'transactionId') return value;
    if (ISO_TIME.test(value)) return TIMESTAMP_PLACEHOLDER;
    return value.replace(TX_HASH, hash);
  };
  return walk(body);
}
