/**
 * The ecosystem SDK's own integration tests and Node examples (lifinance/sdk: packages/*\/src/actions/*.int.spec.ts,
 * examples/node/examples/*.ts), replayed against the real app on the embedded data (issue 35): every request they
 * make of the API, made here with the same `@lifi/sdk` 4 functions, untouched, and the same parameters (chains,
 * tokens — `findDefaultToken` of `@lifi/data-types`, as they resolve them —, amounts, addresses, contract calls). What
 * they then do with a chain's RPC or a wallet (balances, allowances, sending, waiting for receipts) is out of reach
 * here; what the SDK needs of the service for it is checked instead: the chain in GET /v1/chains with RPC URLs and a
 * Multicall address (where `getPublicClient` and `getMulticallAddress` read them), the token the step names, the
 * transaction request the example sends, the fields it reads to approve and to poll the status.
 *
 * Where the embedded data cannot answer an example as written, the service's refusal is asserted and the comment says
 * why; nothing is faked. The wallet address stands for the examples' `account.address` (a private key of theirs): the
 * SDK's own test wallet, the int specs' `defaultWalletAddress`.
 *
 * The app listens on 127.0.0.1 (port 0) and the SDK is given its /v1 as `apiUrl`; a loopback guard
 * (test/support/loopbackGuard.ts) refuses and records any request to another host. Every answer the SDK received is
 * checked against the contract at the end.
 */
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { findDefaultToken as dataTypesDefaultToken } from '@lifi/data-types';
import {
  ChainId, CoinKey, HTTPError, SDKError, createClient, getConnections, getContractCallsQuote, getQuote, getRoutes, getStepTransaction, getToken, getTokens, getTools,
  type ContractCallsQuoteRequest, type LiFiStep, type QuoteRequest, type SDKClient,
} from '@lifi/sdk';
import type { Response } from 'supertest';
import { encodeFunctionData, fromHex, parseAbi, parseUnits, type Address } from 'viem';
import { useTestApp } from '../support/app';
import { contractValidator } from '../support/contract';
import { guardLoopback, type LoopbackGuard } from '../support/loopbackGuard';

jest.setTimeout(30_000);

/** The int specs' `defaultWalletAddress`; stands for the examples' `account.address` too. */
const WALLET = '0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea0';
const NATIVE = '0x0000000000000000000000000000000000000000';
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

interface Answer {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: unknown;
}

/**
 * `findDefaultToken` of `@lifi/data-types`, as the specs and examples call it with the SDK's `CoinKey`: the package is
 * typed by `@lifi/types` 18.4, the SDK by its own 17.86, whose enums lack a few members (the same values otherwise).
 */
type DataTypesArguments = Parameters<typeof dataTypesDefaultToken>;
const findDefaultToken = (coinKey: CoinKey, chainId: ChainId) => dataTypesDefaultToken(coinKey as unknown as DataTypesArguments[0], chainId as unknown as DataTypesArguments[1]);

let guard: LoopbackGuard;
const answers: Answer[] = [];
let server: http.Server;
/** The int specs' client: `createClient({ integrator: 'lifi-sdk' })`. */
let sdk: SDKClient;
/** The examples' client: `createClient({ integrator: 'lifi-sdk-example' })`. */
let example: SDKClient;

// the guard first, before the app is made
beforeAll(() => {
  guard = guardLoopback({
    observe: async (request, response) => {
      const text = await response.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        /* not JSON: kept as text */
      }
      answers.push({ method: request.method, path: request.url.pathname, status: response.status, headers: Object.fromEntries(response.headers), body });
    },
  });
});

const t = useTestApp();

beforeAll(async () => {
  server = t.app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  sdk = createClient({ integrator: 'lifi-sdk', apiUrl });
  example = createClient({ integrator: 'lifi-sdk-example', apiUrl });
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  guard?.close();
});

