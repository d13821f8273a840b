/**
 * Solana transfers end to end through the service in chain mode on the sandbox (anvil Arbitrum, LiteSVM Solana, the
 * relayer both ways), as a wallet does them: the quote's transaction signed and sent as returned, then followed with
 * GET /v1/status by the sending transaction until DONE, every answer validated against the contract.
 *
 * - Solana USDC → Arbitrum USDC: the deposit's signature tracked to DONE; received ≥ toAmountMin, the receiver's
 *   balance moved by the status's receiving.amount, the sender's USDC by fromAmount;
 * - Solana USDC → Arbitrum ETH (a destination swap carried by the memo): the same;
 * - Arbitrum USDC → Solana USDC: the EVM transaction tracked to DONE, receiving the release's signature; the
 *   receiver's associated token account credited by receiving.amount; the status found by that signature too.
 */
import pino from 'pino';
import request from 'supertest';
import { Contract, Wallet } from 'ethers';
import {
  address, createSolanaRpc, getBase64EncodedWireTransaction, getBase64Encoder, getTransactionDecoder, signTransaction, type Signature,
} from '@solana/kit';
import { SOLANA_CHAIN_ID } from '../../sandbox/solana/devnet';
import { startSandbox, type Sandbox } from '../../sandbox/service';
import { contractValidator, type ContractValidator } from '../support/contract';
import { mined } from '../support/mined';

jest.setTimeout(120_000);

const ARB = 42161;
const EVM_RECEIVER = '0x552008c0f6870c2f77e5cc1d2eb9bdff03e30ea9';
let sandbox: Sandbox | undefined;
let contract: ContractValidator;

beforeAll(async () => {
  contract = await contractValidator();
  sandbox = await startSandbox({ chains: [ARB, SOLANA_CHAIN_ID], port: 0, host: '127.0.0.1', logger: pino({ level: 'silent' }), bridgeTimeScale: 0.002 });
}, 120_000);

