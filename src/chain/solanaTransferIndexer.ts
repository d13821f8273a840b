/**
 * The transfer indexer's Solana side (a TransferFollower of transferIndexer.ts): follows the service's bridge escrow on
 * a connected Solana chain into the transfer index, so that a transfer from Solana is remembered as one from an EVM
 * chain is (GET /v1/analytics/transfers, the streams and webhooks, /v1/status from the index).
 *
 * What is followed: the escrow's accounts, i.e. its owner (SOL deposits, and every release and refund it signs) and
 * its associated token account of every SPL mint of the catalog (an SPL deposit touches that account only; routers.json
 * `tokenAccounts: everyCatalogMint`). Token accounts that anyone may open for the owner with other mints are not
 * followed: the service quotes no deposit of them, and their number is not the service's to bound.
 *
 * Each poll, under the chain's lease as for an EVM chain (claimChain, asChainWriter, moveCursor), the cursor being
 * the next slot to read (`nextBlock`) and a witness signature (`lastHash`, the newest escrow transaction read):
 * - the slot the node has at `confirmed` (the commitment the tracker reads transactions at; never `processed`, whose
 *   forks come and go) bounds the stretch; every account's signatures are read newest first
 *   (getSignaturesForAddress, pages of 1,000 going back with `before`, at `confirmed`, minContextSlot that slot, so
 *   that a node behind it answers nothing rather than a partial list) down to the cursor's slot. A cursor slot rather
 *   than `until` a signature: the accounts are several, and one cursor serves them all. On a first run the cursor
 *   starts at the node's slot then (transfers from then on), or at a given slot (the sandbox: 0, its whole history);
 * - each signature of the stretch, oldest first (at most MAX_SIGNATURES_PER_POLL per poll, whole slots; the next
 *   poll goes on from there), is asked of the transfer tracker (`tracker.status({ ref: signature, fromChainId })`, as
 *   GET /v1/status does) and kept when the transfer's sending transaction is that signature: a deposit into the escrow,
 *   whatever its state (a failed deposit is a FAILED transfer), keyed by chain and signature. A release (the
 *   receiving side of a transfer to Solana) and a refund answer their transfer's sending transaction, another one: that
 *   transfer is indexed by its deposit (an EVM → Solana transfer by its EVM deposit, followed to DONE by the release
 *   here), so they are not kept; the escrow's own memos say so before any read (`xchain:release:v1:`,
 *   `xchain:refund:v1:` without a deposit memo). INVALID (not a transaction of the bridge) is not kept either;
 * - a signature the tracker could not read through (no sending transaction in the answer: a chain did not answer) is
 *   kept when its memo is a deposit's (and read again until final, as any unsettled transfer); otherwise the cursor
 *   stops before its slot, and the next poll reads it again. So does a deposit's signature the tracker does not find
 *   (NOT_FOUND: a node behind the one that listed it); another NOT_FOUND is not kept;
 * - then the chain's unsettled transfers are read again, as the EVM side does; an answer that is not the transfer's
 *   own (a chain not answering) leaves the row as it was.
 *
 * Replaced slots: a confirmed slot is voted by a supermajority and is not expected to be replaced; if it were, the
 * witness signature would be gone from the node (getSignatureStatuses, searching its history), and the transfers of
 * the last REORG_DEPTH slots are forgotten and those slots read again, as an EVM reorganisation is handled.
 */
import { address, createSolanaRpc, signature as asSignature, type Address } from '@solana/kit';
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import type { ChainsConfig } from '../chainsConfig';
import type { Catalog } from '../core/catalog/catalog';
import { isListedOnly } from '../core/entities';
import { familyOf } from '../core/chains/families';
import { BRIDGE_MEMO_PREFIX, REFUND_MEMO_PREFIX, RELEASE_MEMO_PREFIX } from '../core/chains/solana/memo';
import type { TransferStatus } from '../core/status/transferStatus';
import { asChainWriter, claimChain, forgetFromBlock, moveCursor, saveTransfer, unsettledTransfers } from '../persistence/transfers';
import { inBatches, REORG_DEPTH, UNSETTLED_BATCH, type ChainPoll, type IndexerContext, type TransferFollower } from './transferIndexer';

