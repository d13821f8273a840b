/**
 * Transfer tracking (GET /v1/status, GET /v1/gas/status): finds the transaction a reference names on the connected
 * chains, then reads what the classification (classify.ts, solana.ts, gasRefill.ts) asks for until it answers. The
 * EVM chains are read through TransferReads, Solana chains through SolanaTransferReads (ports.ts); without either
 * (chain mode off) every reference is NOT_FOUND.
 *
 * A reference is a transaction hash (sending or receiving), a Solana signature (a deposit, a release or a refund of
 * the bridge's escrow), a transfer id (BridgeData.transactionId, the memo's on Solana) or a step id (UUID, whose
 * transfer id is transactionIdOf(stepId)). fromChain / toChain are searched first; the other connected chains only
 * when those do not know the hash. A hash known but not mined yet (a signature not confirmed yet) is PENDING
 * WAIT_SOURCE_CONFIRMATIONS; a chain that does not answer gives PENDING CHAIN_NOT_AVAILABLE, never an error. Final
 * answers (DONE, FAILED, INVALID) never change and are kept in a small cache.
 *
 * On Solana a transfer id is found in the memos of the escrow's recent transactions (SolanaTransferReads.
 * escrowTransactions), and each transaction found is checked for what its memo claims (solana.ts, solanaBridgeRole):
 * a deposit into the escrow, a release or refund signed by it (those reads: escrowReads.ts). A transfer between
 * Solana and an EVM chain is followed across both: a Solana deposit's release on the EVM destination by its transfer
 * id (releaseOfTransfer), an EVM deposit's release on Solana by its release memo, a Solana release's source deposit on
 * the EVM chain by its deposit id.
 */
import { getAddress } from 'ethers';
import { LRUCache } from 'lru-cache';
import type { Catalog } from '../catalog/catalog';
import type { BridgeRoute } from '../liquidity/snapshot';
import { bridgeOut } from '../math/bridge';
import { transactionIdOf } from '../transactions/ids';
import {
  chainNotConnected, chainStoppedAnswering, classifyTransfer, NO_SOLANA_CHAIN, NOT_A_TRACKED_REFERENCE, NOT_CONNECTED, notFound, notMined,
  type Settled, type StatusContext, type TransferFacts, type TransferNeed,
} from './classify';
import { Lookup, solanaDeposit, solanaRefund, solanaReleaseOf, solanaTransaction, solanaTransferTransaction } from './escrowReads';
import { classifyGasRefill, GAS_NOT_CONNECTED, gasRefillNotMined, type GasRefillFacts, type GasRefillNeed } from './gasRefill';
import type { Receipt, ReleaseEvent, SolanaTransaction, SolanaTransferReads, TransferReads } from './ports';
import { classifySolanaTransfer, isSolanaSignature, solanaAddressOf, solanaNotConfirmed, type SolanaTransferFacts } from './solana';
import { isFinal, type GasRefillStatus, type StatusQuery, type TransferStatus } from './transferStatus';

const HASH = /^0x[0-9a-fA-F]{64}$/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
/** Reads one transfer may chain (source ↔ destination), at most: a guard against transactions naming each other in a loop. */
const MAX_STEPS = 16;

export interface TrackerOptions {
  /** The exchange (tool key) a swap's callTo belongs to: exchange routers and pools (undefined: unknown). */
  readonly exchangeOf?: (chainId: number, address: string) => string | undefined;
  /** The connected Solana chains (chain mode: CHAINS_FILE's Solana entries with a bridge escrow). */
  readonly solana?: readonly SolanaTransferReads[];
  /** The bridge routes from a token (the liquidity graph's): a pending transfer's bridge step is estimated on them. */
  readonly bridgeRoutes?: (chainId: number, token: string) => readonly BridgeRoute[];
}

