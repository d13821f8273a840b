/**
 * The ecosystem's current client against the sandbox, as an integrator uses it: `@lifi/sdk` 4 with
 * `@lifi/sdk-provider-ethereum`, untouched (no patch, no proxy, no extra header), pointed at the service in chain
 * mode, executes routes to DONE with a viem wallet of a funded test account: a same-chain swap, a bridge-only
 * transfer, a transfer with a destination swap, a route paid in the native coin, and an exact-output quote
 * converted to a route. For each, the amount received (the final status's `receiving.amount`, which the SDK copies
 * into the step's execution) is at least the quoted `toAmountMin`, the receiver's balance of the destination token
 * moved by exactly that amount, and the sender's source balance by exactly `fromAmount` (plus the gas it paid, when
 * the source token is the native coin).
 *
 * The client is created without `rpcUrls`: it takes each chain's RPC from /v1/chains (`metamask.rpcUrls`), where
 * chain mode names the devnet's first. Every request of the process goes through a loopback guard
 * (test/support/loopbackGuard.ts): a request to any other host than the machine's own fails at once and fails the
 * test.
 *
 * The SDK polls GET /v1/status every 5 s (not configurable in 4.x), so a cross-chain scenario takes about that.
 */
import pino from 'pino';
import { Contract, ContractFactory, type JsonRpcProvider } from 'ethers';
import {
  convertQuoteToRoute, createClient, executeRoute, getQuote, getRoutes, getTokenBalances, stopRouteExecution,
  type ExtendedChain, type Route, type RouteExtended, type SDKClient, type Token as SdkToken,
} from '@lifi/sdk';
import { EthereumProvider } from '@lifi/sdk-provider-ethereum';
import { createWalletClient, defineChain, http, type Client } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { MULTICALL3_ADDRESS } from '../../sandbox/multicall3';
import { PERMIT2_ADDRESS } from '../../sandbox/permit2';
import { waitForReceipt } from '../../sandbox/rpc';
import { startSandbox, type Sandbox } from '../../sandbox/service';
import { contractValidator } from '../support/contract';
import { guardLoopback, isLoopbackHost, type LoopbackGuard } from '../support/loopbackGuard';

jest.setTimeout(60_000);

const ARB = 42161;
const BASE = 8453;
const NATIVE = '0x0000000000000000000000000000000000000000';
/** How long one scenario may take from executeRoute to DONE before it fails with what the SDK was doing. */
const SCENARIO_DEADLINE_MS = 40_000;

/** An answer of the service the SDK received (kept to explain a failure, and to read the final status). */
interface ServiceAnswer {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly status: number;
  readonly body: unknown;
  readonly headers: Record<string, string>;
}

interface StatusBody {
  status?: string;
  substatus?: string;
  receiving?: { amount?: string; chainId?: number; txHash?: string; token?: { address?: string } };
}

let guard: LoopbackGuard;
const answers: ServiceAnswer[] = [];
let sandbox: Sandbox | undefined;
let client: SDKClient;
/** The same wallet with message signing disabled: the SDK asks for an approval of the router, as before permits. */
let approvingClient: SDKClient;
let fromAddress: string;
/** Requests made before this index were the sandbox's own start-up. */
let clientRequestsFrom = 0;

