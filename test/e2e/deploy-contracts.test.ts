/**
 * `scripts/deploy-contracts.ts` against a chain of the sandbox (anvil, with its tokens and genuine Uniswap pools): it
 * deploys the service's router, fee collector and bridge endpoint with a funded key, initialises them and writes the
 * chains file; run again it creates nothing. The service in chain mode on that file builds transactions that call the
 * new router, and one executes there: the receiver gets exactly the quoted amount. An exchange router routers.json
 * marks deployable (SushiSwap V3's) that the chain lacks is deployed and named in the chains file, and the quotes
 * through that exchange's pools call it and execute exactly.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { Contract, Wallet } from 'ethers';
import { uniswapInterface } from '../../sandbox/uniswap';
import { SUSHISWAP_V3 } from '../../sandbox/v3Forks';
import { startDevnet, type Devnet } from '../../sandbox/devnet';
import { makeTestApp, type TestApp } from '../support/app';
import { contractValidator } from '../support/contract';
import { useScratchDir } from '../support/files';
import { mined } from '../support/mined';

jest.setTimeout(180_000);

const ARB = 42161;
const ROOT = path.resolve(__dirname, '../..');
const files = useScratchDir('deploy-contracts-');
let devnet: Devnet;
let app: TestApp | undefined;

beforeAll(async () => {
  devnet = await startDevnet({ chains: [ARB], wallets: 2, relayer: false });
}, 120_000);

afterAll(async () => {
  app?.dependencies.chains?.close();
  await devnet?.stop();
});

async function deploy(chainsFile: string): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'scripts/deploy-contracts.ts', '--rpc', devnet.chain(ARB).url, '--chains-file', chainsFile], {
    cwd: ROOT, env: { ...process.env, DEPLOYER_KEY: devnet.walletKeys[0] },
  });
  return stdout;
}

/** The chains file the script writes (a path in the suite's scratch folder, first written empty). */
let chainsFile: string;

test('deploys, initialises, writes the chains file; a second run creates nothing', async () => {
  chainsFile = files.writeJson('chains.json', { chains: [] });
  const first = await deploy(chainsFile);
  expect(first).toMatch(/created: bridgeEndpoint, router, feeCollector/);
  const entry = (JSON.parse(fs.readFileSync(chainsFile, 'utf8')) as { chains: { chainId: number; router: string; feeCollector: string; bridgeEndpoint: string }[] }).chains[0];
  expect(entry).toMatchObject({ chainId: ARB, rpcUrl: devnet.chain(ARB).url });
  const provider = devnet.chain(ARB).provider;
  const deployer = new Wallet(devnet.walletKeys[0]).address;
  for (const address of [entry.router, entry.feeCollector, entry.bridgeEndpoint]) {
    expect(await provider.getCode(address)).not.toBe('0x');
    expect(await new Contract(address, ['function admin() view returns (address)'], provider).admin()).toBe(deployer);
  }
  const nonce = await provider.getTransactionCount(deployer);
  const second = await deploy(chainsFile);
  expect(second).toMatch(/nothing new/);
  expect(await provider.getTransactionCount(deployer)).toBe(nonce);
  expect((JSON.parse(fs.readFileSync(chainsFile, 'utf8')) as { chains: unknown[] }).chains).toEqual([entry]);
});

test('the service on that chains file calls the new router, and a quote executes there exactly', async () => {
  const entry = (JSON.parse(fs.readFileSync(chainsFile, 'utf8')) as { chains: { router: string }[] }).chains[0];
  app = await makeTestApp({ env: { CHAINS_FILE: chainsFile } });
  const wallet = devnet.wallet(ARB, 1);
  const res = await request(app.app).get('/v1/quote').query({ fromChain: String(ARB), toChain: String(ARB), fromToken: 'USDC', toToken: 'WETH', fromAmount: '1000000000', fromAddress: wallet.address, allowExchanges: 'uniswap' });
  (await contractValidator()).expectResponse('getQuote', res);
  expect(res.status).toBe(200);
  const tx = res.body.transactionRequest;
  expect(tx.to).toBe(entry.router);
  expect(res.body.estimate.approvalAddress).toBe(entry.router);
  const usdc = new Contract(res.body.action.fromToken.address, ['function approve(address, uint256) returns (bool)'], wallet);
  await mined(usdc.approve(entry.router, BigInt(res.body.action.fromAmount)));
  const weth = new Contract(res.body.action.toToken.address, ['function balanceOf(address) view returns (uint256)'], wallet.provider);
  const before = (await weth.balanceOf(wallet.address)) as bigint;
  const receipt = await mined(wallet.sendTransaction({ to: tx.to, data: tx.data, value: BigInt(tx.value), gasLimit: BigInt(tx.gasLimit) }));
  expect(receipt?.status).toBe(1);
  expect(((await weth.balanceOf(wallet.address)) as bigint) - before).toBe(BigInt(res.body.estimate.toAmount));
});

