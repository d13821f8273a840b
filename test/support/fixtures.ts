/**
 * Addresses the suites share: tokens of the embedded catalog (data/catalog/tokens.json), the router and fee
 * collector of data/catalog/routers.json, and the sender of the contract's examples. Each is spelt exactly as the
 * suites have always sent it (WALLET as openapi.yaml's examples spell it, not checksummed).
 */

/** The zero address: the native coin of an EVM chain, and "no address". */
export const NATIVE = '0x0000000000000000000000000000000000000000';

/** The sender of openapi.yaml's examples. */
export const WALLET = '0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea9';
/** WALLET checksummed (EIP-55), as call data parsers and encoders give it back. */
export const WALLET_CHECKSUMMED = '0x552008c0F6870C2f77e5cC1d2Eb9bdff03E30Ea9';

export const ETH_USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
export const ETH_WETH = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2';
export const ETH_USDT = '0xdAC17F958D2ee523a2206206994597C13D831ec7';
export const ARB_USDC = '0xaf88d065e77c8cC2239327C5EDb3A432268e5831';
export const ARB_WETH = '0x82aF49447D8a07e3bd95BD0d56f35241523fBab1';
export const ARB_USDT = '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9';
export const OP_USDC = '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85';
export const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
export const BASE_WETH = '0x4200000000000000000000000000000000000006';

/** The router (LiFiDiamond) of the embedded data on every EVM chain, and its fee collector. */
export const ROUTER = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512';
export const FEE_COLLECTOR = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0';

/** A POST /v1/advanced/routes body for `fromAmount` of one token into another (add `options` and the like by spreading). */
export function routesRequest(fromChainId: number, fromTokenAddress: string, toChainId: number, toTokenAddress: string, fromAmount: string) {
  return { fromChainId, toChainId, fromTokenAddress, toTokenAddress, fromAmount };
}
