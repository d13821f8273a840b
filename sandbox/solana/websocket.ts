/**
 * The RPC's subscriptions over WebSocket, on the same port as its HTTP endpoint (as the ecosystem's Solana clients
 * reach `rpcSubscriptions`): the `ws` library's server in noServer mode, handed each `upgrade` of the node:http
 * server. Text messages in and out; a connection is forgotten when it closes.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';

/** Largest message accepted from a client (subscription requests are small). */
const MAX_MESSAGE_BYTES = 1 << 20;

export interface WebSocketConnection {
  send(text: string): void;
  close(code?: number): void;
  readonly closed: boolean;
}

export interface WebSocketHandlers {
  onMessage(connection: WebSocketConnection, text: string): void;
  onClose(connection: WebSocketConnection): void;
}

/** One server per RPC endpoint; `accept` takes an HTTP upgrade and answers with the connection once it is open. */
export function webSocketEndpoint(handlers: WebSocketHandlers) {
  const server = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES, perMessageDeflate: false });
  return {
    accept(request: IncomingMessage, socket: Duplex, head: Buffer, onOpen: (connection: WebSocketConnection) => void): void {
      server.handleUpgrade(request, socket, head, (ws) => {
        const connection: WebSocketConnection = {
          send: (text) => {
            if (ws.readyState === WebSocket.OPEN) ws.send(text);
          },
          close: (code = 1000) => ws.close(code),
          get closed() {
            return ws.readyState !== WebSocket.OPEN;
          },
        };
        ws.on('message', (data, isBinary) => {
          if (!isBinary) handlers.onMessage(connection, data.toString());
        });
        ws.on('close', () => handlers.onClose(connection));
        onOpen(connection);
      });
    },
    close(): void {
      for (const client of server.clients) client.terminate();
      server.close();
    },
  };
}
