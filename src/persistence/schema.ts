/**
 * The tables of the service's database, as Kysely sees them (one schema for PGlite and PostgreSQL; the
 * migrations in migrations.ts create it). Timestamps are timestamptz (read as Date), ids and amounts text.
 *
 * A column's type is `ColumnType<read, insert, update>`; `Generated<T>` is a column the database fills
 * (a default or an identity) that an insert may leave out.
 */
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { BlockRule as AutomaticBlockRule } from '../core/access/blocking';
import type { RelayTaskState } from '../core/relay/tasks';

/** A timestamptz column: a Date when read; a Date (or an ISO 8601 text) when written. */
export type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** A timestamptz column with a default (now()). */
export type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

/** Who or what a block or a usage counter is about: an API key (by id) or a client address (its rate-limit id). */
export type SubjectKind = 'key' | 'client';

export interface Subject {
  readonly kind: SubjectKind;
  /** The key's id, or the client's address as rate limits name it (an IPv4 address, an IPv6 /64 network). */
  readonly id: string;
}

/** What a key event records. */
export const KEY_EVENT_TYPES = [
  'created',
  'imported',
  'renamed',
  'rotated',
  'revoked',
  'blocked',
  'unblocked',
  'allowlist-changed',
  'limit-changed',
  'integrators-changed',
] as const;
export type KeyEventType = (typeof KEY_EVENT_TYPES)[number];

/** The rules a block is made by: the automatic detectors, and an operator's decision (`manual`). */
export type BlockRule = AutomaticBlockRule | 'manual';

/** A partner: the holder of a wallet that receives integrator fees (EIP-55 checksummed address). */
export interface PartnersTable {
  wallet: string;
  name: string | null;
  created_at: CreatedAt;
}

/** An integrator id (the contract's IntegratorString), registered once, and the wallet its fees are booked to. */
export interface IntegratorsTable {
  id: string;
  /** References partners.wallet. */
  fee_wallet: string;
  created_at: CreatedAt;
}

/** An API key: never the key, only its SHA-256 (lower-case hex, unique). */
export interface ApiKeysTable {
  id: string;
  sha256: string;
  name: string | null;
  /** The integrator the key belongs to (references integrators.id); null for operators' keys. */
  integrator_id: string | null;
  /** Integrator ids the key may name in `integrator`; null = any (or only its own integrator's, when it has one). */
  integrators: string[] | null;
  /** Addresses and CIDR ranges the key may be used from; null = anywhere. */
  ip_allowlist: string[] | null;
  /** Per-minute limit; null = the default. */
  per_minute: number | null;
  created_at: Timestamp;
  /** After this instant the key no longer authenticates (the end of a rotation's grace period); null = never. */
  expires_at: Timestamp | null;
  revoked_at: Timestamp | null;
  /** The key that replaced this one (rotation). */
  rotated_to: string | null;
}

/** What happened to a key, when, and who did it. */
export interface KeyEventsTable {
  id: Generated<number>;
  key_id: string;
  type: KeyEventType;
  at: Timestamp;
  actor: string;
  /** Details of the event (JSON): the new name, the old and new allowlist, the block's rule... */
  detail: ColumnType<Record<string, unknown> | null, string | null, never>;
}

/** A block of a subject: refused until `until` (null = until lifted), unless lifted earlier. */
export interface BlocksTable {
  id: Generated<number>;
  subject_kind: SubjectKind;
  subject: string;
  rule: BlockRule;
  reason: string;
  since: Timestamp;
  until: Timestamp | null;
  /** 1 for the subject's first block, n for its n-th (so that a repeat offender can be blocked longer). */
  level: number;
  created_by: string;
  lifted_at: Timestamp | null;
  lifted_by: string | null;
}

/** A key document imported into the database (once per content). */
export interface KeyImportsTable {
  id: Generated<number>;
  source: string;
  /** SHA-256 of the document's text: the same document is imported once. */
  content_sha256: string;
  key_count: number;
  imported_at: Timestamp;
}

