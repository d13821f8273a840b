/**
 * A transfer's status as the index keeps it (src/persistence/transfers.ts): the TransferStatus itself, as JSON, its
 * bigint amounts as decimal strings under a marker so that reading it back gives the same values and types. Tokens
 * are kept as they were when the transfer was indexed (their price then: a history shows the USD value of the day).
 */
import type { TransferStatus } from './transferStatus';

const BIGINT = '$bigint';

/** The status as JSON text. */
export function encodeStatus(status: TransferStatus): string {
  return JSON.stringify(status, (_key, value: unknown) => (typeof value === 'bigint' ? { [BIGINT]: value.toString() } : value));
}

/** The status encodeStatus wrote (its bigints back as bigints). */
export function decodeStatus(text: string): TransferStatus {
  return JSON.parse(text, (_key, value: unknown) => {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const marked = (value as Record<string, unknown>)[BIGINT];
      if (typeof marked === 'string' && Object.keys(value).length === 1) return BigInt(marked);
    }
    return value;
  }) as TransferStatus;
}

/** The USD value of what the transfer sent, at its token's price (display and summaries only), when known. */
export function sentUsd(status: TransferStatus): number | undefined {
  const sending = status.sending;
  const token = sending?.token;
  if (!sending || !token || sending.amount === undefined) return undefined;
  const price = Number(token.priceUSD);
  if (!(price > 0)) return undefined;
  return (Number(sending.amount) / 10 ** token.decimals) * price;
}
