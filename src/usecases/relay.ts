/**
 * Relaying a signed gasless step (POST /v1/relayer/relay, POST /v1/advanced/relay) and following it
 * (GET /v1/relayer/status/{taskId}). Everything is checked before anything is recorded or sent, from the attacker's
 * side: the step is priced again with the relayer's fee it carries, and its router call must be the one the witness
 * permit signs (another amount, receiver, route or fee changes the call and its hash); the signature must be the
 * step's owner's, on time, with a Permit2 nonce never used; the fee must still pay for the relayer's gas; the token's
 * permit, when there is one, must approve Permit2 for at least the amount. Then one task is recorded per signature
 * (src/core/relay/tasks.ts) and the relayer (src/chain/relaySender.ts) sends it.
 */
import { keccak256, AbiCoder, getAddress } from 'ethers';
import { ConflictError, InvalidRequestError, NoRouteError, NotFoundError, OverloadedError } from '../core/errors';
import { checkSignedWitness } from '../core/relay/check';
import { feeStillCovers, relayerFee, RELAY_OVERHEAD_GAS } from '../core/relay/fee';
import { checkSignedTokenPermit, type SignedTokenPermit } from '../core/relay/permit';
import { PERMIT_WITNESS_PRIMARY_TYPE } from '../core/relay/permitWitness';
import { relayTransaction } from '../core/relay/relayCall';
import type { RelayTask } from '../core/relay/tasks';
import type { RouteParameters } from '../core/routing/request';
import type { Ports } from './ports';
import { RELAY_TIMING, relayedRequest, relayedStep, relayerFor, TOKEN_PERMIT_GAS } from './relayQuote';

/** How far below the relayer's cost now the fee a step was quoted with may be (its gas margin covers small moves). */
export const RELAY_FEE_TOLERANCE_PPM = 250_000n;
/** How long a client waits before asking again when the relayer is below its balance floor. */
export const RELAYER_RETRY_AFTER_SECONDS = 60;

/** A posted step, as the use case takes it (handlers/wire/requests.ts reads it from the body). */
export interface RelayRequest {
  /** The step's transfer as route parameters (exact input from the step's fromAddress, its tool, slippage, integrator fee). */
  readonly parameters: RouteParameters;
  /** The relayer's fee the step carries (its `Gasless relay fee` cost). */
  readonly relayFee: bigint;
  /** The step's typedData as sent, each with its signature. */
  readonly typedData: readonly unknown[];
  /** The step as posted, kept with the task. */
  readonly step: unknown;
}

export interface RelayAccepted {
  readonly taskId: string;
}

