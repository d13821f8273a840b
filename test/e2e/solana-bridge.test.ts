/**
 * The sandbox bridge between its Solana chain and its anvil chains, both ways (sandbox/relayer.ts with
 * sandbox/solana/bridge.ts): `npm run sandbox` with Arbitrum and Solana, in process.
 *
 * - Solana → EVM: a deposit the core builds (buildBridgeDeposit, on a real blockhash of the chain), signed by a Solana
 *   test wallet and sent; the relayer releases it on Arbitrum by the route's fee model (the route deploy.ts configured
 *   under the mint's foreign token id), with the destination swap of the memo's hops when it has some; a deposit whose
 *   minimum cannot be met, and one without a memo, are paid back to the sender on Solana with the refund memo.
 * - EVM → Solana: the service's quote from Arbitrum USDC to Solana USDC, sent as it is; the escrow pays the receiver's
 *   associated token account what the route's fee model gives, with the release memo; a deposit whose minimum the
 *   route cannot meet is refunded on Arbitrum.
 */
import pino from 'pino';
import { UNISWAP_V2_FACTORY, v2PairAddress } from '../../src/core/liquidity/poolAddress';
import { Contract, Interface, Wallet, getAddress } from 'ethers';
import {
  createSolanaRpc, generateKeyPairSigner, getAddressEncoder, getBase64EncodedWireTransaction, getTransactionDecoder, signTransaction, type Signature,
} from '@solana/kit';
import { getTransferCheckedInstruction } from '@solana-program/token';
import type { FamilyAddress } from '../../src/core/chains/family';
import { svm } from '../../src/core/chains/svm';
import { buildBridgeDeposit, type BridgeDepositInput } from '../../src/core/chains/solana/deposit';
import { formatRefundMemo, formatReleaseMemo, type MemoHop } from '../../src/core/chains/solana/memo';
import { bridgeOut } from '../../src/core/math/bridge';
import { quoteHopExactIn } from '../../src/core/liquidity/poolQuote';
import { tokenDecimals } from '../../sandbox/data';
import { approveIfNeeded, balanceOf, sendTransactionRequest, type WireTransactionRequest } from '../../sandbox/execute';
import type { Completion } from '../../sandbox/relayerCompletions';
import { foreignTokenId, memosOf, NO_TRANSFER_ID, solanaDepositId, waitForSignature, type ParsedTransaction } from '../../sandbox/solana/bridge';
import { SOLANA_CHAIN_ID } from '../../sandbox/solana/devnet';
import { startSandbox, type Sandbox } from '../../sandbox/service';
import { mined } from '../support/mined';

jest.setTimeout(60_000);

const ETHEREUM = 1;
const ARBITRUM = 42161;
const USDC_ARB = '0xaf88d065e77c8cC2239327C5EDb3A432268e5831';
const WETH_ARB = '0x82aF49447D8a07e3bd95BD0d56f35241523fBab1';
const USDC_SOL = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const SOL = '11111111111111111111111111111111';
/** Wormhole SOL on Ethereum (9 decimals), what the bridges deliver for native SOL. */
const SOL_ETH = '0xD31a59c85aE9D8edEFeC411D448f90841571b89c';
/** The Uniswap V2 WETH/USDC pair on Arbitrum (snapshot pool 42161:uniswap:constantProduct:WETH-USDC:3000), where the factory puts it. */
const WETH_USDC_PAIR = v2PairAddress(UNISWAP_V2_FACTORY, '0x82aF49447D8a07e3bd95BD0d56f35241523fBab1', '0xaf88d065e77c8cC2239327C5EDb3A432268e5831');

let sandbox: Sandbox;

beforeAll(async () => {
  // bridges release at once (bridgeTimeScale 0)
  sandbox = await startSandbox({ chains: [ETHEREUM, ARBITRUM, SOLANA_CHAIN_ID], port: 0, host: '127.0.0.1', logger: pino({ level: 'silent' }), bridgeTimeScale: 0 });
}, 60_000);

