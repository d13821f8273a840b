/**
 * Gasless transfers on the sandbox, over HTTP as the ecosystem SDK makes them: a user holding USDC and no native coin
 * asks GET /v1/relayer/quote, signs the step's typedData with viem (USDC's EIP-2612 Permit for Permit2, then Permit2's
 * witness permit), posts the step to POST /v1/relayer/relay, and the service's relayer sends it through the genuine
 * Permit2 and the service's proxy; GET /v1/relayer/status/{taskId} and GET /v1/status?taskId= follow it to DONE.
 * After it: the user spent exactly fromAmount and still holds no native coin, the receiver got at least toAmountMin,
 * the fee collector holds the relayer's fee as the service's, and the relayer paid the gas.
 *
 * Then every refusal, tried as an attacker would: the same signature relayed again, the step changed after signing
 * (receiver, amount, fee), a signature of another account, a deadline passed, a permit for another spender, a
 * malformed body; each a 4xx before anything is recorded or sent. Every answer validated against the contract.
 */
import pino from 'pino';
import { Contract, toQuantity, Wallet, type JsonRpcProvider } from 'ethers';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { convertQuoteToRoute, createClient, executeRoute, getQuote, getRoutes, type Route, type RouteExtended, type SDKClient } from '@lifi/sdk';
import { EthereumProvider } from '@lifi/sdk-provider-ethereum';
import { createWalletClient, defineChain, http, type Client } from 'viem';
import { SANDBOX_RELAYER_KEY, startSandbox, type Sandbox } from '../../sandbox/service';
import { contractValidator, type ContractValidator } from '../support/contract';
import { guardLoopback, type LoopbackGuard } from '../support/loopbackGuard';
import { mined } from '../support/mined';

jest.setTimeout(90_000);

const ARB = 42161;
const BASE = 8453;
const ERC20 = [
  'function balanceOf(address) view returns (uint256)',
  'function transfer(address,uint256) returns (bool)',
];
const FEE_COLLECTOR = ['function getTokenBalance(address integrator, address token) view returns (uint256)', 'function serviceAccount() view returns (address)'];

let sandbox: Sandbox;
let contract: ContractValidator;
let provider: JsonRpcProvider;
let user: PrivateKeyAccount;
let guard: LoopbackGuard;
/** The service's answers to the SDK (to explain a failure). */
const answers: string[] = [];

beforeAll(async () => {
  // every request of the process stays on this machine; the SDK's calls of the service are kept
  guard = guardLoopback({
    observe: async (request, response) => {
      if (request.url.pathname.startsWith('/v1/')) answers.push(`${request.method} ${request.url.pathname}${request.url.search} → ${response.status} ${(await response.text()).slice(0, 300)}`);
    },
  });
  contract = await contractValidator();
  sandbox = await startSandbox({ chains: [ARB, BASE], port: 0, host: '127.0.0.1', logger: pino({ level: 'silent' }), bridgeTimeScale: 0.002 });
  provider = sandbox.devnet.chain(ARB).provider;
}, 120_000);

afterAll(async () => {
  await sandbox?.stop();
  guard?.close();
});

// no checkpoint reverted between the tests: the relayer's nonces are recorded in the database, which a revert of the
// chains would leave ahead of them; each test has a user of its own instead
beforeEach(async () => {
  // a fresh user: 1,000 USDC on Arbitrum from a test wallet, and no ETH at all
  user = privateKeyToAccount(Wallet.createRandom().privateKey as `0x${string}`);
  const usdc = new Contract(token(ARB, 'USDC'), ERC20, sandbox.devnet.wallet(ARB, 1));
  await mined(usdc.transfer(user.address, 1_000n * 10n ** 6n));
  expect(await provider.getBalance(user.address)).toBe(0n);
});

function token(chainId: number, symbol: string): string {
  const t = sandbox.dependencies.catalog.findToken(chainId, symbol);
  if (!t) throw new Error(`no ${symbol} on chain ${chainId}`);
  return t.address;
}

const balance = async (chainId: number, tokenAddress: string, holder: string) =>
  (await new Contract(tokenAddress, ERC20, sandbox.devnet.chain(chainId).provider).balanceOf(holder)) as bigint;

