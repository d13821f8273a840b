/**
 * The representative requests of the conformance run (conformance.ts): the contract's examples changed into the
 * README's requests and into an input for every error status, each with the status it must get and whether it breaks
 * the contract on purpose; and the request a case makes of its operation's example.
 */
import { buildRequest } from '../test/support/fuzzArbitraries';
import type { OperationModel, WireRequest } from '../test/support/fuzzModel';
import { WALLET } from '../test/support/fixtures';

export interface Case {
  readonly name: string;
  readonly operationId: string;
  /** Changes the operation's example request (parameter and body examples of the contract). */
  readonly change?: (url: URL, body: Record<string, unknown> | undefined, headers: Record<string, string>) => Record<string, unknown> | undefined | void;
  readonly key?: 'valid' | 'blocked' | 'limited' | 'unknown' | 'none';
  readonly expect: number;
  /** The request breaks the contract on purpose: sent through the lenient proxy. */
  readonly breaksContract?: boolean;
  /** Requests sent before this one (to use up a rate limit). */
  readonly before?: number;
}

/**
 * The gasless relayer's operations: the conformance server runs no relayer (it has no chains), so their contract
 * examples get 404 there (no gasless quote, no task); their 200 and 409 are validated on the sandbox
 * (test/e2e/gasless.test.ts, test/e2e/relayerExamples.test.ts).
 */
export const WITHOUT_RELAYER: Readonly<Record<string, number>> = { getRelayerQuote: 404, relayTransaction: 404, relayAdvanced: 404, getRelayerStatus: 404 };

const set = (name: string, value: string) => (url: URL) => {
  url.searchParams.set(name, value);
};