afterAll(async () => {
  await sandbox?.stop();
});

const solana = () => sandbox.solana!;
const relayer = () => sandbox.devnet.relayer!;
const rpc = () => createSolanaRpc(solana().url);
const transferId = (n: number) => `0x${n.toString(16).padStart(2, '0').repeat(32)}`;

function svmAddress(text: string): FamilyAddress<'SVM'> {
  const parsed = svm.parseAddress(text);
  if (!parsed) throw new Error(`not a Solana address: ${text}`);
  return parsed;
}

async function splBalance(owner: string, mint: string): Promise<bigint> {
  const account = await solana().tokenAccount(owner, mint);
  const info = await rpc().getAccountInfo(account, { encoding: 'base64' }).send();
  if (!info.value) return 0n;
  return BigInt((await rpc().getTokenAccountBalance(account).send()).value.amount);
}

/** The snapshot's route and what it delivers for `amount` (the core's fee model, rescaled down to the destination's decimals). */
function routeOutput(bridge: string, fromChainId: number, toChainId: number, fromToken: string, amount: bigint): bigint {
  const { data } = sandbox.devnet;
  const route = data.bridges.find((b) => b.bridge === bridge && b.fromChainId === fromChainId && b.toChainId === toChainId && b.fromToken.toLowerCase() === fromToken.toLowerCase());
  if (!route) throw new Error(`no route ${bridge} ${fromChainId}→${toChainId} for ${fromToken}`);
  const q = bridgeOut(amount, {
    fixedFee: BigInt(route.fixedFee), feePpm: BigInt(route.feePpm), destinationGasFee: BigInt(route.destinationGasFee),
    minAmount: BigInt(route.minAmount), maxAmount: BigInt(route.maxAmount),
  });
  if (!q.ok) throw new Error(`route ${bridge}: ${q.reason}`);
  const [from, to] = [tokenDecimals(data, fromChainId, route.fromToken), tokenDecimals(data, toChainId, route.toToken)];
  return to >= from ? q.amountOut * 10n ** BigInt(to - from) : q.amountOut / 10n ** BigInt(from - to);
}

/** A deposit of wallet 0's USDC built by the core on a live blockhash, signed by the wallet and sent; its signature. */
async function deposit(over: Partial<BridgeDepositInput>): Promise<Signature> {
  const { value: lifetime } = await rpc().getLatestBlockhash().send();
  const usdc = solana().mint('USDC');
  const built = await buildBridgeDeposit({
    sender: svmAddress(solana().wallet(0).address),
    escrowOwner: svmAddress(solana().bridgeEscrow.address),
    token: { kind: 'spl', mint: usdc.address, decimals: usdc.decimals },
    amount: 250_000_000n,
    bridge: 'across',
    transferId: transferId(1),
    destinationChainId: ARBITRUM,
    receiver: Wallet.createRandom().address.toLowerCase(),
    minAmountOut: 0n,
    lifetime: { blockhash: lifetime.blockhash, lastValidBlockHeight: BigInt(lifetime.lastValidBlockHeight) },
    priorityFeeLevel: 'NORMAL',
    escrowTokenAccountExists: true,
    ...over,
  });
  const transaction = getTransactionDecoder().decode(Buffer.from(built.transactionBase64, 'base64'));
  const signed = await signTransaction([solana().wallet(0).signer.keyPair], transaction);
  const signature = await rpc().sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: 'base64' }).send();
  await waitForSignature(rpc(), signature);
  return signature;
}

async function solanaMemos(signature: string): Promise<string[]> {
  const tx = await rpc().getTransaction(signature as Signature, { encoding: 'jsonParsed', maxSupportedTransactionVersion: 0 }).send();
  return memosOf(tx as unknown as ParsedTransaction);
}