beforeAll(async () => {
  guard = guardLoopback({
    observe: async (request, response) => {
      if (!request.url.pathname.startsWith('/v1/')) return; // JSON-RPC of the chains
      const text = await response.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        /* not JSON: kept as text */
      }
      answers.push({ method: request.method, path: request.url.pathname, query: request.url.searchParams, status: response.status, body, headers: Object.fromEntries(response.headers) });
    },
  });
  // bridges wait their modelled duration × 0.002 (cctp Base ↔ Arbitrum: 1140 s → 2.28 s)
  sandbox = await startSandbox({ chains: [ARB, BASE], port: 0, host: '127.0.0.1', logger: pino({ level: 'silent' }), bridgeTimeScale: 0.002 });
  clientRequestsFrom = guard.requests.length;

  const account = privateKeyToAccount(sandbox.devnet.walletKeys[0] as `0x${string}`);
  fromAddress = account.address;
  const devnet = sandbox.devnet;
  // the wallet: a local account over the devnet's RPC, one client per chain as a wallet switches chains
  const walletOn = (chainId: number): Client => createWalletClient({
    account,
    chain: defineChain({
      id: chainId, name: `devnet ${chainId}`, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [devnet.chain(chainId).url] } },
    }),
    transport: http(devnet.chain(chainId).url),
    pollingInterval: 50,
  });
  let wallet = walletOn(ARB);
  client = createClient({
    integrator: 'sdk-e2e',
    apiUrl: `${sandbox.url}/v1`,
    providers: [EthereumProvider({
      getWalletClient: async () => wallet,
      switchChain: async (chainId) => (wallet = walletOn(chainId)),
    })],
  });
  approvingClient = createClient({
    integrator: 'sdk-e2e',
    apiUrl: `${sandbox.url}/v1`,
    providers: [EthereumProvider({
      getWalletClient: async () => wallet,
      switchChain: async (chainId) => (wallet = walletOn(chainId)),
      disableMessageSigning: true,
    })],
  });
}, 120_000);

afterAll(async () => {
  await sandbox?.stop();
  guard?.close();
});


const erc20 = ['function balanceOf(address) view returns (uint256)'];

function tokenAddress(chainId: number, symbol: string): string {
  const token = sandbox!.dependencies.catalog.findToken(chainId, symbol);
  if (!token) throw new Error(`no ${symbol} on chain ${chainId} in the catalog`);
  return token.address;
}

async function balanceOf(chainId: number, token: string, holder: string): Promise<bigint> {
  const provider = sandbox!.devnet.chain(chainId).provider;
  if (token.toLowerCase() === NATIVE) return provider.getBalance(holder);
  return (await new Contract(token, erc20, provider).balanceOf(holder)) as bigint;
}

const describeRoute = (route: Route) => `${route.fromAmount} ${route.fromToken.symbol}@${route.fromChainId} → ${route.toToken.symbol}@${route.toChainId} (toAmount ${route.toAmount}, toAmountMin ${route.toAmountMin}) via ${route.steps.map((s) => `${s.tool}[${(s.includedSteps ?? []).map((i) => `${i.type}:${i.tool}`).join(', ')}]`).join(' + ')}`;

const describeAnswer = (a: ServiceAnswer) => `${a.method} ${a.path}?${a.query} → ${a.status} ${JSON.stringify(a.body).slice(0, 600)}`;

/** What the SDK did and what the service answered it since `answersFrom`: the body of a failure message. */
function diagnosis(route: RouteExtended | Route, answersFrom: number, violationsFrom: number): string {
  const lines = [`route: ${describeRoute(route)}`];
  for (const [k, step] of route.steps.entries()) {
    const execution = (step as RouteExtended['steps'][number]).execution;
    lines.push(`step ${k} (${step.tool}): execution ${execution?.status ?? 'not started'}${execution?.error ? ` error ${execution.error.message}` : ''}`);
    for (const a of execution?.actions ?? []) {
      lines.push(`  ${a.type} ${a.status}${a.substatus ? ` ${a.substatus}` : ''}${a.txHash ? ` tx ${a.txHash}` : ''}${a.error ? ` error ${a.error.code}: ${a.error.message}` : ''}`);
    }
  }
  const since = answers.slice(answersFrom);
  const refused = since.filter((a) => a.status >= 400);
  if (refused.length > 0) lines.push('service answers refused (first and last):', ...[...new Set([refused[0], refused.at(-1)!])].map((a) => `  ${describeAnswer(a)}`));
  const statuses = since.filter((a) => a.path === '/v1/status');
  if (statuses.length > 0) lines.push(`GET /v1/status: ${statuses.length} polls, last:`, `  ${describeAnswer(statuses.at(-1)!)}`);
  const violations = new Map<string, number>();
  for (const v of guard.violations.slice(violationsFrom)) violations.set(v, (violations.get(v) ?? 0) + 1);
  if (violations.size > 0) lines.push('non-loopback requests refused:', ...[...violations].map(([v, n]) => `  ${v}${n > 1 ? ` (${n} times)` : ''}`));
  return lines.join('\n');
}