test('an exchange router the chain lacks that routers.json marks deployable (SushiSwap V3\'s) is deployed, named in the chains file, and called by the quotes', async () => {
  const provider = devnet.chain(ARB).provider;
  const label = devnet.data.routers.exchangeRouters.find((r) => r.exchange === 'sushiswap' && r.kind === 'concentrated')!;
  expect(label.deployable).toBe('uniswapV3SwapRouter');
  // as on a real chain: nothing at routers.json's label address
  await provider.send('anvil_setCode', [label.address, '0x']);
  const out = await deploy(chainsFile);
  expect(out).toMatch(/created: sushiswap:concentrated/);
  const read = () => (JSON.parse(fs.readFileSync(chainsFile, 'utf8')) as { chains: { router: string; exchangeRouters?: Record<string, string> }[] }).chains[0];
  const entry = read();
  const address = entry.exchangeRouters!['sushiswap:concentrated'];
  expect(address).not.toBe(label.address);
  const swapRouter = new Contract(address, uniswapInterface('SwapRouter'), provider);
  expect(await swapRouter.factory()).toBe(SUSHISWAP_V3.factory);
  expect(await swapRouter.WETH9()).toBe(devnet.data.tokens.find((t) => t.chainId === ARB && t.symbol === 'WETH')!.address);
  expect(await deploy(chainsFile)).toMatch(/nothing new/);
  expect(read()).toEqual(entry);

  const sushiApp = await makeTestApp({ env: { CHAINS_FILE: chainsFile } });
  try {
    const pool = sushiApp.dependencies.graph.pools.find((p) => p.id === '42161:sushiswap:concentrated:WETH-USDC:3000')!;
    // every other pool holding USDC: any other route's first hop (the request's denyPools takes at most 100 addresses,
    // fewer than Arbitrum's pools)
    const usdcAddress = pool.tokens.find((t) => t !== devnet.data.tokens.find((x) => x.chainId === ARB && x.symbol === 'WETH')!.address.toLowerCase())!; // lower-case keys
    const others = sushiApp.dependencies.graph.pools.filter((p) => p.chainId === ARB && p.id !== pool.id && p.tokens.includes(usdcAddress));
    const wallet = devnet.wallet(ARB, 1);
    const res = await request(sushiApp.app).get('/v1/quote').query({
      fromChain: String(ARB), toChain: String(ARB), fromToken: 'USDC', toToken: 'WETH', fromAmount: '2000000000', fromAddress: wallet.address,
      denyPools: others.map((p) => p.address).join(','),
    });
    (await contractValidator()).expectResponse('getQuote', res);
    expect(res.status).toBe(200);
    expect(res.body.includedSteps.find((s: { type: string }) => s.type === 'swap').estimate.data.pool).toBe(pool.address);
    const tx = res.body.transactionRequest;
    // the swap's call goes to the router the chains file names, not to routers.json's empty address
    expect(tx.data.toLowerCase()).toContain(address.slice(2).toLowerCase());
    expect(tx.data.toLowerCase()).not.toContain(label.address.slice(2).toLowerCase());
    const usdc = new Contract(res.body.action.fromToken.address, ['function approve(address, uint256) returns (bool)'], wallet);
    await mined(usdc.approve(tx.to, BigInt(res.body.action.fromAmount)));
    const weth = new Contract(res.body.action.toToken.address, ['function balanceOf(address) view returns (uint256)'], provider);
    const before = (await weth.balanceOf(wallet.address)) as bigint;
    const receipt = await mined(wallet.sendTransaction({ to: tx.to, data: tx.data, value: BigInt(tx.value), gasLimit: BigInt(tx.gasLimit) }));
    expect(receipt?.status).toBe(1);
    expect(((await weth.balanceOf(wallet.address)) as bigint) - before).toBe(BigInt(res.body.estimate.toAmount));
  } finally {
    sushiApp.dependencies.chains?.close();
  }
});