const provider = (chainId = ARBITRUM) => sandbox.devnet.chain(chainId).provider;

test('the EVM endpoint knows the routes from Solana under the foreign token ids', async () => {
  const endpoint = new Contract(sandbox.devnet.chain(ARBITRUM).deployment.bridgeEndpoint, sandbox.devnet.artifacts.BridgeEndpoint.abi as string[], provider());
  // keccak256 of the mint's 32 bytes, last 20 bytes; SOL: the all-zero key
  expect(foreignTokenId('11111111111111111111111111111111')).toBe(getAddress('0x' + '290decd9548b62a8d60345a988386fc84ba6bc95484008f6362f93160ef3e563'.slice(24)));
  const route = await endpoint.getRoute('across', SOLANA_CHAIN_ID, ARBITRUM, foreignTokenId(USDC_SOL));
  expect(getAddress(route.toToken)).toBe(USDC_ARB);
  expect(Number(route.fromDecimals)).toBe(6);
});

test('Solana USDC → Arbitrum USDC: released by the fee model, at least the minimum', async () => {
  const amount = 250_000_000n;
  const expected = routeOutput('across', SOLANA_CHAIN_ID, ARBITRUM, USDC_SOL, amount);
  expect(expected).toBeLessThan(amount); // across charges on this route
  const receiver = Wallet.createRandom().address;
  const id = transferId(0xa1);
  const signature = await deposit({ amount, transferId: id, receiver: receiver.toLowerCase(), minAmountOut: expected });
  const done = (await relayer().waitFor(id)) as Extract<Completion, { kind: 'released' }>;
  expect(done).toMatchObject({ kind: 'released', fromChainId: SOLANA_CHAIN_ID, toChainId: ARBITRUM, depositTx: signature, amount: expected, paidTo: receiver, destinationCall: false });
  expect(done.depositId).toBe(solanaDepositId(signature));
  expect(await balanceOf(provider(), USDC_ARB, receiver)).toBe(expected);
  // the same completion by the deposit's signature
  expect(await relayer().waitFor(signature)).toBe(done);
});

test('Solana USDC → Arbitrum WETH: the memo\'s hop runs as the destination call', async () => {
  const amount = 400_000_000n;
  const bridged = routeOutput('across', SOLANA_CHAIN_ID, ARBITRUM, USDC_SOL, amount);
  const pool = sandbox.dependencies.graph.pools.find((p) => p.chainId === ARBITRUM && p.address.toLowerCase() === WETH_USDC_PAIR.toLowerCase())!;
  const key = (a: string) => sandbox.dependencies.graph.catalog.addressKey(ARBITRUM, a);
  const swap = quoteHopExactIn(pool, pool.tokens.indexOf(key(USDC_ARB)), pool.tokens.indexOf(key(WETH_ARB)), bridged);
  if (!swap.ok) throw new Error(swap.message);
  const minAmountOut = (swap.amountOut * 995n) / 1000n;
  const hops: MemoHop[] = [{ pool: WETH_USDC_PAIR.toLowerCase(), tokenOut: WETH_ARB.toLowerCase(), amountIn: bridged }];
  const receiver = Wallet.createRandom().address;
  const id = transferId(0xb2);
  await deposit({ amount, transferId: id, receiver: receiver.toLowerCase(), minAmountOut, hops });
  const done = (await relayer().waitFor(id)) as Extract<Completion, { kind: 'released' }>;
  expect(done).toMatchObject({ kind: 'released', amount: bridged, destinationCall: true, destinationCallSucceeded: true });
  const weth = await balanceOf(provider(), WETH_ARB, receiver);
  expect(weth).toBe(swap.amountOut); // the pair's state is the snapshot's: the core's math exactly
  expect(weth).toBeGreaterThanOrEqual(minAmountOut);
  expect(await balanceOf(provider(), USDC_ARB, receiver)).toBe(0n);
});