async function gasPaidOn(provider: JsonRpcProvider, hashes: readonly string[]): Promise<bigint> {
  let total = 0n;
  for (const hash of hashes) {
    const receipt = await provider.getTransactionReceipt(hash);
    if (!receipt) throw new Error(`no receipt for ${hash}`);
    total += receipt.gasUsed * receipt.gasPrice;
  }
  return total;
}

/**
 * Executes `route` with the SDK to DONE and checks what arrived: the final status the SDK received, the step's
 * execution, the receiver's and the sender's balances on the chains. Throws a message naming the scenario, the
 * route, the SDK's actions and the service's answers when anything is off.
 */
async function executeAndCheck(name: string, route: Route, sdk: SDKClient = client, sender: string = fromAddress): Promise<RouteExtended> {
  const fromAddress = sender;
  const fail = (what: string, details: string): never => {
    throw new Error(`[${name}] ${what}\n${details}`);
  };
  const receiver = route.toAddress ?? route.fromAddress ?? fromAddress;
  const source = { chainId: route.fromChainId, token: route.fromToken.address };
  const destination = { chainId: route.toChainId, token: route.toToken.address };
  const [sourceBefore, destinationBefore] = await Promise.all([
    balanceOf(source.chainId, source.token, fromAddress),
    balanceOf(destination.chainId, destination.token, receiver),
  ]);
  const answersFrom = answers.length;
  const violationsFrom = guard.violations.length;
  let latest: RouteExtended = route;
  const rateUpdates: string[] = [];

  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'deadline'>((resolve) => {
    timer = setTimeout(() => resolve('deadline'), SCENARIO_DEADLINE_MS);
  });
  let executed: RouteExtended | 'deadline';
  try {
    executed = await Promise.race([
      executeRoute(sdk, route, {
        updateRouteHook: (updated) => {
          latest = updated;
        },
        // the sandbox's state does not move between the quote and the transaction: a rate update is a defect
        acceptExchangeRateUpdateHook: async ({ oldToAmount, newToAmount }) => {
          rateUpdates.push(`${oldToAmount} → ${newToAmount}`);
          return false;
        },
      }),
      deadline,
    ]);
  } catch (error) {
    const e = error as Error & { cause?: Error };
    return fail(`executeRoute failed: ${e.message}${e.cause ? ` (cause: ${e.cause.message})` : ''}${rateUpdates.length ? `; exchange rate updates declined: ${rateUpdates.join(', ')}` : ''}`, diagnosis(latest, answersFrom, violationsFrom));
  } finally {
    clearTimeout(timer);
  }
  if (executed === 'deadline') {
    stopRouteExecution(latest);
    return fail(`not DONE after ${SCENARIO_DEADLINE_MS} ms`, diagnosis(latest, answersFrom, violationsFrom));
  }
  const details = () => diagnosis(executed as RouteExtended, answersFrom, violationsFrom);
  if (guard.violations.length > violationsFrom) fail('the SDK reached a non-loopback host', details());
  for (const [k, step] of executed.steps.entries()) {
    if (step.execution?.status !== 'DONE') fail(`step ${k} ended ${step.execution?.status}`, details());
  }

  // the final status the SDK received: the last DONE answer of GET /v1/status for the step's transaction
  const last = executed.steps.at(-1)!;
  const sent = last.execution!.actions.find((a) => a.type === 'SWAP' || a.type === 'CROSS_CHAIN');
  if (!sent?.txHash) return fail('the step has no SWAP / CROSS_CHAIN transaction', details());
  const final = answers.slice(answersFrom).filter((a) => a.path === '/v1/status' && a.status === 200
    && a.query.get('txHash')?.toLowerCase() === sent.txHash!.toLowerCase() && (a.body as StatusBody).status === 'DONE').at(-1);
  if (!final) return fail('the SDK settled without a DONE answer of GET /v1/status for its transaction', details());
  const status = final.body as StatusBody;
  if (status.substatus !== 'COMPLETED') fail(`final status DONE ${status.substatus}, not COMPLETED`, details());
  if (!status.receiving?.amount) return fail('the final status has no receiving.amount', details());
  if (status.receiving.chainId !== destination.chainId || status.receiving.token?.address?.toLowerCase() !== destination.token.toLowerCase()) {
    fail(`received ${status.receiving.token?.address} on chain ${status.receiving.chainId}, not ${destination.token} on ${destination.chainId}`, details());
  }
  const received = BigInt(status.receiving.amount);
  if (last.execution!.toAmount !== status.receiving.amount) fail(`the step's execution.toAmount ${last.execution!.toAmount} is not the status's receiving.amount ${status.receiving.amount}`, details());
  if (received < BigInt(route.toAmountMin)) fail(`received ${received}, below toAmountMin ${route.toAmountMin}`, details());

  // on chain: the receiver got exactly what the status reports; the sender paid exactly fromAmount (and its gas)
  const [sourceAfter, destinationAfter] = await Promise.all([
    balanceOf(source.chainId, source.token, fromAddress),
    balanceOf(destination.chainId, destination.token, receiver),
  ]);
  if (destinationAfter - destinationBefore !== received) {
    fail(`the receiver's ${route.toToken.symbol} balance on chain ${destination.chainId} moved by ${destinationAfter - destinationBefore}, not by the ${received} received`, details());
  }
  let paid = BigInt(route.fromAmount);
  if (source.token.toLowerCase() === NATIVE) {
    const hashes = executed.steps.flatMap((s) => s.execution!.actions.filter((a) => a.txHash && (a.chainId ?? s.action.fromChainId) === source.chainId && a.type !== 'RECEIVING_CHAIN').map((a) => a.txHash!));
    paid += await gasPaidOn(sandbox!.devnet.chain(source.chainId).provider, [...new Set(hashes)]);
  }
  if (sourceBefore - sourceAfter !== paid) {
    fail(`the sender's ${route.fromToken.symbol} balance on chain ${source.chainId} went down by ${sourceBefore - sourceAfter}, not by ${paid}`, details());
  }
  return executed;
}

