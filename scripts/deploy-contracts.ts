/**
 * Deploys the service's own contracts — the router, the fee collector and the bridge endpoint of `contracts/router/`,
 * compiled with solc-js as the sandbox compiles them — to an EVM chain given its RPC URL and a funded key, and writes
 * the chains file chain mode reads (`CHAINS_FILE`: the entry's `router`, `feeCollector`, `bridgeEndpoint`), so that the
 * service's transactions call that deployment:
 *
 *   npx tsx scripts/deploy-contracts.ts --rpc <url> --key <hex private key> --chains-file chains.json [--relayer 0x…]
 *   (or DEPLOYER_KEY in the environment instead of --key)
 *
 * Idempotent: a contract the chains file already names, with code on the chain and initialised, is kept; only what is
 * missing is deployed and initialised, and the bridge endpoint's routes (the snapshot's bridge routes from and to the
 * chain, with their fee models) are set when it is new. Each contract is created with CREATE from the key's account
 * and initialised by it (the admin); the relayer (default: the same account) releases and refunds bridge transfers.
 *
 * Exchange routers routers.json marks `deployable` (SushiSwap V3's: Uniswap's SwapRouter built for its factory, since
 * SushiSwap publishes none) are deployed too where the chain has no contract at routers.json's address nor at the
 * one the chains file names, and the entry's `exchangeRouters` names them (the quotes then call them there).
 */
import fs from 'node:fs';
import { Contract, ContractFactory, getAddress, JsonRpcProvider, NonceManager, Wallet, type Signer } from 'ethers';
import { compileContracts, type Artifacts } from '../sandbox/compile';
import { loadSandboxData, wrappedNativeOf, type SandboxData } from '../sandbox/data';
import { uniswapArtifact } from '../sandbox/uniswap';
import { exchangeRouterOn } from '../src/core/catalog/routers';
import { endpointRoutes, routeConfig } from '../sandbox/bridgeRoutes';
import { runScriptAsync } from './catalog/format';

export interface ServiceDeployment {
  readonly router: string;
  readonly feeCollector: string;
  readonly bridgeEndpoint: string;
  /** The contracts this run created (none when everything was there). */
  readonly created: readonly ('router' | 'feeCollector' | 'bridgeEndpoint')[];
}

const ADMIN_OF = ['function admin() view returns (address)'];

/** Deploys what `existing` lacks on the signer's chain and initialises it (see the module comment). */
export async function deployServiceContracts(o: {
  readonly signer: Signer;
  readonly chainId: number;
  readonly artifacts: Artifacts;
  readonly data: SandboxData;
  readonly relayer?: string;
  readonly existing?: Partial<Pick<ServiceDeployment, 'router' | 'feeCollector' | 'bridgeEndpoint'>>;
  readonly log?: (line: string) => void;
}): Promise<ServiceDeployment> {
  const provider = o.signer.provider!;
  const admin = await o.signer.getAddress();
  const relayer = o.relayer ?? admin;
  const log = o.log ?? (() => undefined);
  const created: ServiceDeployment['created'][number][] = [];

  /** The contract at `address` when it has code and an admin (initialised), else a new one. */
  const ensure = async (key: 'router' | 'feeCollector' | 'bridgeEndpoint', name: string): Promise<{ address: string; fresh: boolean }> => {
    const address = o.existing?.[key];
    if (address && (await provider.getCode(address)) !== '0x') {
      const current = (await new Contract(address, ADMIN_OF, provider).admin()) as string;
      if (BigInt(current) !== 0n) {
        log(`${name} at ${address}: deployed and initialised, kept`);
        return { address: getAddress(address), fresh: false };
      }
    }
    const artifact = o.artifacts[name];
    const contract = await new ContractFactory(artifact.abi as never, artifact.bytecode, o.signer).deploy();
    await contract.waitForDeployment();
    const deployed = getAddress(await contract.getAddress());
    created.push(key);
    log(`${name} deployed at ${deployed}`);
    return { address: deployed, fresh: true };
  };

  const endpoint = await ensure('bridgeEndpoint', 'BridgeEndpoint');
  const router = await ensure('router', 'Router');
  const feeCollector = await ensure('feeCollector', 'FeeCollector');
  const send = async (address: string, name: string, fn: string, args: unknown[]) => {
    const c = new Contract(address, o.artifacts[name].abi as never, o.signer);
    await (await c.getFunction(fn)(...args)).wait();
  };
  if (endpoint.fresh) {
    await send(endpoint.address, 'BridgeEndpoint', 'initialize', [admin, relayer]);
    const configs = endpointRoutes(o.data, o.chainId).map((r) => routeConfig(r, o.data));
    for (let k = 0; k < configs.length; k += 60) await send(endpoint.address, 'BridgeEndpoint', 'setRoutes', [configs.slice(k, k + 60)]);
    log(`BridgeEndpoint: ${configs.length} bridge routes set`);
  }
  if (router.fresh) await send(router.address, 'Router', 'initialize', [admin, endpoint.address]);
  if (feeCollector.fresh) await send(feeCollector.address, 'FeeCollector', 'initialize', [admin, admin]);
  return { router: router.address, feeCollector: feeCollector.address, bridgeEndpoint: endpoint.address, created };
}

/**
 * The exchange routers routers.json marks `deployable` on the signer's chain (module comment): each kept where
 * routers.json's address or `existing`'s has a contract, deployed otherwise. Returns the chain's own addresses
 * (`<exchange>:<kind>` → address, for the chains file: those not at routers.json's address), what was created, and
 * the routers looked at (whose earlier chains-file addresses these replace).
 */