afterAll(async () => {
  await sandbox?.stop();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function quote(query: Record<string, string>): Promise<Json> {
  const res = await request(sandbox!.url).get('/v1/quote').query(query);
  contract.expectResponse('getQuote', res);
  expect(res.status).toBe(200);
  return res.body;
}

/** GET /v1/status until a final answer (DONE, FAILED or INVALID); every answer validated. */
async function statusUntilFinal(query: Record<string, string>, timeoutMs = 60_000): Promise<Json> {
  const deadline = Date.now() + timeoutMs;
  let last: Json = {};
  while (Date.now() < deadline) {
    const res = await request(sandbox!.url).get('/v1/status').query(query);
    contract.expectResponse('getStatus', res);
    last = res.body;
    if (res.status === 200 && ['DONE', 'FAILED', 'INVALID'].includes(res.body.status)) return res.body;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no final status within ${timeoutMs} ms: ${JSON.stringify(last)}`);
}

/** Signs a quote's Solana transaction with the wallet's keypair, as it is, and sends it; the signature. */
async function signAndSend(step: Json, walletIndex: number): Promise<Signature> {
  const solana = sandbox!.solana!;
  const transaction = getTransactionDecoder().decode(getBase64Encoder().encode(step.transactionRequest.data));
  const signed = await signTransaction([solana.wallet(walletIndex).signer.keyPair], transaction);
  const rpc = createSolanaRpc(solana.url);
  return rpc.sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: 'base64' }).send();
}

async function splBalance(owner: string, symbol: string): Promise<bigint> {
  const solana = sandbox!.solana!;
  const rpc = createSolanaRpc(solana.url);
  const account = await solana.tokenAccount(owner, symbol);
  const info = await rpc.getAccountInfo(address(account), { encoding: 'base64' }).send();
  if (!info.value) return 0n;
  return BigInt((await rpc.getTokenAccountBalance(address(account)).send()).value.amount);
}

async function evmBalance(token: string, holder: string): Promise<bigint> {
  const provider = sandbox!.devnet.chain(ARB).provider;
  if (token === '0x0000000000000000000000000000000000000000') return provider.getBalance(holder);
  return (await new Contract(token, ['function balanceOf(address) view returns (uint256)'], provider).balanceOf(holder)) as bigint;
}

describe.each([
  ['USDC', 'Solana USDC → Arbitrum USDC'],
  ['ETH', 'Solana USDC → Arbitrum ETH, with the destination swap the memo carries'],
])('%s: %s', (toToken) => {
  test('signed and sent as returned, tracked by its signature to DONE, received at least toAmountMin', async () => {
    const walletIndex = toToken === 'USDC' ? 2 : 3;
    const sender = sandbox!.solana!.wallet(walletIndex).address;
    const step = await quote({
      fromChain: String(SOLANA_CHAIN_ID), toChain: String(ARB), fromToken: 'USDC', toToken, fromAmount: '25000000', fromAddress: sender, toAddress: EVM_RECEIVER,
    });
    if (toToken === 'ETH') expect(step.includedSteps.map((s: Json) => s.type)).toEqual(expect.arrayContaining(['cross', 'swap']));
    const toTokenAddress = step.action.toToken.address;
    const [solBefore, evmBefore] = [await splBalance(sender, 'USDC'), await evmBalance(toTokenAddress, EVM_RECEIVER)];

    const signature = await signAndSend(step, walletIndex);
    const status = await statusUntilFinal({ txHash: signature, fromChain: String(SOLANA_CHAIN_ID), toChain: String(ARB), bridge: step.tool });
    expect(status).toMatchObject({ status: 'DONE', substatus: 'COMPLETED', sending: { txHash: signature, chainId: SOLANA_CHAIN_ID }, receiving: { chainId: ARB } });
    const received = BigInt(status.receiving.amount);
    expect(received).toBeGreaterThanOrEqual(BigInt(step.estimate.toAmountMin));
    expect(status.receiving.token.address.toLowerCase()).toBe(toTokenAddress.toLowerCase());
    expect(await evmBalance(toTokenAddress, EVM_RECEIVER)).toBe(evmBefore + received);
    expect(solBefore - (await splBalance(sender, 'USDC'))).toBe(BigInt(step.action.fromAmount));
  });
});

test('Arbitrum USDC → Solana USDC: the EVM transaction tracked to DONE, the release found by its signature too', async () => {
  const solana = sandbox!.solana!;
  const receiver = solana.wallet(1).address;
  const wallet = new Wallet(sandbox!.devnet.walletKeys[1], sandbox!.devnet.chain(ARB).provider);
  const step = await quote({ fromChain: String(ARB), toChain: String(SOLANA_CHAIN_ID), fromToken: 'USDC', toToken: 'USDC', fromAmount: '30000000', fromAddress: wallet.address, toAddress: receiver });
  const before = await splBalance(receiver, 'USDC');
  const usdc = new Contract(step.action.fromToken.address, ['function approve(address,uint256) returns (bool)'], wallet);
  await mined(usdc.approve(step.estimate.approvalAddress, BigInt(step.action.fromAmount)));
  const tx = step.transactionRequest;
  const sent = await wallet.sendTransaction({ to: tx.to, data: tx.data, value: BigInt(tx.value), gasLimit: BigInt(tx.gasLimit) });
  const receipt = await mined(sent);
  expect(receipt?.status).toBe(1);

  const status = await statusUntilFinal({ txHash: sent.hash, fromChain: String(ARB), toChain: String(SOLANA_CHAIN_ID), bridge: step.tool });
  expect(status).toMatchObject({ status: 'DONE', substatus: 'COMPLETED', sending: { chainId: ARB }, receiving: { chainId: SOLANA_CHAIN_ID } });
  const received = BigInt(status.receiving.amount);
  expect(received).toBeGreaterThanOrEqual(BigInt(step.estimate.toAmountMin));
  expect(await splBalance(receiver, 'USDC')).toBe(before + received);
  // the receiving transaction is the release's Solana signature: the transfer is found by it as well
  const byRelease = await statusUntilFinal({ txHash: status.receiving.txHash });
  expect(byRelease).toMatchObject({ status: 'DONE', receiving: { txHash: status.receiving.txHash } });
});
