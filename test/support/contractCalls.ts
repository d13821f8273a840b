/** What the contract-calls unit tests share: the service's data, a quote context, and calls that supply USDC to a lending pool. */
import { getAddress } from 'ethers';
import { DEFAULT_DATA_DIR, DEFAULT_SNAPSHOT_DIR } from '../../src/config';
import { loadCatalog } from '../../src/files/catalog';
import { loadRouters } from '../../src/files/routers';
import { loadSnapshot } from '../../src/files/snapshot';
import type { ContractCallsQuote } from '../../src/core/routing/contractCallsRoute';
import { RouteFinder } from '../../src/core/routing/finder';
import { RoutingGraph } from '../../src/core/routing/graph';
import { quoteContractCalls, type ContractCallInput, type ContractCallsInput } from '../../src/usecases/contractCalls';
import { BASE_USDC, WALLET_CHECKSUMMED } from './fixtures';

export { ARB_USDC, ARB_WETH, BASE_USDC, BASE_WETH, ROUTER } from './fixtures';

export const catalog = loadCatalog(DEFAULT_DATA_DIR);
export const graph = new RoutingGraph(catalog, loadSnapshot(DEFAULT_SNAPSHOT_DIR, catalog));
export const finder = new RouteFinder(graph);
export const routers = loadRouters(DEFAULT_DATA_DIR, catalog);
export const ctx = { catalog, graph, finder, routers };

export const WALLET = WALLET_CHECKSUMMED;
export const FALLBACK = getAddress('0x9b2a3d1b4f3a9e6c7d8e0f1a2b3c4d5e6f7a8b9c');
/** A lending pool on Base, and its call supply(USDC, 9.985 USDC, WALLET, 0). */
export const TARGET = '0xA238Dd80C259a72e81d7e4664a9801593F98d1c5';
export const SUPPLY = '0x617ba037000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda029130000000000000000000000000000000000000000000000000000000000985be8000000000000000000000000552008c0f6870c2f77e5cc1d2eb9bdff03e30ea90000000000000000000000000000000000000000000000000000000000000000';

/** A call of TARGET with SUPPLY funded by `amount` of `token`. */
export const call = (token: string, amount: string, extra: Partial<ContractCallInput> = {}): ContractCallInput => ({
  fromAmount: amount, fromTokenAddress: token, toContractAddress: TARGET, toContractCallData: SUPPLY, toContractGasLimit: '300000', ...extra,
});

/** 10 USDC from Arbitrum to Base, supplied there. */
export const toBase = (extra: Partial<ContractCallsInput> = {}): ContractCallsInput => ({
  fromChain: 42161, toChain: 8453, fromToken: 'USDC', toToken: 'USDC', fromAddress: WALLET, toAmount: '10000000',
  contractCalls: [call(BASE_USDC, '10000000')], ...extra,
});

/** The quote of `input`; fails the test when there is no route. */
export function quote(input: ContractCallsInput): ContractCallsQuote {
  const result = quoteContractCalls(ctx, input);
  if (!result.ok) throw new Error(`no route: ${result.message}`);
  return result.quote;
}
