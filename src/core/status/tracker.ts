/**
 * Transfer tracking (GET /v1/status, GET /v1/gas/status): finds the transaction a reference names on the connected
 * chains, then reads what the classification (classify.ts, gasRefill.ts) asks for until it answers. The chains are
 * read through TransferReads (ports.ts); without them (chain mode off) every reference is NOT_FOUND.
 *
 * A reference is a transaction hash (sending or receiving), a transfer id (BridgeData.transactionId) or a step id
 * (UUID, whose transfer id is transactionIdOf(stepId)). fromChain / toChain are searched first; the other connected
 * chains only when those do not know the hash. A hash known but not mined yet is PENDING WAIT_SOURCE_CONFIRMATIONS;
 * a chain that does not answer gives PENDING CHAIN_NOT_AVAILABLE, never an error. Final answers (DONE, FAILED,
 * INVALID) never change and are kept in a small cache.
 */
import { LRUCache } from 'lru-cache';
import type { Catalog } from '../catalog/catalog';
import { transactionIdOf } from '../transactions/ids';
import {
  chainNotConnected, chainStoppedAnswering, classifyTransfer, NOT_AN_EVM_REFERENCE, NOT_CONNECTED, notFound, notMined,
  type StatusContext, type TransferFacts, type TransferNeed,
} from './classify';
import { classifyGasRefill, GAS_NOT_CONNECTED, gasRefillNotMined, type GasRefillFacts, type GasRefillNeed } from './gasRefill';
import type { Receipt, TransferReads } from './ports';
import type { GasRefillStatus, StatusQuery, TransferStatus } from './transferStatus';

const HASH = /^0x[0-9a-fA-F]{64}$/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

export interface TrackerOptions {
  /** The exchange (tool key) a swap's callTo belongs to: exchange routers and pools (undefined: unknown). */
  readonly exchangeOf?: (chainId: number, address: string) => string | undefined;
}

/** A read of `chainId` failed while a transfer was being read. */
class ChainUnavailable extends Error {
  constructor(readonly chainId: number, cause: unknown) {
    super(`chain ${chainId} did not answer: ${(cause as Error)?.message ?? String(cause)}`);
  }
}

export class TransferTracker {
  private readonly final = new LRUCache<string, TransferStatus>({ max: 10_000 });
  private readonly context: StatusContext;

  /** `reads`: the connected chains (undefined: chain mode off). */
  constructor(private readonly reads: TransferReads | undefined, catalog: Catalog, options: TrackerOptions = {}) {
    const chains = new Map((reads?.chains ?? []).map((c) => [c.chainId, c]));
    this.context = {
      chain: (chainId) => chains.get(chainId),
      token: (chainId, address) => catalog.findToken(chainId, address),
      nativeToken: (chainId) => catalog.getChain(chainId)?.nativeToken,
      exchangeOf: (chainId, address) => options.exchangeOf?.(chainId, address),
    };
  }

  /** The status of a transfer (see the module comment). Never throws for a chain that does not answer. */
  async status(query: StatusQuery): Promise<TransferStatus> {
    const key = `${query.ref.toLowerCase()}|${query.bridge ?? ''}`;
    const cached = this.final.get(key);
    if (cached) return cached;
    const result = await this.lookUp(query);
    if (result.status === 'DONE' || result.status === 'FAILED' || result.status === 'INVALID') this.final.set(key, result);
    return result;
  }

  private async lookUp(query: StatusQuery): Promise<TransferStatus> {
    const reads = this.reads;
    if (!reads || reads.chains.length === 0) return NOT_CONNECTED;
    for (const id of [query.fromChainId, query.toChainId]) {
      if (id !== undefined && !this.context.chain(id)) return chainNotConnected(id);
    }
    const phases = this.phases(reads, query);
    const candidates = phases.flat();
    const unavailable = new Set<number>();

    if (UUID.test(query.ref)) return this.byTransferId(reads, transactionIdOf(query.ref), query, candidates, unavailable);
    if (!HASH.test(query.ref)) return NOT_AN_EVM_REFERENCE;
    const hash = query.ref.toLowerCase();
    for (const phase of phases) {
      const receipts = await Promise.all(phase.map((chainId) => this.try(chainId, unavailable, () => reads.receipt(chainId, hash))));
      const found = receipts.find((r) => r);
      if (found) return this.settle(reads, found, query);
    }
    const pending = await Promise.all(candidates.map((chainId) => this.try(chainId, unavailable, () => reads.pending(chainId, hash))));
    const p = pending.findIndex((t) => t);
    if (p >= 0) return notMined(candidates[p], hash, pending[p]!);
    return this.byTransferId(reads, hash, query, candidates, unavailable);
  }

