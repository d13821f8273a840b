/**
 * The transaction a relayer sends for a signed witness permit: the Permit2 proxy's
 * `callDiamondWithPermit2Witness(diamondCalldata, signer, permit, signature)`, which pulls the signed amount from the
 * signer through Permit2 (checking the witness against the call data) and calls the router with it.
 */
import { Interface } from 'ethers';
import type { SignedWitnessPermit } from './check';

const PROXY = new Interface([
  'function callDiamondWithPermit2Witness(bytes diamondCalldata, address signer, ((address token, uint256 amount) permitted, uint256 nonce, uint256 deadline) permit, bytes signature) payable returns (bytes)',
]);

export function relayCallData(routerCalldata: string, permit: SignedWitnessPermit): string {
  return PROXY.encodeFunctionData('callDiamondWithPermit2Witness', [
    routerCalldata,
    permit.owner,
    { permitted: { token: permit.token, amount: permit.amount }, nonce: permit.nonce, deadline: permit.deadline },
    permit.signature,
  ]);
}