describe('the devnet as the SDK reads it', () => {
  let chains: ExtendedChain[];

  beforeAll(async () => {
    chains = (await client.getChains()).filter((c) => c.id === ARB || c.id === BASE);
  });

  it('takes each connected chain\'s RPC from /v1/chains: the devnet first, with Multicall3 at the canonical address', async () => {
    expect(chains.map((c) => c.id).sort((a, b) => a - b)).toEqual([BASE, ARB]);
    for (const chain of chains) {
      expect({ chain: chain.id, rpc: chain.metamask.rpcUrls[0], multicall: chain.multicallAddress })
        .toEqual({ chain: chain.id, rpc: sandbox!.devnet.chain(chain.id).url, multicall: MULTICALL3_ADDRESS });
      expect(await sandbox!.devnet.chain(chain.id).provider.getCode(MULTICALL3_ADDRESS)).not.toBe('0x');
    }
  });

  it('reads balances through Multicall3 as it does before executing (getEthBalance and balanceOf in one aggregate3)', async () => {
    for (const chainId of [ARB, BASE]) {
      const tokens: SdkToken[] = [NATIVE, tokenAddress(chainId, 'USDC')].map((address) => ({
        chainId, address, symbol: '', decimals: 0, name: '', priceUSD: '0',
      }));
      const balances = await getTokenBalances(client, fromAddress, tokens);
      expect(balances.map((b) => b.amount)).toEqual([
        await balanceOf(chainId, NATIVE, fromAddress),
        await balanceOf(chainId, tokens[1].address, fromAddress),
      ]);
    }
  });
});