/** The token `findDefaultToken` names, as GET /v1/token finds it by address: the same token. */
async function expectDefaultToken(client: SDKClient, coinKey: CoinKey, chainId: ChainId) {
  const wanted = findDefaultToken(coinKey, chainId);
  const token = await getToken(client, chainId, wanted.address);
  expect({ chainId: token.chainId, address: token.address.toLowerCase(), decimals: token.decimals, coinKey: token.coinKey })
    .toEqual({ chainId, address: wanted.address.toLowerCase(), decimals: wanted.decimals, coinKey: wanted.coinKey });
  return token;
}

/**
 * What the SDK's providers read of a chain before they touch it: the chain (`client.getChainById`), its RPC URLs
 * (`client.getRpcUrlsByChainId`: `getPublicClient`, the Solana RPC registry) and, on an EVM chain, its Multicall
 * address (`getMulticallAddress`: balances and allowances of several tokens in one call).
 */
async function expectReadableChain(client: SDKClient, chainId: ChainId, multicall: boolean) {
  const chain = await client.getChainById(chainId);
  expect(chain.id).toBe(chainId);
  const urls = await client.getRpcUrlsByChainId(chainId);
  expect(urls.length).toBeGreaterThan(0);
  for (const url of urls) expect(url).toMatch(/^(https?|wss?):\/\//);
  if (multicall) expect(chain.multicallAddress).toMatch(EVM_ADDRESS);
}

/**
 * A step an example sends as it is: `transformTxRequestToSendTxParams` (to, data, BigInt of value, gasLimit,
 * gasPrice), `checkTokenAllowance` (action.fromToken, action.fromAmount, estimate.approvalAddress) and the status
 * polling (tool, action.fromChainId, action.toChainId).
 */
function expectSendableStep(step: LiFiStep, fromChainId: number, toChainId: number) {
  expect(step.action).toMatchObject({ fromChainId, toChainId });
  expect(step.tool).toEqual(expect.any(String));
  expect(BigInt(step.action.fromAmount)).toBeGreaterThan(0n);
  expect(step.estimate.approvalAddress).toMatch(EVM_ADDRESS);
  const tx = step.transactionRequest;
  expect(tx).toBeDefined();
  expect(tx!.to).toMatch(EVM_ADDRESS);
  expect(tx!.data).toMatch(/^0x[0-9a-fA-F]{8,}$/);
  for (const field of ['value', 'gasLimit', 'gasPrice'] as const) {
    const value = tx![field];
    if (value !== undefined) expect(BigInt(value as string)).toBeGreaterThanOrEqual(0n);
  }
  expect(BigInt(tx!.gasLimit as string)).toBeGreaterThan(0n);
}

/** The refusal of an SDK call: the HTTP status and the service's body the SDK's HTTPError carries. */
async function refusal(call: Promise<unknown>): Promise<{ status: number; body: { code?: number; message?: string; errors?: unknown } }> {
  const error = await call.then(() => undefined, (e: unknown) => e);
  if (error === undefined) throw new Error('the SDK call succeeded; the service was expected to refuse it');
  expect(error).toBeInstanceOf(SDKError);
  const cause = (error as SDKError).cause;
  expect(cause).toBeInstanceOf(HTTPError);
  return { status: (cause as HTTPError).status, body: ((cause as HTTPError).responseBody ?? {}) as { code?: number; message?: string } };
}

const customSteps = (step: LiFiStep) => (step.includedSteps ?? []).filter((s) => s.type === 'custom');

describe("the SDK's integration tests that need no internet (packages/*/src/actions/*.int.spec.ts)", () => {
  it('packages/sdk/src/actions/getQuote.int.spec.ts: getQuote for 1 ETH from Ethereum to ETH on Base', async () => {
    const quote = await getQuote(sdk, {
      fromChain: 1,
      fromToken: NATIVE,
      fromAddress: WALLET,
      fromAmount: '1000000000000000000',
      toChain: 8453,
      toToken: NATIVE,
    });
    expect(quote).toBeDefined();
    expect(quote.action).toMatchObject({ fromChainId: 1, toChainId: 8453, fromAmount: '1000000000000000000', fromAddress: WALLET });
    expect([quote.action.fromToken.address, quote.action.toToken.address]).toEqual([NATIVE, NATIVE]);
    expect(BigInt(quote.estimate.toAmount)).toBeGreaterThan(0n);
    expectSendableStep(quote, 1, 8453);
    expect(BigInt(quote.transactionRequest!.value as string)).toBe(1_000_000_000_000_000_000n); // the native coin is sent
  });

  it('packages/sdk-provider-ethereum/src/actions/getEthereumBalance.int.spec.ts: the default tokens, the chains it reads, the Optimism token list', async () => {
    // 'should work for ERC20 on POL', 'should work for MATIC on POL': findDefaultToken's tokens, then balances by
    // multicall on Polygon's RPC (the chain's part: its RPC URLs and Multicall address from /v1/chains)
    for (const coinKey of [CoinKey.USDC, CoinKey.USDT, CoinKey.DAI]) await expectDefaultToken(sdk, coinKey, ChainId.POL);
    expect((await expectDefaultToken(sdk, CoinKey.POL, ChainId.POL)).address).toBe(NATIVE);
    await expectReadableChain(sdk, ChainId.POL, true);
    // 'should return even with invalid data on POL': a token whose address is not on Polygon is the chain's business
    // (its balance stays undefined); it asks nothing of the service
    // 'should fallback to a direct call if only one token is requested': DAI on BSC
    await expectDefaultToken(sdk, CoinKey.DAI, ChainId.BSC);
    await expectReadableChain(sdk, ChainId.BSC, true);
    // 'should handle token lists with more than 100 tokens': getTokens on Optimism, then the balances of the first
    // 150 by multicall on Optimism. The list's size is the separate test below; here, what the balance loader reads of
    // it: tokens of chain 10, one per address, and Optimism readable
    const { tokens } = await getTokens(sdk, { chains: [ChainId.OPT] });
    const optimism = tokens[ChainId.OPT] ?? [];
    expect(optimism.length).toBeGreaterThan(0);
    for (const token of optimism) expect(token.chainId).toBe(ChainId.OPT);
    expect(new Set(optimism.map((token) => token.address.toLowerCase())).size).toBe(optimism.length);
    await expectReadableChain(sdk, ChainId.OPT, true);
  });

  it('packages/sdk-provider-ethereum/src/actions/getEthereumBalance.int.spec.ts: getTokens({ chains: [OPT] }) lists more than 100 tokens', async () => {
    // the published token lists' Optimism tokens, most of them of unknown price ("0"): listed whatever minPriceUSD
    const { tokens } = await getTokens(sdk, { chains: [ChainId.OPT] });
    expect(tokens[ChainId.OPT]?.length).toBeGreaterThan(100);
  });

  it('packages/sdk-provider-ethereum/src/actions/getAllowance.int.spec.ts: POL on Polygon, Polygon readable, at least 10 Polygon tokens', async () => {
    // 'should work for MATIC on POL' and 'should return even with invalid data on POL': findDefaultToken(POL, POL),
    // then getAllowance on Polygon's public client (its RPC URLs from /v1/chains)
    expect((await expectDefaultToken(sdk, CoinKey.POL, ChainId.POL)).address).toBe(NATIVE);
    // 'should work for ERC20 on POL' (the spec's memecoin, not in the catalog: it reads it on the chain only) and
    // 'should handle empty lists with multicall': Polygon's public client and Multicall address
    await expectReadableChain(sdk, 137, true);
    // 'should handle token lists with more than 10 tokens': getTokens on Polygon, the memecoin put first, at least 10
    // tokens, the allowances of the first 10 by multicall
    const { tokens } = await getTokens(sdk, { chains: [ChainId.POL] });
    const filteredTokens = tokens[ChainId.POL];
    expect(filteredTokens).toBeDefined();
    filteredTokens!.unshift({ name: 'Memecoin', symbol: 'MEM', decimals: 18, address: '0x42dbbd5ae373fea2fc320f62d44c058522bb3758', chainId: 137, priceUSD: '' });
    expect(filteredTokens!.length).toBeGreaterThanOrEqual(10);
    for (const token of filteredTokens!.slice(1, 10)) {
      expect(token.chainId).toBe(ChainId.POL);
      expect(token.address).toMatch(EVM_ADDRESS);
    }
  });

  it('packages/sdk-provider-ethereum/src/actions/setAllowance.int.spec.ts: the USDT it approves on Polygon', async () => {
    // The spec runs only with a mnemonic (describe.skipIf(!MNEMONIC)); its calls go to its own viem wallet client over
    // Polygon's RPC, never to the API. What it relies on of the data: its token, USDT on Polygon with 6 decimals.
    const token = await getToken(sdk, ChainId.POL, '0xc2132d05d31c914a87c6611c10748aeb04b58e8f');
    expect({ address: token.address.toLowerCase(), symbol: token.symbol, decimals: token.decimals })
      .toEqual({ address: '0xc2132d05d31c914a87c6611c10748aeb04b58e8f', symbol: 'USDT', decimals: 6 });
  });

  it('packages/sdk-provider-solana/src/actions/getSolanaBalance.int.spec.ts: SOL and USDC on Solana, Solana readable', async () => {
    // 'should work for stables on SOL': findDefaultToken's tokens, then balances from the RPCs the Solana provider's
    // registry takes from /v1/chains (client.getRpcUrlsByChainId(ChainId.SOL)); 'should handle empty lists' asks nothing
    expect((await expectDefaultToken(sdk, CoinKey.SOL, ChainId.SOL)).address).toBe('11111111111111111111111111111111');
    expect((await expectDefaultToken(sdk, CoinKey.USDC, ChainId.SOL)).address).toBe('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v');
    await expectReadableChain(sdk, ChainId.SOL, false);
  });
});

describe("the SDK's Node examples (examples/node/examples/*.ts)", () => {
  it('examples/node/examples/swap.ts: getRoutes for 0.1 USDC to USDT on Optimism, then the step transaction executeRoute asks for', async () => {
    const routeRequest = {
      toAddress: WALLET,
      fromAddress: WALLET,
      fromChainId: ChainId.OPT,
      fromAmount: '100000',
      fromTokenAddress: findDefaultToken(CoinKey.USDC, ChainId.OPT).address,
      toChainId: ChainId.OPT,
      toTokenAddress: findDefaultToken(CoinKey.USDT, ChainId.OPT).address,
      options: { slippage: 0.03, allowSwitchChain: false },
    };
    const routeResponse = await getRoutes(example, routeRequest);
    const route = routeResponse.routes[0];
    expect(route).toBeDefined();
    expect(route!).toMatchObject({ fromChainId: 10, toChainId: 10, fromAmount: '100000', fromAddress: WALLET, toAddress: WALLET, containsSwitchChain: false });
    expect(route!.fromToken.address.toLowerCase()).toBe(routeRequest.fromTokenAddress.toLowerCase());
    expect(route!.toToken.address.toLowerCase()).toBe(routeRequest.toTokenAddress.toLowerCase());
    expect(BigInt(route!.toAmountMin)).toBeGreaterThan(0n);
    expect(route!.steps.length).toBeGreaterThan(0);
    // executeRoute(client, route): before sending each step it asks POST /v1/advanced/stepTransaction for it
    for (const step of route!.steps) {
      expect(step.action.slippage).toBe(0.03);
      const withTransaction = await getStepTransaction(example, step);
      expectSendableStep(withTransaction, 10, 10);
    }
  });

  it('examples/node/examples/bridge.ts: getRoutes for 0.1 USDC from Optimism to USDC on Arbitrum, then the step transaction', async () => {
    const routeRequest = {
      toAddress: WALLET,
      fromAddress: WALLET,
      fromChainId: ChainId.OPT,
      fromAmount: '100000',
      fromTokenAddress: findDefaultToken(CoinKey.USDC, ChainId.OPT).address,
      toChainId: ChainId.ARB,
      toTokenAddress: findDefaultToken(CoinKey.USDC, ChainId.ARB).address,
      options: { slippage: 0.03 },
    };
    const routeResponse = await getRoutes(example, routeRequest);
    const route = routeResponse.routes[0];
    expect(route).toBeDefined();
    expect(route!).toMatchObject({ fromChainId: 10, toChainId: 42161, fromAmount: '100000', toAddress: WALLET });
    expect(route!.toToken.address.toLowerCase()).toBe(routeRequest.toTokenAddress.toLowerCase());
    expect(BigInt(route!.toAmountMin)).toBeGreaterThan(0n);
    const first = await getStepTransaction(example, route!.steps[0]!);
    expectSendableStep(first, 10, route!.steps[0]!.action.toChainId);
    expect(route!.steps.at(-1)!.action.toChainId).toBe(42161);
  });

  it('examples/node/examples/toAmount.ts: getContractCallsQuote with no calls for exactly 0.1 USDC on Optimism from USDC on Arbitrum', async () => {
    const quoteRequest: ContractCallsQuoteRequest = {
      fromChain: ChainId.ARB,
      fromToken: findDefaultToken(CoinKey.USDC, ChainId.ARB).address,
      fromAddress: WALLET,
      toChain: ChainId.OPT,
      toToken: findDefaultToken(CoinKey.USDC, ChainId.OPT).address,
      toAmount: '100000',
      contractCalls: [],
    };
    const quote = await getContractCallsQuote(example, quoteRequest);
    expectSendableStep(quote, 42161, 10);
    expect(quote.action.fromToken.address.toLowerCase()).toBe(quoteRequest.fromToken.toLowerCase());
    expect(BigInt(quote.estimate.toAmount)).toBeGreaterThanOrEqual(100_000n);
    expect(customSteps(quote)).toEqual([]);
  });

  it('examples/node/examples/yearnDeposit.ts: getContractCallsQuote from ETH on Arbitrum into the Yearn WETH vault on Polygon', async () => {
    const config = {
      fromChain: ChainId.ARB,
      toChain: ChainId.POL,
      fromToken: findDefaultToken(CoinKey.ETH, ChainId.ARB).address,
      amount: '100000000000000',
      vaultAddress: '0x305F25377d0a39091e99B975558b1bdfC3975654',
      vaultAsset: '0x7ceB23fD6bC0adD59E62ac25578270cFf1b9f619',
      depositGas: '100000',
      depositContractAbi: ['function deposit(uint amount, address to) external'],
    };
    const depositTxData = encodeFunctionData({
      abi: parseAbi(config.depositContractAbi),
      functionName: 'deposit',
      args: [BigInt(config.amount), WALLET],
    });
    const contractCallsQuoteRequest: ContractCallsQuoteRequest = {
      fromChain: config.fromChain,
      fromToken: config.fromToken,
      fromAddress: WALLET,
      toChain: config.toChain,
      toToken: config.vaultAsset,
      toAmount: config.amount,
      contractCalls: [{
        fromAmount: config.amount,
        fromTokenAddress: config.vaultAsset,
        toContractAddress: config.vaultAddress,
        toContractCallData: depositTxData,
        toContractGasLimit: config.depositGas,
      }],
    };
    const quote = await getContractCallsQuote(example, contractCallsQuoteRequest);
    expectSendableStep(quote, 42161, 137);
    expect(quote.action.fromToken.address).toBe(NATIVE); // checkTokenAllowance skips the approval
    expect(quote.action.toToken.address.toLowerCase()).toBe(config.vaultAsset.toLowerCase());
    expect(BigInt(quote.transactionRequest!.value as string)).toBe(BigInt(quote.action.fromAmount));
    expect(customSteps(quote).length).toBe(1);
    expect(BigInt(quote.estimate.toAmountMin)).toBeGreaterThanOrEqual(BigInt(config.amount));
  });

  it('examples/node/examples/polynomialDeposit.ts: refused, 404 (no route), saying why: sETH on Optimism has no pool in the embedded snapshot', async () => {
    const config = {
      fromChain: ChainId.ARB,
      toChain: ChainId.OPT,
      fromToken: findDefaultToken(CoinKey.USDCe, ChainId.ARB).address,
      amount: '100000000000000',
      polynomialContractAddress: '0x2D46292cbB3C601c6e2c74C32df3A4FCe99b59C7',
      polynomialContractToken: '0xE405de8F52ba7559f9df3C368500B6E6ae6Cee49',
      polynomialContractGasLimit: '200000',
      polynomialContractAbi: ['function initiateDeposit(address user, uint amount) external'],
    };
    const stakeTxData = encodeFunctionData({
      abi: parseAbi(config.polynomialContractAbi),
      functionName: 'initiateDeposit',
      args: [WALLET, BigInt(config.amount)],
    });
    const contractCallsQuoteRequest: ContractCallsQuoteRequest = {
      fromChain: config.fromChain,
      fromToken: config.fromToken,
      fromAddress: WALLET,
      toChain: config.toChain,
      toToken: config.polynomialContractToken,
      toAmount: config.amount,
      contractCalls: [{
        fromAmount: config.amount,
        fromTokenAddress: config.polynomialContractToken,
        toContractAddress: config.polynomialContractAddress,
        toContractCallData: stakeTxData,
        toContractGasLimit: config.polynomialContractGasLimit,
      }],
    };
    // The catalog knows sETH on Optimism (from Optimism's token list) but with no reference price ("0") and no pool:
    // the embedded snapshot gives pools to priced coins only (data/README.md). No route can end in sETH, so the
    // example's quote is refused with 404, code 1002 (no route), and every reason says why: no pool reaches sETH from
    // what a bridge brings to Optimism (the exact-output search probes with one whole sent token when the requested
    // token has no price, as an exact input would be searched)
    const sETH = await getToken(example, ChainId.OPT, config.polynomialContractToken);
    expect({ symbol: sETH.symbol, priceUSD: sETH.priceUSD }).toEqual({ symbol: 'sETH', priceUSD: '0' });
    const refused = await refusal(getContractCallsQuote(example, contractCallsQuoteRequest));
    expect(refused.status).toBe(404);
    expect(refused.body.code).toBe(1002);
    expect(refused.body.message).toMatch(/no pools connect \S+ and sETH within 3 hops on chain 10 \(needed after bridging with \w+\)/);
    const reasons = (refused.body.errors as { failed: { subpaths: Record<string, { message: string }[]> }[] }).failed.flatMap((f) => Object.values(f.subpaths).flat().map((e) => e.message));
    expect(reasons.length).toBeGreaterThan(0);
    for (const reason of reasons) expect(reason).toMatch(/no pools connect \S+ and sETH within 3 hops on chain 10/);
    // the same transfer as exact input says it the same way, and no connection ends in sETH
    const exactInput = await refusal(getQuote(example, { fromChain: config.fromChain, fromToken: config.fromToken, fromAddress: WALLET, toChain: config.toChain, toToken: config.polynomialContractToken, fromAmount: '1000000' }));
    expect(exactInput.status).toBe(404);
    expect(exactInput.body.message).toMatch(/no pools connect \S+ and sETH within 3 hops on chain 10/);
    const { connections } = await getConnections(example, { fromChain: config.fromChain, toChain: config.toChain, toToken: config.polynomialContractToken });
    expect(connections).toEqual([]);
  });

  it("examples/node/examples/multihop.ts: its second bridge quoted as the example asks (allowBridges names the retired 'amarok' beside running bridges); the contract call into the service's router is refused by design", async () => {
    const config = {
      fromChain: ChainId.ARB,
      fromToken: findDefaultToken(CoinKey.USDC, ChainId.ARB).address,
      intermediateChain: ChainId.POL,
      intermediateToken: findDefaultToken(CoinKey.USDC, ChainId.POL).address,
      toChain: ChainId.OPT,
      toToken: findDefaultToken(CoinKey.USDC, ChainId.OPT).address,
      amount: '100000',
    };
    const secondBridgeQuoteRequest: QuoteRequest = {
      fromChain: config.intermediateChain,
      fromToken: config.intermediateToken,
      fromAmount: config.amount,
      toChain: config.toChain,
      toToken: config.toToken,
      fromAddress: WALLET,
      allowBridges: ['hop', 'stargate', 'across', 'amarok'],
      maxPriceImpact: 0.4,
    };
    // 'amarok' (Connext) is no tool of this service (GET /v1/tools) but a retired one (data/sources/tools.json): it is left
    // out of the list, and the other bridges it names are used; a name no tool ever had is still refused
    expect((await getTools(example)).bridges.map((b) => b.key)).not.toContain('amarok');
    const secondBridgeQuote = await getQuote(example, secondBridgeQuoteRequest);
    expectSendableStep(secondBridgeQuote, 137, 10);
    expect(['hop', 'stargate', 'across']).toContain(secondBridgeQuote.tool);
    const typo = await refusal(getQuote(example, { ...secondBridgeQuoteRequest, allowBridges: ['hop', 'stargate', 'acros'] }));
    expect(typo.status).toBe(400);
    expect(typo.body.message).toMatch(/allowBridges names unknown tool\(s\) acros/);
    const onlyRetired = await refusal(getQuote(example, { ...secondBridgeQuoteRequest, allowBridges: ['amarok'] }));
    expect(onlyRetired.status).toBe(400);
    expect(onlyRetired.body.message).toMatch(/allowBridges names only retired tools, which carry nothing any more: amarok \(Connext \(Amarok\)/);

    // The example's first bridge: a contract call whose destination call is the second bridge's transaction
    const quoteRequest: ContractCallsQuoteRequest = {
      fromChain: config.fromChain,
      fromToken: config.fromToken,
      fromAddress: WALLET,
      toChain: secondBridgeQuote.action.fromChainId,
      toToken: secondBridgeQuote.action.fromToken.address,
      toAmount: secondBridgeQuote.action.fromAmount,
      contractCalls: [{
        fromAmount: secondBridgeQuote.action.fromAmount,
        fromTokenAddress: secondBridgeQuote.action.fromToken.address,
        toContractAddress: secondBridgeQuote.transactionRequest!.to!,
        toContractCallData: secondBridgeQuote.transactionRequest!.data!.toString(),
        toContractGasLimit: fromHex(secondBridgeQuote.transactionRequest!.gasLimit!.toString() as Address, 'bigint').toString(),
      }],
    };
    expect(BigInt(quoteRequest.contractCalls[0]!.toContractGasLimit)).toBeGreaterThan(0n);
    // ...but the first bridge's destination call is that quote's transaction, a call of the service's own router on
    // Polygon, which contract calls may not call or approve (src/usecases/contractCallsRequest.ts, rule notRouter)
    const intoRouter = await refusal(getContractCallsQuote(example, quoteRequest));
    expect(intoRouter.status).toBe(400);
    expect(intoRouter.body.code).toBe(1011);
    expect(intoRouter.body.message).toMatch(/toContractAddress \S+ is the service's router on Polygon: contract calls cannot call or approve the router/);
  });

  it("examples/node/examples/klimaRetireExactCarbon.ts: the retirement call on Polygon is quoted as the example asks (allowBridges names the retired 'amarok' beside running bridges)", async () => {
    const config = {
      fromChain: ChainId.OPT,
      toChain: ChainId.POL,
      fromToken: findDefaultToken(CoinKey.USDC, ChainId.OPT).address,
      retireAmount: '100000',
      klimaContractAddress: '0x8cE54d9625371fb2a068986d32C85De8E6e995f8' as Address,
      klimaContractSourceToken: findDefaultToken(CoinKey.USDCe, ChainId.POL),
      klimaContractPoolTokenAddress: '0x2F800Db0fdb5223b3C3f354886d907A671414A7F' as Address,
      klimaContractGasLimit: '1300000',
      klimaContractAbi: [
        'function getSourceAmountDefaultRetirement(address,address,uint256) external view returns (uint256 amountIn)',
        'function retireExactCarbonDefault(address, address, uint256, uint256, string, address, string, string, uint8)',
      ],
      klimaContractRetiringEntityString: 'LI.FI',
      klimaContractBeneficiaryAddress: '0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea0' as Address,
      klimaContractBeneficiaryString: 'LI.FI',
      klimaContractRetirementMessage: 'Cross Chain Contract Calls',
      klimaContractFromMode: 0,
    };
    const abi = parseAbi(config.klimaContractAbi);
    // The example reads getSourceAmountDefaultRetirement from the Klima contract on Polygon's RPC: out of reach here.
    // A stand-in of 1 takes its place (the example's parseUnits then makes it 1 USDC.e); the refusal below does not
    // depend on the amount.
    const sourceAmountDefaultRetirement = 1n;
    const usdcAmount = parseUnits(sourceAmountDefaultRetirement.toString(), config.klimaContractSourceToken.decimals).toString();
    const retireTxData = encodeFunctionData({
      abi,
      functionName: 'retireExactCarbonDefault',
      args: [
        config.klimaContractSourceToken.address as Address,
        config.klimaContractPoolTokenAddress,
        BigInt(usdcAmount),
        BigInt(config.retireAmount),
        config.klimaContractRetiringEntityString,
        config.klimaContractBeneficiaryAddress,
        config.klimaContractBeneficiaryString,
        config.klimaContractRetirementMessage,
        config.klimaContractFromMode,
      ],
    });
    const contractCallsQuoteRequest: ContractCallsQuoteRequest = {
      fromChain: config.fromChain,
      fromToken: config.fromToken,
      fromAddress: WALLET,
      toChain: config.toChain,
      toToken: config.klimaContractSourceToken.address,
      toAmount: usdcAmount,
      allowBridges: ['hop', 'across', 'amarok'],
      contractCalls: [{
        fromAmount: usdcAmount,
        fromTokenAddress: config.klimaContractSourceToken.address,
        toContractAddress: config.klimaContractAddress,
        toContractCallData: retireTxData,
        toContractGasLimit: config.klimaContractGasLimit,
      }],
    };
    await expectDefaultToken(example, CoinKey.USDCe, ChainId.POL);
    // 'amarok' is a retired bridge, left out of the list; the Klima contract is not one the catalog knows, and needs not
    // be: the quote bridges USDC to Polygon with a bridge the example allows and calls it with USDC.e
    const quote = await getContractCallsQuote(example, contractCallsQuoteRequest);
    expectSendableStep(quote, 10, 137);
    expect(['hop', 'across']).toContain(quote.tool);
    expect(quote.action.toToken.address.toLowerCase()).toBe(config.klimaContractSourceToken.address.toLowerCase());
    expect(customSteps(quote).length).toBe(1);
    expect(BigInt(quote.estimate.toAmountMin)).toBeGreaterThanOrEqual(BigInt(usdcAmount));
  });
});

// last: reads the answers of every test above
describe('what the SDK received', () => {
  it('every answer is one the contract declares, none a server error, and nothing left the machine', async () => {
    const contract = await contractValidator();
    expect(answers.length).toBeGreaterThan(0);
    for (const answer of answers) {
      const operationId = contract.operationIdOf(answer.method, answer.path);
      if (!operationId) throw new Error(`the SDK called ${answer.method} ${answer.path}, which the contract does not have`);
      expect(answer.status).toBeLessThan(500);
      contract.expectResponse(operationId, { status: answer.status, headers: answer.headers, body: answer.body } as unknown as Response);
    }
    // the operations the specs and examples reach, through the SDK's own functions and its chain storage
    const called = new Set(answers.map((a) => contract.operationIdOf(a.method, a.path)));
    expect([...called].sort()).toEqual(['getChains', 'getConnections', 'getQuote', 'getToken', 'getTokens', 'getTools', 'postContractCallsQuote', 'postRoutes', 'postStepTransaction']);
    expect(guard.violations).toEqual([]);
  });
});
