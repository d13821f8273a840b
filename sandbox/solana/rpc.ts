/**
 * A JSON-RPC 2.0 endpoint in front of a Ledger (LiteSVM), answering with the real Solana RPC's shapes: what
 * @solana/kit's `createSolanaRpc` clients, wallets and a status tracker call. One node:http server on loopback:
 *
 * - HTTP POST: single and batch requests; GET /health answers "ok" as a node does; CORS open, as public RPCs are;
 * - WebSocket on the same port (ws://127.0.0.1:<port>): signatureSubscribe, slotSubscribe, rootSubscribe,
 *   accountSubscribe, logsSubscribe (and their unsubscribes), which `sendAndConfirmTransactionFactory` and
 *   `airdropFactory` of @solana/kit need.
 *
 * Every commitment is the same here: a transaction is `finalized` once it has landed (the ledger has no forks),
 * and `commitment` / `preflightCommitment` parameters are accepted and ignored (except `processed` where the node
 * refuses it: getTransaction, getSignaturesForAddress). Integers above 2^53 in requests lose precision (JSON.parse).
 *
 * Its methods are in chainMethods.ts and transactionMethods.ts (their parameters: params.ts), its WebSocket
 * subscriptions in subscriptions.ts.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { chainMethods } from './chainMethods';
import { invalidParams, RpcError, stringifyJson } from './encoding';
import type { Ledger } from './ledger';
import type { Handler, Params } from './params';
import { startSubscriptions } from './subscriptions';
import { transactionMethods } from './transactionMethods';
import { webSocketEndpoint } from './websocket';
import { SOLANA_MAINNET_GENESIS_HASH } from '../../src/core/chains/solana/cluster';

/**
 * Mainnet-beta's genesis hash: the sandbox stands in for Solana mainnet, as the anvil chains keep their real ids (and
 * chain mode checks a Solana RPC of CHAINS_FILE answers it: src/core/chains/solana/cluster.ts).
 */
export const MAINNET_GENESIS_HASH = SOLANA_MAINNET_GENESIS_HASH;

export interface SolanaRpcOptions {
  readonly ledger: Ledger;
  /** Loopback only (default 127.0.0.1). */
  readonly host?: string;
  /** 0 (default): a free port. */
  readonly port?: number;
  readonly genesisHash?: string;
  /** requestAirdrop: sends `lamports` to `to` in a real transfer and returns its signature (none: the method fails). */
  readonly requestAirdrop?: (to: string, lamports: bigint) => Promise<string>;
  readonly log?: (line: string) => void;
}

export interface SolanaRpcServer {
  readonly url: string;
  readonly wsUrl: string;
  readonly port: number;
  /** Requests answered, by method (for tests and the CLI). */
  readonly calls: ReadonlyMap<string, number>;
  close(): Promise<void>;
}

export async function startSolanaRpc(options: SolanaRpcOptions): Promise<SolanaRpcServer> {
  const { ledger } = options;
  const genesisHash = options.genesisHash ?? MAINNET_GENESIS_HASH;
  const calls = new Map<string, number>();
  const handlers: Record<string, Handler> = { ...chainMethods(ledger, genesisHash), ...transactionMethods(ledger, options) };

  const handle = async (request: unknown): Promise<unknown> => {
    if (typeof request !== 'object' || request === null || Array.isArray(request)) {
      return { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid request' }, id: null };
    }
    const { id, method, params } = request as { id?: unknown; method?: unknown; params?: unknown };
    const reply = (body: Record<string, unknown>) => (id === undefined ? undefined : { jsonrpc: '2.0', ...body, id });
    if (typeof method !== 'string') return reply({ error: { code: -32600, message: 'Invalid request' } });
    const handler = Object.prototype.hasOwnProperty.call(handlers, method) ? handlers[method] : undefined;
    if (!handler) return reply({ error: { code: -32601, message: 'Method not found' } });
    calls.set(method, (calls.get(method) ?? 0) + 1);
    try {
      if (params !== undefined && !Array.isArray(params)) throw invalidParams('Invalid params: expected an array.');
      const result = await handler((params as Params | undefined) ?? []);
      return reply({ result });
    } catch (error) {
      if (error instanceof RpcError) return reply({ error: { code: error.code, message: error.message, ...(error.data !== undefined ? { data: error.data } : {}) } });
      options.log?.(`solana rpc: ${method} failed: ${(error as Error).stack ?? String(error)}`);
      return reply({ error: { code: -32603, message: `Internal error: ${(error as Error).message}` } });
    }
  };

  const server = http.createServer((req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Methods', 'POST, GET, OPTIONS');
    res.setHeader('Access-Control-Allow-Headers', 'Content-Type, solana-client');
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    if (req.method === 'GET' && (req.url ?? '').startsWith('/health')) return void res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
    if (req.method !== 'POST') return void res.writeHead(405, { Allow: 'POST' }).end('Used HTTP Method is not allowed. POST or OPTIONS is required');
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > 10 * 1024 * 1024) {
        res.writeHead(413).end();
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (res.writableEnded) return;
      const send = (body: unknown) => {
        const text = body === undefined ? '' : stringifyJson(body);
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(text);
      };
      let payload: unknown;
      try {
        payload = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return send({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null });
      }
      if (Array.isArray(payload)) {
        if (payload.length === 0) return send({ jsonrpc: '2.0', error: { code: -32600, message: 'Invalid request' }, id: null });
        void Promise.all(payload.map(handle)).then((answers) => send(answers.filter((a) => a !== undefined)));
      } else {
        void handle(payload).then(send);
      }
    });
  });

  const subscriptions = startSubscriptions(ledger);

  const sockets = new Set<Duplex>();
  const webSockets = webSocketEndpoint({ onMessage: subscriptions.onMessage, onClose: subscriptions.close });
  server.on('upgrade', (req, socket: Duplex, head: Buffer) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    webSockets.accept(req, socket, head, subscriptions.open);
  });

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}`,
    wsUrl: `ws://${host}:${port}`,
    port,
    calls,
    async close() {
      subscriptions.stop();
      webSockets.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