/** A read of `chainId` failed while a transfer was being read. */
class ChainUnavailable extends Error {
  constructor(readonly chainId: number, cause: unknown) {
    super(`chain ${chainId} did not answer: ${(cause as Error)?.message ?? String(cause)}`);
  }
}

/** The facts of a transfer, read from an EVM transaction or a Solana one. */
type Facts = { readonly on: 'evm'; readonly facts: TransferFacts } | { readonly on: 'solana'; readonly facts: SolanaTransferFacts };

export class TransferTracker {
  private readonly final = new LRUCache<string, TransferStatus>({ max: 10_000 });
  private readonly context: StatusContext;
  private readonly solana: ReadonlyMap<number, SolanaTransferReads>;
  private readonly evmChainIds: readonly number[];

  /**
   * `reads`: the connected EVM chains (undefined: none, or chain mode off); `catalog`: the catalog, or how to take the
   * one in use at each lookup (chain mode: prices follow the pools); options.solana: the Solana chains.
   */
  constructor(private readonly reads: TransferReads | undefined, catalog: Catalog | (() => Catalog), options: TrackerOptions = {}) {
    const current = typeof catalog === 'function' ? catalog : () => catalog;
    this.solana = new Map((options.solana ?? []).map((s) => [s.chain.chainId, s]));
    this.evmChainIds = (reads?.chains ?? []).map((c) => c.chainId);
    const evm = new Set(this.evmChainIds);
    const chains = new Map([...(reads?.chains ?? []), ...[...this.solana.values()].map((s) => s.chain)].map((c) => [c.chainId, c]));
    this.context = {
      chain: (chainId) => chains.get(chainId),
      token: (chainId, address) => current().findToken(chainId, address),
      nativeToken: (chainId) => current().getChain(chainId)?.nativeToken,
      exchangeOf: (chainId, address) => options.exchangeOf?.(chainId, address),
      bridgeEstimate: (bridge, fromChainId, toChainId, token, amount) => {
        const route = options.bridgeRoutes?.(fromChainId, current().addressKey(fromChainId, token)).find((r) => r.bridge === bridge && r.toChainId === toChainId);
        const quote = route ? bridgeOut(amount, route) : undefined;
        return route && quote?.ok ? { token: route.toToken, amount: quote.amountOut } : undefined;
      },
      receiverAddress: (chainId, bytes) => {
        if (this.solana.has(chainId)) return solanaAddressOf(bytes);
        return evm.has(chainId) && /^0x[0-9a-fA-F]{40}$/.test(bytes) ? getAddress(bytes) : undefined;
      },
    };
  }

  /** The status of a transfer (see the module comment). Never throws for a chain that does not answer. */
  async status(query: StatusQuery): Promise<TransferStatus> {
    // base58 signatures are case-sensitive; hex hashes, transfer ids and UUIDs are not
    const key = `${isSolanaSignature(query.ref) ? query.ref : query.ref.toLowerCase()}|${query.bridge ?? ''}`;
    const cached = this.final.get(key);
    if (cached) return cached;
    const result = await this.lookUp(query);
    if (isFinal(result.status)) this.final.set(key, result);
    return result;
  }

  private async lookUp(query: StatusQuery): Promise<TransferStatus> {
    const reads = this.reads;
    const solanaIds = [...this.solana.keys()];
    if (this.evmChainIds.length === 0 && solanaIds.length === 0) return NOT_CONNECTED;
    for (const id of [query.fromChainId, query.toChainId]) {
      if (id !== undefined && !this.context.chain(id)) return chainNotConnected(id);
    }
    const lookup = new Lookup();
    const all = [...this.evmChainIds, ...solanaIds];

    if (UUID.test(query.ref)) return this.byTransferId(transactionIdOf(query.ref), query, this.phases(all, query).flat(), lookup);
    if (isSolanaSignature(query.ref)) return this.bySignature(query.ref, query, lookup);
    if (!HASH.test(query.ref)) return NOT_A_TRACKED_REFERENCE;
    const hash = query.ref.toLowerCase();
    const { unavailable } = lookup;
    if (reads && this.evmChainIds.length > 0) {
      const phases = this.phases(this.evmChainIds, query);
      for (const phase of phases) {
        const receipts = await Promise.all(phase.map((chainId) => this.try(chainId, unavailable, () => reads.receipt(chainId, hash))));
        const found = receipts.find((r) => r);
        if (found) return this.settleReceipt(found, query, lookup);
      }
      const candidates = phases.flat();
      const pending = await Promise.all(candidates.map((chainId) => this.try(chainId, unavailable, () => reads.pending(chainId, hash))));
      const p = pending.findIndex((t) => t);
      if (p >= 0) return notMined(candidates[p], hash, pending[p]!);
    }
    return this.byTransferId(hash, query, this.phases(all, query).flat(), lookup);
  }

