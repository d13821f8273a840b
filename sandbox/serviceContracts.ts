/**
 * Deploying the service's own contracts — the router, the fee collector, the Permit2 proxy and the bridge endpoint of
 * `contracts/router/`, compiled with solc-js — and the exchange routers routers.json marks `deployable`, on any EVM
 * chain: `npm run deploy:contracts` (scripts/deploy-contracts.ts) on a real chain, and the sandbox on its devnets
 * (sandbox/deploy.ts), so that both deploy alike.
 *
 * Idempotent: a contract the chains file already names, with code on the chain and an admin, is kept; only what is
 * missing is deployed, and the bridge endpoint's routes (the snapshot's bridge routes from and to the chain, with
 * their fee models) are set when it is new. Each contract is created with CREATE from the key's account, which its
 * constructor makes the admin (no separate initialisation transaction that someone could front-run); the relayer
 * (default: the same account) releases and refunds bridge transfers. The endpoint is told the router (the only
 * target of its destination calls), and the router's call allowlist is brought up to what the service's swaps call
 * on the chain (allowRouterCalls; run again after adding exchanges). Every transaction is waited for by polling its
 * receipt.
 *
 * Exchange routers routers.json marks `deployable` (SushiSwap V3's: Uniswap's SwapRouter built for its factory, since
 * SushiSwap publishes none) are deployed too where the chain has no contract at routers.json's address nor at the
 * one the chains file names, and the entry's `exchangeRouters` names them (the quotes then call them there).
 */
import {
  Contract, ContractFactory, getAddress, ZeroAddress as ZERO_ADDRESS, type JsonRpcProvider,
  type Provider, type Signer, type TransactionReceipt, type TransactionRequest,
} from 'ethers';
import type { Artifacts } from './compile';
import { wrappedNativeOf, type SandboxData } from './data';
import { uniswapArtifact } from './uniswap';
import { exchangeRouterOn } from '../src/core/catalog/routers';
import { SWAP_CALL_SELECTORS } from '../src/core/transactions/calldata';
import { waitForReceipt } from './rpc';
import { PERMIT2_ADDRESS } from './permit2';
import { endpointRoutes, routeConfig } from './bridgeRoutes';

export interface ServiceDeployment {
  readonly router: string;
  readonly feeCollector: string;
  readonly bridgeEndpoint: string;
  /** The Permit2 proxy of the router; absent where the chain has no Permit2 at its canonical address. */
  readonly permit2Proxy?: string;
  /** The contracts this run created (none when everything was there). */
  readonly created: readonly ('router' | 'feeCollector' | 'bridgeEndpoint' | 'permit2Proxy')[];
}

const ADMIN_OF = ['function admin() view returns (address)'];
const PROXY_ROUTER_OF = ['function LIFI_DIAMOND() view returns (address)'];

/** How deployments wait for their transactions: a devnet mines at once, a real chain takes blocks. */
export interface ReceiptWait {
  readonly timeoutMs?: number;
  readonly pollMs?: number;
}

/**
 * Sends a transaction from `signer` and waits for its receipt by polling (never ethers' `wait()`, whose block poller
 * can start after the block that holds the transaction: on an automining devnet no other block ever comes). Throws
 * naming the transaction and the chain when no receipt comes in time, or when it reverted.
 */
export async function sendAndWait(signer: Signer, request: TransactionRequest, label: string, wait: ReceiptWait = {}): Promise<TransactionReceipt> {
  const provider = signer.provider as JsonRpcProvider;
  const sent = await signer.sendTransaction(request);
  const timeout = wait.timeoutMs ?? 20_000;
  let receipt: TransactionReceipt;
  try {
    receipt = await waitForReceipt(provider, sent.hash, timeout, wait.pollMs ?? 5);
  } catch {
    const chainId = (await provider.getNetwork()).chainId;
    throw new Error(`chain ${chainId}: ${label} (transaction ${sent.hash}) has no receipt after ${timeout} ms`);
  }
  if (receipt.status !== 1) throw new Error(`${label} (transaction ${sent.hash}) reverted`);
  return receipt;
}

