/**
 * Chain mode's Solana entries (src/chain/solanaNode.ts, through startChainMode): checked at start with getGenesisHash
 * and getHealth against a small JSON-RPC server standing in for a node; a wrong genesis hash stops the start-up as a
 * wrong eth_chainId does; a node down at start is logged, the service starts, and the node is asked again until it
 * answers; once it answers, its latest blockhash and recent prioritization fees are read every poll interval and
 * given to the transactions sent from Solana (deps.svmCluster); stop() leaves no timer behind.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startChainMode, ChainStartError, type ChainMode } from '../../../src/chain/mode';
import { SOLANA_MAINNET_GENESIS_HASH } from '../../../src/core/chains/solana/cluster';
import { captureLogger } from '../../support/logCapture';
import { makeTestApp } from '../../support/app';
import { useScratchDir } from '../../support/files';
import { freePort } from '../../support/processes';

const SOLANA = 1151111081099710;
const BLOCKHASH = 'EkSnNWid2cvwEVnVx9aBqawnmiCNiDgp3gUdkDPTKN1N';
const FEES = [0, 5000, 20000];
const files = useScratchDir('solana-node-');
const servers: http.Server[] = [];
const modes: ChainMode[] = [];

/**
 * A node answering getGenesisHash with `genesisHash`, getHealth with "ok", getLatestBlockhash and
 * getRecentPrioritizationFees with BLOCKHASH and FEES; the methods asked are kept.
 */
async function fakeNode(genesisHash: string, port = 0): Promise<{ url: string; asked: string[] }> {
  const asked: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const { id, method } = JSON.parse(body) as { id: number; method: string };
      asked.push(method);
      const result = method === 'getGenesisHash' ? genesisHash
        : method === 'getHealth' ? 'ok'
        : method === 'getLatestBlockhash' ? { context: { slot: 7 }, value: { blockhash: BLOCKHASH, lastValidBlockHeight: 157 } }
        : method === 'getRecentPrioritizationFees' ? FEES.map((prioritizationFee, slot) => ({ slot, prioritizationFee }))
        : null;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ jsonrpc: '2.0', id, result }));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked };
}

async function start(rpcUrl: string) {
  const file = files.writeJson(`chains-${Math.random()}.json`, { chains: [{ chainId: SOLANA, rpcUrl }], pollIntervalMs: 20, rpcTimeoutMs: 500 });
  const app = await makeTestApp({ env: { CHAINS_FILE: file } });
  const log = captureLogger('info');
  return { app, log, mode: () => startChainMode(app.dependencies, app.config, log.logger).then((m) => (modes.push(m), m)) };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

afterAll(async () => {
  for (const m of modes) await m.stop();
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

test('a Solana RPC of the right chain: checked with getGenesisHash and getHealth, no eth_chainId, no EVM connection', async () => {
  const node = await fakeNode(SOLANA_MAINNET_GENESIS_HASH);
  const { app, mode } = await start(node.url);
  expect(app.dependencies.chains).toBeUndefined();
  const started = await mode();
  expect(started.status()).toEqual([expect.objectContaining({ chainId: SOLANA, state: 'following' })]);
  expect(node.asked.slice(0, 2)).toEqual(['getGenesisHash', 'getHealth']);
  expect(node.asked).not.toContain('eth_chainId');
  // then the cluster's blockhash and fees, as the transactions sent from Solana take them
  expect(app.dependencies.svmCluster(SOLANA)).toEqual({ blockhash: BLOCKHASH, lastValidBlockHeight: 157n, recentPrioritizationFees: [0n, 5000n, 20000n] });
  const reads = node.asked.filter((m) => m === 'getLatestBlockhash').length;
  await sleep(100);
  expect(node.asked.filter((m) => m === 'getLatestBlockhash').length).toBeGreaterThan(reads); // read again every poll interval
  await started.stop();
  const stopped = node.asked.length;
  await sleep(100);
  expect(node.asked.length).toBe(stopped); // stop() ends the reads
});

test('a Solana RPC of another cluster stops the start-up, naming the chain and both hashes', async () => {
  const node = await fakeNode('EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG'); // devnet's
  const { mode } = await start(node.url);
  await expect(mode()).rejects.toThrow(ChainStartError);
  await expect(mode()).rejects.toThrow(`chain ${SOLANA}: the RPC answers genesis hash EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG, not ${SOLANA_MAINNET_GENESIS_HASH}`);
});

test('a Solana RPC down at start: the service starts, logs it, asks again until it answers, and stop() ends the retries', async () => {
  const port = await freePort(); // nothing listens there yet
  const { mode, log } = await start(`http://127.0.0.1:${port}`);
  const started = await mode();
  const [solana] = started.status();
  expect(solana).toMatchObject({ chainId: SOLANA, state: 'connecting' });
  expect(solana.lastError).toBeDefined();
  const warnings = log.records().filter((r) => r.level === 40).map((r) => String(r.msg));
  expect(warnings).toEqual([expect.stringMatching(new RegExp(`^chain ${SOLANA} \\(http://127.0.0.1:${port}\\) does not answer`))]);
  await sleep(150);
  // retried, the failure logged once
  expect(log.records().filter((r) => r.level === 40)).toHaveLength(1);
  const node = await fakeNode(SOLANA_MAINNET_GENESIS_HASH, port);
  for (let k = 0; k < 100 && started.status()[0].state !== 'following'; k++) await sleep(20);
  expect(started.status()[0]).toMatchObject({ chainId: SOLANA, state: 'following' });
  expect(log.records().some((r) => r.level === 30 && String(r.msg).startsWith(`chain ${SOLANA} (http://127.0.0.1:${port}) answers now`))).toBe(true);
  await sleep(100);
  // answered: not checked again, only read
  expect(node.asked.filter((m) => m === 'getGenesisHash')).toHaveLength(1);
  await started.stop();
});

test('stop() while a Solana RPC is still down clears its retry', async () => {
  const port = await freePort();
  const { mode } = await start(`http://127.0.0.1:${port}`);
  const started = await mode();
  await started.stop();
  const node = await fakeNode(SOLANA_MAINNET_GENESIS_HASH, port);
  await sleep(150);
  expect(node.asked).toEqual([]);
  expect(started.status()[0].state).toBe('connecting');
});
