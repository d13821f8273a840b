/**
 * Graphs of k times today's (bench/scale.ts): the embedded snapshot's model run on k replicas of every catalog chain.
 *
 * Replica 0 is today's data as it is (same chain ids, tokens, pools, routes: the 1× graph is data/snapshot). Replica
 * r ≥ 1 of chain number i (catalog order) is a new chain, id 1,000,000,000 + 100·r + i, key `<key>-<r>`, with the same
 * parameters (liquidity.json's gas, depth scale, exchanges, fill cost) and the same tokens at derived addresses (EVM:
 * EIP-55 of the last 20 bytes of keccak256("<address>:<r>"), the native coin's address kept; other families keep their
 * addresses, which the catalog compares per chain). The snapshot builder (scripts/snapshot: pair templates, profiles,
 * concentrated bands, stableswap rules, bridge parameters) then gives every replica its pools and bridge routes, with
 * the per-pool jitter of its own pool ids, so pools, tokens, chains and routes are k times today's with the same
 * parameter distributions.
 *
 * Bridges: every (bridge, chain pair) of tools.json joins replica r of the first chain to replica (r + h) mod k of the
 * second (h from the unordered pair, the reverse direction the other way), so a chain keeps today's bridge partners,
 * coins and parameters, but its partners sit in other replicas: the k copies form one connected graph, not k islands.
 * Exchanges and their factories (routers.json `chainIds`) run on every replica of their chains; routers.json deploys
 * the service's contracts on every replica of an EVM chain (the service refuses an EVM chain without them).
 *
 * Deterministic (no randomness: the snapshot builder's jitter comes from SHA-256 of the pool id).
 */
import fs from 'node:fs';
import path from 'node:path';
import { getAddress, keccak256, toUtf8Bytes } from 'ethers';
import type { CatalogChain, CatalogToken, ToolsFile } from '../scripts/catalog/types';
import { buildRoutes } from '../scripts/snapshot/bridges';
import { buildChainEntry } from '../scripts/snapshot/chains';
import { buildContexts, CATALOG_FILES, loadInputs, ROUTERS_FILE, type SnapshotInputs } from '../scripts/snapshot/inputs';
import { buildChainPools } from '../scripts/snapshot/pools';
import type { BridgeParams, ChainParams, PerRoute, SnapshotPool } from '../scripts/snapshot/types';
import { compareStrings } from '../scripts/snapshot/units';

/** Replica chain ids: above every catalog id that is an EVM chain id (Tron's 728126428 is the largest below 2^32). */
const REPLICA_ID_BASE = 1_000_000_000;
const SNAPSHOT_SCHEMA_VERSION = 1;

export interface ScaledCounts {
  readonly scale: number;
  readonly chains: number;
  readonly tokens: number;
  readonly pools: number;
  readonly bridgeRoutes: number;
  /** Bytes written: catalog folder, snapshot folder. */
  readonly catalogBytes: number;
  readonly snapshotBytes: number;
}

interface RoutersFileShape {
  chains: { chainId: number }[];
  bridgeEscrows?: { chainId: number }[];
  exchangeRouters: { chainIds?: number[] }[];
}

/** The chain-id mapping of a scale: replica r of the catalog's i-th chain. */
class Replicas {
  private readonly indexById = new Map<number, number>();

  constructor(readonly chains: readonly CatalogChain[], readonly scale: number) {
    if (chains.length > 100) throw new Error('scaleGraph: more than 100 catalog chains do not fit the replica ids');
    chains.forEach((chain, i) => this.indexById.set(chain.id, i));
  }

  id(chainId: number, r: number): number {
    const i = this.indexById.get(chainId);
    if (i === undefined) throw new Error(`scaleGraph: chain ${chainId} is not in the catalog`);
    return r === 0 ? chainId : REPLICA_ID_BASE + 100 * r + i;
  }

  /** Every replica's id of a catalog chain, replica 0 first. */
  ids(chainId: number): number[] {
    return Array.from({ length: this.scale }, (_, r) => this.id(chainId, r));
  }

  /** The replica that replica r of `from` is bridged to on `to`. */
  partner(from: number, to: number, r: number): number {
    const [a, b] = [this.indexById.get(from)!, this.indexById.get(to)!];
    const [lo, hi] = a < b ? [a, b] : [b, a];
    const h = (lo * 7 + hi * 13 + lo * hi) % this.scale;
    return a < b ? (r + h) % this.scale : (r - h + this.scale) % this.scale;
  }
}