/** Requests and refusals of a subject for one operation in one minute (0002_usage). */
export interface UsageMinutesTable {
  subject_kind: SubjectKind;
  subject: string;
  operation_id: string;
  /** The start of the minute. */
  minute: Timestamp;
  requests: ColumnType<number, number | undefined, number>;
  refused_401: ColumnType<number, number | undefined, number>;
  refused_403: ColumnType<number, number | undefined, number>;
  refused_429: ColumnType<number, number | undefined, number>;
}

/** The requests of one key from one client address in one minute (0002_usage). */
export interface KeyClientMinutesTable {
  key_id: string;
  /** The client's rate-limit id (an IPv4 address, an IPv6 /64). */
  client_id: string;
  minute: Timestamp;
  requests: ColumnType<number, number | undefined, number>;
  refused_429: ColumnType<number, number | undefined, number>;
  /** Refused because the address is outside the key's IP allowlist. */
  outside_allowlist: ColumnType<number, number | undefined, number>;
}

/**
 * A partner portal session (0003_portal_sessions): found by the SHA-256 (lower-case hex) of its id, which only the
 * browser's cookie holds.
 */
export interface PortalSessionsTable {
  id_hash: string;
  /** The signed-in wallet, EIP-55 checksummed. */
  address: string;
  /** bigint: read as a number (PGlite) or a decimal string (node-postgres). */
  chain_id: ColumnType<number | string, number, never>;
  csrf_token: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

/** A Sign-In with Ethereum nonce issued by the portal and not used yet (0003_portal_sessions). */
export interface PortalNoncesTable {
  /** 32 lower-case hex digits. */
  nonce: string;
  expires_at: Timestamp;
}

/** A transfer the indexer found (0005_transfers), keyed by its sending transaction. */
export interface TransfersTable {
  seq: Generated<number | string>;
  /** bigint columns: read as a number (PGlite) or a decimal string (node-postgres). */
  chain_id: ColumnType<number | string, number, number>;
  /** Lower-case 0x hex. */
  tx_hash: string;
  block_number: ColumnType<number | string, number, number>;
  block_hash: string;
  /** The sending block's time. */
  started_at: Timestamp;
  /** The router's transfer id (lower-case hex), when the call has one. */
  transfer_id: string | null;
  integrator: string | null;
  /** Lower-case. */
  from_address: string | null;
  to_address: string | null;
  to_chain_id: ColumnType<number | string | null, number | null, number | null>;
  status: 'PENDING' | 'DONE' | 'FAILED' | 'INVALID';
  substatus: string | null;
  tool: string | null;
  /** The sent amount's USD value when it was indexed (display and summaries only). */
  amount_usd: number | null;
  /** DONE, FAILED or INVALID: never read from the chain again. */
  final: boolean;
  /** The TransferStatus (src/core/status/record.ts). */
  record: string;
  updated_at: Timestamp;
}

/** How far the indexer read a chain, and the instance that reads it (0005_transfers). */
export interface IndexerCursorsTable {
  chain_id: ColumnType<number | string, number, number>;
  /** The first block not read yet. */
  next_block: ColumnType<number | string, number, number>;
  /** The hash of block next_block - 1, as read (a different hash later: a reorganisation). */
  last_hash: string | null;
  holder: string | null;
  lease_until: Timestamp | null;
}

/** A state a transfer of the index took (0006_transfer_events), in the order the indexer saw them. */
export interface TransferEventsTable {
  seq: Generated<number | string>;
  chain_id: ColumnType<number | string, number, number>;
  tx_hash: string;
  transfer_id: string | null;
  integrator: string | null;
  from_address: string | null;
  to_address: string | null;
  status: string;
  substatus: string | null;
  /** The TransferStatus (src/core/status/record.ts). */
  record: string;
  created_at: Timestamp;
}

/** An integrator's webhook (0006_transfer_events). */
export interface WebhooksTable {
  id: string;
  integrator_id: string;
  url: string;
  /** The HMAC key deliveries are signed with (src/webhooks/signature.ts). */
  secret: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One delivery of one transfer event to one webhook (0006_transfer_events). */
export interface WebhookDeliveriesTable {
  id: Generated<number | string>;
  webhook_id: string;
  event_seq: ColumnType<number | string, number | string, never>;
  chain_id: ColumnType<number | string, number, never>;
  tx_hash: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: Timestamp;
  /** The instance sending it, until claimed_until (another takes it over after). */
  claimed_by: string | null;
  claimed_until: Timestamp | null;
  last_status: number | null;
  last_error: string | null;
  delivered_at: Timestamp | null;
  created_at: Timestamp;
}

/** A numeric(78, 0) column (a uint256: an amount, gas, a nonce): read and written as a decimal string. */
export type Uint256 = ColumnType<string, string, never>;

/** A relay attempt as relay_tasks.attempts holds it (JSON): the fees as decimal strings, sentAt ISO 8601. */
export interface StoredRelayAttempt {
  readonly txHash: string;
  readonly maxFeePerGas: string;
  readonly maxPriorityFeePerGas: string;
  readonly sentAt: string;
}

/** A task of the gasless relayer (0007_relay_tasks): one per Permit2 signature (chain_id, owner, permit_nonce). */
export interface RelayTasksTable {
  /** 0x and 64 lower-case hex digits. */
  task_id: string;
  /** bigint: read as a number (PGlite) or a decimal string (node-postgres). */
  chain_id: ColumnType<number | string, number, never>;
  /** The signer, EIP-55 checksummed. */
  owner: string;
  permit_nonce: Uint256;
  /** Unix seconds (bigint: written as a decimal string). */
  deadline: ColumnType<number | string, string, never>;
  to_address: string;
  data: string;
  gas_limit: Uint256;
  fee_token: string;
  fee_amount: Uint256;
  integrator: string | null;
  /** The step as relayed (JSON, its bigints under a `$bigint` marker). */
  step: ColumnType<unknown, string | null, never>;
  state: RelayTaskState;
  /** The relayer's account (EIP-55) and its nonce, set by the first attempt and kept by replacements. */
  relayer: string | null;
  relayer_nonce: ColumnType<string | null, string | null | undefined, string | null>;
  /** Every transaction sent, the last first (a JSON array, written as JSON text). */
  attempts: ColumnType<StoredRelayAttempt[], string | undefined, string>;
  mined_tx_hash: string | null;
  succeeded: boolean | null;
  /** The mined transaction's gas used, and its cost to the relayer in wei (0008_relay_task_gas). */
  gas_used: ColumnType<string | null, string | null | undefined, string | null>;
  gas_cost_wei: ColumnType<string | null, string | null | undefined, string | null>;
  error: string | null;
  /** The instance sending it, until claimed_until (another claims it after). */
  claimed_by: string | null;
  claimed_until: Timestamp | null;
  last_sent_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The next nonce of a relayer account on a chain (0007_relay_tasks), shared by every instance. */
export interface RelayerNoncesTable {
  chain_id: ColumnType<number | string, number, never>;
  /** EIP-55. */
  relayer: string;
  next_nonce: ColumnType<string, string, string>;
}

export interface Schema {
  partners: PartnersTable;
  integrators: IntegratorsTable;
  api_keys: ApiKeysTable;
  key_events: KeyEventsTable;
  blocks: BlocksTable;
  key_imports: KeyImportsTable;
  usage_minutes: UsageMinutesTable;
  key_client_minutes: KeyClientMinutesTable;
  portal_sessions: PortalSessionsTable;
  portal_nonces: PortalNoncesTable;
  transfers: TransfersTable;
  indexer_cursors: IndexerCursorsTable;
  transfer_events: TransferEventsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  relay_tasks: RelayTasksTable;
  relayer_nonces: RelayerNoncesTable;
}

export type ApiKeyRow = Selectable<ApiKeysTable>;
export type NewApiKey = Insertable<ApiKeysTable>;
export type BlockRow = Selectable<BlocksTable>;
