/**
 * Chain mode configuration: which chains the service reads from, over which JSON-RPC URL, and where the service's
 * contracts sit there. Read from the JSON file named by CHAINS_FILE:
 *
 *   { "chains": [ { "chainId": 1, "rpcUrl": "http://127.0.0.1:8545",
 *                   "router": "0x…", "feeCollector": "0x…", "bridgeEndpoint": "0x…", "permit2Proxy": "0x…",
 *                   "permit2": "0x000000000022D473030F116dDEE9F6B43aC78BA3", "confirmations": 1,
 *                   "gasPrice": "chain", "discoverFromBlock": 12369621,
 *                   "exchangeRouters": { "sushiswap:concentrated": "0x…" } } ],
 *     "pollIntervalMs": 250, "rpcTimeoutMs": 3000, "prices": "pools", "priceMinDepthUSD": 50000 }
 *
 * prices: "pools" (default) prices tokens from the followed chains' pools against the USD stablecoins
 * (src/core/liquidity/marketPrices.ts; a pool counts with at least priceMinDepthUSD of depth), "reference" keeps the
 * catalog's table.
 * discoverFromBlock: at start, the pools the factories (routers.json) created since that block — PairCreated /
 * PoolCreated logs, read in ranges — join the graph when both their tokens are catalog tokens, whatever their fee
 * tier (a V3 factory's owner may enable tiers routers.json does not list); without it the factories are asked only
 * where the catalog pairs' pools are at the configured fee tiers (getPair / getPool). New pools are followed from
 * their creation logs either way.
 * indexFromBlock: the first block the transfer indexer (src/chain/transferIndexer.ts) reads on this chain, the first
 * time it runs with the database (the router's deployment block, to index every transfer); without it, the head
 * at that time (transfers from then on). On a Solana entry, the first slot of the bridge escrow's history read.
 * exchangeRouters: the swap routers of this chain that are not routers.json's (`<exchange>:<kind>` → address), e.g. a
 * router `npm run deploy:contracts` deployed where routers.json's address has no contract (SushiSwap V3's); the
 * quotes' transactions call them for that exchange's pools on this chain. EVM only.
 * router and feeCollector default to data/catalog/routers.json; bridgeEndpoint (the escrow contract the
 * bridge relayers release from) has no default: without it transfers on that chain are tracked up to the
 * deposit only. permit2Proxy: the service's Permit2 proxy on this chain (contracts/router/Permit2Proxy.sol, built
 * for this chain's router and Permit2; `npm run deploy:contracts` deploys it where Permit2 is and writes it here),
 * and permit2: the Permit2 it pulls through (default: routers.json's, Uniswap's canonical
 * 0x000000000022D473030F116dDEE9F6B43aC78BA3). /v1/chains gives both (`permit2Proxy`, `permit2`), and the SDK then
 * signs a Permit2 or EIP-2612 permit for the proxy instead of approving the router. Like router and feeCollector they
 * replace routers.json's; routers.json's proxy is built for routers.json's router and Permit2, so an entry naming
 * another router (or permit2) without a permit2Proxy has none on that chain (the SDK then asks for approvals of the
 * router). EVM only. publicRpcUrl is the URL /v1/chains advertises first for the chain (metamask.rpcUrls), so that
 * clients reach the chain the service reads: by default rpcUrl itself; another URL when rpcUrl is private (it
 * holds a provider key, or names a host only the service reaches); false to advertise none but the catalog's.
 * An entry for a non-EVM chain of the catalog (Solana) takes rpcUrl and publicRpcUrl only: the URL is checked at
 * start and advertised, nothing is read from it yet; router, feeCollector, bridgeEndpoint, permit2Proxy, permit2,
 * gasPrice and confirmations given for it stop the start (src/chain/rpc.ts checkChainEntries, where the catalog is
 * known, as are unknown chain ids). Without CHAINS_FILE the service runs on its embedded snapshot alone (no chain
 * access).
 *
 * Configuration only (read and validated with the rest of the environment by src/config.ts): the connections
 * themselves are src/chain's.
 */
import fs from 'node:fs';
import { getAddress } from 'ethers';
import { isEvmAddress } from './core/transactions/ids';
import { DEFAULT_PRICE_RULE } from './core/liquidity/marketPrices';