test('native SOL → Ethereum: a System transfer into the escrow, released under SOL\'s foreign token id', async () => {
  const amount = 2_000_000_000n; // 2 SOL
  const expected = routeOutput('mayan', SOLANA_CHAIN_ID, ETHEREUM, SOL, amount);
  const receiver = Wallet.createRandom().address;
  const id = transferId(0xd4);
  const escrowBefore = (await rpc().getBalance(solana().bridgeEscrow.address).send()).value;
  await deposit({ token: { kind: 'native' }, amount, bridge: 'mayan', transferId: id, destinationChainId: ETHEREUM, receiver: receiver.toLowerCase(), minAmountOut: expected });
  expect((await rpc().getBalance(solana().bridgeEscrow.address).send()).value).toBe(escrowBefore + amount);
  const done = (await relayer().waitFor(id)) as Extract<Completion, { kind: 'released' }>;
  expect(done).toMatchObject({ kind: 'released', toChainId: ETHEREUM, amount: expected, token: SOL_ETH });
  expect(await balanceOf(provider(ETHEREUM), SOL_ETH, receiver)).toBe(expected);
});

test('a minimum the route cannot meet: refunded on Solana with the refund memo', async () => {
  const amount = 100_000_000n;
  const expected = routeOutput('across', SOLANA_CHAIN_ID, ARBITRUM, USDC_SOL, amount);
  const sender = solana().wallet(0).address;
  const before = await splBalance(sender, USDC_SOL);
  const id = transferId(0xc3);
  const signature = await deposit({ amount, transferId: id, minAmountOut: expected + 1n });
  expect(await splBalance(sender, USDC_SOL)).toBe(before - amount);
  const done = (await relayer().waitFor(id)) as Extract<Completion, { kind: 'refunded' }>;
  expect(done).toMatchObject({ kind: 'refunded', fromChainId: SOLANA_CHAIN_ID, toChainId: ARBITRUM, depositTx: signature });
  expect(done.reason).toMatch(/BelowDestinationMinimum/);
  expect(await splBalance(sender, USDC_SOL)).toBe(before);
  expect(await solanaMemos(done.refundTx)).toEqual([formatRefundMemo({ transferId: id, depositSignature: signature })]);
});

test('a transfer into the escrow without a memo: paid back, refund memo with the zero transfer id', async () => {
  const usdc = solana().mint('USDC');
  const wallet = solana().wallet(1);
  const before = await splBalance(wallet.address, USDC_SOL);
  const landed = await solana().submit(wallet.signer, [getTransferCheckedInstruction({
    source: await solana().tokenAccount(wallet.address, USDC_SOL), mint: usdc.address, destination: await solana().tokenAccount(solana().bridgeEscrow.address, USDC_SOL),
    authority: wallet.signer, amount: 5_000_000n, decimals: usdc.decimals,
  })]);
  const signature = landed.decoded.signature;
  const done = (await relayer().waitFor(signature)) as Extract<Completion, { kind: 'refunded' }>;
  expect(done).toMatchObject({ kind: 'refunded', transactionId: NO_TRANSFER_ID, toChainId: 0, reason: 'the deposit has no bridge memo' });
  expect(await splBalance(wallet.address, USDC_SOL)).toBe(before);
  expect(await solanaMemos(done.refundTx)).toEqual([formatRefundMemo({ transferId: NO_TRANSFER_ID, depositSignature: signature })]);
});