describe('executeRoute settles DONE on the sandbox', () => {
  it('(a) a same-chain swap: 1,000 USDC → WETH on Arbitrum', async () => {
    const { routes } = await getRoutes(client, {
      fromChainId: ARB, toChainId: ARB, fromTokenAddress: tokenAddress(ARB, 'USDC'), toTokenAddress: tokenAddress(ARB, 'WETH'),
      fromAmount: '1000000000', fromAddress,
    });
    expect(routes.length).toBeGreaterThan(0);
    await executeAndCheck('same-chain swap', routes[0]);
  });

  it('(b) a cross-chain transfer, bridge only: 1,000 USDC Base → Arbitrum', async () => {
    const { routes } = await getRoutes(client, {
      fromChainId: BASE, toChainId: ARB, fromTokenAddress: tokenAddress(BASE, 'USDC'), toTokenAddress: tokenAddress(ARB, 'USDC'),
      fromAmount: '1000000000', fromAddress,
    });
    const route = routes.find((r) => r.steps.every((s) => (s.includedSteps ?? []).every((i) => i.type === 'cross')));
    if (!route) throw new Error(`no bridge-only route among: ${routes.map(describeRoute).join('; ')}`);
    await executeAndCheck('bridge only', route);
  });

  it('(c) a cross-chain transfer with a destination swap: 1,000 USDC Arbitrum → WETH Base', async () => {
    const { routes } = await getRoutes(client, {
      fromChainId: ARB, toChainId: BASE, fromTokenAddress: tokenAddress(ARB, 'USDC'), toTokenAddress: tokenAddress(BASE, 'WETH'),
      fromAmount: '1000000000', fromAddress,
    });
    const route = routes.find((r) => r.steps.length === 1 && (() => {
      const kinds = (r.steps[0].includedSteps ?? []).map((i) => i.type);
      return kinds.indexOf('cross') >= 0 && kinds.lastIndexOf('swap') > kinds.indexOf('cross');
    })());
    if (!route) throw new Error(`no route with a destination swap among: ${routes.map(describeRoute).join('; ')}`);
    await executeAndCheck('bridge + destination swap', route);
  });

  it('(d) a route paid in the native coin: 0.1 ETH on Base → USDC on Arbitrum', async () => {
    const { routes } = await getRoutes(client, {
      fromChainId: BASE, toChainId: ARB, fromTokenAddress: NATIVE, toTokenAddress: tokenAddress(ARB, 'USDC'),
      fromAmount: '100000000000000000', fromAddress,
    });
    expect(routes.length).toBeGreaterThan(0);
    await executeAndCheck('paid in the native coin', routes[0]);
  });

  it('(e) an exact-output quote converted to a route: USDC on Base → exactly 500 USDT on Arbitrum', async () => {
    const toAmount = '500000000';
    const quote = await getQuote(client, {
      fromChain: BASE, toChain: ARB, fromToken: tokenAddress(BASE, 'USDC'), toToken: tokenAddress(ARB, 'USDT'), toAmount, fromAddress,
    });
    expect(BigInt(quote.estimate.toAmount)).toBeGreaterThanOrEqual(BigInt(toAmount));
    await executeAndCheck('exact output', convertQuoteToRoute(quote));
  });
});

const allowanceAbi = ['function allowance(address,address) view returns (uint256)', 'function approve(address,uint256) returns (bool)'];

async function allowance(chainId: number, token: string, owner: string, spender: string): Promise<bigint> {
  return (await new Contract(token, allowanceAbi, sandbox!.devnet.chain(chainId).provider).allowance(owner, spender)) as bigint;
}

/** The transaction the step was sent as (its SWAP or CROSS_CHAIN action's), as mined. */
async function sentTransaction(route: RouteExtended): Promise<{ to: string; from: string }> {
  const step = route.steps[0];
  const action = step.execution!.actions.find((a) => a.type === 'SWAP' || a.type === 'CROSS_CHAIN')!;
  const tx = await sandbox!.devnet.chain(step.action.fromChainId).provider.getTransaction(action.txHash!);
  return { to: tx!.to!, from: tx!.from };
}

