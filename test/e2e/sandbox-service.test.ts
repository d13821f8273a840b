/**
 * `npm run sandbox` as a user meets it: the devnet and the service in chain mode start together, a transfer goes
 * from quote to DONE through `npm run sandbox:transfer`'s runTransfer (plain HTTP + a test wallet), and stop()
 * leaves no anvil and no state file behind. With Solana's chain id the Solana chain runs too: /v1/chains advertises
 * its RPC first, a @solana/kit client built from that URL reads it, a quote from Solana carries a deposit on the
 * cluster's recent blockhash that the cluster simulates without error, `sandbox:transfer` sends one to DONE, and stop() closes
 * it (no port, no block timer).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import request from 'supertest';
import { address, createSolanaRpc, decompileTransactionMessage, getBase64Encoder, getCompiledTransactionMessageDecoder, getTransactionDecoder } from '@solana/kit';
import { PLACEHOLDER_BLOCKHASH } from '../../src/core/transactions/svmDeposit';
import { SOLANA_CHAIN_ID } from '../../sandbox/solana/devnet';
import { contractValidator } from '../support/contract';
import { startSandbox, type Sandbox } from '../../sandbox/service';
import { runTransfer } from '../../sandbox/transfer';

jest.setTimeout(90_000);

let sandbox: Sandbox | undefined;
let stateFile: string;

beforeAll(async () => {
  stateFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-state-')), 'running.json');
  // bridges wait their modelled duration × 0.002 (cctp Base → Arbitrum: 1140 s → 2.28 s)
  sandbox = await startSandbox({ chains: [42161, 8453, SOLANA_CHAIN_ID], port: 0, host: '127.0.0.1', logger: pino({ level: 'silent' }), stateFile, bridgeTimeScale: 0.002 });
  // the figure `npm run sandbox` prints (the target, under 15 s here, is a benchmark figure, not asserted)
  console.log(`sandbox ready in ${sandbox.readyMs} ms (${JSON.stringify(sandbox.timings)})`);
}, 90_000);

afterAll(async () => {
  await sandbox?.stop();
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test('the state file names the service, the chains and the wallets', () => {
  const state = JSON.parse(fs.readFileSync(stateFile, 'utf8'));
  expect(state.url).toBe(sandbox!.url);
  expect(state.chains.map((c: { chainId: number }) => c.chainId).sort((a: number, b: number) => a - b)).toEqual([8453, 42161, SOLANA_CHAIN_ID]);
  expect(state.chains.find((c: { chainId: number }) => c.chainId === SOLANA_CHAIN_ID).rpcUrl).toBe(sandbox!.solana!.url);
  expect(state.walletKeys.length).toBeGreaterThan(0);
});

test('from quote to DONE: USDC Base → Arbitrum, received exactly as quoted', async () => {
  const state = JSON.parse(fs.readFileSync(stateFile, 'utf8'));
  const lines: string[] = [];
  const started = Date.now();
  const result = await runTransfer(state, { fromChain: '8453', toChain: '42161', fromToken: 'USDC', toToken: 'USDC', fromAmount: '1000000000', allowBridges: 'cctp' }, { log: (l) => lines.push(l) });
  expect(result.status).toMatchObject({ status: 'DONE', substatus: 'COMPLETED', tool: 'cctp' });
  // the bridge held the funds for its modelled duration (scaled) before the release
  expect(result.states).toEqual(['PENDING WAIT_DESTINATION_TRANSACTION', 'DONE COMPLETED']);
  expect(Date.now() - started).toBeGreaterThanOrEqual(2280);
  expect(result.status.receiving!.amount).toBe(result.quote.estimate.toAmount);
  expect(lines[0]).toMatch(/^quote: 1000000000 USDC → \d+ USDC/);
  expect(lines.some((l) => l.startsWith('GET /v1/status: DONE COMPLETED'))).toBe(true);

  // the sandbox remembers it: the wallet's history (what the SDK's getTransactionHistory asks), once indexed
  const wallet = result.status.fromAddress!;
  const deadline = Date.now() + 15_000;
  let history: request.Response;
  for (;;) {
    history = await request(sandbox!.url).get('/v1/analytics/transfers').query({ wallet });
    const found = (history.body.transfers ?? []).find((t: { sending: { txHash: string } }) => t.sending.txHash === (result.status.sending as { txHash?: string } | undefined)?.txHash);
    if (found?.status === 'DONE') break;
    if (Date.now() > deadline) throw new Error(`not in the history: ${JSON.stringify(history.body).slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  (await contractValidator()).expectResponse('getAnalyticsTransfers', history);
});

test('/v1/chains advertises the sandbox\'s Solana RPC first, and a @solana/kit client built from it reads the chain', async () => {
  const solana = sandbox!.solana!;
  const res = await request(sandbox!.url).get('/v1/chains');
  (await contractValidator()).expectResponse('getChains', res);
  const chain = (res.body.chains as { id: number; metamask: { rpcUrls: string[] } }[]).find((c) => c.id === SOLANA_CHAIN_ID)!;
  expect(chain.metamask.rpcUrls[0]).toBe(solana.url);
  expect(chain.metamask.rpcUrls.length).toBeGreaterThan(1); // the catalog's URLs follow it
  // what a client does: its Solana RPC from the first advertised URL
  const rpc = createSolanaRpc(chain.metamask.rpcUrls[0]);
  const { value: latest } = await rpc.getLatestBlockhash().send();
  // a live blockhash of this chain (the chain moves every 400 ms: the ledger's may be newer by now)
  expect((await rpc.isBlockhashValid(latest.blockhash).send()).value).toBe(true);
  expect(latest.lastValidBlockHeight).toBeGreaterThan(0n);
  expect(await rpc.getGenesisHash().send()).toBe(solana.genesisHash);
  const usdc = solana.mint('USDC');
  const wallet = solana.wallet(0).address;
  const { value: balance } = await rpc.getTokenAccountBalance(await solana.tokenAccount(wallet, 'USDC')).send();
  expect(balance).toMatchObject({ amount: (10_000_000n * 10n ** BigInt(usdc.decimals)).toString(), decimals: usdc.decimals });
  // the account is the wallet's, for the catalog's USDC mint
  const { value: accounts } = await rpc.getTokenAccountsByOwner(address(wallet), { mint: usdc.address }, { encoding: 'jsonParsed' }).send();
  expect(accounts).toHaveLength(1);
  expect(sandbox!.chainMode.status().find((s) => s.chainId === SOLANA_CHAIN_ID)).toMatchObject({ state: 'following' });
});

test("a quote from Solana is a deposit on the cluster's recent blockhash, which the cluster runs", async () => {
  const solana = sandbox!.solana!;
  const sender = solana.wallet(0).address;
  const query = {
    fromChain: String(SOLANA_CHAIN_ID), toChain: '42161', fromToken: 'USDC', toToken: 'USDC', fromAmount: '1000000', fromAddress: sender,
    toAddress: '0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea9', svmPriorityFeeLevel: 'FAST',
  };
  const res = await request(sandbox!.url).get('/v1/quote').query(query);
  (await contractValidator()).expectResponse('getQuote', res);
  expect(res.status).toBe(200);
  const rpc = createSolanaRpc(solana.url);
  const transaction = getTransactionDecoder().decode(getBase64Encoder().encode(res.body.transactionRequest.data));
  const message = decompileTransactionMessage(getCompiledTransactionMessageDecoder().decode(transaction.messageBytes));
  // chain mode: the blockhash is the cluster's (still valid), not the embedded data's placeholder
  const blockhash = (message.lifetimeConstraint as { blockhash: string }).blockhash;
  expect(blockhash).not.toBe(PLACEHOLDER_BLOCKHASH);
  expect((await rpc.isBlockhashValid(blockhash as Parameters<typeof rpc.isBlockhashValid>[0]).send()).value).toBe(true);
  // the unsigned transaction runs as it is (signatures not verified): the transfer and the memo succeed
  const simulated = await rpc.simulateTransaction(res.body.transactionRequest.data, { encoding: 'base64', sigVerify: false }).send();
  expect(simulated.value.err).toBeNull();
  expect(Number(simulated.value.unitsConsumed)).toBeLessThanOrEqual(Number(res.body.estimate.gasCosts[0].limit));
  // never served again from the response cache: the same request later carries the cluster's newer blockhash
  const blockhashOf = (data: string) => (decompileTransactionMessage(getCompiledTransactionMessageDecoder().decode(getTransactionDecoder().decode(getBase64Encoder().encode(data)).messageBytes)).lifetimeConstraint as { blockhash: string }).blockhash;
  let later = blockhash;
  for (let k = 0; k < 50 && later === blockhash; k++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const again = await request(sandbox!.url).get('/v1/quote').query(query);
    later = blockhashOf(again.body.transactionRequest.data);
  }
  expect(later).not.toBe(blockhash);
});

test('sandbox:transfer from Solana: the quote signed by a Solana test wallet, relayed to Arbitrum, DONE by its signature', async () => {
  const state = JSON.parse(fs.readFileSync(stateFile, 'utf8'));
  const lines: string[] = [];
  const result = await runTransfer(state, { fromChain: String(SOLANA_CHAIN_ID), toChain: '42161', fromToken: 'USDC', toToken: 'USDC', fromAmount: '5000000', allowBridges: 'cctp' }, { log: (l) => lines.push(l) });
  expect(result.status).toMatchObject({ status: 'DONE', substatus: 'COMPLETED', tool: 'cctp', sending: { txHash: result.txHash, chainId: SOLANA_CHAIN_ID } });
  expect(BigInt(result.status.receiving!.amount!)).toBeGreaterThanOrEqual(BigInt(result.quote.estimate.toAmountMin));
});

test('stop() leaves no anvil, no Solana chain and no state file behind', async () => {
  const pids = [...sandbox!.devnet.chains.values()].map((c) => c.pid);
  const solana = sandbox!.solana!;
  expect(pids.every(alive)).toBe(true);
  await sandbox!.stop();
  sandbox = undefined;
  expect(pids.some(alive)).toBe(false);
  expect(fs.existsSync(stateFile)).toBe(false);
  // the Solana RPC's port is closed, and its block timer (an empty block every 400 ms) is cleared
  await expect(fetch(solana.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"getHealth"}' })).rejects.toThrow();
  const slot = solana.ledger.slot;
  await new Promise((resolve) => setTimeout(resolve, 1000));
  expect(solana.ledger.slot).toBe(slot);
});