async function call(operationId: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${sandbox.url}${path}`, {
    method, ...(body !== undefined ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}),
  });
  const text = await response.text();
  const parsed = text ? JSON.parse(text) : undefined;
  contract.expectResponse(operationId, { status: response.status, headers: Object.fromEntries(response.headers), body: parsed, text } as never);
  return { status: response.status, body: parsed };
}

async function relayerQuote(params: Record<string, string>): Promise<any> {
  const q = new URLSearchParams({ fromChain: String(ARB), fromToken: 'USDC', fromAddress: user.address, ...params });
  const answer = await call('getRelayerQuote', 'GET', `/v1/relayer/quote?${q}`);
  if (answer.status !== 200) throw new Error(`relayer quote ${answer.status}: ${JSON.stringify(answer.body)}`);
  expect(answer.body.status).toBe('ok');
  return answer.body.data;
}

/** The step with each message signed by `signer` as the SDK's wallet signs it (viem's signTypedData on the JSON). */
async function signed(step: any, signer: PrivateKeyAccount = user): Promise<any> {
  const typedData = [];
  for (const t of step.typedData) typedData.push({ ...t, signature: await signer.signTypedData({ domain: t.domain, types: t.types, primaryType: t.primaryType, message: t.message }) });
  return { ...step, typedData };
}

async function until<T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`not seen within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 1000)); // within the public rate limit (100 requests a minute)
  }
}