export async function relay(dependencies: Ports, posted: RelayRequest): Promise<RelayAccepted> {
  if (!dependencies.relaying) throw new NoRouteError('No gasless transfer can be relayed: this service runs no relayer; send the transfer with a transaction', { filteredOut: [], failed: [] });
  const relaying = dependencies.relaying;
  const request = { ...relayedRequest(dependencies, posted.parameters), relayFee: posted.relayFee };
  const relayer = relayerFor(relaying, request);
  const owner = getAddress(request.fromAddress!);
  const { amount, fromToken } = request;
  const now = relaying.now();

  const witnessAt = posted.typedData.findIndex((t) => primaryTypeOf(t) === PERMIT_WITNESS_PRIMARY_TYPE);
  if (witnessAt < 0) invalid('/typedData', 'witnessPermit', `/typedData must hold the step's ${PERMIT_WITNESS_PRIMARY_TYPE}, signed`);
  const found = await relayedStep(dependencies, request);
  if (!found.ok) throw new ConflictError(`The step can no longer be priced (${found.message}); ask for a new quote`);
  const { quoted } = found;
  if (quoted.transaction.kind === 'svm') throw new Error('a relayed step reached the Solana deposit builder');
  const routerCall = quoted.transaction;

  const witness = checkSignedWitness(posted.typedData[witnessAt], {
    chainId: relayer.chainId, permit2: relayer.permit2, proxy: relayer.proxy, router: routerCall.to, token: fromToken.address, amount,
    routerCalldata: routerCall.data, owner,
  }, { now, ...RELAY_TIMING }, `/typedData/${witnessAt}`);
  if (!witness.ok) {
    if (witness.field.endsWith('/diamondCalldataHash')) {
      throw new ConflictError(`${witness.field} ${witness.message}: the step's router call is not the one signed — the step was changed, or the prices moved since it was quoted; ask for a new quote`);
    }
    invalid(witness.field, witness.code, `${witness.field} ${witness.message}`);
  }
  const { permit } = witness;
  const taskId = relayTaskId(relayer.chainId, owner, permit.nonce);
  const existing = await relaying.tasks.get(taskId);
  if (existing) throw new ConflictError(`This signature was relayed already: task ${taskId} (GET /v1/relayer/status/${taskId}); a signature is relayed once — sign a new quote to send again`);

  const permitAt = posted.typedData.findIndex((t) => primaryTypeOf(t) === 'Permit');
  const state = await relayer.tokenPermitState(fromToken.address, owner);
  let tokenPermit: SignedTokenPermit | undefined;
  if (permitAt >= 0) {
    if (!state.eip2612) invalid(`/typedData/${permitAt}`, 'tokenPermit', `/typedData/${permitAt}: ${fromToken.symbol} has no EIP-2612 permit`);
    const checked = checkSignedTokenPermit(posted.typedData[permitAt], {
      chainId: relayer.chainId, token: fromToken.address, ...state.eip2612, owner, spender: relayer.permit2, value: amount,
    }, now, RELAY_TIMING.minRemainingSeconds, `/typedData/${permitAt}`);
    if (!checked.ok) invalid(checked.field, 'tokenPermit', `${checked.field} ${checked.message}`);
    tokenPermit = checked.permit;
  } else if (state.permit2Allowance < amount) {
    invalid('/typedData', 'tokenPermit', `/typedData holds no EIP-2612 Permit, and ${owner} allows Permit2 only ${state.permit2Allowance} of the ${amount} ${fromToken.symbol} units sent`);
  }

  const gasUnits = quoted.view.transaction.gasCost.estimate + RELAY_OVERHEAD_GAS + (tokenPermit ? TOKEN_PERMIT_GAS : 0n);
  const cost = relayerFee({ gasUnits, gasPriceWei: await relayer.gasPriceWei(), native: request.fromChain.nativeToken }, fromToken);
  if (!feeStillCovers(posted.relayFee, cost, RELAY_FEE_TOLERANCE_PPM)) {
    throw new ConflictError(`The relayer's fee of the step (${posted.relayFee} ${fromToken.symbol} units) no longer pays for its gas (${cost} units at the gas price now); ask for a new quote`);
  }
  if (await relayer.permit2NonceUsed(owner, permit.nonce)) {
    throw new ConflictError(`Permit2 nonce ${permit.nonce} of ${owner} is used already: this signature was spent; sign a new quote`);
  }
  if (!(await relayer.aboveFloor())) {
    throw new OverloadedError(`The relayer on ${request.fromChain.name} is below its balance floor and takes no new task now; try again later, or send the transfer with a transaction`, RELAYER_RETRY_AFTER_SECONDS);
  }

  const sent = relayTransaction(relayer.proxy, relayer.multicall, routerCall.data, permit, tokenPermit);
  const gasLimit = routerCall.gasLimit + RELAY_OVERHEAD_GAS + (tokenPermit ? TOKEN_PERMIT_GAS : 0n);
  // run first on the chain as it is: a transaction that would revert (the owner moved the tokens away, a nonce spent
  // in the same block...) would cost the relayer gas and pay no fee
  const revert = await relayer.simulate(sent.to, sent.data, gasLimit);
  if (revert !== undefined) throw new ConflictError(`The relayed transaction would revert on ${request.fromChain.name} now (${revert}): nothing was sent; check the balance of ${owner}, then sign a new quote`);
  const created = await relaying.tasks.create({
    taskId, chainId: relayer.chainId, owner, permitNonce: permit.nonce, deadline: permit.deadline, to: sent.to, data: sent.data,
    gasLimit,
    feeToken: fromToken.address, feeAmount: posted.relayFee, integrator: request.integrator, step: posted.step,
  }, new Date(Number(now) * 1000));
  if (!created.created) throw new ConflictError(`This signature was relayed already: task ${created.existing.taskId} (GET /v1/relayer/status/${created.existing.taskId})`);
  return { taskId };
}

/** A relay task's id: one per signature (chain, owner, Permit2 nonce), 0x and 64 hex digits. */
export function relayTaskId(chainId: number, owner: string, permitNonce: bigint): string {
  return keccak256(AbiCoder.defaultAbiCoder().encode(['string', 'uint256', 'address', 'uint256'], ['relay-task:v1', chainId, owner, permitNonce]));
}

export interface RelayStatus {
  readonly status: 'PENDING' | 'DONE' | 'FAILED';
  readonly message: string;
  readonly chainId: number;
  readonly txHash?: string;
  readonly task: RelayTask;
}

/** Where a relay task stands: PENDING until its transaction is mined, then DONE (it succeeded) or FAILED. */
export async function relayStatus(dependencies: Ports, taskId: string): Promise<RelayStatus> {
  const relaying = dependencies.relaying;
  if (!relaying) throw new NotFoundError(`No relayer task ${taskId}: this service runs no relayer, gasless transfers are not offered here`);
  const task = /^0x[0-9a-fA-F]{64}$/.test(taskId) ? await relaying.tasks.get(taskId.toLowerCase()) : undefined;
  if (!task) throw new NotFoundError(`No relayer task ${taskId}: the relay answer gives the task id of each accepted step`);
  const base = { chainId: task.chainId, task };
  switch (task.state) {
    case 'queued':
      return { ...base, status: 'PENDING', message: 'Accepted: the relayer sends it next' };
    case 'sent':
      return { ...base, status: 'PENDING', message: `Sent (${task.attempts.length} transaction${task.attempts.length === 1 ? '' : 's'}), waiting for it to be mined`, txHash: task.attempts[0]?.txHash };
    case 'mined':
      return task.succeeded
        ? { ...base, status: 'DONE', message: 'Mined: the transfer ran', txHash: task.minedTxHash }
        : { ...base, status: 'FAILED', message: 'Mined, but reverted: nothing was moved', txHash: task.minedTxHash };
    case 'failed':
      return { ...base, status: 'FAILED', message: `Not sent: ${task.error ?? 'failed'}` };
  }
}

function primaryTypeOf(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? (value as { primaryType?: unknown }).primaryType : undefined;
}

function invalid(name: string, rule: string, message: string): never {
  throw new InvalidRequestError(message, { issues: [{ name, rule, message }] });
}