  /** The chains to search among `ids`, in phases: the ones named by the query, then the others. */
  private phases(ids: readonly number[], query: StatusQuery): number[][] {
    const named = [...new Set([query.fromChainId, query.toChainId].filter((id): id is number => id !== undefined && ids.includes(id)))];
    if (named.length === 0) return [[...ids]];
    const others = ids.filter((id) => !named.includes(id));
    return others.length > 0 ? [named, others] : [named];
  }

  /** A Solana signature: the transaction on the connected Solana chains, or one seen but not confirmed yet. */
  private async bySignature(signature: string, query: StatusQuery, lookup: Lookup): Promise<TransferStatus> {
    if (this.solana.size === 0) return NO_SOLANA_CHAIN;
    const phases = this.phases([...this.solana.keys()], query);
    for (const phase of phases) {
      const found = await Promise.all(phase.map((chainId) => this.try(chainId, lookup.unavailable, () => solanaTransaction(this.solana.get(chainId)!, signature, lookup))));
      const tx = found.find((t) => t);
      if (tx) return this.settle(async () => this.solanaFacts(tx), query, lookup);
    }
    const candidates = phases.flat();
    const pending = await Promise.all(candidates.map((chainId) => this.try(chainId, lookup.unavailable, () => this.solana.get(chainId)!.pending(signature))));
    const p = pending.findIndex((t) => t);
    if (p >= 0) return solanaNotConfirmed(candidates[p], signature, pending[p]!.slot);
    return notFound([...lookup.unavailable]);
  }

  private async byTransferId(id: string, query: StatusQuery, candidates: number[], lookup: Lookup): Promise<TransferStatus> {
    const transferId = id.toLowerCase();
    const reads = this.reads;
    const { unavailable } = lookup;
    const evmCandidates = candidates.filter((chainId) => !this.solana.has(chainId));
    const solanaCandidates = candidates.filter((chainId) => this.solana.has(chainId));
    const [found, solanaFound] = await Promise.all([
      Promise.all(evmCandidates.map((chainId) => this.try(chainId, unavailable, async () => {
        const hash = await reads!.transferTransaction(chainId, transferId);
        return hash ? { chainId, hash } : null;
      }))),
      Promise.all(solanaCandidates.map((chainId) => this.try(chainId, unavailable, () => solanaTransferTransaction(this.solana.get(chainId)!, transferId, lookup)))),
    ]);
    const hit = found.find((f) => f);
    if (hit) {
      const receipt = await this.try(hit.chainId, unavailable, () => reads!.receipt(hit.chainId, hit.hash));
      if (receipt) return this.settleReceipt(receipt, query, lookup);
    }
    const solanaHit = solanaFound.find((t) => t);
    if (solanaHit) return this.settle(async () => this.solanaFacts(solanaHit), query, lookup);
    return notFound([...unavailable]);
  }

  private settleReceipt(receipt: Receipt, query: StatusQuery, lookup: Lookup): Promise<TransferStatus> {
    return this.settle(async () => ({ on: 'evm', facts: { tx: await this.read(receipt.chainId, () => this.evm(receipt.chainId).transaction(receipt)) } }), query, lookup);
  }