/** Signatures whose status is read per chain and poll, at most (whole slots: a slot with more is read whole). */
const MAX_SIGNATURES_PER_POLL = 500;
/** Signatures per getSignaturesForAddress page (the node's maximum). */
const PAGE_SIZE = 1000;
/**
 * The index has no block hash for a Solana transaction (getSignaturesForAddress gives none, and replaced slots are
 * noticed by the witness signature): its rows say none.
 */
const NO_BLOCK_HASH = '';

/** A signature of an escrow account, as getSignaturesForAddress lists it. */
export interface EscrowSignature {
  readonly signature: string;
  readonly slot: number;
  /** The node's memo field: "[length] text" of each memo instruction, joined with "; " (null: none). */
  readonly memo: string | null;
}

/** The reads of a Solana chain the escrow's follower needs (over JSON-RPC: RpcEscrowNode). */
export interface EscrowNode {
  /** The highest slot the node has at `confirmed`. */
  confirmedSlot(): Promise<number>;
  /** The escrow's accounts whose transactions are followed: the owner, and its token account of every catalog mint. */
  accounts(): Promise<readonly string[]>;
  /**
   * The account's signatures at `confirmed`, newest first, older than `before` (when given), `limit` at most, from a
   * node that has reached `minContextSlot`.
   */
  signatures(account: string, options: { readonly before?: string; readonly limit: number; readonly minContextSlot: number }): Promise<readonly EscrowSignature[]>;
  /** Whether the node has the transaction (a signature of a replaced slot it no longer has). */
  has(signature: string): Promise<boolean>;
}

export interface SolanaFollowerOptions {
  /** The first slot read the first time the chain is indexed; undefined: the node's slot at that time. */
  readonly startSlot?: number;
  /** Signatures per page (default 1,000; tests page with fewer). */
  readonly pageSize?: number;
}

/** Whether a node's memo field holds a deposit's bridge memo. */
function depositMemo(memo: string | null): boolean {
  return memo?.includes(BRIDGE_MEMO_PREFIX) ?? false;
}

/** Whether a node's memo field holds only the escrow's own memos (a release, a refund) and no deposit's. */
function escrowMemo(memo: string | null): boolean {
  return memo !== null && !depositMemo(memo) && (memo.includes(RELEASE_MEMO_PREFIX) || memo.includes(REFUND_MEMO_PREFIX));
}

/** Whether `status` is the answer of the transfer that `signature` (on `chainId`) sends. */
function sentBy(status: TransferStatus, chainId: number, signature: string): boolean {
  return status.sending?.chainId === chainId && status.sending.txHash === signature;
}

/**
 * What the index does with an escrow signature, given the tracker's answer: `keep` it (the transfer it sends), `skip`
 * it (another transfer's receiving or refunding transaction, or not the bridge's), or read it again next poll
 * (`undecided`: the tracker could not read it through, and nothing says it is a deposit).
 */
function decide(status: TransferStatus, chainId: number, listed: EscrowSignature): 'keep' | 'skip' | 'undecided' {
  if (status.sending?.txHash !== undefined) return sentBy(status, chainId, listed.signature) ? 'keep' : 'skip';
  if (status.status === 'INVALID') return 'skip';
  // NOT_FOUND: listed by one node, not given by the one asked (behind it)? A deposit's is asked again; others are left
  if (status.status === 'NOT_FOUND') return depositMemo(listed.memo) ? 'undecided' : 'skip';
  return depositMemo(listed.memo) ? 'keep' : 'undecided';
}

/** The first signatures of `listed` (oldest first), MAX_SIGNATURES_PER_POLL at most in whole slots; the last slot they complete. */
function firstSlots(listed: readonly EscrowSignature[], head: number): { readonly batch: readonly EscrowSignature[]; readonly end: number } {
  if (listed.length <= MAX_SIGNATURES_PER_POLL) return { batch: listed, end: head };
  const cut = listed[MAX_SIGNATURES_PER_POLL].slot;
  const end = cut > listed[0].slot ? cut - 1 : cut;
  return { batch: listed.filter((s) => s.slot <= end), end };
}

/** The indexer's follower of one Solana chain's bridge escrow (see the module comment). */
export class SolanaTransferFollower implements TransferFollower {
  constructor(readonly chainId: number, private readonly node: EscrowNode, private readonly options: SolanaFollowerOptions = {}) {}