export interface ChainEndpointConfig {
  readonly chainId: number;
  readonly rpcUrl: string;
  readonly router?: string;
  readonly feeCollector?: string;
  readonly bridgeEndpoint?: string;
  /** The service's Permit2 proxy on this chain (absent: routers.json's while router and permit2 are its, else none). EVM only. */
  readonly permit2Proxy?: string;
  /** Uniswap's Permit2 on this chain, which permit2Proxy pulls through (absent: routers.json's, else the canonical address). EVM only. */
  readonly permit2?: string;
  /** Blocks a source transaction needs before it counts as confirmed (absent: 1, its own block). EVM only. */
  readonly confirmations?: number;
  /** Gas price the quotes use: "chain" (eth_gasPrice, refreshed per block; absent: "chain") or "snapshot" (the embedded one). EVM only. */
  readonly gasPrice?: 'chain' | 'snapshot';
  /** The URL /v1/chains advertises first for the chain (absent: rpcUrl; false: none). */
  readonly publicRpcUrl?: string | false;
  /**
   * At start, the factories' PairCreated / PoolCreated logs from this block to the head are read too (absent: the
   * factories are only asked about the catalog pairs at their configured fee tiers, then followed from the start).
   * EVM only.
   */
  readonly discoverFromBlock?: number;
  /** The transfer indexer's first block on this chain (its first run; default: the head then). */
  readonly indexFromBlock?: number;
  /** Swap routers of this chain other than routers.json's: `<exchange>:<kind>` → address. EVM only. */
  readonly exchangeRouters?: Readonly<Record<string, string>>;
}

export interface ChainsConfig {
  readonly chains: readonly ChainEndpointConfig[];
  /** How often each chain's head is polled for new blocks (pool state refresh, event index). */
  readonly pollIntervalMs: number;
  /** Time after which an RPC call counts as failed (the chain is then "not available"). */
  readonly rpcTimeoutMs: number;
  /** Where token prices come from: the followed chains' pools, or the catalog's reference table. */
  readonly prices: 'pools' | 'reference';
  /** A pool prices a token only with at least this much depth, in USD (prices "pools"). */
  readonly priceMinDepthUSD: number;
}

