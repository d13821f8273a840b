/**
 * The Solana reads of a status request (tracker.ts): a transaction by its signature, and the bridge escrow's recent
 * transactions naming a transfer id in their memo (SolanaTransferReads.escrowTransactions), each checked for what its
 * memo claims (solana.ts, solanaBridgeRole): the transfer's deposit, its release, its refund. Lookup holds the reads
 * one request shares, so that each scan and each transaction is read once.
 */
import type { Settled, StatusContext } from './classify';
import type { ReleaseEvent, SolanaEscrowEntry, SolanaTransaction, SolanaTransferReads } from './ports';
import { solanaBridgeRole, solanaRelease } from './solana';

/** Escrow transactions naming a transfer id read in full, at most, per kind and lookup (the newest first). */
const MAX_ESCROW_CANDIDATES = 8;

/** The reads of one status request shared by its steps: Solana escrow scans and transactions, each made once. */
export class Lookup {
  readonly unavailable = new Set<number>();
  readonly scans = new Map<string, Promise<readonly SolanaEscrowEntry[]>>();
  readonly transactions = new Map<string, Promise<SolanaTransaction | null>>();
}

/** The transaction of `signature` on the chain of `solana` (read once per lookup), or null. */
export function solanaTransaction(solana: SolanaTransferReads, signature: string, lookup: Lookup): Promise<SolanaTransaction | null> {
  const key = `${solana.chain.chainId}|${signature}`;
  let read = lookup.transactions.get(key);
  if (!read) lookup.transactions.set(key, (read = solana.transaction(signature)));
  return read;
}

/** The escrow's transactions naming the transfer of `kind`, newest first (one scan per lookup; a deposit scan serves the others). */
async function escrowEntries(solana: SolanaTransferReads, transferId: string, kind: SolanaEscrowEntry['kind'], lookup: Lookup): Promise<readonly SolanaEscrowEntry[]> {
  const chainId = solana.chain.chainId;
  const withDeposits = `${chainId}|${transferId}|deposits`;
  const ownerOnly = `${chainId}|${transferId}|owner`;
  let scan = lookup.scans.get(withDeposits) ?? (kind === 'deposit' ? undefined : lookup.scans.get(ownerOnly));
  if (!scan) {
    const deposits = kind === 'deposit';
    scan = solana.escrowTransactions(transferId, { deposits });
    lookup.scans.set(deposits ? withDeposits : ownerOnly, scan);
  }
  return (await scan).filter((e) => e.kind === kind);
}

/** The transactions of entries, read in order, until `accept` takes one (at most MAX_ESCROW_CANDIDATES). */
async function firstOf<T>(solana: SolanaTransferReads, entries: readonly SolanaEscrowEntry[], lookup: Lookup, accept: (tx: SolanaTransaction) => T | undefined): Promise<T | null> {
  for (const entry of entries.slice(0, MAX_ESCROW_CANDIDATES)) {
    const tx = await solanaTransaction(solana, entry.signature, lookup);
    const accepted = tx ? accept(tx) : undefined;
    if (accepted !== undefined) return accepted;
  }
  return null;
}

/** The transfer's deposit into the escrow (a successful one before a failed one), or null. */
export async function solanaDeposit(solana: SolanaTransferReads, transferId: string, lookup: Lookup): Promise<SolanaTransaction | null> {
  const escrow = solana.escrowOwner;
  const entries = await escrowEntries(solana, transferId, 'deposit', lookup);
  const ordered = [...entries.filter((e) => !e.failed), ...entries.filter((e) => e.failed)];
  return firstOf(solana, ordered, lookup, (tx) => {
    const role = solanaBridgeRole(tx, escrow);
    return role.kind === 'deposit' && role.memo.transferId === transferId ? tx : undefined;
  });
}

/** The transaction a transfer id names on a Solana chain: its deposit, else its release (a transfer to Solana). */
export async function solanaTransferTransaction(solana: SolanaTransferReads, transferId: string, lookup: Lookup): Promise<SolanaTransaction | null> {
  const deposit = await solanaDeposit(solana, transferId, lookup);
  if (deposit) return deposit;
  const escrow = solana.escrowOwner;
  const entries = (await escrowEntries(solana, transferId, 'release', lookup)).filter((e) => !e.failed);
  return firstOf(solana, entries, lookup, (tx) => {
    const role = solanaBridgeRole(tx, escrow);
    return role.kind === 'release' && role.memo.transferId === transferId && tx.error === undefined ? tx : undefined;
  });
}

/** The escrow's release on Solana of a transfer from `fromChainId` (and of its deposit `depositId`, when it has one). */
export async function solanaReleaseOf(
  solana: SolanaTransferReads, fromChainId: number, transferId: string, depositId: bigint | undefined, lookup: Lookup, context: StatusContext,
): Promise<Settled<ReleaseEvent> | null> {
  const escrow = solana.escrowOwner;
  const entries = (await escrowEntries(solana, transferId, 'release', lookup)).filter((e) => !e.failed);
  return firstOf(solana, entries, lookup, (tx) => {
    const release = solanaRelease(tx, escrow, context);
    if (!release || release.event.transactionId !== transferId || release.event.fromChainId !== fromChainId) return undefined;
    return depositId === undefined || release.event.depositId === depositId ? release : undefined;
  });
}

/** The escrow's refund of the deposit `depositSignature`, or null. */
export async function solanaRefund(solana: SolanaTransferReads, transferId: string, depositSignature: string, lookup: Lookup): Promise<SolanaTransaction | null> {
  const escrow = solana.escrowOwner;
  const entries = (await escrowEntries(solana, transferId, 'refund', lookup)).filter((e) => !e.failed);
  return firstOf(solana, entries, lookup, (tx) => {
    const role = solanaBridgeRole(tx, escrow);
    return role.kind === 'refund' && tx.error === undefined && role.memo.transferId === transferId && role.memo.depositSignature === depositSignature ? tx : undefined;
  });
}
