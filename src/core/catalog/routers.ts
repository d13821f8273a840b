/**
 * The service's own contract deployment (data/catalog/routers.json): the router ("diamond") and the fee
 * collector on every EVM chain, the Permit2 proxy and Uniswap's Permit2 where the chain has them (the SDK's
 * signature approvals), and the model address of each exchange's swap router per pool kind.
 * Loaded once at start-up and validated: a missing EVM chain, a malformed or non-checksummed address
 * stops the start with a message naming the entry.
 */
import { getAddress } from 'ethers';
import type { Catalog } from './catalog';
import { CatalogDataError } from './catalog';
import { familyOf } from '../chains/families';

const SCHEMA_VERSION = 1;

/** The pool kinds called through an exchange-level router (stableswap pools are called directly). */
export type RoutedPoolKind = 'constantProduct' | 'concentrated';

/** Uniswap's Permit2 at its canonical address (the same on the chains where it was deployed with the CREATE2 factory). */
export const PERMIT2_ADDRESS = '0x000000000022D473030F116dDEE9F6B43aC78BA3';

export interface ChainDeployment {
  readonly chainId: number;
  /** The router ("diamond") contract: `to` of every transaction the service builds, the approval address. */
  readonly router: string;
  readonly feeCollector: string;
  /**
   * Uniswap's Permit2 on the chain (`permit2` of /v1/chains): the SDK has the user approve it once, then signs a
   * PermitTransferFrom for `permit2Proxy` instead of approving the router. Absent: the chain has none.
   */
  readonly permit2?: string;
  /**
   * The service's Permit2 proxy (contracts/router/Permit2Proxy.sol, built for `router` and `permit2`):
   * `permit2Proxy` of /v1/chains, the spender of the SDK's Permit2 and EIP-2612 signatures, which pulls exactly the
   * signed amount and calls the router with it. Absent: the SDK asks for approvals of the router.
   */
  readonly permit2Proxy?: string;
}

export interface ExchangeRouter {
  readonly exchange: string;
  readonly kind: RoutedPoolKind;
  /** `uniswapV2Router02` (constantProduct) or `uniswapV3SwapRouter` (concentrated). */
  readonly interface: string;
  readonly address: string;
  /**
   * The factory that creates the exchange's pools of this kind, when they are addressed by it (CREATE2 with its init
   * code hash: src/core/liquidity/poolAddress.ts); absent: the pools have model addresses.
   */
  readonly factory?: { readonly address: string; readonly initCodeHash: string };
  /** A V2 factory's one fee (ppm). */
  readonly feePpm?: number;
  /** A V3 factory's fee tiers (ppm) and their tick spacings. */
  readonly feeTiers?: Readonly<Record<string, number>>;
  /** The genuine contracts these are (published code), when they are not the project's models. */
  readonly genuine?: string;
  /**
   * The chains where the exchange has these contracts (a fork deployed on its own chains only: Trader Joe V1 on
   * Avalanche); absent: the same addresses on every chain.
   */
  readonly chainIds?: readonly number[];
  /**
   * `uniswapV3SwapRouter`: the router is Uniswap's SwapRouter (@uniswap/v3-periphery) constructed for `factory` and the
   * chain's wrapped native token, which `npm run deploy:contracts` deploys on a chain where `address` has no contract
   * (SushiSwap V3 publishes no router of its own).
   */
  readonly deployable?: 'uniswapV3SwapRouter';
}

/** Whether an exchange router (and its factory) is on a chain. */
export function exchangeRouterOn(router: Pick<ExchangeRouter, 'chainIds'>, chainId: number): boolean {
  return router.chainIds === undefined || router.chainIds.includes(chainId);
}

/**
 * The bridge endpoint on a chain without the service's contracts (Solana): an escrow owner whose accounts receive
 * deposits (src/core/chains/solana/deposit.ts). `tokenAccounts: 'everyCatalogMint'`: the owner holds an associated
 * token account for every SPL token of the catalog on the chain, so a deposit need not create one.
 */
export interface BridgeEscrow {
  readonly chainId: number;
  readonly owner: string;
  readonly tokenAccounts?: 'everyCatalogMint';
}

export interface RoutersFile {
  readonly schemaVersion: number;
  readonly note: string;
  readonly labels?: Record<string, string>;
  readonly chains: readonly ChainDeployment[];
  readonly bridgeEscrows?: readonly BridgeEscrow[];
  readonly exchangeRouters: readonly ExchangeRouter[];
}