describe('a user with USDC and no ETH', () => {
  it('swaps on one chain by signing: the relayer sends, the step\'s fee pays it, DONE', async () => {
    const usdc = token(ARB, 'USDC');
    const weth = token(ARB, 'WETH');
    const fromAmount = 100n * 10n ** 6n;
    const step = await relayerQuote({ toChain: String(ARB), toToken: 'WETH', fromAmount: String(fromAmount) });
    expect(step.transactionRequest).toBeUndefined();
    expect(step.typedData.map((t: any) => t.primaryType)).toEqual(['Permit', 'PermitWitnessTransferFrom']);
    const relayFee = step.estimate.feeCosts.find((c: any) => c.name === 'Gasless relay fee');
    expect(BigInt(relayFee.amount)).toBeGreaterThan(0n);

    const collector = new Contract(sandbox.devnet.chain(ARB).deployment.feeCollector, FEE_COLLECTOR, provider);
    const serviceAccount = (await collector.serviceAccount()) as string;
    const [usdcBefore, wethBefore, feesBefore] = await Promise.all([balance(ARB, usdc, user.address), balance(ARB, weth, user.address), collector.getTokenBalance(serviceAccount, usdc) as Promise<bigint>]);
    const relayer = new Wallet(SANDBOX_RELAYER_KEY).address;
    const relayerEthBefore = await provider.getBalance(relayer);

    const relayed = await call('relayTransaction', 'POST', '/v1/relayer/relay', await signed(step));
    expect(relayed.status).toBe(200);
    const { taskId } = relayed.body.data;
    expect(taskId).toMatch(/^0x[0-9a-f]{64}$/);

    const done = await until('the relay task DONE', async () => {
      const answer = await call('getRelayerStatus', 'GET', `/v1/relayer/status/${taskId}?fromChain=${ARB}&toChain=${ARB}&bridge=${step.tool}`);
      expect(answer.status).toBe(200);
      if (answer.body.data.status === 'FAILED') throw new Error(`relay failed: ${JSON.stringify(answer.body)}`);
      return answer.body.data.status === 'DONE' ? answer.body.data : undefined;
    });
    expect(done.metadata).toMatchObject({ chainId: ARB, txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    // GET /v1/status by the task id: the relayer's transaction's transfer, sent by the user
    const status = await call('getStatus', 'GET', `/v1/status?taskId=${taskId}`);
    expect(status.body).toMatchObject({ status: 'DONE', substatus: 'COMPLETED', sending: { txHash: done.metadata.txHash } });

    const [usdcAfter, wethAfter, feesAfter] = await Promise.all([balance(ARB, usdc, user.address), balance(ARB, weth, user.address), collector.getTokenBalance(serviceAccount, usdc) as Promise<bigint>]);
    expect(usdcBefore - usdcAfter).toBe(fromAmount);
    expect(wethAfter - wethBefore).toBeGreaterThanOrEqual(BigInt(step.estimate.toAmountMin));
    expect(feesAfter - feesBefore).toBe(BigInt(relayFee.amount));
    expect(await provider.getBalance(user.address)).toBe(0n);
    // the relayer paid the gas, and the fee it quoted covers it
    const receipt = (await provider.getTransactionReceipt(done.metadata.txHash))!;
    const gasPaid = receipt.gasUsed * receipt.gasPrice;
    expect(relayerEthBefore - (await provider.getBalance(relayer))).toBe(gasPaid);
    // the task keeps what it cost and the fee it carried, counted per integrator
    const task = (await sandbox.dependencies.relaying!.tasks.get(taskId))!;
    expect(task).toMatchObject({ state: 'mined', succeeded: true, feeAmount: BigInt(relayFee.amount), gas: { used: receipt.gasUsed, costWei: gasPaid } });
    const costs = await sandbox.dependencies.relaying!.tasks.costs();
    expect(costs.find((c) => c.chainId === ARB && c.integrator === undefined)).toMatchObject({ feeToken: usdc });
    const ethUSD = Number(sandbox.dependencies.catalog.getChain(ARB)!.nativeToken.priceUSD);
    expect(Number(relayFee.amountUSD)).toBeGreaterThanOrEqual((Number(gasPaid) / 1e18) * ethUSD);
  });
});

describe('the ecosystem SDK, unpatched: executeRoute of a gasless quote for a user with USDC and no ETH', () => {
  /** The SDK for the current user: a viem wallet of a local account over the devnet's RPC, one client per chain. */
  function sdkFor(account: PrivateKeyAccount): SDKClient {
    const walletOn = (chainId: number): Client => createWalletClient({
      account,
      chain: defineChain({
        id: chainId, name: `devnet ${chainId}`, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [sandbox.devnet.chain(chainId).url] } },
      }),
      transport: http(sandbox.devnet.chain(chainId).url),
      pollingInterval: 50,
    });
    let wallet = walletOn(ARB);
    return createClient({
      integrator: 'gasless-e2e',
      apiUrl: `${sandbox.url}/v1`,
      providers: [EthereumProvider({ getWalletClient: async () => wallet, switchChain: async (chainId) => (wallet = walletOn(chainId)) })],
    });
  }

  it.each([
    ['a swap on Arbitrum (USDC → WETH), from getQuote', ARB, 'WETH', 'quote'],
    ['a transfer to Base (USDC → USDC), from getQuote', BASE, 'USDC', 'quote'],
    ['a transfer to Base (USDC → USDC), from getRoutes', BASE, 'USDC', 'routes'],
  ])('%s: signed, relayed, DONE; the user spent fromAmount and no gas', async (_name, toChain, toSymbol, asked) => {
    const client = sdkFor(user);
    const fromAmount = 250n * 10n ** 6n;
    let route: Route;
    if (asked === 'quote') {
      const quote = await getQuote(client, {
        fromChain: ARB, toChain, fromToken: token(ARB, 'USDC'), toToken: token(toChain, toSymbol), fromAmount: fromAmount.toString(), fromAddress: user.address, gasless: true,
      } as never);
      expect(quote.transactionRequest).toBeUndefined();
      route = convertQuoteToRoute(quote);
    } else {
      const { routes } = await getRoutes(client, {
        fromChainId: ARB, toChainId: toChain, fromTokenAddress: token(ARB, 'USDC'), toTokenAddress: token(toChain, toSymbol), fromAmount: fromAmount.toString(), fromAddress: user.address,
        options: { gasless: true },
      } as never);
      expect(routes).toHaveLength(1);
      route = routes[0]!;
    }
    expect(route.steps).toHaveLength(1);
    expect(route.steps[0]!.typedData?.map((t) => t.primaryType)).toEqual(['Permit', 'PermitWitnessTransferFrom']);
    const usdc = token(ARB, 'USDC');
    const received = token(toChain, toSymbol);
    const [usdcBefore, receivedBefore] = await Promise.all([balance(ARB, usdc, user.address), balance(toChain, received, user.address)]);

    let latest: RouteExtended = route as RouteExtended;
    const answersFrom = answers.length;
    const explain = (what: string) => {
      const actions = latest.steps.flatMap((st) => st.execution?.actions ?? []).map((a) => `${a.type} ${a.status}${a.error ? ` ${a.error.message}` : ''}`);
      return new Error(`${what}; actions: ${actions.join('; ')}\nthe service's answers:\n${answers.slice(answersFrom).slice(-12).join('\n')}`);
    };
    let timer: NodeJS.Timeout | undefined;
    const executed = await Promise.race([
      executeRoute(client, route, {
        updateRouteHook: (updated) => {
          latest = updated;
        },
        acceptExchangeRateUpdateHook: async () => false,
      }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(explain('not DONE within 45 s')), 45_000);
      }),
    ]).catch((error: Error) => {
      throw error.message.startsWith('not DONE') ? error : explain(`executeRoute failed: ${error.message}`);
    }).finally(() => clearTimeout(timer));
    for (const step of executed.steps) expect(step.execution?.status).toBe('DONE');
    const action = executed.steps[0].execution!.actions.find((a) => a.type === 'SWAP' || a.type === 'CROSS_CHAIN')!;
    expect(action.taskId).toMatch(/^0x[0-9a-f]{64}$/);
    expect(action.txHash).toMatch(/^0x[0-9a-f]{64}$/);

    const [usdcAfter, receivedAfter] = await Promise.all([balance(ARB, usdc, user.address), balance(toChain, received, user.address)]);
    expect(usdcBefore - usdcAfter).toBe(fromAmount);
    expect(receivedAfter - receivedBefore).toBeGreaterThanOrEqual(BigInt(executed.steps.at(-1)!.estimate.toAmountMin));
    expect(await provider.getBalance(user.address)).toBe(0n);
    // the relayer's transaction is the user's transfer: its relayed tx went through the proxy, signed by the user
    const status = await call('getStatus', 'GET', `/v1/status?txHash=${action.txHash}`);
    expect(status.body).toMatchObject({ status: 'DONE', substatus: 'COMPLETED', fromAddress: user.address });
    // like any other transfer: in the user's history (the indexer reads the relayer's transaction as the user's),
    // and on its explorer page
    const listed = await until('the relayed transfer in the user\'s history', async () => {
      const history = await call('getAnalyticsTransfers', 'GET', `/v1/analytics/transfers?wallet=${user.address}`);
      return (history.body.transfers as { sending: { txHash: string }; status: string }[]).find((t) => t.sending.txHash === action.txHash && t.status === 'DONE');
    });
    expect(listed).toMatchObject({ fromAddress: user.address, status: 'DONE' });
    const page = await fetch(`${sandbox.url}/explorer/tx/${action.txHash}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(action.txHash!);
    expect(html.toLowerCase()).toContain(user.address.toLowerCase());
  });
});

describe('refused before anything is recorded or sent, tried as an attacker would', () => {
  const relayer = () => new Wallet(SANDBOX_RELAYER_KEY).address;
  const attacker = privateKeyToAccount(Wallet.createRandom().privateKey as `0x${string}`);
  const swapStep = () => relayerQuote({ toChain: String(ARB), toToken: 'WETH', fromAmount: String(50n * 10n ** 6n) });
  /** The step as posted, with its typedData changed by `change` before the user signs it. */
  const signedAfter = async (step: any, change: (typedData: any[]) => void, signer: PrivateKeyAccount = user) => {
    const copy = JSON.parse(JSON.stringify(step));
    change(copy.typedData);
    return signed(copy, signer);
  };
  const relay = (body: unknown) => call('relayTransaction', 'POST', '/v1/relayer/relay', body);
  let sentBefore: number;
  beforeEach(async () => {
    sentBefore = await provider.getTransactionCount(relayer(), 'pending');
  });
  const nothingSent = async () => expect(await provider.getTransactionCount(relayer(), 'pending')).toBe(sentBefore);

  it('the same signature twice: the first is relayed, the second refused naming the task (409)', async () => {
    const body = await signed(await swapStep());
    const first = await relay(body);
    expect(first.status).toBe(200);
    const again = await relay(body);
    expect(again).toMatchObject({ status: 409, body: { code: 1004, message: expect.stringContaining(first.body.data.taskId) } });
    // and through the other operation too
    const other = await call('relayAdvanced', 'POST', '/v1/advanced/relay', body);
    expect(other.status).toBe(409);
    // the first one runs, once
    await until('the first relay DONE', async () => {
      const answer = await call('getRelayerStatus', 'GET', `/v1/relayer/status/${first.body.data.taskId}`);
      return answer.body.data.status === 'DONE' ? true : undefined;
    });
    expect(await provider.getTransactionCount(relayer(), 'pending')).toBe(sentBefore + 1);
  });

  it('the step changed after signing (another receiver, a lower relayer fee): its router call is not the one signed (409)', async () => {
    const step = await swapStep();
    const body = await signed(step);
    const otherReceiver = { ...body, action: { ...body.action, toAddress: attacker.address } };
    expect(await relay(otherReceiver)).toMatchObject({ status: 409, body: { code: 1004, message: expect.stringContaining('diamondCalldataHash') } });
    const lowerFee = JSON.parse(JSON.stringify(body));
    const cost = lowerFee.estimate.feeCosts.find((c: any) => c.name === 'Gasless relay fee');
    cost.amount = '1';
    expect(await relay(lowerFee)).toMatchObject({ status: 409, body: { code: 1004 } });
    // a larger amount than signed: the witness permits the step's amount only
    const more = { ...body, action: { ...body.action, fromAmount: String(BigInt(body.action.fromAmount) * 2n) } };
    expect(await relay(more)).toMatchObject({ status: 400, body: { code: 1011, message: expect.stringContaining('/typedData/1/message/permitted/amount') } });
    await nothingSent();
  });

  it('a signature of another account, a permit for another spender, a deadline passed, a malformed body (400 naming the field)', async () => {
    const step = await swapStep();
    expect(await relay(await signed(step, attacker))).toMatchObject({ status: 400, body: { code: 1011, message: expect.stringContaining('/typedData/') } });
    const toAttacker = await signedAfter(step, (t) => {
      t[0].message.spender = attacker.address;
    });
    expect(await relay(toAttacker)).toMatchObject({ status: 400, body: { message: expect.stringContaining('/typedData/0/signature') } });
    const past = String(Math.floor(Date.now() / 1000) - 10);
    const expired = await signedAfter(step, (t) => {
      t[1].message.deadline = past;
    });
    expect(await relay(expired)).toMatchObject({ status: 400, body: { message: expect.stringContaining('/typedData/1/message/deadline') } });
    const unsigned = await signed(step);
    delete unsigned.typedData[1].signature;
    expect(await relay(unsigned)).toMatchObject({ status: 400, body: { code: 1011 } });
    expect(await relay({ ...unsigned, typedData: [] })).toMatchObject({ status: 400 });
    await nothingSent();
  });

  it('a gas price that rose beyond the quoted fee (409), a relayer below its floor (503 with Retry-After)', async () => {
    const body = await signed(await swapStep());
    const fees = await provider.getFeeData();
    await provider.send('anvil_setNextBlockBaseFeePerGas', [toQuantity((fees.maxFeePerGas ?? 10n ** 9n) * 10n)]);
    await provider.send('evm_mine', []);
    try {
      expect(await relay(body)).toMatchObject({ status: 409, body: { code: 1004, message: expect.stringContaining('no longer pays for its gas') } });
    } finally {
      await provider.send('anvil_setNextBlockBaseFeePerGas', [toQuantity(fees.gasPrice ?? 10n ** 9n)]);
      await provider.send('evm_mine', []);
    }
    const funds = await provider.getBalance(relayer());
    await provider.send('anvil_setBalance', [relayer(), '0x0']);
    try {
      const response = await fetch(`${sandbox.url}/v1/relayer/relay`, { method: 'POST', body: JSON.stringify(await signed(await swapStep())), headers: { 'content-type': 'application/json' } });
      expect(response.status).toBe(503);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await provider.send('anvil_setBalance', [relayer(), toQuantity(funds)]);
    }
    await nothingSent();
  });

  it('a step whose owner moved the tokens away after signing: it would revert, so it is refused (409) and the relayer pays nothing', async () => {
    const body = await signed(await swapStep());
    // the user's whole USDC goes elsewhere (sent for the user by impersonation: the user holds no ETH for gas)
    const usdc = new Contract(token(ARB, 'USDC'), ERC20, provider);
    const all = (await usdc.balanceOf(user.address)) as bigint;
    await provider.send('anvil_impersonateAccount', [user.address]);
    await provider.send('anvil_setBalance', [user.address, toQuantity(10n ** 16n)]);
    const signer = await provider.getSigner(user.address);
    await mined((usdc.connect(signer) as Contract).transfer(attacker.address, all));
    await provider.send('anvil_setBalance', [user.address, '0x0']);
    await provider.send('anvil_stopImpersonatingAccount', [user.address]);
    expect(await relay(body)).toMatchObject({ status: 409, body: { code: 1004, message: expect.stringContaining('would revert') } });
    await nothingSent();
  });

  it('GET /v1/relayer/status of a task nobody made: 404; a malformed id: 400', async () => {
    expect(await call('getRelayerStatus', 'GET', `/v1/relayer/status/0x${'ab'.repeat(32)}`)).toMatchObject({ status: 404, body: { code: 1003 } });
    expect(await call('getRelayerStatus', 'GET', '/v1/relayer/status/not-a-task')).toMatchObject({ status: 400 });
  });
});