/** Parses a CHAINS_FILE document, pushing every problem (with its JSON path) onto `problems`. */
export function parseChainsConfig(raw: unknown, problems: string[], where = 'CHAINS_FILE'): ChainsConfig {
  const empty: ChainsConfig = { chains: [], pollIntervalMs: 250, rpcTimeoutMs: 3000, prices: 'pools', priceMinDepthUSD: DEFAULT_PRICE_RULE.minDepthUSD };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    problems.push(`${where} must hold a JSON object with a "chains" array`);
    return empty;
  }
  const doc = raw as Record<string, unknown>;
  function integer(value: unknown, name: string, fallback: number, min: number, max: number): number;
  function integer(value: unknown, name: string, fallback: undefined, min: number, max: number): number | undefined;
  function integer(value: unknown, name: string, fallback: number | undefined, min: number, max: number): number | undefined {
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      problems.push(`${where}: ${name} must be an integer from ${min} to ${max} (got ${JSON.stringify(value)})`);
      return fallback;
    }
    return value;
  }
  const pollIntervalMs = integer(doc.pollIntervalMs, 'pollIntervalMs', 250, 10, 60_000);
  const rpcTimeoutMs = integer(doc.rpcTimeoutMs, 'rpcTimeoutMs', 3000, 50, 60_000);
  const priceMinDepthUSD = integer(doc.priceMinDepthUSD, 'priceMinDepthUSD', DEFAULT_PRICE_RULE.minDepthUSD, 0, 1e12);
  let prices = empty.prices;
  if (doc.prices === 'pools' || doc.prices === 'reference') prices = doc.prices;
  else if (doc.prices !== undefined) problems.push(`${where}: prices must be "pools" or "reference" (got ${JSON.stringify(doc.prices)})`);
  const settings = { pollIntervalMs, rpcTimeoutMs, prices, priceMinDepthUSD };
  if (!Array.isArray(doc.chains)) {
    problems.push(`${where}: "chains" must be an array`);
    return { ...empty, ...settings };
  }
  const seen = new Set<number>();
  const chains: ChainEndpointConfig[] = [];
  doc.chains.forEach((entry: unknown, k) => {
    const at = `${where}: chains[${k}]`;
    if (typeof entry !== 'object' || entry === null) {
      problems.push(`${at} must be an object`);
      return;
    }
    const c = entry as Record<string, unknown>;
    const chainId = c.chainId;
    if (typeof chainId !== 'number' || !Number.isSafeInteger(chainId) || chainId <= 0) {
      problems.push(`${at}.chainId must be a positive integer (got ${JSON.stringify(chainId)})`);
      return;
    }
    if (seen.has(chainId)) problems.push(`${at}.chainId ${chainId} appears twice`);
    seen.add(chainId);
    let rpcUrl = '';
    if (typeof c.rpcUrl !== 'string' || !/^(https?|wss?):\/\//.test(c.rpcUrl)) {
      problems.push(`${at}.rpcUrl must be an http(s) or ws(s) URL (got ${JSON.stringify(c.rpcUrl)})`);
    } else rpcUrl = c.rpcUrl;
    let publicRpcUrl: string | false | undefined;
    if (c.publicRpcUrl === false || (typeof c.publicRpcUrl === 'string' && /^(https?|wss?):\/\//.test(c.publicRpcUrl))) publicRpcUrl = c.publicRpcUrl;
    else if (c.publicRpcUrl !== undefined) problems.push(`${at}.publicRpcUrl must be an http(s) or ws(s) URL, or false (got ${JSON.stringify(c.publicRpcUrl)})`);
    const address = (name: string): string | undefined => {
      const value = c[name];
      if (value === undefined) return undefined;
      try {
        if (typeof value !== 'string' || !isEvmAddress(value)) throw new Error();
        return getAddress(value);
      } catch {
        problems.push(`${at}.${name} must be a 0x-prefixed 20-byte address (got ${JSON.stringify(value)})`);
        return undefined;
      }
    };
    const router = address('router');
    const feeCollector = address('feeCollector');
    const bridgeEndpoint = address('bridgeEndpoint');
    const permit2Proxy = address('permit2Proxy');
    const permit2 = address('permit2');
    const confirmations = integer(c.confirmations, `chains[${k}].confirmations`, undefined, 1, 1000);
    const discoverFromBlock = integer(c.discoverFromBlock, `chains[${k}].discoverFromBlock`, undefined, 0, Number.MAX_SAFE_INTEGER);
    const indexFromBlock = integer(c.indexFromBlock, `chains[${k}].indexFromBlock`, undefined, 0, Number.MAX_SAFE_INTEGER);
    let exchangeRouters: Record<string, string> | undefined;
    if (c.exchangeRouters !== undefined) {
      if (typeof c.exchangeRouters !== 'object' || c.exchangeRouters === null || Array.isArray(c.exchangeRouters)) {
        problems.push(`${at}.exchangeRouters must be an object of "<exchange>:<kind>" → address (got ${JSON.stringify(c.exchangeRouters)})`);
      } else {
        exchangeRouters = {};
        for (const [key, value] of Object.entries(c.exchangeRouters as Record<string, unknown>)) {
          if (!/^[a-z0-9-]+:(constantProduct|concentrated)$/.test(key)) problems.push(`${at}.exchangeRouters: "${key}" is not "<exchange>:constantProduct" or "<exchange>:concentrated"`);
          else if (typeof value !== 'string' || !isEvmAddress(value)) problems.push(`${at}.exchangeRouters["${key}"] must be a 0x-prefixed 20-byte address (got ${JSON.stringify(value)})`);
          else exchangeRouters[key] = getAddress(value.toLowerCase());
        }
      }
    }
    const gasPrice = c.gasPrice;
    if (gasPrice !== undefined && gasPrice !== 'chain' && gasPrice !== 'snapshot') problems.push(`${at}.gasPrice must be "chain" or "snapshot" (got ${JSON.stringify(c.gasPrice)})`);
    chains.push(Object.freeze({
      chainId, rpcUrl,
      ...(confirmations !== undefined ? { confirmations } : {}),
      ...(discoverFromBlock !== undefined ? { discoverFromBlock } : {}),
      ...(indexFromBlock !== undefined ? { indexFromBlock } : {}),
      ...(gasPrice === 'chain' || gasPrice === 'snapshot' ? { gasPrice } : {}),
      ...(router ? { router } : {}), ...(feeCollector ? { feeCollector } : {}), ...(bridgeEndpoint ? { bridgeEndpoint } : {}),
      ...(permit2Proxy ? { permit2Proxy } : {}), ...(permit2 ? { permit2 } : {}),
      ...(exchangeRouters && Object.keys(exchangeRouters).length > 0 ? { exchangeRouters: Object.freeze(exchangeRouters) } : {}),
      ...(publicRpcUrl !== undefined ? { publicRpcUrl } : {}),
    }));
  });
  return Object.freeze({ chains: Object.freeze(chains), ...settings });
}

/** Reads and parses CHAINS_FILE; problems (unreadable file, bad JSON, bad entries) go onto `problems`. */
export function loadChainsFile(file: string, problems: string[]): ChainsConfig | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    problems.push(`CHAINS_FILE ${file} cannot be read: ${(error as Error).message}`);
    return undefined;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    problems.push(`CHAINS_FILE ${file} is not valid JSON: ${(error as Error).message}`);
    return undefined;
  }
  return parseChainsConfig(raw, problems, `CHAINS_FILE ${file}`);
}
