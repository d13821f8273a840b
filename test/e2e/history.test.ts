/**
 * The transfer index end to end (issue 34): transfers executed on the sandbox devnet (a same-chain swap, a bridge
 * transfer, a failed one) are found by the indexer (src/chain/transferIndexer.ts) into the database with the states
 * GET /v1/status gives, followed to DONE; a reorganisation (evm_revert) removes the transfer of the replaced blocks
 * and the new blocks' transfer appears; a restarted indexer neither loses nor duplicates a row; two instances on one
 * database index each chain once.
 */
import { Transaction } from 'ethers';
import pino from 'pino';
import request from 'supertest';
import { startDevnet, type Devnet } from '../../sandbox/devnet';
import { approveIfNeeded, sendTransactionRequest, type WireTransactionRequest } from '../../sandbox/execute';
import { chainsFileOf } from '../../sandbox/service';
import { TransferIndexer, type IndexedChain } from '../../src/chain/transferIndexer';
import { openDatabase, type Database } from '../../src/persistence/database';
import { databaseHistory, listTransfers } from '../../src/persistence/transfers';
import { useContract, useTestApp } from '../support/app';
import { useScratchDir } from '../support/files';

jest.setTimeout(120_000);

const ARBITRUM = 42161;
const BASE = 8453;
const silent = pino({ level: 'silent' });

interface Quote {
  id: string;
  tool: string;
  action: { fromChainId: number; fromAmount: string; fromToken: { address: string } };
  estimate: { approvalAddress: string; toAmount: string };
  transactionRequest: WireTransactionRequest;
}

let devnet: Devnet;
let database: Database;
beforeAll(async () => {
  [devnet, database] = await Promise.all([startDevnet({ chains: [ARBITRUM, BASE], wallets: 2 }), openDatabase({ dir: 'memory://' })]);
}, 120_000);
const files = useScratchDir('history-e2e-');
const t = useTestApp(() => ({
  env: { CHAINS_FILE: files.writeJson('chains.json', chainsFileOf(devnet)) },
  dependencies: { history: databaseHistory(async () => database.db) },
}));
const contract = useContract();
afterAll(async () => {
  await database?.close();
  await devnet?.stop();
});

const indexedChains = (): IndexedChain[] => t.dependencies.chains!.chains.map((c) => ({ chainId: c.chainId, provider: c.provider, router: c.router, startBlock: 0 }));
const indexer = (holder: string, clock?: () => number) =>
  new TransferIndexer({ db: database.db, chains: indexedChains(), tracker: t.dependencies.transfers, holder, logger: silent, ...(clock ? { clock } : {}) });