/** A chains file's entry as far as the deployment goes (src/chainsConfig.ts ChainEndpointConfig): its own addresses. */
export interface ChainOverride {
  readonly chainId: number;
  readonly router?: string;
  readonly feeCollector?: string;
  readonly permit2?: string;
  readonly permit2Proxy?: string;
  readonly exchangeRouters?: Readonly<Record<string, string>>;
}

/** A chain's own address for an exchange router (`<exchange>:<kind>` → address): a chains file's `exchangeRouters`. */
export type ExchangeRouterOverrides = ReadonlyMap<number, ReadonlyMap<string, string>>;

export class RouterDeployments {
  private readonly byChain = new Map<number, ChainDeployment>();
  private readonly exchangeRouters = new Map<string, ExchangeRouter>();
  private readonly escrows = new Map<number, BridgeEscrow>();

  constructor(file: Pick<RoutersFile, 'chains' | 'exchangeRouters' | 'bridgeEscrows'>, private readonly overrides: ExchangeRouterOverrides = new Map()) {
    for (const chain of file.chains) this.byChain.set(chain.chainId, chain);
    for (const escrow of file.bridgeEscrows ?? []) this.escrows.set(escrow.chainId, escrow);
    for (const r of file.exchangeRouters) this.exchangeRouters.set(`${r.exchange}:${r.kind}`, r);
  }

  /** The deployment on a chain; undefined on chains without one (non-EVM chains). */
  on(chainId: number): ChainDeployment | undefined {
    return this.byChain.get(chainId);
  }

  routerOf(chainId: number): string | undefined {
    return this.byChain.get(chainId)?.router;
  }

  feeCollectorOf(chainId: number): string | undefined {
    return this.byChain.get(chainId)?.feeCollector;
  }

  /** Uniswap's Permit2 on a chain; undefined where the chain has none (and on non-EVM chains). */
  permit2Of(chainId: number): string | undefined {
    return this.byChain.get(chainId)?.permit2;
  }

  /** The service's Permit2 proxy on a chain; undefined where it has none (the SDK then approves the router). */
  permit2ProxyOf(chainId: number): string | undefined {
    return this.byChain.get(chainId)?.permit2Proxy;
  }

  /** The bridge escrow on a chain without the service's contracts (Solana); undefined elsewhere. */
  bridgeEscrowOf(chainId: number): BridgeEscrow | undefined {
    return this.escrows.get(chainId);
  }

  /**
   * The swap router of an exchange for a pool kind: routers.json's (the same address on every chain of its
   * `chainIds`), or, with a chain, at the address a chains file names for it there.
   */
  exchangeRouter(exchange: string, kind: RoutedPoolKind, chainId?: number): ExchangeRouter | undefined {
    const router = this.exchangeRouters.get(`${exchange}:${kind}`);
    const address = chainId === undefined ? undefined : this.overrides.get(chainId)?.get(`${exchange}:${kind}`);
    return router && address ? { ...router, address } : router;
  }

  /** The exchange routers on a chain (routers.json's on it, at the chain's own addresses where a chains file names them). */
  exchangeRoutersOn(chainId: number): ExchangeRouter[] {
    return [...this.exchangeRouters.values()].filter((r) => exchangeRouterOn(r, chainId)).map((r) => this.exchangeRouter(r.exchange, r.kind, chainId)!);
  }

