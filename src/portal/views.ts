/**
 * What the portal's answers are made of (api.ts's shapes) from the repositories' and the core's values, and the
 * checks of what partners send: a key's status, the usage ranges, the allowlist, fee balances and the withdrawal
 * transaction as a wallet takes it, the webhook (never its secret) and its deliveries, the integrator's transfers with
 * their explorer pages. No HTTP here.
 */
import type { Catalog } from '../core/catalog/catalog';
import { unsafeNameProblem } from '../core/text';
import type { Chain } from '../core/entities';
import { familyOf } from '../core/chains/families';
import { AddressSet } from '../core/access/ipAddress';
import { keyLimits } from '../core/access/policy';
import type { IntegratorFeeReport } from '../core/fees/balances';
import type { FeeWithdrawal } from '../core/fees/withdrawal';
import type { Block } from '../persistence/blocks';
import type { TransferStatus } from '../core/status/transferStatus';
import type { KeyView } from '../persistence/keyRows';
import type { DeliveryView, Webhook } from '../persistence/webhooks';
import type { WebhookUrlError } from '../webhooks/target';
import type { BlockInfo, FeesAnswer, KeyStatus, PortalKey, PortalTransfer, PortalWebhook, UsageRange, WebhookDeliveryInfo, WithdrawalAnswer } from './api';

/** A rotated key keeps working this long by default. */
export const DEFAULT_GRACE_MS = 24 * 3_600_000;
/** The most entries an allowlist may have. */
export const MAX_ALLOWLIST_ENTRIES = 100;
/** The longest key name. */
export const MAX_NAME_LENGTH = 100;
/** The webhook's latest deliveries shown. */
export const DELIVERIES_SHOWN = 20;
/** Transfers listed by default, and at most. */
export const DEFAULT_TRANSFERS = 20;
export const MAX_TRANSFERS = 50;

