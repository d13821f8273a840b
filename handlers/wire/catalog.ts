import type { components } from '../../src/generated/openapi';
import type { RouterDeployments } from '../../src/core/catalog/routers';
import type { BridgeTool, Chain, ExchangeTool, Token } from '../../src/core/entities';
import { familyOf } from '../../src/core/chains/families';
import type { GasPrices } from '../../src/core/gas/prices';

/** Explicit converters from domain objects to wire objects. */
type WireToken = components['schemas']['Token'];
type WireChain = components['schemas']['Chain'];

export function tokenToWire(token: Token): WireToken {
  const wire: WireToken = {
    address: token.address,
    chainId: token.chainId,
    symbol: token.symbol,
    decimals: token.decimals,
    name: token.name,
    coinKey: token.coinKey,
    priceUSD: token.priceUSD,
  };
  if (token.logoURI) wire.logoURI = token.logoURI;
  if (token.tags.length > 0) wire.tags = [...token.tags];
  if (token.verificationStatus) wire.verificationStatus = token.verificationStatus;
  return wire;
}

/**
 * A chain as the ecosystem's clients read it: `metamask` on every chain (the SDK's Solana, Bitcoin and Sui providers
 * take their RPC URLs from it, as its EVM provider does); the multicall address only where it is an EVM contract.
 */
export function chainToWire(chain: Chain): WireChain {
  const wire: WireChain = {
    key: chain.key,
    chainType: chain.chainType,
    name: chain.name,
    coin: chain.coin,
    id: chain.id,
    mainnet: chain.mainnet,
    nativeToken: tokenToWire(chain.nativeToken),
  };
  if (chain.logoURI) wire.logoURI = chain.logoURI;
  if (chain.multicallAddress && familyOf(chain).evmContracts) wire.multicallAddress = chain.multicallAddress;
  wire.metamask = {
    // hex, as the contract (and the ecosystem's API) has it; the catalog keeps non-EVM ids in decimal
    chainId: chain.metamask.chainId.startsWith('0x') ? chain.metamask.chainId : `0x${BigInt(chain.metamask.chainId).toString(16)}`,
    chainName: chain.metamask.chainName,
    nativeCurrency: { ...chain.metamask.nativeCurrency },
    rpcUrls: [...chain.metamask.rpcUrls],
    blockExplorerUrls: [...chain.metamask.blockExplorerUrls],
  };
  return wire;
}

/**
 * chainToWire plus the service's contracts on the chain (EVM chains with a deployment): `diamondAddress`, the
 * router; and, where the chain has them, `permit2` (Uniswap's Permit2) and `permit2Proxy` (the service's proxy),
 * with which the SDK signs a permit instead of approving the router.
 */
export function chainWithRouterToWire(routers: RouterDeployments): (chain: Chain) => WireChain {
  return (chain) => {
    const wire = chainToWire(chain);
    const router = routers.routerOf(chain.id);
    if (!router) return wire;
    const permit2 = routers.permit2Of(chain.id);
    const permit2Proxy = routers.permit2ProxyOf(chain.id);
    // keep the contract's field order: diamondAddress, permit2, permit2Proxy after nativeToken, before metamask
    const { metamask, ...rest } = wire;
    return { ...rest, diamondAddress: router, ...(permit2 ? { permit2 } : {}), ...(permit2Proxy ? { permit2Proxy } : {}), ...(metamask ? { metamask } : {}) };
  };
}

export function bridgeToWire(bridge: BridgeTool): components['schemas']['ToolsResponse']['bridges'][number] {
  return {
    key: bridge.key,
    name: bridge.name,
    logoURI: bridge.logoURI ?? '',
    supportedChains: bridge.supportedChains.map((p) => ({ fromChainId: p.fromChainId, toChainId: p.toChainId })),
  };
}

export function exchangeToWire(exchange: ExchangeTool): components['schemas']['ToolsResponse']['exchanges'][number] {
  return {
    key: exchange.key,
    name: exchange.name,
    logoURI: exchange.logoURI ?? '',
    supportedChains: [...exchange.supportedChains],
  };
}

/**
 * Gas prices as the ecosystem's API gives them: JSON numbers in wei (exact below 2^53 wei, i.e. 9 million gwei) and
 * `lastUpdated` in Unix milliseconds.
 */
export function gasPricesToWire(prices: GasPrices): { standard: number; fast: number; fastest: number; lastUpdated: number } {
  return { standard: Number(prices.standard), fast: Number(prices.fast), fastest: Number(prices.fastest), lastUpdated: prices.lastUpdated };
}
