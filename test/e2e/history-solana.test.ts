/**
 * The transfer index end to end with Solana (issue 34): on the sandbox (`npm run sandbox` with Arbitrum and Solana, in
 * process: anvil, LiteSVM behind its JSON-RPC server, the relayer both ways), a Solana → Arbitrum transfer (the
 * service's quote signed by a Solana test wallet and sent) and an Arbitrum → Solana transfer (the quote sent from an
 * EVM test wallet, released on Solana by the escrow) are found by the indexer (src/chain/transferIndexer.ts with the
 * Solana escrow's follower, src/chain/solanaTransferIndexer.ts) into a database, followed to DONE, and listed by
 * GET /v1/analytics/transfers?wallet=… of the real app, each once: the Solana one under its deposit signature, the
 * Arbitrum one under its EVM hash (its release on Solana is its receiving transaction, not a transfer of its own). The
 * indexer stopped between the two and another started resumes where the first stopped (the second transfer, made
 * while none ran, is found; nothing is repeated); a third instance finds nothing more. The sandbox's own indexer
 * (sandbox/service.ts) lists them too.
 */
import pino from 'pino';
import request from 'supertest';
import { createSolanaRpc, getBase64EncodedWireTransaction, getBase64Encoder, getTransactionDecoder, signTransaction, type Signature } from '@solana/kit';
import { approveIfNeeded, sendTransactionRequest, type WireTransactionRequest } from '../../sandbox/execute';
import { startSandbox, type Sandbox } from '../../sandbox/service';
import { SOLANA_CHAIN_ID } from '../../sandbox/solana/devnet';
import { solanaFollowersOf } from '../../src/chain/solanaTransferIndexer';
import { TransferIndexer } from '../../src/chain/transferIndexer';
import { openDatabase, type Database } from '../../src/persistence/database';
import { databaseHistory } from '../../src/persistence/transfers';
import { useContract, useTestApp } from '../support/app';

jest.setTimeout(120_000);

const ARB = 42161;
const silent = pino({ level: 'silent' });

interface Quote {
  tool: string;
  action: { fromAmount: string; fromToken: { address: string } };
  estimate: { approvalAddress: string };
  transactionRequest: WireTransactionRequest & { data: string };
}

interface Listed {
  status: string;
  substatus?: string;
  sending: { chainId: number; txHash: string };
  receiving: { chainId: number; txHash?: string };
}

let sandbox: Sandbox;
let database: Database;
beforeAll(async () => {
  // bridges release at once (bridgeTimeScale 0)
  [sandbox, database] = await Promise.all([
    startSandbox({ chains: [ARB, SOLANA_CHAIN_ID], port: 0, host: '127.0.0.1', logger: silent, bridgeTimeScale: 0 }),
    openDatabase({ dir: 'memory://' }),
  ]);
}, 120_000);
// the real app in chain mode on the sandbox's chains (Arbitrum's RPC and contracts, Solana's RPC and escrow), its
// history the database the indexers below fill
const t = useTestApp(() => ({ env: { CHAINS_FILE: sandbox.chainsFile }, dependencies: { history: databaseHistory(async () => database.db) } }));
const contract = useContract();
// after the app's afterAll (hooks run in the order declared): its chain connections close before the chains stop
afterAll(async () => {
  await database?.close();
  await sandbox?.stop();
});

/** An indexer of the sandbox's chains as the service builds one: Arbitrum's router from block 0, Solana's escrow from slot 0. */
const indexer = (holder: string) => new TransferIndexer({
  db: database.db,
  chains: t.dependencies.chains!.chains.map((c) => ({ chainId: c.chainId, provider: c.provider, router: c.router, startBlock: 0 })),
  followers: solanaFollowersOf(t.config.chains, () => t.dependencies.catalog, (chainId) => t.dependencies.routers.bridgeEscrowOf(chainId)?.owner, { startSlot: 0 }),
  tracker: t.dependencies.transfers,
  holder,
  logger: silent,
});

const rows = () => database.db.selectFrom('transfers').select(['chain_id', 'tx_hash', 'status', 'final']).orderBy('seq').execute();