describe('approvals: the SDK signs instead of approving the router where /v1/chains names Permit2 and the proxy', () => {
  it('/v1/chains names the genuine Permit2 and the service\'s proxy on each devnet chain', async () => {
    const chains = (await client.getChains()).filter((c) => c.id === ARB || c.id === BASE);
    for (const chain of chains) {
      const deployment = sandbox!.devnet.chain(chain.id).deployment;
      expect({ chain: chain.id, permit2: chain.permit2, permit2Proxy: chain.permit2Proxy?.toLowerCase() })
        .toEqual({ chain: chain.id, permit2: PERMIT2_ADDRESS, permit2Proxy: deployment.permit2Proxy.toLowerCase() });
    }
  });

  it('(f) Permit2: WETH → USDC on Arbitrum — approves Permit2 once, signs, sends through the proxy; no approval of the router', async () => {
    const weth = tokenAddress(ARB, 'WETH');
    const { router, permit2Proxy } = sandbox!.devnet.chain(ARB).deployment;
    const { routes } = await getRoutes(client, {
      fromChainId: ARB, toChainId: ARB, fromTokenAddress: weth, toTokenAddress: tokenAddress(ARB, 'USDC'), fromAmount: '100000000000000000', fromAddress,
    });
    const executed = await executeAndCheck('Permit2', routes[0]);
    // the SDK's allowance step approved Permit2 (not the router), then it signed the permit inside the SWAP action
    expect(executed.steps[0].execution!.actions.map((a) => a.type)).toEqual(expect.arrayContaining(['CHECK_ALLOWANCE', 'SET_ALLOWANCE', 'SWAP']));
    expect((await sentTransaction(executed)).to.toLowerCase()).toBe(permit2Proxy.toLowerCase());
    expect(await allowance(ARB, weth, fromAddress, router)).toBe(0n);
    expect(await allowance(ARB, weth, fromAddress, permit2Proxy)).toBe(0n);
    expect(await allowance(ARB, weth, fromAddress, PERMIT2_ADDRESS)).toBeGreaterThan(0n);
    expect(await balanceOf(ARB, weth, permit2Proxy)).toBe(0n);
  });

  it('(g) EIP-2612: USDC (which has permit) → WETH on Base from an EIP-7702 account — signs USDC\'s own permit for the proxy; no approval left', async () => {
    // SDK 4.0.8 asks for a native permit only when the account's code reads as an EOA's or an EIP-7702 delegation:
    // viem's getCode answers undefined for a plain EOA, which the SDK takes for an RPC failure ("no permits"); so
    // this wallet delegates (a genuine EIP-7702 authorization) to a contract that only accepts the native coin
    const devnet = sandbox!.devnet;
    const account = privateKeyToAccount(devnet.walletKeys[1] as `0x${string}`);
    const chain = defineChain({
      id: BASE, name: `devnet ${BASE}`, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [devnet.chain(BASE).url] } },
    });
    const wallet = createWalletClient({ account, chain, transport: http(devnet.chain(BASE).url), pollingInterval: 50 });
    const artifact = devnet.artifacts.EmptyDelegate;
    const deployer = devnet.wallet(BASE, 2);
    // receipts polled (ethers' wait() can miss the block on an automining devnet)
    const deployment = await new ContractFactory(artifact.abi as never, artifact.bytecode, deployer).deploy();
    const delegate = (await waitForReceipt(devnet.chain(BASE).provider, deployment.deploymentTransaction()!.hash)).contractAddress!;
    const authorization = await wallet.signAuthorization({ contractAddress: delegate as `0x${string}`, executor: 'self' });
    const upgraded = await wallet.sendTransaction({ authorizationList: [authorization], to: account.address, data: '0x' });
    expect((await waitForReceipt(devnet.chain(BASE).provider, upgraded)).status).toBe(1);
    expect((await devnet.chain(BASE).provider.getCode(account.address)).toLowerCase()).toBe(`0xef0100${delegate.slice(2).toLowerCase()}`);
    const delegated = createClient({
      integrator: 'sdk-e2e', apiUrl: `${sandbox!.url}/v1`,
      providers: [EthereumProvider({ getWalletClient: async () => wallet, switchChain: async () => wallet })],
    });

    const usdc = tokenAddress(BASE, 'USDC');
    const { router, permit2Proxy } = devnet.chain(BASE).deployment;
    const { routes } = await getRoutes(delegated, {
      fromChainId: BASE, toChainId: BASE, fromTokenAddress: usdc, toTokenAddress: tokenAddress(BASE, 'WETH'), fromAmount: '250000000', fromAddress: account.address,
    });
    const executed = await executeAndCheck('EIP-2612 permit', routes[0], delegated, account.address);
    const actions = executed.steps[0].execution!.actions.map((a) => a.type);
    expect(actions).toContain('NATIVE_PERMIT');
    expect(actions).not.toContain('SET_ALLOWANCE'); // no approval transaction at all
    expect((await sentTransaction(executed)).to.toLowerCase()).toBe(permit2Proxy.toLowerCase());
    for (const spender of [router, permit2Proxy, PERMIT2_ADDRESS]) expect(await allowance(BASE, usdc, account.address, spender)).toBe(0n);
    expect(await balanceOf(BASE, usdc, permit2Proxy)).toBe(0n);
  });

  it('(h) a plain approval, as before (message signing disabled): DAI → USDC on Arbitrum, sent to the router', async () => {
    const dai = tokenAddress(ARB, 'DAI');
    const { router } = sandbox!.devnet.chain(ARB).deployment;
    const { routes } = await getRoutes(approvingClient, {
      fromChainId: ARB, toChainId: ARB, fromTokenAddress: dai, toTokenAddress: tokenAddress(ARB, 'USDC'), fromAmount: '500000000000000000000', fromAddress,
    });
    const executed = await executeAndCheck('plain approval', routes[0], approvingClient);
    const actions = executed.steps[0].execution!.actions.map((a) => a.type);
    expect(actions).toContain('SET_ALLOWANCE');
    expect(actions).not.toContain('PERMIT');
    expect((await sentTransaction(executed)).to.toLowerCase()).toBe(router.toLowerCase());
  });
});