  async poll(indexer: IndexerContext): Promise<ChainPoll> {
    const { db, holder, tracker } = indexer;
    const { chainId, node } = this;
    const head = await node.confirmedSlot();
    const cursor = await claimChain(db, chainId, holder, { now: indexer.now(), leaseMs: indexer.leaseMs, startBlock: this.options.startSlot ?? head });
    if (!cursor) return { chainId, leased: false, saved: 0, refreshed: 0, forgotten: 0 };

    // the newest transaction read is still the chain's? (else: its slot was replaced)
    let from = cursor.nextBlock;
    let witness = cursor.lastHash;
    let forgotten = 0;
    if (witness !== undefined && !(await node.has(witness))) {
      const rewound = Math.max(this.options.startSlot ?? 0, from - REORG_DEPTH);
      forgotten = await asChainWriter(db, chainId, holder, indexer.now(), async (trx) => {
        const count = await forgetFromBlock(trx, chainId, rewound);
        await moveCursor(trx, chainId, { nextBlock: rewound });
        return count;
      });
      indexer.logger.info({ chainId, witness, rewound, forgotten }, `indexer: chain ${chainId}: transaction ${witness} is gone; reading again from slot ${rewound}`);
      from = rewound;
      witness = undefined;
    }

    // the escrow's transactions in the new slots
    let saved = 0;
    let to = from - 1;
    if (from <= head) {
      const { batch, end } = firstSlots(await this.listed(from, head), head);
      const read = await inBatches(batch.filter((s) => !escrowMemo(s.memo)), async (listed) => ({
        listed, status: await tracker.status({ ref: listed.signature, fromChainId: chainId }),
      }));
      let next = end + 1;
      for (const { listed, status } of read) if (decide(status, chainId, listed) === 'undecided') next = Math.min(next, listed.slot);
      const kept = read.filter(({ listed, status }) => listed.slot < next && decide(status, chainId, listed) === 'keep');
      const newest = batch.filter((s) => s.slot < next).at(-1)?.signature ?? witness;
      await asChainWriter(db, chainId, holder, indexer.now(), async (trx) => {
        for (const { listed, status } of kept) {
          await saveTransfer(trx, { chainId, txHash: listed.signature, blockNumber: listed.slot, blockHash: NO_BLOCK_HASH, status }, indexer.now());
        }
        await moveCursor(trx, chainId, { nextBlock: next, ...(newest !== undefined ? { lastHash: newest } : {}) });
      });
      saved = kept.length;
      to = next - 1;
    }

    // the transfers still under way: read again (an answer that is not theirs, a chain not answering, changes nothing)
    const unsettled = await unsettledTransfers(db, chainId, UNSETTLED_BATCH);
    if (unsettled.length > 0) {
      const statuses = await inBatches(unsettled, async (u) => ({ ...u, status: await tracker.status({ ref: u.txHash, fromChainId: chainId }) }));
      const own = statuses.filter((s) => sentBy(s.status, chainId, s.txHash));
      if (own.length > 0) {
        await asChainWriter(db, chainId, holder, indexer.now(), async (trx) => {
          for (const s of own) await saveTransfer(trx, { chainId, txHash: s.txHash, blockNumber: s.blockNumber, blockHash: s.blockHash, status: s.status }, indexer.now());
        });
      }
    }
    return { chainId, leased: true, fromBlock: from, toBlock: to, saved, refreshed: unsettled.length, forgotten };
  }

  /** The escrow accounts' signatures of slots `from` to `head`, each once, oldest first. */
  private async listed(from: number, head: number): Promise<EscrowSignature[]> {
    const pageSize = this.options.pageSize ?? PAGE_SIZE;
    const lists = await inBatches(await this.node.accounts(), async (account) => {
      const found: EscrowSignature[] = [];
      let before: string | undefined;
      for (;;) {
        const page = await this.node.signatures(account, { limit: pageSize, minContextSlot: head, ...(before !== undefined ? { before } : {}) });
        found.push(...page.filter((s) => s.slot >= from && s.slot <= head));
        const oldest = page.at(-1);
        // (a node that would answer the same page again is not asked again)
        if (!oldest || page.length < pageSize || oldest.slot < from || oldest.signature === before) return found;
        before = oldest.signature;
      }
    });
    const unique = new Map(lists.flat().map((s) => [s.signature, s]));
    return [...unique.values()].sort((a, b) => a.slot - b.slot);
  }
}