function replicaAddress(chain: CatalogChain, address: string, r: number): string {
  if (r === 0 || chain.chainType !== 'EVM' || address === chain.nativeToken.address) return address;
  return getAddress(`0x${keccak256(toUtf8Bytes(`${address.toLowerCase()}:${r}`)).slice(-40)}`);
}

/** A record keyed by chain id (as liquidity.json's per-chain overrides are) with the same value under every replica id. */
function replicateKeys<T>(record: Record<string, T> | undefined, replicas: Replicas): Record<string, T> | undefined {
  if (!record) return record;
  const out: Record<string, T> = {};
  for (const [key, value] of Object.entries(record)) {
    if (/^[0-9]+$/.test(key) && replicas.chains.some((c) => String(c.id) === key)) {
      for (const id of replicas.ids(Number(key))) out[String(id)] = value;
    } else out[key] = value;
  }
  return out;
}

function replicatePerRoute<T>(value: PerRoute<T>, replicas: Replicas): PerRoute<T> {
  return {
    default: value.default,
    ...(value.from ? { from: replicateKeys(value.from, replicas) } : {}),
    ...(value.to ? { to: replicateKeys(value.to, replicas) } : {}),
  };
}

/** The snapshot builder's inputs at k times today's chains, and routers.json to match. */
export function scaledInputs(base: SnapshotInputs, routers: RoutersFileShape, scale: number): { inputs: SnapshotInputs; routers: RoutersFileShape } {
  if (!Number.isInteger(scale) || scale < 1 || scale > 100) throw new Error('scaleGraph: the scale is a whole number from 1 to 100');
  const replicas = new Replicas(base.chains, scale);
  const byId = new Map(base.chains.map((c) => [c.id, c]));
  const range = Array.from({ length: scale }, (_, r) => r);

  const chains: CatalogChain[] = range.flatMap((r) => base.chains.map((chain): CatalogChain => {
    if (r === 0) return chain;
    const id = replicas.id(chain.id, r);
    return {
      ...chain, id, key: `${chain.key}-${r}`, name: `${chain.name} ${r}`,
      nativeToken: { ...chain.nativeToken, chainId: id },
      metamask: { ...chain.metamask, chainId: `0x${id.toString(16)}`, chainName: `${chain.metamask.chainName} ${r}` },
    };
  }));
  const tokens: CatalogToken[] = range.flatMap((r) => base.tokens.map((token): CatalogToken => {
    if (r === 0) return token;
    const chain = byId.get(token.chainId)!;
    return { ...token, chainId: replicas.id(token.chainId, r), address: replicaAddress(chain, token.address, r) };
  }));
  const tools: ToolsFile = {
    ...base.tools,
    bridges: base.tools.bridges.map((bridge) => ({
      ...bridge,
      supportedChains: range.flatMap((r) => bridge.supportedChains.map(({ fromChainId, toChainId }) => ({
        fromChainId: replicas.id(fromChainId, r),
        toChainId: replicas.id(toChainId, replicas.partner(fromChainId, toChainId, r)),
      }))),
    })),
    exchanges: base.tools.exchanges.map((exchange) => ({ ...exchange, supportedChains: exchange.supportedChains.flatMap((id) => replicas.ids(id)) })),
  };
  const chainParams: ChainParams[] = range.flatMap((r) => base.liquidity.chains.map((params) =>
    r === 0 ? params : { ...params, chainId: replicas.id(params.chainId, r), name: `${params.name} ${r}` }));
  const bridges: BridgeParams[] = base.liquidity.bridges.map((params) => ({
    ...params,
    feeBpsFrom: replicateKeys(params.feeBpsFrom, replicas),
    minUSDFrom: replicateKeys(params.minUSDFrom, replicas),
    nativeFeeUSD: replicatePerRoute(params.nativeFeeUSD, replicas),
    durationSeconds: replicatePerRoute(params.durationSeconds, replicas),
    gasUnits: replicatePerRoute(params.gasUnits, replicas),
  }));
  const onReplicas = <T extends { chainIds?: readonly number[] }>(entry: T): T =>
    entry.chainIds ? { ...entry, chainIds: entry.chainIds.flatMap((id) => replicas.ids(id)) } : entry;
  const inputs: SnapshotInputs = {
    ...base, chains, tokens, tools,
    liquidity: { ...base.liquidity, chains: chainParams, bridges },
    ...(base.factories ? { factories: base.factories.map(onReplicas) } : {}),
  };
  const scaledRouters: RoutersFileShape = {
    ...routers,
    chains: range.flatMap((r) => routers.chains.map((c) => ({ ...c, chainId: replicas.id(c.chainId, r) }))),
    ...(routers.bridgeEscrows ? { bridgeEscrows: range.flatMap((r) => routers.bridgeEscrows!.map((e) => ({ ...e, chainId: replicas.id(e.chainId, r) }))) } : {}),
    exchangeRouters: routers.exchangeRouters.map(onReplicas),
  };
  return { inputs, routers: scaledRouters };
}