export async function deployExchangeRouters(o: {
  readonly signer: Signer;
  readonly chainId: number;
  readonly data: SandboxData;
  readonly existing?: Readonly<Record<string, string>>;
  readonly log?: (line: string) => void;
}): Promise<{ exchangeRouters: Record<string, string>; created: string[]; handled: string[] }> {
  const provider = o.signer.provider!;
  const log = o.log ?? (() => undefined);
  const exchangeRouters: Record<string, string> = {};
  const created: string[] = [];
  const handled: string[] = [];
  for (const r of o.data.routers.exchangeRouters) {
    if (r.deployable !== 'uniswapV3SwapRouter' || !exchangeRouterOn(r, o.chainId)) continue;
    const key = `${r.exchange}:${r.kind}`;
    handled.push(key);
    if ((await provider.getCode(r.address)) !== '0x') {
      log(`${key} router at routers.json's ${r.address}: kept`);
      continue;
    }
    const named = o.existing?.[key];
    if (named && (await provider.getCode(named)) !== '0x') {
      log(`${key} router at ${named}: kept`);
      exchangeRouters[key] = getAddress(named);
      continue;
    }
    const weth = wrappedNativeOf(o.data, o.chainId);
    if (!weth) throw new Error(`chain ${o.chainId}: no wrapped native token in the catalog for ${key}'s SwapRouter`);
    const artifact = uniswapArtifact('SwapRouter');
    const contract = await new ContractFactory(artifact.abi as never, artifact.bytecode, o.signer).deploy(r.factory!.address, getAddress(weth.address));
    await contract.waitForDeployment();
    exchangeRouters[key] = getAddress(await contract.getAddress());
    created.push(key);
    log(`${key} router (Uniswap's SwapRouter for factory ${r.factory!.address}) deployed at ${exchangeRouters[key]}`);
  }
  return { exchangeRouters, created, handled };
}

/** The chains file with the chain's entry set (added, or its rpcUrl and addresses replaced), other entries kept. */
export function withChainEntry(
  file: { chains?: Record<string, unknown>[] } & Record<string, unknown>,
  entry: { chainId: number; rpcUrl: string; exchangeRouters?: { readonly addresses: Readonly<Record<string, string>>; readonly handled: readonly string[] } } & Omit<ServiceDeployment, 'created'>,
): Record<string, unknown> {
  const chains = [...(file.chains ?? [])];
  const k = chains.findIndex((c) => c.chainId === entry.chainId);
  const previous = (k >= 0 ? chains[k] : {}) as { exchangeRouters?: Record<string, string> };
  // the routers the run looked at are as it found them; others the file names (by hand) are kept
  const kept = Object.entries(previous.exchangeRouters ?? {}).filter(([key]) => !entry.exchangeRouters?.handled.includes(key));
  const exchangeRouters = { ...Object.fromEntries(kept), ...entry.exchangeRouters?.addresses };
  const merged = {
    ...previous, chainId: entry.chainId, rpcUrl: entry.rpcUrl, router: entry.router, feeCollector: entry.feeCollector, bridgeEndpoint: entry.bridgeEndpoint,
    ...(Object.keys(exchangeRouters).length > 0 ? { exchangeRouters } : {}),
  };
  if (k >= 0) chains[k] = merged;
  else chains.push(merged);
  return { ...file, chains };
}

async function main(argv: string[]): Promise<number> {
  const arg = (name: string) => {
    const k = argv.indexOf(`--${name}`);
    return k >= 0 ? argv[k + 1] : undefined;
  };
  const rpc = arg('rpc');
  const key = arg('key') ?? process.env.DEPLOYER_KEY;
  const chainsFile = arg('chains-file');
  if (!rpc || !key || !chainsFile) {
    console.error('usage: npx tsx scripts/deploy-contracts.ts --rpc <url> --key <private key> (or DEPLOYER_KEY) --chains-file <path> [--relayer <address>]');
    return 2;
  }
  const provider = new JsonRpcProvider(rpc);
  try {
    const chainId = Number((await provider.getNetwork()).chainId);
    const file = fs.existsSync(chainsFile) ? (JSON.parse(fs.readFileSync(chainsFile, 'utf8')) as { chains?: Record<string, unknown>[] }) : { chains: [] };
    const existing = file.chains?.find((c) => c.chainId === chainId) as (Partial<ServiceDeployment> & { exchangeRouters?: Record<string, string> }) | undefined;
    // one nonce after another, as this process knows them (a node may still count a just-mined transaction as pending)
    const signer = new NonceManager(new Wallet(key, provider));
    const data = loadSandboxData();
    const log = (line: string) => console.log(line);
    const deployment = await deployServiceContracts({
      signer, chainId, artifacts: await compileContracts(), data,
      ...(arg('relayer') ? { relayer: getAddress(arg('relayer')!) } : {}),
      ...(existing ? { existing } : {}),
      log,
    });
    const routers = await deployExchangeRouters({ signer, chainId, data, ...(existing?.exchangeRouters ? { existing: existing.exchangeRouters } : {}), log });
    fs.writeFileSync(chainsFile, `${JSON.stringify(withChainEntry(file, { chainId, rpcUrl: rpc, ...deployment, exchangeRouters: { addresses: routers.exchangeRouters, handled: routers.handled } }), null, 2)}\n`);
    const created = [...deployment.created, ...routers.created];
    console.log(`chain ${chainId}: router ${deployment.router}, fee collector ${deployment.feeCollector}, bridge endpoint ${deployment.bridgeEndpoint} (${created.length ? `created: ${created.join(', ')}` : 'nothing new'}); ${chainsFile} written`);
    return 0;
  } finally {
    provider.destroy();
  }
}

if (require.main === module) runScriptAsync(main);