/** An input the partner sent that cannot be used: answered 400 with the message (and details for the page). */
export class InputError extends Error {
  override readonly name = 'InputError';
  constructor(
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export function keyStatus(view: KeyView, now: number): KeyStatus {
  if (view.revokedAt !== undefined) return 'revoked';
  if (view.expiresAt !== undefined) return Date.parse(view.expiresAt) <= now ? 'expired' : 'grace';
  return 'active';
}

export function blockInfo(block: Block): BlockInfo {
  return { rule: block.rule, reason: block.reason, since: block.since, ...(block.until === undefined ? {} : { until: block.until }) };
}

/** A key as the portal shows it, with its limits and the blocks in force. */
export function portalKey(view: KeyView, blocks: readonly Block[], now: number): PortalKey {
  return {
    id: view.id,
    ...(view.name === undefined ? {} : { name: view.name }),
    createdAt: view.createdAt,
    status: keyStatus(view, now),
    ...(view.ipAllowlist === undefined ? {} : { ipAllowlist: view.ipAllowlist }),
    ...(view.expiresAt === undefined ? {} : { expiresAt: view.expiresAt }),
    ...(view.revokedAt === undefined ? {} : { revokedAt: view.revokedAt }),
    ...(view.rotatedTo === undefined ? {} : { rotatedTo: view.rotatedTo }),
    limits: keyLimits(view.perMinute),
    blocks: blocks.map(blockInfo),
  };
}

const STATUS_ORDER: Readonly<Record<KeyStatus, number>> = { active: 0, grace: 0, expired: 1, revoked: 1 };

/** Keys that work first (newest first), then the past ones (newest first). */
export function orderKeys(keys: readonly PortalKey[]): PortalKey[] {
  return [...keys].sort((a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
}

/**
 * A key name: trimmed, 1 to MAX_NAME_LENGTH characters, without control characters or bidirectional controls
 * (src/core/text.ts: the name is shown back in the portal and the CLI). Checked before trimming, so that a line
 * break at either end is refused too rather than silently dropped.
 */
export function keyName(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw new InputError('name must be a non-empty string');
  const problem = unsafeNameProblem('name', value);
  if (problem) throw new InputError(problem);
  const name = value.trim();
  if (name.length > MAX_NAME_LENGTH) throw new InputError(`name is longer than ${MAX_NAME_LENGTH} characters`);
  return name;
}

/**
 * An integrator id as sent for registration: a string, without the characters no name may hold (named with the
 * rule, as for key names), then trimmed; its pattern is the repository's to check (src/persistence/integrators.ts).
 */
export function integratorIdOf(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw new InputError('integratorId must be the id to register (letters, digits, ".", "_" and "-", at most 64)');
  const problem = unsafeNameProblem('integratorId', value);
  if (problem) throw new InputError(problem);
  return value.trim();
}

/**
 * An IP allowlist as sent: a list of addresses and CIDR ranges (or `loopback`, `linklocal`, `uniquelocal`), each
 * checked on its own so that the answer names every bad entry; null or an empty list: usable from anywhere (null).
 */
export function allowlist(value: unknown): string[] | null {
  if (value === null || value === undefined) return null;
  if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'string')) throw new InputError('ipAllowlist must be a list of IP addresses and CIDR ranges (or null: from anywhere)');
  const entries = [...new Set((value as string[]).map((entry) => entry.trim()).filter((entry) => entry !== ''))];
  if (entries.length === 0) return null;
  if (entries.length > MAX_ALLOWLIST_ENTRIES) throw new InputError(`ipAllowlist has ${entries.length} entries, more than ${MAX_ALLOWLIST_ENTRIES}`);
  const invalid = entries.filter((entry) => {
    try {
      new AddressSet([entry]);
      return false;
    } catch {
      return true;
    }
  });
  if (invalid.length > 0) {
    throw new InputError(
      `ipAllowlist: ${invalid.map((entry) => JSON.stringify(entry.slice(0, 100))).join(', ')} ${invalid.length === 1 ? 'is not an IP address or CIDR range' : 'are not IP addresses or CIDR ranges'} (e.g. 203.0.113.7, 203.0.113.0/24, 2001:db8::/48)`,
      { invalid },
    );
  }
  return entries;
}

/** A rotation's grace period from the hours sent (default `defaultMs`), 0 to 720 hours. */
export function graceMs(value: unknown, defaultMs: number): number {
  if (value === undefined || value === null) return defaultMs;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 720) throw new InputError('graceHours must be a number of hours from 0 to 720');
  return Math.round(value * 3_600_000);
}

export const USAGE_RANGES: Readonly<Record<UsageRange, { readonly minutes: number; readonly stepMinutes: number }>> = {
  '1h': { minutes: 60, stepMinutes: 1 },
  '24h': { minutes: 24 * 60, stepMinutes: 15 },
  '7d': { minutes: 7 * 24 * 60, stepMinutes: 120 },
};

/** The window of a usage range ending with the current step (so that the requests of this minute show). */
export function usageWindow(range: unknown, now: number): { range: UsageRange; from: Date; to: Date; stepMinutes: number } {
  const name = range === undefined ? '24h' : range;
  if (typeof name !== 'string' || !Object.hasOwn(USAGE_RANGES, name)) throw new InputError(`range must be one of ${Object.keys(USAGE_RANGES).join(', ')}`);
  const { minutes, stepMinutes } = USAGE_RANGES[name as UsageRange];
  const stepMs = stepMinutes * 60_000;
  const to = Math.floor(now / stepMs) * stepMs + stepMs;
  return { range: name as UsageRange, from: new Date(to - minutes * 60_000), to: new Date(to), stepMinutes };
}

/** The chains with a balance, with whether a withdrawal can be built there. */
export function feesAnswer(report: IntegratorFeeReport, catalog: Catalog, feeCollectorOf: (chainId: number) => string | undefined, bookedTo: string | undefined): FeesAnswer {
  const chains = report.feeBalances.filter((chain) => chain.tokenBalances.length > 0).flatMap((balances) => {
    const chain = catalog.resolveChain(balances.chainId);
    if (!chain) return [];
    return [{
      chainId: chain.id,
      chainName: chain.name,
      tokenBalances: balances.tokenBalances.map((b) => ({ address: b.token.address, symbol: b.token.symbol, decimals: b.token.decimals, amount: b.amount.toString(), amountUsd: usd(b.amountUSD) })),
      withdrawable: familyOf(chain).evmContracts && feeCollectorOf(chain.id) !== undefined,
    }];
  });
  return { integratorId: report.integratorId, ...(bookedTo === undefined ? {} : { bookedTo }), chains, staleChains: [...report.fallbackChains] };
}

/** The empty report of an integrator the fee ledger does not know yet (no fee collected). */
export function noFees(integratorId: string): FeesAnswer {
  return { integratorId, chains: [], staleChains: [] };
}

/** The withdrawal as `eth_sendTransaction` takes it, with what `wallet_addEthereumChain` needs. */
export function withdrawalAnswer(withdrawal: FeeWithdrawal): WithdrawalAnswer {
  const { chain, transactionRequest: tx } = withdrawal;
  return {
    chainId: chain.id,
    chainName: chain.name,
    tokens: withdrawal.tokens.map((token) => token.symbol),
    transaction: {
      ...(tx.from === undefined ? {} : { from: tx.from }),
      to: tx.to,
      data: tx.data,
      value: hex(tx.value),
      gas: hex(tx.gasLimit),
      gasPrice: hex(tx.gasPrice),
      chainId: hex(BigInt(tx.chainId)),
    },
    addChain: addChainParameters(chain),
  };
}

function addChainParameters(chain: Chain): WithdrawalAnswer['addChain'] {
  const { metamask } = chain;
  return {
    chainId: hex(BigInt(chain.id)),
    chainName: metamask.chainName,
    nativeCurrency: metamask.nativeCurrency,
    rpcUrls: [...metamask.rpcUrls],
    ...(metamask.blockExplorerUrls.length > 0 ? { blockExplorerUrls: [...metamask.blockExplorerUrls] } : {}),
  };
}

/** The webhook URL as sent: a non-empty string (its form and where it points are checked by src/webhooks/target.ts). */
export function webhookUrlOf(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw new InputError('url must be the webhook\'s URL (https://...)', { field: 'url' });
  return value.trim();
}

/** The 400 of a webhook URL refused (its form, an address it names or resolves to, or a name that does not resolve): the field and the rule. */
export function webhookUrlRefused(error: WebhookUrlError): InputError {
  return new InputError(`url refused: ${error.message}`, { field: 'url', rule: error.kind });
}

/** The webhook as the portal shows it: its URL and dates, never its secret. */
export function portalWebhook(webhook: Webhook): PortalWebhook {
  return { url: webhook.url, createdAt: webhook.createdAt, updatedAt: webhook.updatedAt };
}

export function deliveryInfo(delivery: DeliveryView): WebhookDeliveryInfo {
  return {
    id: delivery.id,
    txHash: delivery.txHash,
    status: delivery.status,
    state: delivery.state,
    attempts: delivery.attempts,
    ...(delivery.lastStatus === undefined ? {} : { lastStatus: delivery.lastStatus }),
    ...(delivery.lastError === undefined ? {} : { lastError: delivery.lastError }),
    createdAt: delivery.createdAt,
    ...(delivery.deliveredAt === undefined ? {} : { deliveredAt: delivery.deliveredAt }),
    ...(delivery.nextAttemptAt === undefined ? {} : { nextAttemptAt: delivery.nextAttemptAt }),
  };
}

/** How many transfers to list (`?limit=`): 1 to MAX_TRANSFERS, DEFAULT_TRANSFERS when absent. */
export function transfersLimit(value: unknown): number {
  if (value === undefined) return DEFAULT_TRANSFERS;
  if (typeof value !== 'string' || !/^[0-9]{1,3}$/.test(value) || Number(value) < 1 || Number(value) > MAX_TRANSFERS) {
    throw new InputError(`limit must be a whole number from 1 to ${MAX_TRANSFERS}`);
  }
  return Number(value);
}

/** The path of a transfer's page on this service's explorer (src/server/explorer.ts). */
export function explorerPath(txHash: string): string {
  return `/explorer/tx/${encodeURIComponent(txHash)}`;
}

/** A transfer of the index as the portal lists it, with its explorer page; undefined without a sending transaction. */
export function portalTransfer(status: TransferStatus): PortalTransfer | undefined {
  const sending = status.sending;
  if (!sending?.txHash) return undefined;
  return {
    txHash: sending.txHash,
    status: status.status,
    ...(status.substatus === undefined ? {} : { substatus: status.substatus }),
    ...(status.tool === undefined ? {} : { tool: status.tool }),
    fromChainId: sending.chainId,
    ...(status.receiving?.chainId === undefined ? {} : { toChainId: status.receiving.chainId }),
    ...(sending.timestamp === undefined ? {} : { startedAt: new Date(sending.timestamp * 1000).toISOString() }),
    explorerUrl: explorerPath(sending.txHash),
  };
}

const hex = (value: bigint): string => `0x${value.toString(16)}`;

function usd(value: number): string {
  return (Math.max(0, value) || 0).toFixed(2);
}
