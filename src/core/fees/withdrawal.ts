/**
 * A withdrawal of an integrator's collected fees on one chain: a call to the fee collector of that chain,
 * `withdrawIntegratorFees(address token)` for one token, `batchWithdrawIntegratorFees(address[] tokens)`
 * for several, encoded with ethers from the fee collector's ABI (src/core/transactions/abi.ts).
 * The fee collector pays msg.sender, so the transaction must be sent from the integrator's fee wallet:
 * `from` is set when the ledger records it.
 */
import type { Catalog } from '../catalog/catalog';
import type { RouterDeployments } from '../catalog/routers';
import type { Chain, Token } from '../entities';
import { familyOf } from '../chains/families';
import { InvalidRequestError } from '../errors';
import type { ChainGas } from '../liquidity/snapshot';
import { divCeil, PPM } from '../math/rational';
import { GAS_LIMIT_MARGIN_PPM } from '../routing/pricing';
import { feeCollectorInterface } from '../transactions/abi';
import type { EvmTransactionRequest } from '../transactions/context';
import { balancesOn, requireIntegrator } from './balances';
import type { FeeLedger } from './feeLedger';

/** Intrinsic gas and the fee collector's dispatch; each withdrawn token adds a balance reset and a transfer. */
export const WITHDRAWAL_BASE_GAS = 30_000n;
export const WITHDRAWAL_GAS_PER_TOKEN = 45_000n;

export interface WithdrawalContext {
  readonly ledger: Pick<FeeLedger, 'integrator' | 'feeWallet'>;
  readonly catalog: Catalog;
  readonly routers: RouterDeployments;
  /** Gas price and native price of a chain (the liquidity snapshot). */
  readonly gas: (chainId: number) => ChainGas | undefined;
}

export interface WithdrawalRequest {
  readonly integratorId: string;
  /** Chain id or key, as given in the path parameter `chainId`. */
  readonly chain: string | number;
  /** Restricts the withdrawal to these tokens (EVM addresses, any letter case). */
  readonly tokenAddresses?: readonly string[];
}

export interface FeeWithdrawal {
  readonly chain: Chain;
  /** The tokens withdrawn, in call order. */
  readonly tokens: readonly Token[];
  readonly functionName: 'withdrawIntegratorFees' | 'batchWithdrawIntegratorFees';
  readonly transactionRequest: EvmTransactionRequest;
}

/**
 * The withdrawal transaction of an integrator's fees on one chain, from the ledger's balances there (read from the
 * chain's fee collector in chain mode). The request is checked (chain, EVM) before the ledger is read.
 */
export async function buildFeeWithdrawal(context: WithdrawalContext, request: WithdrawalRequest): Promise<FeeWithdrawal> {
  const { catalog, routers } = context;
  const chain = catalog.resolveChain(request.chain);
  if (!chain) invalid('path', 'chainId', 'supportedChain', `chainId "${request.chain}" is not a supported chain id or key; GET /v1/chains lists the supported chains`);
  const feeCollector = familyOf(chain).evmContracts ? routers.feeCollectorOf(chain.id) : undefined;
  if (!feeCollector) {
    invalid('path', 'chainId', 'evmChain', `chainId "${request.chain}": fees are collected and withdrawn on EVM chains only, and ${chain.name} (${chain.id}) is a ${chain.chainType} chain`);
  }
  const integrator = await requireIntegrator(context.ledger, request.integratorId);
  const held = balancesOn(integrator, chain.id);
  let tokens: Token[];
  if (request.tokenAddresses && request.tokenAddresses.length > 0) {
    // In the order asked, each once; tokens without a balance are left out (the contract would skip them).
    const wanted = [...new Set(request.tokenAddresses.map((a) => a.toLowerCase()))];
    tokens = wanted.flatMap((address) => held.filter((b) => b.token.address.toLowerCase() === address).map((b) => b.token));
    if (tokens.length === 0) {
      invalid('query', 'tokenAddresses', 'collectedFees', `integrator "${integrator.integratorId}" has no collected fees on ${chain.name} (${chain.id}) in ${wanted.join(', ')}${describeHeld(held.map((b) => b.token))}`);
    }
  } else {
    tokens = held.map((b) => b.token);
    if (tokens.length === 0) {
      invalid('path', 'chainId', 'collectedFees', `integrator "${integrator.integratorId}" has no collected fees on ${chain.name} (${chain.id}) to withdraw`);
    }
  }
  const addresses = tokens.map((t) => t.address);
  const functionName = tokens.length === 1 ? 'withdrawIntegratorFees' : 'batchWithdrawIntegratorFees';
  const data = functionName === 'withdrawIntegratorFees'
    ? feeCollectorInterface.encodeFunctionData('withdrawIntegratorFees', [addresses[0]])
    : feeCollectorInterface.encodeFunctionData('batchWithdrawIntegratorFees', [addresses]);
  const estimate = WITHDRAWAL_BASE_GAS + WITHDRAWAL_GAS_PER_TOKEN * BigInt(tokens.length);
  return {
    chain,
    tokens,
    functionName,
    transactionRequest: {
      chainId: chain.id,
      to: feeCollector,
      ...(integrator.feeWallet !== undefined ? { from: integrator.feeWallet } : {}),
      data,
      value: 0n,
      gasPrice: context.gas(chain.id)?.gasPriceWei ?? 0n,
      gasLimit: divCeil(estimate * GAS_LIMIT_MARGIN_PPM, PPM),
    },
  };
}

function describeHeld(tokens: readonly Token[]): string {
  return tokens.length === 0 ? ' (it has none on this chain)' : `; it has fees in ${tokens.map((t) => `${t.symbol} ${t.address}`).join(', ')}`;
}

function invalid(where: 'path' | 'query', name: string, rule: string, message: string): never {
  throw new InvalidRequestError(message, { issues: [{ in: where, name, rule, message }] });
}
