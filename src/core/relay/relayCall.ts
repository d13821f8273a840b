/**
 * The transaction a relayer sends for a signed step. Without a token permit: the Permit2 proxy's
 * `callDiamondWithPermit2Witness(diamondCalldata, signer, permit, signature)`, which pulls the signed amount from the
 * signer through Permit2 (checking the witness against the call data) and calls the router with it. With the token's
 * EIP-2612 permit for Permit2 (permit.ts): both calls in one transaction through Multicall3's `aggregate3` — the
 * token's `permit` first, allowed to fail (someone may have submitted that signature already: the allowance is then
 * there), then the proxy call, which must succeed. Neither call depends on who sends it.
 */
import { erc20Interface, multicall3Interface, permit2ProxyInterface } from '../transactions/abi';
import type { SignedWitnessPermit } from './check';
import type { SignedTokenPermit } from './permit';

export function relayCallData(routerCalldata: string, permit: SignedWitnessPermit): string {
  return permit2ProxyInterface.encodeFunctionData('callDiamondWithPermit2Witness', [
    routerCalldata,
    permit.owner,
    { permitted: { token: permit.token, amount: permit.amount }, nonce: permit.nonce, deadline: permit.deadline },
    permit.signature,
  ]);
}

export interface RelayTransaction {
  readonly to: string;
  readonly data: string;
}

/** The relayer's transaction: the proxy call, after the token's permit when there is one (through `multicall`). */
export function relayTransaction(proxy: string, multicall: string, routerCalldata: string, witness: SignedWitnessPermit, tokenPermit?: SignedTokenPermit): RelayTransaction {
  const proxyCall = relayCallData(routerCalldata, witness);
  if (!tokenPermit) return { to: proxy, data: proxyCall };
  const p = tokenPermit;
  const permitCall = erc20Interface.encodeFunctionData('permit', [p.owner, p.spender, p.value, p.deadline, p.v, p.r, p.s]);
  return {
    to: multicall,
    data: multicall3Interface.encodeFunctionData('aggregate3', [[
      { target: p.token, allowFailure: true, callData: permitCall },
      { target: proxy, allowFailure: false, callData: proxyCall },
    ]]),
  };
}
