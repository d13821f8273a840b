/**
 * Deploys the service's own contracts (sandbox/serviceContracts.ts: the router, the fee collector, the Permit2 proxy,
 * the bridge endpoint, and the `deployable` exchange routers) to an EVM chain given its RPC URL and a funded key, and
 * writes the chains file chain mode reads (`CHAINS_FILE`: the entry's `router`, `feeCollector`, `bridgeEndpoint`,
 * `permit2Proxy`, `exchangeRouters`), so that the service's transactions call that deployment:
 *
 *   npx tsx scripts/deploy-contracts.ts --rpc <url> --key <hex private key> --chains-file chains.json [--relayer 0x…]
 *   (or DEPLOYER_KEY in the environment instead of --key)
 *
 * Idempotent (what the chains file names and the chain holds is kept); every transaction is waited for by polling its
 * receipt, for at most --receipt-timeout seconds.
 */
import fs from 'node:fs';
import { getAddress, JsonRpcProvider, NonceManager, Wallet } from 'ethers';
import { compileContracts } from '../sandbox/compile';
import { loadSandboxData } from '../sandbox/data';
import {
  allowRouterCalls, deployExchangeRouters, deployServiceContracts, withChainEntry, type ReceiptWait, type ServiceDeployment,
} from '../sandbox/serviceContracts';
import { runScriptAsync } from './catalog/format';

async function main(argv: string[]): Promise<number> {
  const arg = (name: string) => {
    const k = argv.indexOf(`--${name}`);
    return k >= 0 ? argv[k + 1] : undefined;
  };
  const rpc = arg('rpc');
  const key = arg('key') ?? process.env.DEPLOYER_KEY;
  const chainsFile = arg('chains-file');
  if (!rpc || !key || !chainsFile) {
    console.error('usage: npx tsx scripts/deploy-contracts.ts --rpc <url> --key <private key> (or DEPLOYER_KEY) --chains-file <path> [--relayer <address>] [--receipt-timeout <seconds>]');
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
    // a real chain's blocks take seconds: poll each second, for up to --receipt-timeout seconds (default 300)
    const wait: ReceiptWait = { timeoutMs: Number(arg('receipt-timeout') ?? 300) * 1000, pollMs: 1000 };
    const artifacts = await compileContracts();
    const deployment = await deployServiceContracts({
      signer, chainId, artifacts, data,
      ...(arg('relayer') ? { relayer: getAddress(arg('relayer')!) } : {}),
      ...(existing ? { existing } : {}),
      log, wait,
    });
    const routers = await deployExchangeRouters({ signer, chainId, data, ...(existing?.exchangeRouters ? { existing: existing.exchangeRouters } : {}), log, wait });
    const entry = withChainEntry(file, { chainId, rpcUrl: rpc, ...deployment, exchangeRouters: { addresses: routers.exchangeRouters, handled: routers.handled } });
    const written = (entry.chains as { chainId: number; exchangeRouters?: Record<string, string> }[]).find((c) => c.chainId === chainId)!;
    await allowRouterCalls({ signer, chainId, artifacts, data, router: deployment.router, feeCollector: deployment.feeCollector, ...(written.exchangeRouters ? { exchangeRouters: written.exchangeRouters } : {}), log, wait });
    fs.writeFileSync(chainsFile, `${JSON.stringify(entry, null, 2)}\n`);
    const created = [...deployment.created, ...routers.created];
    console.log(`chain ${chainId}: router ${deployment.router}, fee collector ${deployment.feeCollector}, bridge endpoint ${deployment.bridgeEndpoint} (${created.length ? `created: ${created.join(', ')}` : 'nothing new'}); ${chainsFile} written`);
    return 0;
  } finally {
    provider.destroy();
  }
}

if (require.main === module) runScriptAsync(main);
