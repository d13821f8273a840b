/** The JSON-RPC surface the chain readers need (an ethers JsonRpcProvider of ChainConnections fits). */
export interface JsonRpcSender {
  send(method: string, params: unknown[]): Promise<unknown>;
}