/** The snapshot of some inputs, as scripts/build-snapshot.ts builds it (same steps, same order). */
export function buildScaledSnapshot(inputs: SnapshotInputs): { pools: SnapshotPool[]; routes: ReturnType<typeof buildRoutes>; chains: ReturnType<typeof buildChainEntry>[] } {
  const contexts = buildContexts(inputs);
  const pools = contexts
    .filter((c) => c.isEvm)
    .flatMap((ctx) => buildChainPools(ctx, inputs.liquidity))
    .sort((a, b) => (a.chainId < b.chainId ? -1 : a.chainId > b.chainId ? 1 : compareStrings(a.id, b.id)));
  const ids = new Set<string>();
  for (const pool of pools) {
    if (ids.has(pool.id)) throw new Error(`scaleGraph: duplicate pool id ${pool.id}`);
    ids.add(pool.id);
  }
  return { pools, routes: buildRoutes(inputs.tools, contexts, inputs.liquidity.bridges), chains: contexts.map(buildChainEntry) };
}

/**
 * Writes the data of k times today's graph under `dir`: `catalog/` (chains, tokens, tools, markets, routers: what
 * DATA_DIR holds) and `snapshot/` (pools, bridges, chains: SNAPSHOT_DIR), compact JSON.
 */
export function writeScaledData(root: string, scale: number, dir: string): ScaledCounts {
  const base = loadInputs(root);
  const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8')) as Record<string, unknown>;
  const routersFile = readJson(ROUTERS_FILE) as unknown as RoutersFileShape;
  const { inputs, routers } = scaledInputs(base, routersFile, scale);
  const snapshot = buildScaledSnapshot(inputs);
  const catalogDir = path.join(dir, 'catalog');
  const snapshotDir = path.join(dir, 'snapshot');
  fs.mkdirSync(catalogDir, { recursive: true });
  fs.mkdirSync(snapshotDir, { recursive: true });
  const write = (folder: string, name: string, value: unknown) => {
    const text = JSON.stringify(value);
    fs.writeFileSync(path.join(folder, name), text);
    return Buffer.byteLength(text);
  };
  const catalogBytes =
    write(catalogDir, 'chains.json', { ...readJson(CATALOG_FILES.chains), chains: inputs.chains }) +
    write(catalogDir, 'tokens.json', { ...readJson(CATALOG_FILES.tokens), tokens: inputs.tokens }) +
    write(catalogDir, 'tools.json', { ...readJson(CATALOG_FILES.tools), bridges: inputs.tools.bridges, exchanges: inputs.tools.exchanges }) +
    write(catalogDir, 'markets.json', readJson('data/catalog/markets.json')) +
    write(catalogDir, 'routers.json', routers);
  const asOf = inputs.asOf;
  const snapshotBytes =
    write(snapshotDir, 'pools.json', { schemaVersion: SNAPSHOT_SCHEMA_VERSION, asOf, pools: snapshot.pools }) +
    write(snapshotDir, 'bridges.json', { schemaVersion: SNAPSHOT_SCHEMA_VERSION, asOf, routes: snapshot.routes }) +
    write(snapshotDir, 'chains.json', { schemaVersion: SNAPSHOT_SCHEMA_VERSION, asOf, chains: snapshot.chains });
  return {
    scale, chains: inputs.chains.length, tokens: inputs.tokens.length, pools: snapshot.pools.length, bridgeRoutes: snapshot.routes.length,
    catalogBytes, snapshotBytes,
  };
}

/** Whether the 1× data written under `dir` holds the same pools and routes as data/snapshot (the model reproduces today's graph). */
export function sameAsEmbedded(root: string, dir: string): boolean {
  const read = (folder: string, name: string) => JSON.parse(fs.readFileSync(path.join(folder, name), 'utf8')) as Record<string, unknown>;
  const embedded = path.join(root, 'data', 'snapshot');
  const generated = path.join(dir, 'snapshot');
  return ['pools.json', 'bridges.json', 'chains.json'].every((name) => JSON.stringify(read(embedded, name)) === JSON.stringify(read(generated, name)));
}