  /** Reads what the classification of a transaction asks for, until it answers. */
  private async settle(start: () => Promise<Facts>, query: StatusQuery, lookup: Lookup): Promise<TransferStatus> {
    try {
      let current = await start();
      for (let steps = 0; steps < MAX_STEPS; steps += 1) {
        const step = current.on === 'evm' ? classifyTransfer(current.facts, query, this.context) : classifySolanaTransfer(current.facts, query, this.context);
        if (!step.need) return step.status;
        current = await this.gather(current, step.need, lookup);
      }
      return { status: 'PENDING', substatus: 'UNKNOWN_ERROR', substatusMessage: `The transactions of this transfer refer to each other over more than ${MAX_STEPS} reads; it cannot be followed.` };
    } catch (error) {
      if (error instanceof ChainUnavailable) return chainStoppedAnswering(error.message);
      throw error;
    }
  }

  private async gather(current: Facts, need: TransferNeed, lookup: Lookup): Promise<Facts> {
    switch (need.kind) {
      case 'replay': {
        if (current.on !== 'evm') return current;
        const replay = await this.evm(current.facts.tx.chainId).replay(current.facts.tx);
        return { on: 'evm', facts: { ...current.facts, replay } };
      }
      case 'sourceDeposit': {
        const { chainId } = need;
        if (this.solana.has(chainId)) {
          const tx = await this.read(chainId, () => solanaDeposit(this.solana.get(chainId)!, need.transferId, lookup));
          return tx ? this.solanaFacts(tx) : withFacts(current, { unknownDeposit: true });
        }
        const reads = this.evm(chainId);
        const hash = await this.read(chainId, () => reads.depositTransaction(chainId, need.depositId));
        if (!hash) return withFacts(current, { unknownDeposit: true });
        return this.evmFacts(chainId, hash);
      }
      case 'sourceTransaction': {
        const { chainId, hash } = need;
        if (this.solana.has(chainId)) {
          const tx = await this.read(chainId, () => solanaTransaction(this.solana.get(chainId)!, hash, lookup));
          return tx ? this.solanaFacts(tx) : withFacts(current, { unknownDeposit: true });
        }
        return this.evmFacts(chainId, hash);
      }
      case 'refund': {
        const reads = this.evm(need.chainId);
        const refund = await this.read(need.chainId, async () => {
          const emitted = await reads.refund(need.chainId, need.depositId, need.fromBlock);
          return emitted ? { ...emitted, settlement: await reads.settlement(need.chainId, emitted.txHash, emitted.blockNumber) } : null;
        });
        return withFacts(current, { refund });
      }
      case 'solanaRefund': {
        const refund = await this.read(need.chainId, () => solanaRefund(this.solana.get(need.chainId)!, need.transferId, need.depositSignature, lookup));
        return current.on === 'solana' ? { on: 'solana', facts: { ...current.facts, refund } } : current;
      }
      case 'release': {
        const { chainId } = need;
        if (this.solana.has(chainId)) {
          const release = await this.read(chainId, () => solanaReleaseOf(this.solana.get(chainId)!, need.fromChainId, need.transferId, need.depositId, lookup, this.context));
          return withFacts(current, { release });
        }
        const reads = this.evm(chainId);
        const emitted = await this.read(chainId, () => (need.depositId !== undefined
          ? reads.release(chainId, need.fromChainId, need.depositId)
          : reads.releaseOfTransfer(chainId, need.fromChainId, need.transferId)));
        if (!emitted) return withFacts(current, { release: null });
        const settlement = await this.read(chainId, () => reads.settlement(chainId, emitted.txHash, emitted.blockNumber));
        return withFacts(current, { release: { ...emitted, settlement } });
      }
    }
  }