test('Arbitrum USDC → Solana USDC from the service\'s quote: the escrow pays the receiver by the fee model, with the release memo', async () => {
  const wallet = sandbox.devnet.wallet(ARBITRUM, 0);
  // a fresh Solana wallet: its token account does not exist yet (the escrow creates it)
  const solanaReceiver = (await generateKeyPairSigner()).address;
  const params = new URLSearchParams({
    fromChain: String(ARBITRUM), toChain: String(SOLANA_CHAIN_ID), fromToken: 'USDC', toToken: 'USDC', fromAmount: '300000000',
    fromAddress: wallet.address, toAddress: solanaReceiver, allowBridges: 'across',
  });
  const res = await fetch(`${sandbox.url}/v1/quote?${params}`);
  const quote = (await res.json()) as { message?: string; tool: string; action: { fromAmount: string }; estimate: { toAmount: string; toAmountMin: string; approvalAddress: string }; transactionRequest: WireTransactionRequest };
  if (res.status !== 200) throw new Error(`quote: ${res.status} ${quote.message}`);
  expect(quote.tool).toBe('across');
  await approveIfNeeded(wallet, USDC_ARB, quote.estimate.approvalAddress, BigInt(quote.action.fromAmount));
  const receipt = await sendTransactionRequest(wallet, quote.transactionRequest);
  expect(receipt.status).toBe(1);
  const endpoint = new Interface(sandbox.devnet.artifacts.BridgeEndpoint.abi as string[]);
  const deposited = receipt.logs.map((l) => { try { return endpoint.parseLog(l); } catch { return null; } }).find((e) => e?.name === 'Deposited')!;
  const id = (deposited.args.transactionId as string).toLowerCase();
  const amount = deposited.args.request.amount as bigint;
  const expected = routeOutput('across', ARBITRUM, SOLANA_CHAIN_ID, USDC_ARB, amount);
  const done = (await relayer().waitFor(id)) as Extract<Completion, { kind: 'released' }>;
  expect(done).toMatchObject({ kind: 'released', fromChainId: ARBITRUM, toChainId: SOLANA_CHAIN_ID, amount: expected, token: USDC_SOL, paidTo: solanaReceiver });
  expect(expected).toBe(BigInt(quote.estimate.toAmount));
  expect(await splBalance(solanaReceiver, USDC_SOL)).toBe(expected);
  expect(await solanaMemos(done.releaseTx)).toEqual([formatReleaseMemo({ transferId: id, sourceChainId: ARBITRUM, depositId: deposited.args.depositId as bigint })]);
});

test('EVM → Solana below the destination minimum: refunded on the EVM chain, nothing paid on Solana', async () => {
  const wallet = sandbox.devnet.wallet(ARBITRUM, 1);
  const endpointAddress = sandbox.devnet.chain(ARBITRUM).deployment.bridgeEndpoint;
  const endpoint = new Contract(endpointAddress, sandbox.devnet.artifacts.BridgeEndpoint.abi as string[], wallet);
  const receiver = (await generateKeyPairSigner()).address;
  const amount = 50_000_000n;
  const expected = routeOutput('across', ARBITRUM, SOLANA_CHAIN_ID, USDC_ARB, amount);
  await approveIfNeeded(wallet, USDC_ARB, endpointAddress, amount);
  const before = await balanceOf(provider(), USDC_ARB, wallet.address);
  const id = transferId(0xe5);
  const tx = await endpoint.deposit({
    bridge: 'across', transactionId: id, token: USDC_ARB, amount, destinationChainId: SOLANA_CHAIN_ID, receiverOnDestination: wallet.address,
    receiver: wallet.address, nonEVMReceiver: '0x' + Buffer.from(getAddressEncoder().encode(receiver)).toString('hex'), destinationMinAmount: expected + 1n,
    destinationCallData: '0x', refundTo: wallet.address,
  }, { gasLimit: 500_000n });
  await mined(tx);
  const done = (await relayer().waitFor(id)) as Extract<Completion, { kind: 'refunded' }>;
  expect(done).toMatchObject({ kind: 'refunded', fromChainId: ARBITRUM, toChainId: SOLANA_CHAIN_ID, reason: `below the destination minimum: ${expected} < ${expected + 1n}` });
  expect(await balanceOf(provider(), USDC_ARB, wallet.address)).toBe(before);
  expect(await splBalance(receiver, USDC_SOL)).toBe(0n);
});
