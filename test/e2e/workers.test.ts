/**
 * Chain mode with several workers (WORKERS=2, node:cluster), the service started as `npm start` starts it: one chain
 * reader per instance — the primary reads the chain's pools (its log says so, and the initial read is logged once,
 * not once per worker) and feeds both workers, which answer the chain's state: after a swap on the devnet, every
 * answer (whichever worker takes it) is the new quote.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Contract } from 'ethers';
import { startDevnet, type Devnet } from '../../sandbox/devnet';
import { waitForReceipt } from '../../sandbox/rpc';
import { chainsFileOf } from '../../sandbox/service';
import { DEFAULT_DATA_DIR, DEFAULT_SNAPSHOT_DIR } from '../../src/config';
import { loadCatalog } from '../../src/files/catalog';
import { loadSnapshot } from '../../src/files/snapshot';
import { getAmountOut } from '../../src/core/math/constantProduct';
import { useScratchDir } from '../support/files';
import { ETH_USDC as USDC } from '../support/fixtures';
import { freePort, stopProcess } from '../support/processes';

jest.setTimeout(120_000);

const files = useScratchDir('workers-');
const ROOT = path.resolve(__dirname, '../..');
let devnet: Devnet;
let service: ChildProcess;
let url: string;
const lines: string[] = [];

beforeAll(async () => {
  devnet = await startDevnet({ chains: [1], wallets: 1, relayer: false });
  const file = files.writeJson('chains.json', chainsFileOf(devnet, { pollIntervalMs: 50, rpcTimeoutMs: 1000 }));
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  service = spawn(process.execPath, [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, WORKERS: '2', RATE_LIMITS: 'off', PORT: String(port), HOST: '127.0.0.1', CHAINS_FILE: file, LOG_LEVEL: 'info' },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [service.stdout!, service.stderr!]) stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (Date.now() > deadline) throw new Error(`the service did not start:\n${lines.join('\n')}`);
    const serving = lines.filter((l) => l.includes('serving on')).length;
    if (serving >= 2) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}, 120_000);

afterAll(async () => {
  if (service) await stopProcess(service);
  await devnet?.stop();
});

const messages = () => lines.map((l) => {
  try {
    return String((JSON.parse(l) as { msg?: string }).msg ?? '');
  } catch {
    return l;
  }
});

const PAIR = '0xB4e16d0168e52d35CaCD2c6185b44281Ec28C9Dc'; // Uniswap V2 USDC/WETH

/** USDC → WETH through the Uniswap V2 pair alone (every other pool of Ethereum holding USDC denied: any other route's
 *  first hop; denyPools takes at most 100 addresses). */
async function quote(): Promise<bigint> {
  const catalog = loadCatalog(DEFAULT_DATA_DIR);
  const usdc = catalog.findToken(1, 'USDC')!.address;
  const others = loadSnapshot(DEFAULT_SNAPSHOT_DIR, catalog).pools.filter((p) => p.chainId === 1 && p.address !== PAIR && p.tokens.includes(usdc.toLowerCase())).map((p) => p.address); // pools hold lower-case keys
  const params = new URLSearchParams({ fromChain: '1', toChain: '1', fromToken: 'USDC', toToken: 'WETH', fromAmount: '1000000000', fromAddress: devnet.wallet(1).address, denyPools: others.join(',') });
  const res = await fetch(`${url}/v1/quote?${params}`);
  const body = (await res.json()) as { estimate: { toAmount: string } };
  if (res.status !== 200) throw new Error(`quote: ${res.status} ${JSON.stringify(body)}`);
  return BigInt(body.estimate.toAmount);
}

test('the primary reads the chain once and feeds both workers', () => {
  expect(messages().filter((m) => m.includes('this process follows the chains and feeds the workers'))).toHaveLength(1);
  // the initial read of chain 1 is the primary's alone
  expect(messages().filter((m) => /^chain 1: \d+ pools read at block/.test(m))).toHaveLength(1);
});

test('after a swap on the chain, every answer is the new quote, whichever worker gives it', async () => {
  const before = await quote();
  for (let k = 0; k < 6; k++) expect(await quote()).toBe(before);
  // move the Uniswap V2 USDC/WETH pair: sell 20,000 USDC into it
  const signer = devnet.wallet(1);
  const pairAddress = PAIR;
  const pair = new Contract(pairAddress, ['function swap(uint256, uint256, address, bytes)', 'function getReserves() view returns (uint112, uint112, uint32)'], signer);
  const [r0, r1] = (await pair.getReserves()) as [bigint, bigint];
  const amountIn = 20_000n * 10n ** 6n;
  const usdc = new Contract(USDC, ['function transfer(address, uint256) returns (bool)'], signer);
  await waitForReceipt(devnet.chain(1).provider, (await usdc.transfer(pairAddress, amountIn)).hash);
  await waitForReceipt(devnet.chain(1).provider, (await pair.swap(0n, getAmountOut(amountIn, r0, r1, 3000n), signer.address, '0x')).hash);

  const deadline = Date.now() + 10_000;
  let after = before;
  while (after === before && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    after = await quote();
  }
  expect(after).not.toBe(before);
  // both workers answer it (requests are spread over them by the OS)
  for (let k = 0; k < 10; k++) expect(await quote()).toBe(after);
});