// ------------------------------------------------------------------------------------------ over JSON-RPC

export interface RpcEscrowNodeOptions {
  readonly rpcUrl: string;
  /** The escrow's owner (base58): routers.json's bridgeEscrows entry of the chain. */
  readonly escrowOwner: string;
  /** The SPL mints whose escrow token accounts are followed (asked at each poll: the catalog in use). */
  readonly mints: () => readonly string[];
  /** Bound of every RPC call (default 3,000 ms). */
  readonly timeoutMs?: number;
}

/** The escrow's reads over the Solana JSON-RPC (@solana/kit's createSolanaRpc). */
export class RpcEscrowNode implements EscrowNode {
  private readonly rpc: ReturnType<typeof createSolanaRpc>;
  private readonly owner: Address;
  /** The owner's associated token account by mint (derived once). */
  private readonly tokenAccounts = new Map<string, Promise<string>>();

  constructor(private readonly options: RpcEscrowNodeOptions) {
    this.rpc = createSolanaRpc(options.rpcUrl);
    this.owner = address(options.escrowOwner);
  }

  private get send() {
    return { abortSignal: AbortSignal.timeout(this.options.timeoutMs ?? 3000) };
  }

  async confirmedSlot(): Promise<number> {
    return Number(await this.rpc.getSlot({ commitment: 'confirmed' }).send(this.send));
  }

  async accounts(): Promise<readonly string[]> {
    return [this.owner, ...(await Promise.all(this.options.mints().map((mint) => this.tokenAccount(mint))))];
  }

  async signatures(account: string, options: { readonly before?: string; readonly limit: number; readonly minContextSlot: number }): Promise<readonly EscrowSignature[]> {
    const list = await this.rpc
      .getSignaturesForAddress(address(account), {
        limit: options.limit, commitment: 'confirmed', minContextSlot: BigInt(options.minContextSlot),
        ...(options.before !== undefined ? { before: asSignature(options.before) } : {}),
      })
      .send(this.send);
    return list.map((info) => ({ signature: info.signature, slot: Number(info.slot), memo: info.memo }));
  }

  async has(signature: string): Promise<boolean> {
    const { value } = await this.rpc.getSignatureStatuses([asSignature(signature)], { searchTransactionHistory: true }).send(this.send);
    return value[0] !== null && value[0] !== undefined;
  }

  private tokenAccount(mint: string): Promise<string> {
    let account = this.tokenAccounts.get(mint);
    if (!account) {
      account = findAssociatedTokenPda({ owner: this.owner, mint: address(mint), tokenProgram: TOKEN_PROGRAM_ADDRESS }).then(([ata]) => ata as string);
      this.tokenAccounts.set(mint, account);
    }
    return account;
  }
}

/**
 * The Solana followers of chain mode: one per CHAINS_FILE entry of a chain whose family is checked by its genesis hash
 * (Solana; the entries solanaNode.ts checks) and whose bridge escrow `escrowOwnerOf` knows, following the escrow's
 * token accounts of the SPL mints `catalog` lists on the chain (every token but the native coin).
 */
export function solanaFollowersOf(
  config: ChainsConfig | undefined, catalog: () => Catalog, escrowOwnerOf: (chainId: number) => string | undefined, options: SolanaFollowerOptions = {},
): SolanaTransferFollower[] {
  return (config?.chains ?? []).flatMap((c) => {
    const chain = catalog().getChain(c.chainId);
    const escrowOwner = escrowOwnerOf(c.chainId);
    if (!chain || familyOf(chain).rpcCheck !== 'solanaGenesisHash' || !escrowOwner) return [];
    const mints = () => {
      const current = catalog();
      const native = current.getChain(c.chainId)?.nativeToken.address;
      // the mints the service quotes deposits of: a listed-only token has no bridge route
      return current.tokensOf(c.chainId).filter((t) => !isListedOnly(t)).map((t) => t.address).filter((a) => a !== native);
    };
    // the chains file's indexFromBlock is the first slot on a Solana entry (the escrow's deployment, to index it all)
    const start = c.indexFromBlock !== undefined ? { startSlot: c.indexFromBlock } : {};
    return [new SolanaTransferFollower(c.chainId, new RpcEscrowNode({ rpcUrl: c.rpcUrl, escrowOwner, mints, timeoutMs: config!.rpcTimeoutMs }), { ...options, ...start })];
  });
}