  /**
   * The same deployment with some chains' router and fee collector replaced (chain mode: a chains file naming the
   * service's own deployment on a chain), so that the transactions built, the approval addresses and `diamondAddress`
   * are that deployment's, and with the chains' own addresses of exchange routers (`exchangeRouters`: the swaps of
   * those chains call them; a router routers.json lacks, or has on other chains only, is refused). Chains not named
   * keep routers.json's.
   *
   * `permit2Proxy` and `permit2` replace routers.json's the same way. A Permit2 proxy is built for one router and one
   * Permit2 (its immutable LIFI_DIAMOND and PERMIT2), so routers.json's proxy is kept only while the chain keeps
   * routers.json's router and Permit2: an entry naming another router or Permit2 and no `permit2Proxy` has none (the
   * SDK then asks for approvals of the router, as `npm run deploy:contracts` says where it deploys no proxy). An entry's
   * `permit2Proxy` without `permit2` goes with routers.json's Permit2, or the canonical one where routers.json has none.
   */
  withChains(overrides: readonly ChainOverride[]): RouterDeployments {
    const named = overrides.filter((o) => o.router !== undefined || o.feeCollector !== undefined || o.exchangeRouters !== undefined || o.permit2 !== undefined || o.permit2Proxy !== undefined);
    if (named.length === 0) return this;
    const exchangeRouters = new Map(this.overrides);
    for (const o of named) {
      if (o.exchangeRouters === undefined) continue;
      for (const key of Object.keys(o.exchangeRouters)) {
        const router = this.exchangeRouters.get(key);
        if (!router) throw new CatalogDataError(`chain ${o.chainId}: the chains file names an exchange router ${key} that routers.json does not have`);
        if (!exchangeRouterOn(router, o.chainId)) throw new CatalogDataError(`chain ${o.chainId}: the chains file names an exchange router ${key}, which routers.json has on chains ${router.chainIds!.join(', ')} only`);
      }
      exchangeRouters.set(o.chainId, new Map(Object.entries(o.exchangeRouters).map(([key, address]) => [key, getAddress(address.toLowerCase())])));
    }
    const checksummed = (address: string | undefined): string | undefined => (address === undefined ? undefined : getAddress(address.toLowerCase()));
    const chains = [...this.byChain.values()].map((c): ChainDeployment => {
      const o = named.find((x) => x.chainId === c.chainId);
      if (!o) return c;
      const router = checksummed(o.router) ?? c.router;
      const ownProxy = checksummed(o.permit2Proxy);
      const permit2 = checksummed(o.permit2) ?? c.permit2 ?? (ownProxy ? PERMIT2_ADDRESS : undefined);
      // routers.json's proxy calls routers.json's router through routers.json's Permit2, and nothing else
      const permit2Proxy = ownProxy ?? (router === c.router && permit2 === c.permit2 ? c.permit2Proxy : undefined);
      return {
        chainId: c.chainId, router, feeCollector: checksummed(o.feeCollector) ?? c.feeCollector,
        ...(permit2 ? { permit2 } : {}), ...(permit2Proxy ? { permit2Proxy } : {}),
      };
    });
    return new RouterDeployments({ chains, exchangeRouters: [...this.exchangeRouters.values()], bridgeEscrows: [...this.escrows.values()] }, exchangeRouters);
  }

  get deployments(): readonly ChainDeployment[] {
    return [...this.byChain.values()];
  }

  /** routers.json's exchange routers (a chains file's own addresses of them: exchangeRoutersOn). */
  get allExchangeRouters(): readonly ExchangeRouter[] {
    return [...this.exchangeRouters.values()];
  }

  /** Every address of an exchange router: routers.json's and those the chains file names. */
  get allExchangeRouterAddresses(): readonly { readonly exchange: string; readonly address: string }[] {
    return [
      ...[...this.exchangeRouters.values()].map((r) => ({ exchange: r.exchange, address: r.address })),
      ...[...this.overrides.values()].flatMap((m) => [...m].map(([key, address]) => ({ exchange: key.split(':')[0], address }))),
    ];
  }
}

