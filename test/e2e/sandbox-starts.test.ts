/**
 * The sandbox starts again and again without hanging: SANDBOX_STARTS starts (default 30) of a one-chain devnet,
 * each of which must finish within its start timeout (startTimeoutMs; a start that does not fails with a
 * StartTimeoutError naming the chain and its phase, never hangs), and each stop must leave no anvil: the chain's
 * anvil pid is gone, and no anvil is left among this process's children. Then the timeout itself: a start cut short
 * (of the devnet, of the whole sandbox) throws the StartTimeoutError naming the chain and the phase it was in, and has
 * stopped every anvil it had started by then. And waitForReceipt, which the start path waits for its transactions
 * with, gives up at its timeout naming the transaction and the chain, also when the node never answers.
 *
 * The starts run the real start path (sandbox/devnet.ts: anvil, compile from the cache, deploy.ts seedChain with the
 * service's contracts as scripts/deploy-contracts.ts deploys them, the genuine Uniswap contracts, the pools, the
 * relayer) on Base alone, the cheapest chain to seed (22 pools, 85 seeding transactions; Ethereum takes twice as
 * long): about 2.8 CPU-seconds a start (node and anvil together), 2–3 s on an idle 2-core machine, so the 30 starts
 * take 60–90 s (3–7 s a start when other work shares the cores; SANDBOX_STARTS sets the count). The hangs this guards
 * against (a receipt waited for by block polling that began after the block holding it, with nothing mined after)
 * happened in about 1 start in 8 on a loaded machine, in the deploy path every chain shares: one chain per start
 * exercises it as often as three.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { startDevnet, StartTimeoutError, type Devnet } from '../../sandbox/devnet';
import { makeProvider, ReceiptTimeoutError, waitForReceipt } from '../../sandbox/rpc';
import { startSandbox } from '../../sandbox/service';

const STARTS = Number(process.env.SANDBOX_STARTS ?? 30);
const CHAIN = 8453;
/** Each start's limit: generous (a start takes ~2 s), since a start that ends at it fails the test. */
const START_TIMEOUT_MS = Number(process.env.SANDBOX_START_TIMEOUT_MS ?? 60_000);

/** The anvil processes that are children of this process (startAnvil spawns the binary itself), by pid. */
function anvilChildren(): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    // pid (comm) state ppid ...: comm may hold spaces, so split after its closing parenthesis
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid === process.pid && comm.startsWith('anvil')) pids.push(Number(entry));
  }
  return pids;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Records every anvil child seen while `run` runs (polled every 20 ms), for checking they are all gone after. */
async function watchingAnvils<T>(run: () => Promise<T>): Promise<{ outcome: PromiseSettledResult<T>; seen: Set<number> }> {
  const seen = new Set<number>();
  const look = () => ours().forEach((pid) => seen.add(pid));
  const timer = setInterval(look, 20);
  try {
    const outcome = await run().then((value) => ({ status: 'fulfilled' as const, value }), (reason: unknown) => ({ status: 'rejected' as const, reason }));
    look();
    return { outcome, seen };
  } finally {
    clearInterval(timer);
  }
}

/** Anvils this suite did not start (an earlier suite's in the same jest worker): not counted as left by a stop. */
let earlier = new Set<number>();
const ours = () => anvilChildren().filter((pid) => !earlier.has(pid));
beforeAll(() => {
  earlier = new Set(anvilChildren());
});

test(`the devnet starts ${STARTS} times in a row, each start finishing and each stop leaving no anvil`, async () => {
  const times: number[] = [];
  for (let k = 0; k < STARTS; k++) {
    const started = Date.now();
    let devnet: Devnet;
    try {
      devnet = await startDevnet({ chains: [CHAIN], startTimeoutMs: START_TIMEOUT_MS });
    } catch (error) {
      throw new Error(`start ${k + 1} of ${STARTS} failed after ${Date.now() - started} ms (${times.length} started before it): ${(error as Error).message}`);
    }
    times.push(Date.now() - started);
    const pids = [...devnet.chains.values()].map((c) => c.pid);
    expect(pids).toHaveLength(1);
    expect(await devnet.chain(CHAIN).provider.getBlockNumber()).toBeGreaterThan(0);
    await devnet.stop();
    expect(pids.filter(alive)).toEqual([]);
    expect(ours()).toEqual([]);
  }
  const sorted = [...times].sort((a, b) => a - b);
  const total = times.reduce((a, b) => a + b, 0);
  console.log(`${STARTS} devnet starts (chain ${CHAIN}): ${(total / 1000).toFixed(1)} s in all; ms min ${sorted[0]}, median ${sorted[Math.floor(sorted.length / 2)]}, max ${sorted.at(-1)}; in order ${times.join(' ')}`);
}, STARTS * 15_000 + START_TIMEOUT_MS + 30_000);

