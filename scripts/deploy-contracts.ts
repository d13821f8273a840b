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
 */
import fs from 'node:fs';
import { Contract, ContractFactory, getAddress, JsonRpcProvider, NonceManager, Wallet, type Signer } from 'ethers';
import { compileContracts, type Artifacts } from '../sandbox/compile';
import { loadSandboxData, type SandboxData } from '../sandbox/data';
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

/** The chains file with the chain's entry set (added, or its rpcUrl and addresses replaced), other entries kept. */
export function withChainEntry(file: { chains?: Record<string, unknown>[] } & Record<string, unknown>, entry: { chainId: number; rpcUrl: string } & Omit<ServiceDeployment, 'created'>): Record<string, unknown> {
  const chains = [...(file.chains ?? [])];
  const k = chains.findIndex((c) => c.chainId === entry.chainId);
  const merged = { ...(k >= 0 ? chains[k] : {}), chainId: entry.chainId, rpcUrl: entry.rpcUrl, router: entry.router, feeCollector: entry.feeCollector, bridgeEndpoint: entry.bridgeEndpoint };
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
    const existing = file.chains?.find((c) => c.chainId === chainId) as Partial<ServiceDeployment> | undefined;
    const deployment = await deployServiceContracts({
      // one nonce after another, as this process knows them (a node may still count a just-mined transaction as pending)
      signer: new NonceManager(new Wallet(key, provider)), chainId, artifacts: await compileContracts(), data: loadSandboxData(),
      ...(arg('relayer') ? { relayer: getAddress(arg('relayer')!) } : {}),
      ...(existing ? { existing } : {}),
      log: (line) => console.log(line),
    });
    fs.writeFileSync(chainsFile, `${JSON.stringify(withChainEntry(file, { chainId, rpcUrl: rpc, ...deployment }), null, 2)}\n`);
    console.log(`chain ${chainId}: router ${deployment.router}, fee collector ${deployment.feeCollector}, bridge endpoint ${deployment.bridgeEndpoint} (${deployment.created.length ? `created: ${deployment.created.join(', ')}` : 'nothing new'}); ${chainsFile} written`);
    return 0;
  } finally {
    provider.destroy();
  }
}

if (require.main === module) runScriptAsync(main);