async function execute(query: Record<string, string>, walletIndex = 0): Promise<{ quote: Quote; hash: string; status: number }> {
  const wallet = devnet.wallet(Number(query.fromChain), walletIndex);
  const res = await request(t.app).get('/v1/quote').query({ ...query, fromAddress: wallet.address });
  if (res.status !== 200) throw new Error(`quote: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  const quote = res.body as Quote;
  await approveIfNeeded(wallet, quote.action.fromToken.address, quote.estimate.approvalAddress, BigInt(quote.action.fromAmount));
  const receipt = await sendTransactionRequest(wallet, quote.transactionRequest);
  return { quote, hash: receipt.hash.toLowerCase(), status: receipt.status ?? 0 };
}

const withoutPrices = (value: unknown): unknown => JSON.parse(JSON.stringify(value, (key, v: unknown) => (key === 'priceUSD' || key === 'amountUSD' ? undefined : v)));

const rows = () => database.db.selectFrom('transfers').select(['chain_id', 'tx_hash', 'status', 'substatus', 'integrator', 'final']).orderBy('chain_id').orderBy('tx_hash').execute();

/** Polls with `i` until every indexed transfer is final. */
async function untilSettled(i: TransferIndexer, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await i.pollAll();
    const all = await rows();
    if (all.length > 0 && all.every((r) => r.final)) return;
    if (Date.now() > deadline) throw new Error(`not settled: ${JSON.stringify(all)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test('transfers are indexed with the states /v1/status gives, reorganisations undo them, restarts and a second instance neither lose nor repeat one', async () => {
  const wallet = devnet.wallet(ARBITRUM, 0).address;
  const swap = await execute({ fromChain: String(ARBITRUM), toChain: String(ARBITRUM), fromToken: 'USDC', toToken: 'WETH', fromAmount: '250000000', integrator: 'history-dapp' });
  devnet.relayer!.stop();
  const bridge = await execute({ fromChain: String(BASE), toChain: String(ARBITRUM), fromToken: 'USDC', toToken: 'USDC', fromAmount: '1000000000', integrator: 'history-dapp' });
  expect([swap.status, bridge.status]).toEqual([1, 1]);

  // first poll: both found; the bridge transfer waits for its release
  const first = indexer('instance-a');
  const polls = await first.pollAll();
  expect(polls.map((p) => [p.chainId, p.leased, p.saved]).sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual([[BASE, true, 1], [ARBITRUM, true, 1]]);
  const pending = await listTransfers(database.db, { wallet }, { limit: 10 });
  // (two chains' block times: the order between them is theirs)
  expect(pending.transfers.map((s) => [s.sending?.txHash?.toLowerCase(), s.status, s.substatus]).sort()).toEqual([
    [bridge.hash, 'PENDING', 'WAIT_DESTINATION_TRANSACTION'],
    [swap.hash, 'DONE', 'COMPLETED'],
  ].sort());
  // the index holds what /v1/status answers
  const live = await request(t.app).get('/v1/status').query({ txHash: swap.hash });
  const indexedSwap = pending.transfers.find((s) => s.sending?.txHash?.toLowerCase() === swap.hash)!;
  expect(live.body).toMatchObject({ status: 'DONE', transactionId: indexedSwap.transactionId, tool: indexedSwap.tool, sending: { amount: String(indexedSwap.sending!.amount) } });

  // the relayer releases: the next polls follow the transfer to DONE
  await devnet.relayer!.start();
  await untilSettled(first);
  expect((await rows()).map((r) => [Number(r.chain_id), r.tx_hash, r.status, r.integrator])).toEqual([
    [BASE, bridge.hash, 'DONE', 'history-dapp'],
    [ARBITRUM, swap.hash, 'DONE', 'history-dapp'],
  ]);

  // a reorganisation: a transfer in blocks that the chain then replaces is forgotten; the new blocks' one appears
  const arbitrum = devnet.chain(ARBITRUM).provider;
  const checkpoint = await arbitrum.send('evm_snapshot', []);
  const orphan = await execute({ fromChain: String(ARBITRUM), toChain: String(ARBITRUM), fromToken: 'USDC', toToken: 'WETH', fromAmount: '100000000' });
  await first.pollAll();
  expect((await rows()).map((r) => r.tx_hash)).toContain(orphan.hash);
  await arbitrum.send('evm_revert', [checkpoint]);
  const replacement = await execute({ fromChain: String(ARBITRUM), toChain: String(ARBITRUM), fromToken: 'USDC', toToken: 'WETH', fromAmount: '120000000' }, 1);
  await arbitrum.send('anvil_mine', ['0x3']);
  const afterReorg = await first.pollAll();
  expect(afterReorg.find((p) => p.chainId === ARBITRUM)).toMatchObject({ leased: true, forgotten: 2 }); // the orphan, and the swap of the blocks read again
  const hashes = (await rows()).map((r) => r.tx_hash);
  expect(hashes).not.toContain(orphan.hash);
  expect(hashes).toEqual(expect.arrayContaining([swap.hash, bridge.hash, replacement.hash]));
  expect(hashes).toHaveLength(3);

  // the history over HTTP: the wallet's transfers as indexed, each as /v1/status answers it
  const history = await request(t.app).get('/v1/analytics/transfers').query({ wallet, integrator: 'history-dapp' });
  contract.expectResponse('getAnalyticsTransfers', history);
  expect(history.body.transfers.map((x: { sending: { txHash: string } }) => x.sending.txHash.toLowerCase()).sort()).toEqual([swap.hash, bridge.hash].sort());
  for (const transfer of history.body.transfers) {
    const direct = await request(t.app).get('/v1/status').query({ txHash: transfer.sending.txHash });
    // the same answer, but for USD values: the index keeps the prices of when it read the transfer
    expect(withoutPrices(transfer)).toEqual(withoutPrices(direct.body));
  }

  // a restart: the next instance starts where the first stopped; nothing lost, nothing twice
  await first.stop();
  const second = indexer('instance-b');
  const resumed = await second.pollAll();
  expect(resumed.every((p) => p.leased && p.saved === 0)).toBe(true);
  expect(await rows()).toHaveLength(3);

  // two instances at once: each chain has one writer
  const third = indexer('instance-c');
  const [b, c] = await Promise.all([second.pollAll(), third.pollAll()]);
  for (const chainId of [ARBITRUM, BASE]) {
    const leased = [b, c].map((polls) => polls.find((p) => p.chainId === chainId)?.leased);
    expect(leased.filter(Boolean)).toHaveLength(1);
  }
  expect(await rows()).toHaveLength(3);
  await Promise.all([second.stop(), third.stop()]);

  // a reorganisation whose new blocks hold the same transaction (re-included, in another block): the transfer is
  // forgotten with its old block and found again in the new one, once
  const fourth = indexer('instance-d');
  const snapshot = await arbitrum.send('evm_snapshot', []);
  const moved = await execute({ fromChain: String(ARBITRUM), toChain: String(ARBITRUM), fromToken: 'ETH', toToken: 'USDC', fromAmount: '10000000000000000' }, 1);
  await fourth.pollAll();
  const blockOf = async (hash: string) => (await database.db.selectFrom('transfers').select('block_hash').where('tx_hash', '=', hash).executeTakeFirst())?.block_hash;
  const oldBlock = await blockOf(moved.hash);
  expect(oldBlock).toBeDefined();
  const signed = Transaction.from((await arbitrum.getTransaction(moved.hash))!).serialized;
  await arbitrum.send('evm_revert', [snapshot]);
  await arbitrum.send('anvil_mine', ['0x2']); // the new chain's blocks differ from the replaced ones
  await arbitrum.send('eth_sendRawTransaction', [signed]);
  await arbitrum.send('anvil_mine', ['0x1']);
  const again = await fourth.pollAll();
  expect(again.find((p) => p.chainId === ARBITRUM)?.forgotten).toBeGreaterThanOrEqual(1);
  const found = (await rows()).filter((r) => r.tx_hash === moved.hash);
  expect(found).toHaveLength(1);
  expect(found[0]).toMatchObject({ status: 'DONE', final: true });
  const newBlock = await blockOf(moved.hash);
  expect(newBlock).not.toBe(oldBlock);
  expect(newBlock).toBe((await arbitrum.getTransactionReceipt(moved.hash))!.blockHash);
  await fourth.stop();
});