test('a devnet start past its timeout throws a StartTimeoutError naming the chain and its phase, and leaves no anvil', async () => {
  // 700 ms: anvil listens after ~0.1 s and the compile cache answers at once, so the cut falls in the seeding
  // (or in the compile, when the contracts changed and are compiled first)
  const { outcome, seen } = await watchingAnvils(() => startDevnet({ chains: [CHAIN], startTimeoutMs: 700 }));
  expect(outcome.status).toBe('rejected');
  const error = (outcome as PromiseRejectedResult).reason as Error;
  expect(error).toBeInstanceOf(StartTimeoutError);
  expect(error.message).toMatch(new RegExp(`did not start within 700 ms.*chain ${CHAIN} in phase "(starting anvil|waiting for the contracts to compile|connecting|seeding)`));
  expect((error as StartTimeoutError).chains.map((c) => c.chainId)).toEqual([CHAIN]);
  expect(seen.size).toBe(1); // its anvil was running, and is gone:
  expect([...seen].filter(alive)).toEqual([]);
  expect(ours()).toEqual([]);
}, 60_000);

test('a sandbox start past its timeout throws a StartTimeoutError naming the chain and its phase, and leaves no anvil', async () => {
  const { outcome, seen } = await watchingAnvils(() => startSandbox({ chains: [CHAIN], port: 0, host: '127.0.0.1', logger: pino({ level: 'silent' }), startTimeoutMs: 700 }));
  expect(outcome.status).toBe('rejected');
  const error = (outcome as PromiseRejectedResult).reason as Error;
  expect(error).toBeInstanceOf(StartTimeoutError);
  expect(error.message).toMatch(new RegExp(`chain ${CHAIN} in phase "`));
  expect(error.message).toMatch(/everything it started was stopped/);
  expect(seen.size).toBe(1);
  expect([...seen].filter(alive)).toEqual([]);
  expect(ours()).toEqual([]);
}, 60_000);

test('waitForReceipt gives up at its timeout naming the transaction and the chain, also when the node never answers', async () => {
  const hash = `0x${'ab'.repeat(32)}`;
  // a node that never answers: the request itself must not outlast the timeout
  const held: http.ServerResponse[] = [];
  const silent = http.createServer((_req, res) => void held.push(res));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const provider = makeProvider(`http://127.0.0.1:${(silent.address() as AddressInfo).port}`, CHAIN);
  try {
    const started = Date.now();
    const error = await waitForReceipt(provider, hash, { timeoutMs: 300 }).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(ReceiptTimeoutError);
    expect((error as Error).message).toBe(`transaction ${hash} on chain ${CHAIN}: no receipt after 300 ms`);
    expect(Date.now() - started).toBeLessThan(2_000);
  } finally {
    provider.destroy();
    for (const res of held) res.destroy();
    silent.closeAllConnections();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  }
  // a node that answers "no receipt" (null) every time, positional form as the existing callers use it
  const answering = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const { id } = JSON.parse(body) as { id: number };
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ jsonrpc: '2.0', id, result: null }));
    });
  });
  await new Promise<void>((resolve) => answering.listen(0, '127.0.0.1', resolve));
  const nulls = makeProvider(`http://127.0.0.1:${(answering.address() as AddressInfo).port}`, 42161);
  try {
    await expect(waitForReceipt(nulls, hash, 200, 20)).rejects.toThrow(`transaction ${hash} on chain 42161: no receipt after 200 ms`);
  } finally {
    nulls.destroy();
    answering.closeAllConnections();
    await new Promise<void>((resolve) => answering.close(() => resolve()));
  }
});
