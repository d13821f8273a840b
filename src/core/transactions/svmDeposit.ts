/**
 * The transaction of a route's step sent from Solana: the bridge deposit (src/core/chains/solana/deposit.ts) of the
 * route's transaction (src/core/routing/solanaDeposit.ts), for the step's transfer id, sender and receiver, at the request's priority
 * fee level. Its blockhash: in chain mode the cluster's recent one (TransactionContext.svmCluster), so that a wallet
 * signs and sends it as it is; on the embedded data a fixed placeholder that no cluster accepts (the answer is
 * still deterministic: same request, same bytes). In chain mode the compute unit price follows the cluster's recent
 * prioritization fees, and the step's gas cost is the built transaction's (gasCost).
 */
import { createHash } from 'node:crypto';
import { base58 } from '@scure/base';
import type { Chain } from '../entities';
import { familyOf } from '../chains/families';
import type { FamilyAddress } from '../chains/family';
import { buildBridgeDeposit, type BridgeDeposit } from '../chains/solana/deposit';
import { DEFAULT_PRIORITY_FEE_LEVEL, depositMemo, routeDepositOf } from '../routing/solanaDeposit';
import { svm } from '../chains/svm';
import { svmGasCost } from '../routing/assemble';
import type { GasCost, Route } from '../routing/route';
import { InvalidRequestError } from '../errors';
import type { TransactionContext } from './context';
import { transactionIdOf } from './ids';
import { fieldLabel, stepAddresses, type ParameterNames } from './requestAddresses';

/** A Solana transaction request (domain form): the base64 wire transaction a wallet signs, and what it holds. */
export interface SvmTransactionRequest {
  readonly kind: 'svm';
  readonly chainId: number;
  /** The v0 transaction, one empty signature slot, base64 (`transactionRequest.data`). */
  readonly data: string;
  readonly deposit: BridgeDeposit;
  /** The fee of this transaction (lamports), as the step's gas cost. */
  readonly gasCost: GasCost;
  /** Whether its blockhash is a cluster's recent one (chain mode), valid for about a minute, or the placeholder. */
  readonly recentBlockhash: boolean;
}

/**
 * The embedded data's blockhash: base58 of sha256("xchain-router:placeholder-blockhash:v1"), valid until block
 * height 0 — a cluster refuses it ("Blockhash not found"), which is right for data that is no chain's.
 */
export const PLACEHOLDER_BLOCKHASH = base58.encode(createHash('sha256').update('xchain-router:placeholder-blockhash:v1').digest());

export async function buildSvmDeposit(
  ctx: TransactionContext, route: Route, index: number, stepId: string, names: ParameterNames,
): Promise<SvmTransactionRequest> {
  const { graph, routers } = ctx;
  const tx = route.transactions[index];
  if (!tx) throw new Error(`route ${route.id} has no transaction ${index}`);
  const chain = chainOf(ctx, tx.chainId);
  const toChain = chainOf(ctx, tx.toChainId);
  const escrow = routers.bridgeEscrowOf(chain.id);
  if (!escrow) throw new Error(`routers.json has no bridge escrow on chain ${chain.id}`);
  if (escrow.tokenAccounts !== 'everyCatalogMint') throw new Error(`the bridge escrow on chain ${chain.id} must hold a token account for every catalog mint`);
  const { from, receiver } = stepAddresses(chain, toChain, route.request, names);
  // the sender pays the fee and signs: a Solana transaction needs it (the EVM one can be built without `from`)
  const sender = from === undefined ? undefined : svm.parseAddress(from);
  if (sender === undefined) {
    const message = `${fieldLabel(names.fromAddress)} is needed to build a transaction sent from ${chain.name} (${chain.id}): the sender pays its fee and signs it`;
    throw new InvalidRequestError(message, { issues: [{ name: names.fromAddress, rule: 'required', message }] });
  }
  const deposit = routeDepositOf(graph.catalog, chain, tx.steps);
  const cluster = ctx.svmCluster?.(chain.id);
  const memo = depositMemo(deposit, transactionIdOf(stepId), familyOf(toChain).receiverBytes(receiver), tx.toAmountMin);
  const built = await buildBridgeDeposit({
    ...memo,
    sender,
    escrowOwner: escrow.owner as FamilyAddress<'SVM'>,
    token: deposit.token,
    amount: deposit.amount,
    lifetime: cluster ? { blockhash: cluster.blockhash, lastValidBlockHeight: cluster.lastValidBlockHeight } : { blockhash: PLACEHOLDER_BLOCKHASH, lastValidBlockHeight: 0n },
    priorityFeeLevel: route.request.svmPriorityFeeLevel ?? DEFAULT_PRIORITY_FEE_LEVEL,
    ...(cluster ? { recentPrioritizationFees: cluster.recentPrioritizationFees } : {}),
    escrowTokenAccountExists: true,
  });
  return {
    kind: 'svm',
    chainId: chain.id,
    data: built.transactionBase64,
    deposit: built,
    recentBlockhash: cluster !== undefined,
    gasCost: svmGasCost(chain, { computeUnitLimit: built.computeUnitLimit, computeUnitPriceMicroLamports: built.computeUnitPriceMicroLamports, fees: built.fees }),
  };
}

function chainOf(ctx: TransactionContext, id: number): Chain {
  const chain = ctx.graph.catalog.getChain(id);
  if (!chain) throw new Error(`chain ${id} is not in the catalog`);
  return chain;
}