/** Polls with `i` until `count` transfers are indexed, every one final. */
async function untilSettled(i: TransferIndexer, count: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await i.pollAll();
    const all = await rows();
    if (all.length >= count && all.every((r) => r.final)) return;
    if (Date.now() > deadline) throw new Error(`not settled: ${JSON.stringify(all)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function quote(query: Record<string, string>): Promise<Quote> {
  const res = await request(sandbox.url).get('/v1/quote').query(query);
  if (res.status !== 200) throw new Error(`quote: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return res.body as Quote;
}

/** The wallet's transfers as GET /v1/analytics/transfers lists them (validated against the contract). */
async function history(app: Parameters<typeof request>[0], wallet: string): Promise<Listed[]> {
  const res = await request(app).get('/v1/analytics/transfers').query({ wallet });
  contract.expectResponse('getAnalyticsTransfers', res);
  expect(res.status).toBe(200);
  return res.body.transfers as Listed[];
}

test('a Solana → Arbitrum and an Arbitrum → Solana transfer are indexed once each, to DONE, across a restart of the indexer', async () => {
  const solana = sandbox.solana!;
  const solanaWallet = solana.wallet(1);
  const evmWallet = sandbox.devnet.wallet(ARB, 1);

  // Solana → Arbitrum: the quote's transaction signed by the Solana wallet and sent as it is
  const fromSolana = await quote({
    fromChain: String(SOLANA_CHAIN_ID), toChain: String(ARB), fromToken: 'USDC', toToken: 'USDC', fromAmount: '25000000',
    fromAddress: solanaWallet.address, toAddress: evmWallet.address,
  });
  const rpc = createSolanaRpc(solana.url);
  const unsigned = getTransactionDecoder().decode(getBase64Encoder().encode(fromSolana.transactionRequest.data));
  const signed = await signTransaction([solanaWallet.signer.keyPair], unsigned);
  const signature: Signature = await rpc.sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: 'base64' }).send();

  const first = indexer('instance-a');
  await untilSettled(first, 1);
  expect((await rows()).map((r) => [Number(r.chain_id), r.tx_hash, r.status])).toEqual([[SOLANA_CHAIN_ID, signature, 'DONE']]);
  await first.stop();

  // Arbitrum → Solana, while no indexer runs: the escrow's release on Solana is the transfer's receiving transaction
  const toSolana = await quote({
    fromChain: String(ARB), toChain: String(SOLANA_CHAIN_ID), fromToken: 'USDC', toToken: 'USDC', fromAmount: '30000000',
    fromAddress: evmWallet.address, toAddress: solanaWallet.address,
  });
  await approveIfNeeded(evmWallet, toSolana.action.fromToken.address, toSolana.estimate.approvalAddress, BigInt(toSolana.action.fromAmount));
  const receipt = await sendTransactionRequest(evmWallet, toSolana.transactionRequest);
  expect(receipt.status).toBe(1);
  const hash = receipt.hash.toLowerCase();

  // a restart: the next instance resumes where the first stopped, finds the second transfer, repeats nothing
  const second = indexer('instance-b');
  await untilSettled(second, 2);
  const indexed = (await rows()).map((r) => [Number(r.chain_id), r.tx_hash, r.status]);
  expect(indexed).toEqual([[SOLANA_CHAIN_ID, signature, 'DONE'], [ARB, hash, 'DONE']]);

  // the history over HTTP, by either wallet: both transfers, once each, DONE, the Solana one by its deposit signature
  const expected = [
    { sending: { chainId: SOLANA_CHAIN_ID, txHash: signature }, receiving: { chainId: ARB }, status: 'DONE', substatus: 'COMPLETED' },
    { sending: { chainId: ARB }, receiving: { chainId: SOLANA_CHAIN_ID }, status: 'DONE', substatus: 'COMPLETED' },
  ];
  for (const wallet of [solanaWallet.address, evmWallet.address]) {
    const listed = await history(t.app, wallet);
    expect(listed).toHaveLength(2);
    expect(listed.map((x) => x.sending.txHash.toLowerCase() === hash ? 1 : 0).sort()).toEqual([0, 1]);
    const bySending = [listed.find((x) => x.sending.txHash === signature), listed.find((x) => x.sending.txHash.toLowerCase() === hash)];
    expect(bySending).toMatchObject(expected);
    // the release on Solana: the receiving transaction of the Arbitrum transfer, not a transfer of its own
    const release = bySending[1]!.receiving.txHash!;
    expect(indexed.map((r) => r[1])).not.toContain(release);
  }
  // the indexed status is /v1/status's (by the deposit signature, found in the index)
  const status = await request(t.app).get('/v1/status').query({ txHash: signature });
  expect(status.body).toMatchObject({ status: 'DONE', sending: { txHash: signature, chainId: SOLANA_CHAIN_ID } });

  // another restart: nothing new, nothing twice
  await second.stop();
  const third = indexer('instance-c');
  const resumed = await third.pollAll();
  expect(resumed.map((p) => [p.chainId, p.leased, p.saved]).sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual([[ARB, true, 0], [SOLANA_CHAIN_ID, true, 0]]);
  expect(await rows()).toHaveLength(2);
  await third.stop();

  // the sandbox's own indexer (sandbox/service.ts) has them too, through its own app
  const deadline = Date.now() + 20_000;
  let listed: Listed[] = [];
  while (Date.now() < deadline) {
    listed = await history(sandbox.url, solanaWallet.address);
    if (listed.length === 2 && listed.every((x) => x.status === 'DONE')) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  expect(listed.map((x) => x.sending.txHash.toLowerCase()).sort()).toEqual([signature.toLowerCase(), hash].sort());
});