/** Deploys what `existing` lacks on the signer's chain (see the module comment). */
export async function deployServiceContracts(o: {
  readonly signer: Signer;
  readonly chainId: number;
  readonly artifacts: Artifacts;
  readonly data: SandboxData;
  readonly relayer?: string;
  readonly existing?: Partial<Pick<ServiceDeployment, 'router' | 'feeCollector' | 'bridgeEndpoint' | 'permit2Proxy'>>;
  readonly log?: (line: string) => void;
  readonly wait?: ReceiptWait;
}): Promise<ServiceDeployment> {
  const provider = o.signer.provider!;
  const admin = await o.signer.getAddress();
  const relayer = o.relayer ?? admin;
  const log = o.log ?? (() => undefined);
  const created: ServiceDeployment['created'][number][] = [];

  /**
   * The contract at `address` when it has code and is set up (an admin; the proxy: a router), else a new one (its
   * admin set by its constructor).
   */
  const ensure = async (key: ServiceDeployment['created'][number], name: string, args: unknown[]): Promise<{ address: string; fresh: boolean }> => {
    const address = o.existing?.[key];
    if (address && (await provider.getCode(address)) !== '0x') {
      const probe = key === 'permit2Proxy' ? PROXY_ROUTER_OF : ADMIN_OF;
      const current = (await new Contract(address, probe, provider).getFunction(key === 'permit2Proxy' ? 'LIFI_DIAMOND' : 'admin')()) as string;
      if (BigInt(current) !== 0n) {
        log(`${name} at ${address}: deployed, kept`);
        return { address: getAddress(address), fresh: false };
      }
    }
    const artifact = o.artifacts[name];
    const request = await new ContractFactory(artifact.abi as never, artifact.bytecode, o.signer).getDeployTransaction(...args);
    const receipt = await sendAndWait(o.signer, request, `${name} deployment`, o.wait);
    const deployed = getAddress(receipt.contractAddress!);
    created.push(key);
    log(`${name} deployed at ${deployed}`);
    return { address: deployed, fresh: true };
  };

  const endpoint = await ensure('bridgeEndpoint', 'BridgeEndpoint', [admin, relayer]);
  const router = await ensure('router', 'Router', [admin, endpoint.address]);
  const feeCollector = await ensure('feeCollector', 'FeeCollector', [admin, admin]);
  // signature approvals (Permit2, EIP-2612) through the proxy, where Uniswap's Permit2 is at its canonical address
  const permit2Here = (await provider.getCode(PERMIT2_ADDRESS)) !== '0x';
  if (!permit2Here) log(`no Permit2 at ${PERMIT2_ADDRESS} on chain ${o.chainId}: no Permit2 proxy (the SDK then asks for approvals of the router)`);
  const proxy = permit2Here ? await ensure('permit2Proxy', 'Permit2Proxy', [router.address, PERMIT2_ADDRESS]) : undefined;
  const contract = (address: string, name: string) => new Contract(address, o.artifacts[name].abi as never, o.signer);
  const send = async (address: string, name: string, fn: string, args: unknown[]) => {
    const data = contract(address, name).interface.encodeFunctionData(fn, args);
    await sendAndWait(o.signer, { to: address, data }, `${name}.${fn}`, o.wait);
  };
  if (!router.fresh) {
    // a router of an earlier version (standing approvals, no allowlist) must be replaced, not kept
    const allowlisted = await contract(router.address, 'Router').allowedSelectorCount(ZERO_ADDRESS).then(() => true, () => false);
    if (!allowlisted) throw new Error(`the router at ${router.address} is an earlier version without the call allowlist: remove it from the chains file to deploy the current one`);
  }
  if (endpoint.fresh) {
    const configs = endpointRoutes(o.data, o.chainId).map((r) => routeConfig(r, o.data));
    for (let k = 0; k < configs.length; k += 60) await send(endpoint.address, 'BridgeEndpoint', 'setRoutes', [configs.slice(k, k + 60)]);
    log(`BridgeEndpoint: ${configs.length} bridge routes set`);
  }
  // the endpoint's destination calls go to this router only; the router bridges through this endpoint
  if (getAddress(await contract(endpoint.address, 'BridgeEndpoint').router()) !== router.address) await send(endpoint.address, 'BridgeEndpoint', 'setRouter', [router.address]);
  if (getAddress(await contract(router.address, 'Router').bridgeEndpoint()) !== endpoint.address) await send(router.address, 'Router', 'setBridgeEndpoint', [endpoint.address]);
  if (proxy) {
    const proxyRouter = getAddress(await contract(proxy.address, 'Permit2Proxy').LIFI_DIAMOND());
    if (proxyRouter !== router.address) throw new Error(`the Permit2 proxy at ${proxy.address} calls the router ${proxyRouter}, not ${router.address}: remove it from the chains file to deploy one for this router`);
    // the router refunds the proxy's user, not the proxy
    if (getAddress(await contract(router.address, 'Router').permit2Proxy()) !== proxy.address) await send(router.address, 'Router', 'setPermit2Proxy', [proxy.address]);
  }
  return { router: router.address, feeCollector: feeCollector.address, bridgeEndpoint: endpoint.address, ...(proxy ? { permit2Proxy: proxy.address } : {}), created };
}