/** Representative real requests: the contract's examples, the README's requests, and an input for every error status. */
export const CASES: Case[] = [
  { name: 'chains of two types', operationId: 'getChains', change: set('chainTypes', 'EVM,SVM'), expect: 200 },
  { name: 'an unknown chain type', operationId: 'getChains', change: set('chainTypes', 'XYZ'), expect: 400, breaksContract: true },
  { name: 'an unknown API key', operationId: 'getChains', key: 'unknown', expect: 401 },
  { name: 'a rate limit used up', operationId: 'getChains', key: 'limited', before: 1, expect: 429 },
  { name: 'stablecoins of two chains', operationId: 'getTokens', change: set('chains', 'eth,arb'), expect: 200 },
  { name: 'an unknown chain', operationId: 'getTokens', change: set('chains', 'eth,nochain'), expect: 400, breaksContract: true },
  { name: 'USDC on Arbitrum', operationId: 'getToken', change: (url) => { url.search = '?chain=arb&token=usdc'; }, expect: 200 },
  { name: 'an unknown token', operationId: 'getToken', change: set('token', 'NOPE'), expect: 404 },
  { name: 'an unknown chain', operationId: 'getToken', change: set('chain', 'nochain'), expect: 400, breaksContract: true },
  { name: 'no token', operationId: 'getToken', change: (url) => url.searchParams.delete('token'), expect: 400, breaksContract: true },
  { name: 'tools on Base', operationId: 'getTools', change: (url) => { url.search = '?chains=bas'; }, expect: 200 },
  { name: 'a blocked key', operationId: 'getTools', key: 'blocked', expect: 403 },
  { name: 'an unknown chain', operationId: 'getTools', change: set('chains', 'nochain'), expect: 400, breaksContract: true },
  { name: 'no filter', operationId: 'getConnections', change: (url) => ['fromChain', 'toChain', 'fromToken', 'toToken'].forEach((n) => url.searchParams.delete(n)), expect: 400 },
  {
    name: 'the README quote',
    operationId: 'getQuote',
    change: (url) => { url.search = `?fromChain=arb&toChain=opt&fromToken=USDC&toToken=USDC&fromAmount=1000000000&fromAddress=${WALLET}`; },
    expect: 200,
  },
  { name: 'fee=1 (must be below 1)', operationId: 'getQuote', change: set('fee', '1'), expect: 400, breaksContract: true },
  { name: 'a decimal amount', operationId: 'getQuote', change: set('fromAmount', '1.5'), expect: 400, breaksContract: true },
  { name: 'no route for 1 unit', operationId: 'getQuote', change: (url) => { url.searchParams.set('fromAmount', '1'); url.searchParams.delete('fromAmountForGas'); }, expect: 404 },
  {
    name: 'the README exact-output quote',
    operationId: 'getQuoteToAmount',
    change: (url) => { url.search = `?fromChain=eth&toChain=eth&fromToken=ETH&toToken=USDC&toAmount=1000000000&fromAddress=${WALLET}`; },
    expect: 200,
  },
  { name: 'no route for 100,000,000 USDC (more than any bridge carries)', operationId: 'getQuoteToAmount', change: set('toAmount', '100000000000000'), expect: 404 },
  { name: 'fee=1', operationId: 'getQuoteToAmount', change: set('fee', '1'), expect: 400, breaksContract: true },
  {
    name: 'the README routes request',
    operationId: 'postRoutes',
    change: () => ({ fromChainId: 8453, toChainId: 42161, fromTokenAddress: '0x0000000000000000000000000000000000000000', toTokenAddress: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831', fromAmount: '1000000000000000000' }),
    expect: 200,
  },
  { name: 'an empty body', operationId: 'postRoutes', change: () => ({}), expect: 400, breaksContract: true },
  { name: 'a chain key where the contract wants an id', operationId: 'postRoutes', change: (_url, body) => ({ ...body, fromChainId: 'nochain' }), expect: 400, breaksContract: true },
  { name: 'an unknown chain id', operationId: 'postRoutes', change: (_url, body) => ({ ...body, fromChainId: 999999 }), expect: 400 },
  { name: 'no included steps', operationId: 'postStepTransaction', change: (_url, body) => ({ ...body, includedSteps: [] }), expect: 400 },
  {
    name: 'an amount too small to route',
    operationId: 'postStepTransaction',
    change: (_url, body) => {
      const step = structuredClone(body) as { action: { fromAmount: string }; estimate: { fromAmount: string }; includedSteps: { action: { fromAmount: string } }[] };
      step.action.fromAmount = '1';
      step.estimate.fromAmount = '1';
      step.includedSteps[0]!.action.fromAmount = '1';
      return step as unknown as Record<string, unknown>;
    },
    expect: 404,
  },
  {
    name: 'a price moved past the slippage',
    operationId: 'postStepTransaction',
    change: (_url, body) => {
      const step = structuredClone(body) as { estimate: { toAmountMin: string } };
      step.estimate.toAmountMin = '99999999999';
      return step as unknown as Record<string, unknown>;
    },
    expect: 409,
  },
  { name: 'call data of no known function', operationId: 'parseCallData', change: set('callData', '0xdeadbeef'), expect: 400 },
  { name: 'call data that is not hex', operationId: 'parseCallData', change: set('callData', 'nothex'), expect: 400, breaksContract: true },
  { name: 'an unknown integrator', operationId: 'getIntegrator', change: (url) => { url.pathname = '/v1/integrators/unknown-integrator'; }, expect: 404 },
  { name: 'a token without collected fees', operationId: 'getIntegratorWithdrawal', change: set('tokenAddresses', '0x82aF49447D8a07e3bd95BD0d56f35241523fBab1'), expect: 400 },
  { name: 'an unknown integrator', operationId: 'getIntegratorWithdrawal', change: (url) => { url.pathname = url.pathname.replace(/\/integrators\/[^/]+/, '/integrators/unknown-integrator'); }, expect: 404 },
  { name: 'an unknown chain', operationId: 'getGasSuggestion', change: (url) => { url.pathname = '/v1/gas/suggestion/nochain'; }, expect: 400, breaksContract: true },
  { name: 'neither a transfer nor a wallet', operationId: 'getStatusStream', change: (url) => { url.search = ''; }, expect: 400 },
  { name: 'a transfer and a wallet', operationId: 'getStatusStream', change: set('wallet', WALLET), expect: 400 },
  { name: 'an unknown key', operationId: 'getStatusStream', key: 'unknown', expect: 401 },
  { name: 'an unknown key', operationId: 'testApiKey', key: 'unknown', expect: 401 },
  { name: 'no key', operationId: 'testApiKey', key: 'none', expect: 401, breaksContract: true },
  { name: 'a blocked key', operationId: 'testApiKey', key: 'blocked', expect: 403 },
];

/** The operation's example request (its parameter and body examples) as the case changes it, with the case's key. */
export function exampleRequest(operation: OperationModel, c: Case, key: string | undefined): WireRequest {
  const example = buildRequest(operation, []);
  const url = new URL(example.url, 'http://conformance.invalid');
  const headers: Record<string, string> = { ...example.headers };
  let body = example.body === undefined ? undefined : (JSON.parse(example.body) as Record<string, unknown>);
  const changed = c.change?.(url, body, headers);
  if (changed) body = changed;
  if (key !== undefined) headers['x-svc-api-key'] = key;
  return { method: operation.method, url: `${url.pathname}${url.search}`, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) };
}