  /** The EVM reads (a need names an EVM chain only when it is connected, so they are there). */
  private evm(chainId: number): TransferReads {
    if (!this.reads) throw new ChainUnavailable(chainId, new Error('no EVM chain is connected'));
    return this.reads;
  }

  private async evmFacts(chainId: number, hash: string): Promise<Facts> {
    const reads = this.evm(chainId);
    const receipt = await this.read(chainId, () => reads.receipt(chainId, hash));
    if (!receipt) throw new ChainUnavailable(chainId, new Error('deposit transaction without receipt'));
    return { on: 'evm', facts: { tx: await this.read(chainId, () => reads.transaction(receipt)) } };
  }

  private solanaFacts(tx: SolanaTransaction): Facts {
    return { on: 'solana', facts: { solana: tx, escrowOwner: this.solana.get(tx.chainId)!.escrowOwner } };
  }

  /** The gas refuel legs of a sending transaction (GET /v1/gas/status). */
  async gasStatus(txHash: string): Promise<GasRefillStatus> {
    const reads = this.reads;
    if (!reads || reads.chains.length === 0) return GAS_NOT_CONNECTED;
    const hash = txHash.toLowerCase();
    const unavailable = new Set<number>();
    const all = reads.chains.map((c) => c.chainId);
    const receipts = await Promise.all(all.map((chainId) => this.try(chainId, unavailable, () => reads.receipt(chainId, hash))));
    const receipt = receipts.find((r) => r);
    if (!receipt) {
      const pending = await Promise.all(all.map((chainId) => this.try(chainId, unavailable, () => reads.pending(chainId, hash))));
      const p = pending.findIndex((t) => t);
      return gasRefillNotMined(hash, p >= 0 ? all[p] : undefined, [...unavailable]);
    }
    let facts: GasRefillFacts = { receipt };
    for (;;) {
      const step = classifyGasRefill(facts, this.context);
      if (!step.need) return step.status;
      facts = { ...facts, ...(await this.gatherGas(reads, step.need, receipt)) };
    }
  }

  private async gatherGas(reads: TransferReads, need: GasRefillNeed, receipt: Receipt): Promise<Partial<GasRefillFacts>> {
    if (need.kind === 'confirmations') {
      const mined = await reads.transaction(receipt).catch(() => undefined);
      return { confirmations: mined?.confirmations ?? 'unavailable' };
    }
    if (need.kind === 'completed') {
      const receipt = await reads.receipt(need.chainId, need.txHash).catch(() => null);
      return { completed: receipt?.events.completed ?? null };
    }
    try {
      const [release, refund] = await Promise.all([
        reads.release(need.destinationChainId, need.chainId, need.depositId),
        reads.refund(need.chainId, need.depositId, need.fromBlock),
      ]);
      return { settled: { release, refund } };
    } catch {
      return { settled: 'unavailable' };
    }
  }

  /** Runs a read on a chain; a chain that fails is recorded as unavailable and the read answers undefined. */
  private async try<T>(chainId: number, unavailable: Set<number>, read: () => Promise<T | null>): Promise<T | undefined> {
    try {
      return (await read()) ?? undefined;
    } catch {
      unavailable.add(chainId);
      return undefined;
    }
  }

  /** Runs a read on a chain; a failure becomes ChainUnavailable (the answer is then PENDING CHAIN_NOT_AVAILABLE). */
  private async read<T>(chainId: number, read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (error) {
      throw new ChainUnavailable(chainId, error);
    }
  }
}

/** The facts with a part added, whichever chain they were read from. */
function withFacts(current: Facts, part: { readonly unknownDeposit?: true; readonly refund?: TransferFacts['refund']; readonly release?: Settled<ReleaseEvent> | null }): Facts {
  if (current.on === 'evm') return { on: 'evm', facts: { ...current.facts, ...part } };
  const { refund: _evmRefund, ...rest } = part;
  return { on: 'solana', facts: { ...current.facts, ...rest } };
}