test('the SDK reached no other host than this machine (the service and the devnet RPCs)', () => {
  expect(guard.violations).toEqual([]);
  const hosts = new Set(guard.requests.slice(clientRequestsFrom).map((r) => r.url.host));
  expect([...hosts].filter((h) => !isLoopbackHost(new URL(`http://${h}`).hostname))).toEqual([]);
  // the guard saw the client's traffic: the service's API and both chains' JSON-RPC went through it
  const expected = [sandbox!.url, ...[ARB, BASE].map((id) => sandbox!.devnet.chain(id).url)].map((u) => new URL(u).host);
  expect([...hosts].sort()).toEqual([...new Set(expected)].sort());
});

// last: it reads the answers of every scenario above
test('every answer the SDK received is one the contract declares, body and headers', async () => {
  const contract = await contractValidator();
  const sent = answers.slice();
  expect(sent.length).toBeGreaterThan(0);
  for (const answer of sent) {
    const operationId = contract.operationIdOf(answer.method, answer.path);
    if (!operationId) throw new Error(`the SDK called ${answer.method} ${answer.path}, which the contract does not have`);
    contract.expectResponse(operationId, { status: answer.status, headers: answer.headers, body: answer.body } as unknown as import('supertest').Response);
  }
  // the SDK's own calls in its default flow, all among them
  const called = new Set(sent.map((a) => contract.operationIdOf(a.method, a.path)));
  for (const operationId of ['getChains', 'postRoutes', 'getQuoteToAmount', 'postStepTransaction', 'getStatus']) expect([operationId, called.has(operationId)]).toEqual([operationId, true]);
});
