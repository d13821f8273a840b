/**
 * GET /v1/status/stream: a transfer's state changes, or a wallet's transfers', pushed as they happen.
 *
 * One transfer (txHash or transactionId): its current state first, as GET /v1/status answers it (the index, or the
 * chains), then each new state: from the transfer events the indexer appends (TransferEvents, when the service has a
 * database), and, when none came for `rereadMs`, from reading it again as GET /v1/status does (a transfer the index
 * does not follow: a chain without an indexer, a transaction not mined yet). It ends after a final state. A
 * reconnection that already has the final state (Last-Event-ID) gets nothing (`final`: the HTTP layer answers 204).
 * A state's id is its status and substatus: a transfer takes each at most once.
 *
 * A wallet: the events of the transfers sent from or to it, from the index only (501 without a database); ids are
 * the events' sequence numbers, and a reconnection gets the events after its Last-Event-ID first. It does not end.
 *
 * Each stream holds a slot (StatusStreams.slots) from the request until it ends or the client leaves: a client
 * holding all of its own gets 429, an instance holding all of its own 503.
 */
import { InvalidRequestError, NotConfiguredError, OverloadedError, TooManyConnectionsError } from '../core/errors';
import type { TransferEvent } from '../core/status/events';
import { isFinal, type TransferStatus } from '../core/status/transferStatus';
import type { Ports } from './ports';
import { transferStatus } from './status';

export interface StatusStreamQuery {
  readonly txHash?: string;
  readonly transactionId?: string;
  readonly wallet?: string;
  readonly lastEventId?: string;
}

/** One thing a stream says: a transfer's state (with the id to resume after it), or that it ends. */
export type StatusUpdate = { readonly kind: 'status'; readonly id: string; readonly status: TransferStatus } | { readonly kind: 'end' };

export type StatusStream =
  | { readonly kind: 'final' }
  | {
      readonly kind: 'stream';
      readonly updates: AsyncIterable<StatusUpdate>;
      /** The client left: the updates end (their subscription and slot are given back). */
      readonly stop: () => void;
    };

/** The id of a transfer's state in its stream. */
export function stateId(status: TransferStatus): string {
  return `${status.status}:${status.substatus ?? ''}`;
}

export async function statusStream(dependencies: Pick<Ports, 'catalog' | 'transfers' | 'history' | 'events' | 'streams'>, client: string, query: StatusStreamQuery): Promise<StatusStream> {
  const ref = query.txHash ?? query.transactionId;
  if (ref === undefined && query.wallet === undefined) {
    throw new InvalidRequestError('Invalid request: query parameter txHash (or transactionId, or wallet) is required', {
      issues: [{ name: 'txHash', rule: 'required', message: 'query parameter txHash is required (or transactionId, or wallet): the transfer, or the wallet, to follow' }],
    });
  }
  if (ref !== undefined && query.wallet !== undefined) {
    throw new InvalidRequestError('Invalid request: a stream follows one transfer (txHash or transactionId) or a wallet, not both', {
      issues: [{ name: 'wallet', rule: 'exclusive', message: 'query parameter wallet cannot be given with txHash or transactionId: a stream follows one transfer or a wallet' }],
    });
  }
  const { events, streams } = dependencies;
  if (ref === undefined && !events) throw new NotConfiguredError("a wallet's transfers are followed from the service's transfer index, and this deployment has no database (DATABASE_URL)");

  let stopStream = () => undefined as void;
  const slot = streams.slots.take(client, () => stopStream());
  if (slot === 'client') throw new TooManyConnectionsError(`this client already follows ${streams.slots.perClient} streams, the most it may: close one first`, 5);
  if (slot === 'instance') throw new OverloadedError('this instance follows as many streams as it may: retry later', 5);
  const inbox = new Inbox<TransferEvent>();
  let unsubscribe: () => void = () => undefined;
  try {
    if (ref !== undefined) {
      // subscribed before the first read: a state taken meanwhile is either read or received
      if (events) unsubscribe = await events.subscribe({ ref }, (event) => inbox.push(event));
      const first = await transferStatus(dependencies, { txHash: ref });
      if (isFinal(first.status) && query.lastEventId === stateId(first)) {
        unsubscribe();
        slot();
        return { kind: 'final' };
      }
      const started = stream(transferUpdates(dependencies, ref, first, inbox, streams.rereadMs), inbox, () => (unsubscribe(), slot()));
      stopStream = started.stop;
      return started;
    }
    unsubscribe = await events!.subscribe({ wallet: query.wallet! }, (event) => inbox.push(event), query.lastEventId);
    const started = stream(walletUpdates(inbox), inbox, () => (unsubscribe(), slot()));
    stopStream = started.stop;
    return started;
  } catch (error) {
    unsubscribe();
    slot();
    throw error;
  }
}

function stream(updates: AsyncGenerator<StatusUpdate>, inbox: Inbox<unknown>, release: () => void): Extract<StatusStream, { kind: 'stream' }> {
  let released = false;
  const stop = () => {
    if (released) return;
    released = true;
    inbox.close();
    release();
  };
  async function* guarded(): AsyncGenerator<StatusUpdate> {
    try {
      yield* updates;
    } finally {
      stop();
    }
  }
  return { kind: 'stream', updates: guarded(), stop };
}

async function* transferUpdates(
  dependencies: Pick<Ports, 'catalog' | 'transfers' | 'history'>,
  ref: string,
  first: TransferStatus,
  inbox: Inbox<TransferEvent>,
  rereadMs: number,
): AsyncGenerator<StatusUpdate> {
  let current = first;
  yield { kind: 'status', id: stateId(current), status: current };
  while (!isFinal(current.status)) {
    const received = await inbox.next(rereadMs);
    if (inbox.closed) return;
    // nothing pushed for a while: read it again, as GET /v1/status would (a failed read waits for the next turn)
    const next = received?.status ?? (await transferStatus(dependencies, { txHash: ref }).catch(() => undefined));
    if (!next || stateId(next) === stateId(current)) continue;
    current = next;
    yield { kind: 'status', id: stateId(current), status: current };
  }
  yield { kind: 'end' };
}

async function* walletUpdates(inbox: Inbox<TransferEvent>): AsyncGenerator<StatusUpdate> {
  for (;;) {
    const event = await inbox.next(60_000);
    if (inbox.closed) return;
    if (event) yield { kind: 'status', id: event.id, status: event.status };
  }
}

/** Events received and not taken yet, and a wait for the next one that a close ends at once. */
class Inbox<T> {
  private readonly items: T[] = [];
  private wake?: () => void;
  closed = false;

  push(item: T): void {
    if (this.closed) return;
    this.items.push(item);
    this.wake?.();
  }

  close(): void {
    this.closed = true;
    this.wake?.();
  }

  /** The next item, or undefined after `timeoutMs` or a close. */
  async next(timeoutMs: number): Promise<T | undefined> {
    if (this.items.length === 0 && !this.closed) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        this.wake = () => {
          clearTimeout(timer);
          this.wake = undefined;
          resolve();
        };
      });
    }
    return this.closed ? undefined : this.items.shift();
  }
}
