/**
 * The Solana RPC's WebSocket subscriptions: signatureSubscribe, slotSubscribe, rootSubscribe, accountSubscribe,
 * logsSubscribe and their unsubscribes, per connection, notified from the ledger's blocks as they come.
 */
import { accountEncoding, encodeAccount, invalidParams, RpcError, stringifyJson, type AccountEncoding } from './encoding';
import type { Ledger } from './ledger';
import { cfg, pubkey, signatureParam, type Params } from './params';
import type { Block, LandedTransaction } from './records';
import type { WebSocketConnection } from './websocket';

/** The subscriptions of one RPC endpoint, fed by its WebSocket connections. */
export interface Subscriptions {
  /** A connection opened: no subscription yet. */
  open(connection: WebSocketConnection): void;
  /** A connection closed: its subscriptions go. */
  close(connection: WebSocketConnection): void;
  /** A request on a connection (a subscribe or unsubscribe), answered on it. */
  onMessage(connection: WebSocketConnection, text: string): void;
  /** The ledger no longer followed, every subscription gone (the endpoint closing). */
  stop(): void;
}

/** Follows the ledger's blocks (until stop) and notifies each subscription of what they bring. */
export function startSubscriptions(ledger: Ledger): Subscriptions {
  type Subscription =
    | { kind: 'slot' | 'root' }
    | { kind: 'signature'; signature: string }
    | { kind: 'account'; account: string; encoding: AccountEncoding }
    | { kind: 'logs'; mentions?: string };
  const connections = new Map<WebSocketConnection, Map<number, Subscription>>();
  let nextSubscription = 0;
  const notify = (connection: WebSocketConnection, method: string, subscription: number, result: unknown) => {
    connection.send(stringifyJson({ jsonrpc: '2.0', method, params: { result, subscription } }));
  };
  const notificationContext = (slot: bigint) => ({ slot });

  const onBlock = (block: Block) => {
    for (const [connection, subs] of connections) {
      for (const [id, sub] of subs) {
        switch (sub.kind) {
          case 'slot':
            notify(connection, 'slotNotification', id, { parent: block.parentSlot, root: block.slot, slot: block.slot });
            break;
          case 'root':
            notify(connection, 'rootNotification', id, block.slot);
            break;
          case 'signature': {
            const t = block.transactions.find((x) => x.decoded.signature === sub.signature);
            if (t) {
              notify(connection, 'signatureNotification', id, { context: notificationContext(block.slot), value: { err: t.err } });
              subs.delete(id);
            }
            break;
          }
          case 'account': {
            const touched = block.transactions.some((t: LandedTransaction) => t.keys.keys.some((k, i) => k === sub.account && t.keys.writable[i]));
            if (touched) {
              try {
                notify(connection, 'accountNotification', id, { context: notificationContext(block.slot), value: encodeAccount(ledger, ledger.account(sub.account), sub.encoding) });
              } catch {
                /* an encoding the account cannot take (base58 of a large account): nothing to send */
              }
            }
            break;
          }
          case 'logs':
            for (const t of block.transactions) {
              if (sub.mentions && !t.keys.keys.includes(sub.mentions as never)) continue;
              notify(connection, 'logsNotification', id, { context: notificationContext(block.slot), value: { err: t.err, logs: t.logs, signature: t.decoded.signature } });
            }
            break;
        }
      }
    }
  };
  ledger.on('block', onBlock);

  const subscribe = (connection: WebSocketConnection, method: string, params: Params): unknown => {
    const subs = connections.get(connection);
    if (!subs) throw new RpcError(-32603, 'Internal error: connection closed');
    const add = (sub: Subscription) => {
      const id = nextSubscription++;
      subs.set(id, sub);
      return id;
    };
    const unsubscribe = () => {
      const id = Number(params[0]);
      if (!Number.isInteger(id)) throw invalidParams('Invalid params: expected a subscription id.');
      if (!subs.has(id)) throw invalidParams('Invalid subscription id.');
      subs.delete(id);
      return true;
    };
    switch (method) {
      case 'slotSubscribe':
        return add({ kind: 'slot' });
      case 'rootSubscribe':
        return add({ kind: 'root' });
      case 'signatureSubscribe': {
        const signature = signatureParam(params[0]);
        const id = add({ kind: 'signature', signature });
        const t = ledger.transaction(signature);
        if (t) {
          // already landed: notify at once (after the subscription id has been answered)
          setImmediate(() => {
            if (!subs.has(id)) return;
            subs.delete(id);
            notify(connection, 'signatureNotification', id, { context: notificationContext(t.slot), value: { err: t.err } });
          });
        }
        return id;
      }
      case 'accountSubscribe': {
        const account = pubkey(params[0]);
        const encoding = accountEncoding(cfg(params, 1).encoding);
        return add({ kind: 'account', account, encoding });
      }
      case 'logsSubscribe': {
        const filter = params[0];
        if (filter === 'all' || filter === 'allWithVotes') return add({ kind: 'logs' });
        const mentions = (filter as { mentions?: unknown } | undefined)?.mentions;
        if (Array.isArray(mentions) && mentions.length === 1) return add({ kind: 'logs', mentions: pubkey(mentions[0]) });
        throw invalidParams('Invalid Request: Only 1 address supported');
      }
      case 'slotUnsubscribe':
      case 'rootUnsubscribe':
      case 'signatureUnsubscribe':
      case 'accountUnsubscribe':
      case 'logsUnsubscribe':
        return unsubscribe();
      default:
        throw new RpcError(-32601, 'Method not found');
    }
  };

  const onMessage = (connection: WebSocketConnection, text: string) => {
    let request: { id?: unknown; method?: unknown; params?: unknown };
    try {
      request = JSON.parse(text);
    } catch {
      connection.send(stringifyJson({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null }));
      return;
    }
    if (typeof request !== 'object' || request === null || request.id === undefined) return; // notifications (kit's "ping") get no answer
    const { id, method, params } = request;
    try {
      if (typeof method !== 'string') throw new RpcError(-32600, 'Invalid request');
      const result = subscribe(connection, method, Array.isArray(params) ? params : []);
      connection.send(stringifyJson({ jsonrpc: '2.0', result, id }));
    } catch (error) {
      const e = error instanceof RpcError ? error : new RpcError(-32603, `Internal error: ${(error as Error).message}`);
      connection.send(stringifyJson({ jsonrpc: '2.0', error: { code: e.code, message: e.message }, id }));
    }
  };

  return {
    open: (connection) => void connections.set(connection, new Map()),
    close: (connection) => void connections.delete(connection),
    onMessage,
    stop: () => {
      ledger.off('block', onBlock);
      connections.clear();
    },
  };
}