/** Checks a parsed routers.json (`where` names it in errors); with a catalog, also requires a deployment on every EVM chain of it. */
export function validateRouters(parsed: unknown, where: string, catalog?: Catalog): RoutersFile {
  const fail = (message: string): never => {
    throw new CatalogDataError(`${where}: ${message}`);
  };
  if (!parsed || typeof parsed !== 'object') fail('not a JSON object');
  const data = parsed as Partial<RoutersFile>;
  if (data.schemaVersion !== SCHEMA_VERSION) fail(`schemaVersion ${String(data.schemaVersion)}, this build reads ${SCHEMA_VERSION}`);
  if (!Array.isArray(data.chains)) fail('chains must be an array');
  const exchangeRouters = data.exchangeRouters ?? [];
  if (!Array.isArray(exchangeRouters)) fail('exchangeRouters must be an array');
  const checksummed = (value: unknown, name: string): void => {
    let ok = false;
    try {
      ok = typeof value === 'string' && getAddress(value) === value;
    } catch {
      ok = false;
    }
    if (!ok) fail(`${name} must be an EIP-55 checksummed EVM address, got ${JSON.stringify(value)}`);
  };
  const seen = new Set<number>();
  for (const [k, chain] of (data.chains as ChainDeployment[]).entries()) {
    if (!Number.isSafeInteger(chain?.chainId)) fail(`chains[${k}].chainId must be an integer`);
    if (seen.has(chain.chainId)) fail(`chain ${chain.chainId} is listed twice`);
    seen.add(chain.chainId);
    checksummed(chain.router, `chains[${k}].router`);
    checksummed(chain.feeCollector, `chains[${k}].feeCollector`);
    if (chain.permit2 !== undefined) checksummed(chain.permit2, `chains[${k}].permit2`);
    if (chain.permit2Proxy !== undefined) {
      checksummed(chain.permit2Proxy, `chains[${k}].permit2Proxy`);
      // the SDK sends the signed calls to it and names it the spender: it must be the proxy, not another contract
      for (const other of ['router', 'feeCollector', 'permit2'] as const) {
        if (chain[other] === chain.permit2Proxy) fail(`chains[${k}].permit2Proxy is the chain's ${other}: the Permit2 proxy is a contract of its own`);
      }
    }
    if (catalog) {
      const known = catalog.getChain(chain.chainId);
      if (!known) fail(`chain ${chain.chainId} is not in the catalog`);
      else if (!familyOf(known).evmContracts) fail(`chain ${chain.chainId} is not an EVM chain`);
    }
  }
  if (catalog) {
    const missing = catalog.listChains(['EVM']).filter((c) => !seen.has(c.id));
    if (missing.length > 0) fail(`no router deployment for EVM chain(s) ${missing.map((c) => `${c.key} (${c.id})`).join(', ')}`);
  }
  const bridgeEscrows = data.bridgeEscrows ?? [];
  if (!Array.isArray(bridgeEscrows)) fail('bridgeEscrows must be an array');
  const seenEscrows = new Set<number>();
  for (const [k, e] of bridgeEscrows.entries()) {
    if (!Number.isSafeInteger(e?.chainId)) fail(`bridgeEscrows[${k}].chainId must be an integer`);
    if (seenEscrows.has(e.chainId) || seen.has(e.chainId)) fail(`chain ${e.chainId} has two bridge endpoints`);
    seenEscrows.add(e.chainId);
    if (e.tokenAccounts !== undefined && e.tokenAccounts !== 'everyCatalogMint') fail(`bridgeEscrows[${k}].tokenAccounts must be "everyCatalogMint" or absent`);
    const known = catalog?.getChain(e.chainId);
    if (catalog && !known) fail(`bridgeEscrows[${k}]: chain ${e.chainId} is not in the catalog`);
    if (known) {
      const family = familyOf(known);
      if (typeof e.owner !== 'string' || family.parseAddress(e.owner) !== e.owner) fail(`bridgeEscrows[${k}].owner must be an address of ${known.name} in normal form (${family.addressRule}), got ${JSON.stringify(e.owner)}`);
    }
  }
  const seenRouters = new Set<string>();
  for (const [k, r] of exchangeRouters.entries()) {
    if (typeof r?.exchange !== 'string' || r.exchange === '') fail(`exchangeRouters[${k}].exchange must be a tool key`);
    if (r.kind !== 'constantProduct' && r.kind !== 'concentrated') fail(`exchangeRouters[${k}].kind must be constantProduct or concentrated`);
    checksummed(r.address, `exchangeRouters[${k}].address`);
    if (r.factory !== undefined) {
      checksummed(r.factory.address, `exchangeRouters[${k}].factory.address`);
      if (!/^0x[0-9a-f]{64}$/.test(r.factory.initCodeHash ?? '')) fail(`exchangeRouters[${k}].factory.initCodeHash must be 0x and 64 lower-case hex digits`);
    }
    if (r.feePpm !== undefined && !(Number.isInteger(r.feePpm) && r.feePpm >= 0 && r.feePpm < 1_000_000)) fail(`exchangeRouters[${k}].feePpm must be an integer fee in ppm`);
    for (const [fee, spacing] of Object.entries(r.feeTiers ?? {}) as [string, unknown][]) {
      if (!/^[0-9]+$/.test(fee) || !Number.isInteger(spacing) || (spacing as number) < 1) fail(`exchangeRouters[${k}].feeTiers: ${fee} → ${spacing} is no fee tier (ppm) and tick spacing`);
    }
    if (r.deployable !== undefined && (r.deployable !== 'uniswapV3SwapRouter' || r.kind !== 'concentrated' || r.factory === undefined)) {
      fail(`exchangeRouters[${k}].deployable must be "uniswapV3SwapRouter", on a concentrated router with a factory`);
    }
    if (r.chainIds !== undefined) {
      if (!Array.isArray(r.chainIds) || r.chainIds.length === 0 || !r.chainIds.every((id: unknown) => Number.isSafeInteger(id))) fail(`exchangeRouters[${k}].chainIds must be a non-empty array of chain ids, or absent (every chain)`);
      for (const id of r.chainIds) if (catalog && !catalog.getChain(id)) fail(`exchangeRouters[${k}].chainIds: chain ${id} is not in the catalog`);
    }
    const key = `${r.exchange}:${r.kind}`;
    if (seenRouters.has(key)) fail(`exchange router ${key} is listed twice`);
    seenRouters.add(key);
  }
  return { schemaVersion: SCHEMA_VERSION, note: String(data.note ?? ''), labels: data.labels, chains: data.chains as ChainDeployment[], bridgeEscrows, exchangeRouters };
}
