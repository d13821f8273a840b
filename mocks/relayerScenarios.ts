/**
 * The gasless relayer's answers as the service gives them on the sandbox (its relayer sending on the devnet's
 * Arbitrum): a test wallet asks GET /v1/relayer/quote for 100 USDC → WETH, signs the step's typedData as the
 * ecosystem SDK's wallet does (viem's signTypedData), posts it to POST /v1/relayer/relay (accepted), posts it again
 * (409: relayed already), follows it with GET /v1/relayer/status/{taskId} to DONE, and relays a second step through
 * POST /v1/advanced/relay. The answers become the examples of those operations (`npm run mock:examples`), and
 * test/e2e/relayerExamples.test.ts records them again and compares, once what varies between two recordings (hashes,
 * the signed deadline and the nonce drawn from it, signatures, block times) is replaced by placeholders
 * (normalizeDevnetAnswer).
 */
import pino from 'pino';
import { privateKeyToAccount } from 'viem/accounts';
import { startSandbox } from '../sandbox/service';
import type { DevnetRecordedAnswer } from './devnetScenarios';
import type { RecordedRequest, Scenario } from './scenarios';

/** The scenarios recorded, in the order returned. */
export const RELAYER_SCENARIO_NAMES = {
  getRelayerQuote: ['usdcToWeth'],
  relayTransaction: ['accepted', 'relayedAlready'],
  relayAdvanced: ['accepted'],
  getRelayerStatus: ['done'],
} as const;

const ARBITRUM = 42161;

const SUMMARIES: Readonly<Record<string, string>> = {
  'getRelayerQuote.usdcToWeth': '100 USDC to WETH on Arbitrum, gasless: USDC\'s Permit for Permit2 and the witness permit to sign, the relayer\'s fee in USDC',
  'relayTransaction.accepted': 'That step with both messages signed by its fromAddress: accepted, the task id to follow',
  'relayTransaction.relayedAlready': 'The same signed step posted again: refused, naming the task that relays it',
  'relayAdvanced.accepted': 'A second signed step (50 USDC to WETH) posted where the SDK posts steps without a witness permit: accepted alike',
  'getRelayerStatus.done': 'The task of the first step after the relayer\'s transaction was mined: DONE, with the transaction',
};

interface Answer {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Record<string, string>;
}

/** Starts the sandbox (Arbitrum only), records the relayer's answers (see the module comment) and stops it. */
export async function recordRelayerScenarios(): Promise<DevnetRecordedAnswer[]> {
  const sandbox = await startSandbox({ chains: [ARBITRUM], port: 0, host: '127.0.0.1', logger: pino({ level: 'silent' }) });
  const recorded = new Map<string, DevnetRecordedAnswer>();
  try {
    const user = privateKeyToAccount(sandbox.devnet.walletKeys[1] as `0x${string}`);
    const send = async (method: 'GET' | 'POST', url: string, body?: unknown): Promise<Answer> => {
      const response = await fetch(`${sandbox.url}${url}`, { method, ...(body !== undefined ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}) });
      return { status: response.status, body: await response.json(), headers: Object.fromEntries(response.headers) };
    };
    const record = (operationId: keyof typeof RELAYER_SCENARIO_NAMES, name: string, request: RecordedRequest, answer: Answer, expected: number) => {
      if (answer.status !== expected) throw new Error(`${operationId}.${name}: the service answered ${answer.status}, not ${expected}: ${JSON.stringify(answer.body).slice(0, 400)}`);
      const key = `${operationId}.${name}`;
      const scenario: Scenario = { name, operationId, summary: SUMMARIES[key]!, status: expected, service: 'devnet', request };
      recorded.set(key, { scenario, request, status: answer.status, body: answer.body, headers: answer.headers });
    };
    const quote = async (fromAmount: string) => {
      const url = `/v1/relayer/quote?${new URLSearchParams({ fromChain: 'arb', toChain: 'arb', fromToken: 'USDC', toToken: 'WETH', fromAmount, fromAddress: user.address })}`;
      return { url, answer: await send('GET', url) };
    };
    // each message signed as the SDK's wallet signs it: viem's signTypedData on the typed data as the answer has it
    const signed = async (step: { typedData: Record<string, unknown>[] }) => ({
      ...step,
      typedData: await Promise.all(step.typedData.map(async (t) => ({ ...t, signature: await user.signTypedData(t as Parameters<typeof user.signTypedData>[0]) }))),
    });

    const first = await quote('100000000');
    record('getRelayerQuote', 'usdcToWeth', { method: 'GET', url: first.url, service: 'devnet' }, first.answer, 200);
    const body = await signed((first.answer.body as { data: never }).data);
    const relayRequest: RecordedRequest = { method: 'POST', url: '/v1/relayer/relay', body, service: 'devnet' };
    const accepted = await send('POST', '/v1/relayer/relay', body);
    record('relayTransaction', 'accepted', relayRequest, accepted, 200);
    record('relayTransaction', 'relayedAlready', relayRequest, await send('POST', '/v1/relayer/relay', body), 409);
    const taskId = (accepted.body as { data: { taskId: string } }).data.taskId;
    const statusUrl = `/v1/relayer/status/${taskId}`;
    const deadline = Date.now() + 30_000;
    for (;;) {
      const answer = await send('GET', statusUrl);
      if ((answer.body as { data?: { status?: string } }).data?.status === 'DONE') {
        record('getRelayerStatus', 'done', { method: 'GET', url: statusUrl, service: 'devnet' }, answer, 200);
        break;
      }
      if (Date.now() > deadline) throw new Error(`relay task ${taskId} not DONE within 30 s: ${JSON.stringify(answer.body)}`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    // the first relay's permit is spent: the second step asks for a new one
    const second = await quote('50000000');
    const secondBody = await signed((second.answer.body as { data: never }).data);
    record('relayAdvanced', 'accepted', { method: 'POST', url: '/v1/advanced/relay', body: secondBody, service: 'devnet' }, await send('POST', '/v1/advanced/relay', secondBody), 200);
  } finally {
    await sandbox.stop();
  }
  return (Object.entries(RELAYER_SCENARIO_NAMES) as [string, readonly string[]][]).flatMap(([operationId, names]) => names.map((name) => {
    const answer = recorded.get(`${operationId}.${name}`);
    if (!answer) throw new Error(`scenario ${operationId}.${name} was not recorded`);
    return answer;
  }));
}