  /** The chains to search, in phases: the ones named by the query, then the others. */
  private phases(reads: TransferReads, query: StatusQuery): number[][] {
    const all = reads.chains.map((c) => c.chainId);
    const named = [...new Set([query.fromChainId, query.toChainId].filter((id): id is number => id !== undefined))];
    if (named.length === 0) return [all];
    const others = all.filter((id) => !named.includes(id));
    return others.length > 0 ? [named, others] : [named];
  }

  private async byTransferId(reads: TransferReads, id: string, query: StatusQuery, candidates: number[], unavailable: Set<number>): Promise<TransferStatus> {
    const transferId = id.toLowerCase();
    const found = await Promise.all(candidates.map((chainId) => this.try(chainId, unavailable, async () => {
      const hash = await reads.transferTransaction(chainId, transferId);
      return hash ? { chainId, hash } : null;
    })));
    const hit = found.find((f) => f);
    if (hit) {
      const receipt = await this.try(hit.chainId, unavailable, () => reads.receipt(hit.chainId, hit.hash));
      if (receipt) return this.settle(reads, receipt, query);
    }
    return notFound([...unavailable]);
  }

  /** Reads what the classification of a mined transaction asks for, until it answers. */
  private async settle(reads: TransferReads, receipt: Receipt, query: StatusQuery): Promise<TransferStatus> {
    try {
      let facts: TransferFacts = { tx: await this.read(receipt.chainId, () => reads.transaction(receipt)) };
      for (;;) {
        const step = classifyTransfer(facts, query, this.context);
        if (!step.need) return step.status;
        facts = await this.gather(reads, facts, step.need);
      }
    } catch (error) {
      if (error instanceof ChainUnavailable) return chainStoppedAnswering(error.message);
      throw error;
    }
  }

  private async gather(reads: TransferReads, facts: TransferFacts, need: TransferNeed): Promise<TransferFacts> {
    switch (need.kind) {
      case 'replay':
        return { ...facts, replay: await reads.replay(facts.tx) };
      case 'sourceDeposit': {
        const { chainId } = need;
        const hash = await this.read(chainId, () => reads.depositTransaction(chainId, need.depositId));
        if (!hash) return { ...facts, unknownDeposit: true };
        const receipt = await this.read(chainId, () => reads.receipt(chainId, hash));
        if (!receipt) throw new ChainUnavailable(chainId, new Error('deposit transaction without receipt'));
        return { tx: await this.read(chainId, () => reads.transaction(receipt)) };
      }
      case 'refund': {
        const refund = await this.read(need.chainId, async () => {
          const emitted = await reads.refund(need.chainId, need.depositId, need.fromBlock);
          return emitted ? { ...emitted, settlement: await reads.settlement(need.chainId, emitted.txHash, emitted.blockNumber) } : null;
        });
        return { ...facts, refund };
      }
      case 'release': {
        const emitted = await this.read(need.chainId, () => reads.release(need.chainId, need.fromChainId, need.depositId));
        if (!emitted) return { ...facts, release: null };
        const settlement = await this.read(need.chainId, () => reads.settlement(need.chainId, emitted.txHash, emitted.blockNumber));
        return { ...facts, release: { ...emitted, settlement } };
      }
    }
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
      facts = { ...facts, ...(await this.gatherGas(reads, step.need)) };
    }
  }

  private async gatherGas(reads: TransferReads, need: GasRefillNeed): Promise<Partial<GasRefillFacts>> {
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
