/**
 * The bridge routes a chain's BridgeEndpoint is configured with (BridgeEndpoint.setRoutes), as the deployment script
 * sets them on any chain (scripts/deploy-contracts.ts) and so on the sandbox's chains.
 */
import { getAddress } from 'ethers';
import { NATIVE, tokenDecimals, type RawBridgeRoute, type SandboxData } from './data';
import { foreignTokenId, SOLANA_CHAIN_ID } from './solana/bridge';

const MAX_UINT128 = (1n << 128n) - 1n;

/**
 * The routes of a chain's endpoint: those from the chain (deposits; to a non-EVM chain too: the relayer releases
 * those to Solana, refunds the others) and those to it (releases) from EVM chains and from Solana (its tokens by
 * their foreign token id, routeConfig).
 */
export function endpointRoutes(data: SandboxData, chainId: number): RawBridgeRoute[] {
  const evm = (id: number) => data.chains.find((c) => c.id === id)?.chainType === 'EVM';
  return data.bridges.filter((r) => r.fromChainId === chainId || (r.toChainId === chainId && (evm(r.fromChainId) || r.fromChainId === SOLANA_CHAIN_ID)));
}

/**
 * A route as BridgeEndpoint.setRoutes takes it. The endpoint keys a route by (bridge, from chain, to chain, from
 * token) with the token as an EVM address; a route from Solana names its token by its foreign token id (the last 20
 * bytes of keccak256 of the mint's 32 bytes, native SOL as the all-zero key 111…1: solana/bridge.ts foreignTokenId),
 * which the relayer's release of a Solana deposit gives as fromToken. The fee model is the snapshot's, in the source
 * token's decimals (the Solana token's for a Solana source), rescaled by the endpoint to the destination's.
 */
export function routeConfig(r: RawBridgeRoute, data: SandboxData): unknown[] {
  const decimalsOf = (chainId: number, address: string): number => tokenDecimals(data, chainId, address);
  const u128 = (name: string, value: string): bigint => {
    const v = BigInt(value);
    if (v < 0n || v > MAX_UINT128) throw new Error(`bridge route ${r.bridge} ${r.fromChainId}→${r.toChainId}: ${name} ${value} does not fit uint128`);
    return v;
  };
  return [
    // a non-EVM destination token has no EVM address: the route is kept for deposits only
    r.bridge, BigInt(r.fromChainId), BigInt(r.toChainId), r.fromChainId === SOLANA_CHAIN_ID ? foreignTokenId(r.fromToken) : getAddress(r.fromToken),
    /^0x[0-9a-fA-F]{40}$/.test(r.toToken) ? getAddress(r.toToken) : NATIVE,
    decimalsOf(r.fromChainId, r.fromToken), decimalsOf(r.toChainId, r.toToken), r.feePpm,
    u128('fixedFee', r.fixedFee), u128('destinationGasFee', r.destinationGasFee), u128('minAmount', r.minAmount),
    u128('maxAmount', r.maxAmount), u128('nativeFee', r.nativeFee),
  ];
}
