/**
 * Transfer events (GET /v1/status/stream, webhooks): each state a transfer of the index takes, in the order the
 * indexer saw them. A port: the use cases subscribe, the composition root provides it when the service has a database
 * (src/persistence/transferEvents.ts). And the slots that bound how many streams are open at once.
 */
import type { TransferStatus } from './transferStatus';

export interface TransferEvent {
  /** The index's sequence number of the event (a decimal string): a stream's resume point. */
  readonly id: string;
  readonly chainId: number;
  /** The sending transaction (lower case for EVM). */
  readonly txHash: string;
  readonly transferId?: string;
  readonly status: TransferStatus;
}

/** What a subscriber follows: one transfer (its sending hash or transfer id) or a wallet (sent from or to it). */
export type TransferSubscription = { readonly ref: string } | { readonly wallet: string };

export interface TransferEvents {
  /**
   * Calls `onEvent` with each event appended from now on that matches `subscription`, and first, when `after` is
   * given, with those after the event of that id (a reconnecting stream's missed events). Resolves once the
   * subscription is in place (no event appended after that is missed); the function it resolves to ends it.
   */
  subscribe(subscription: TransferSubscription, onEvent: (event: TransferEvent) => void, after?: string): Promise<() => void>;
}

/** Whether `event` is one `subscription` follows (addresses and hashes compared in lower case, as the index keeps them). */
export function followedBy(subscription: TransferSubscription, event: TransferEvent): boolean {
  if ('ref' in subscription) {
    const ref = subscription.ref.toLowerCase();
    return event.txHash.toLowerCase() === ref || event.transferId?.toLowerCase() === ref;
  }
  const wallet = subscription.wallet.toLowerCase();
  return event.status.fromAddress?.toLowerCase() === wallet || event.status.toAddress?.toLowerCase() === wallet;
}

export type SlotRefusal = 'client' | 'instance';

/**
 * Counts open long-lived connections (event streams): at most `perClient` per client and `total` in all. `take`
 * gives a release function, or says which bound refuses; `closeAll` ends every connection held (a shutdown: the
 * server cannot close while they last).
 */
export class ConnectionSlots {
  private readonly byClient = new Map<string, number>();
  private readonly closers = new Set<() => void>();

  constructor(
    readonly perClient: number,
    readonly total: number,
  ) {}

  /** A slot for `client`, whose connection `close` ends; its release function, or the bound that refuses. */
  take(client: string, close: () => void = () => undefined): (() => void) | SlotRefusal {
    const mine = this.byClient.get(client) ?? 0;
    if (mine >= this.perClient) return 'client';
    if (this.closers.size >= this.total) return 'instance';
    this.byClient.set(client, mine + 1);
    const closer = () => close();
    this.closers.add(closer);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.closers.delete(closer);
      const left = (this.byClient.get(client) ?? 1) - 1;
      if (left === 0) this.byClient.delete(client);
      else this.byClient.set(client, left);
    };
  }

  get count(): number {
    return this.closers.size;
  }

  /** Ends every connection that holds a slot. */
  closeAll(): void {
    for (const close of [...this.closers]) close();
  }
}

/** How the service's event streams run (GET /v1/status/stream). */
export interface StatusStreams {
  /** The streams open at once, per client and in all. */
  readonly slots: ConnectionSlots;
  /** A transfer's stream that received nothing this long reads the transfer again (as GET /v1/status). */
  readonly rereadMs: number;
  /** A comment line is sent on a quiet stream this often, so that proxies keep it open. */
  readonly heartbeatMs: number;
}

/** The defaults: 10 streams per client, 1000 per instance, a read every 10 s, a comment every 15 s. */
export function defaultStatusStreams(): StatusStreams {
  return { slots: new ConnectionSlots(10, 1000), rereadMs: 10_000, heartbeatMs: 15_000 };
}