/**
 * The calls the chain's router lets a SwapData make (Router.setAllowedCalls), as the service's transactions make
 * them (SWAP_CALL_SELECTORS): the chain's exchange routers (routers.json's on this chain, or the chains file's own
 * `exchangeRouters`) with their swap function, the snapshot's Curve pools with `exchange`, the wrapped native token
 * with `deposit` / `withdraw`, and the fee collector with its two collect functions. Targets without code on the
 * chain are left out (the router refuses them) and named in the log.
 */
export async function routerAllowlist(o: {
  readonly provider: Provider;
  readonly chainId: number;
  readonly data: SandboxData;
  readonly feeCollector: string;
  readonly exchangeRouters?: Readonly<Record<string, string>>;
  readonly log?: (line: string) => void;
}): Promise<{ readonly targets: string[]; readonly selectors: string[] }> {
  const wanted = new Map<string, { label: string; selectors: readonly string[] }>();
  const want = (address: string, label: string, selectors: readonly string[]) => wanted.set(getAddress(address), { label, selectors });
  for (const r of o.data.routers.exchangeRouters) {
    if (!exchangeRouterOn(r, o.chainId)) continue;
    const address = o.exchangeRouters?.[`${r.exchange}:${r.kind}`] ?? r.address;
    want(address, `${r.exchange} ${r.kind} router`, SWAP_CALL_SELECTORS[r.kind]);
  }
  for (const p of o.data.pools) if (p.chainId === o.chainId && p.kind === 'stableswap') want(p.address, `${p.exchange} pool ${p.id}`, SWAP_CALL_SELECTORS.stableswap);
  const wrapped = wrappedNativeOf(o.data, o.chainId);
  if (wrapped) want(wrapped.address, `wrapped ${wrapped.symbol}`, SWAP_CALL_SELECTORS.wrappedNative);
  want(o.feeCollector, 'fee collector', SWAP_CALL_SELECTORS.feeCollector);
  const targets: string[] = [];
  const selectors: string[] = [];
  const missing: string[] = [];
  for (const [address, { label, selectors: fns }] of wanted) {
    if ((await o.provider.getCode(address)) === '0x') {
      missing.push(`${label} ${address}`);
      continue;
    }
    for (const selector of fns) {
      targets.push(address);
      selectors.push(selector);
    }
  }
  if (missing.length > 0) o.log?.(`router allowlist: ${missing.length} targets have no code on chain ${o.chainId}, left out: ${missing.join(', ')}`);
  return { targets, selectors };
}

/** Allows on the router what routerAllowlist names and it does not allow yet; returns how many calls were added. */
export async function allowRouterCalls(o: {
  readonly signer: Signer;
  readonly chainId: number;
  readonly artifacts: Artifacts;
  readonly data: SandboxData;
  readonly router: string;
  readonly feeCollector: string;
  readonly exchangeRouters?: Readonly<Record<string, string>>;
  readonly log?: (line: string) => void;
  readonly wait?: ReceiptWait;
}): Promise<number> {
  const router = new Contract(o.router, o.artifacts.Router.abi as never, o.signer);
  const { targets, selectors } = await routerAllowlist({ ...o, provider: o.signer.provider! });
  const allowed = await Promise.all(targets.map((t, k) => router.allowedCalls(t, selectors[k]) as Promise<boolean>));
  const add = targets.map((t, k) => [t, selectors[k]] as const).filter((_, k) => !allowed[k]);
  for (let k = 0; k < add.length; k += 100) {
    const chunk = add.slice(k, k + 100);
    const data = router.interface.encodeFunctionData('setAllowedCalls', [chunk.map(([t]) => t), chunk.map(([, s]) => s), true]);
    await sendAndWait(o.signer, { to: o.router, data }, 'Router.setAllowedCalls', o.wait);
  }
  o.log?.(`router allowlist: ${targets.length} calls, ${add.length} added`);
  return add.length;
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
  readonly wait?: ReceiptWait;
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
    const request = await new ContractFactory(artifact.abi as never, artifact.bytecode, o.signer).getDeployTransaction(r.factory!.address, getAddress(weth.address));
    const receipt = await sendAndWait(o.signer, request, `${key} SwapRouter deployment`, o.wait);
    exchangeRouters[key] = getAddress(receipt.contractAddress!);
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
    ...(entry.permit2Proxy ? { permit2Proxy: entry.permit2Proxy } : {}),
    ...(Object.keys(exchangeRouters).length > 0 ? { exchangeRouters } : {}),
  };
  if (k >= 0) chains[k] = merged;
  else chains.push(merged);
  return { ...file, chains };
}
