/**
 * The message a user signs for a relayed (gasless) step: a Permit2 `PermitWitnessTransferFrom` whose spender is the
 * service's Permit2 proxy and whose witness `LiFiCall(address diamondAddress, bytes32 diamondCalldataHash)` binds the
 * router and the hash of the router call data (contracts/router/Permit2Proxy.sol, callDiamondWithPermit2Witness). With
 * it, whoever sends the transaction — the service's relayer — can move the signed amount of the signed token only into
 * that one router call: other call data, another token, more, or after the deadline, and Permit2 or the proxy reverts.
 *
 * The typed data is written as the ecosystem's clients receive it (`typedData` of a step, @lifi/types TypedData):
 * integers as decimal strings, which wallets (viem's signTypedData, eth_signTypedData_v4) read as numbers.
 */
import { getAddress, keccak256, solidityPackedKeccak256 } from 'ethers';

/** The EIP-712 types of the witness permit (Permit2's PermitWitnessTransferFrom with the proxy's LiFiCall). */
export const PERMIT_WITNESS_TYPES = {
  PermitWitnessTransferFrom: [
    { name: 'permitted', type: 'TokenPermissions' },
    { name: 'spender', type: 'address' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
    { name: 'witness', type: 'LiFiCall' },
  ],
  TokenPermissions: [
    { name: 'token', type: 'address' },
    { name: 'amount', type: 'uint256' },
  ],
  LiFiCall: [
    { name: 'diamondAddress', type: 'address' },
    { name: 'diamondCalldataHash', type: 'bytes32' },
  ],
} as const;

export const PERMIT_WITNESS_PRIMARY_TYPE = 'PermitWitnessTransferFrom';

/** What a witness permit is made of (addresses in any case; amounts, nonce and deadline as integers). */
export interface WitnessPermit {
  readonly chainId: number;
  /** Uniswap's Permit2 on the chain: the domain's verifying contract. */
  readonly permit2: string;
  /** The service's Permit2 proxy: the permit's spender. */
  readonly proxy: string;
  /** The router the proxy calls (the witness's diamondAddress). */
  readonly router: string;
  readonly token: string;
  readonly amount: bigint;
  readonly nonce: bigint;
  /** Unix seconds after which Permit2 refuses the signature. */
  readonly deadline: bigint;
  /** The router call the signature allows (its keccak256 is the witness's diamondCalldataHash). */
  readonly routerCalldata: string;
}

export interface TypedDataDomain {
  readonly name: string;
  readonly chainId: number;
  readonly verifyingContract: string;
}

/** EIP-712 typed data as a step carries it. */
export interface PermitWitnessTypedData {
  readonly primaryType: typeof PERMIT_WITNESS_PRIMARY_TYPE;
  readonly domain: TypedDataDomain;
  readonly types: typeof PERMIT_WITNESS_TYPES;
  readonly message: {
    readonly permitted: { readonly token: string; readonly amount: string };
    readonly spender: string;
    readonly nonce: string;
    readonly deadline: string;
    readonly witness: { readonly diamondAddress: string; readonly diamondCalldataHash: string };
  };
}

export function permitWitnessTypedData(permit: WitnessPermit): PermitWitnessTypedData {
  return {
    primaryType: PERMIT_WITNESS_PRIMARY_TYPE,
    domain: { name: 'Permit2', chainId: permit.chainId, verifyingContract: getAddress(permit.permit2) },
    types: PERMIT_WITNESS_TYPES,
    message: {
      permitted: { token: getAddress(permit.token), amount: permit.amount.toString() },
      spender: getAddress(permit.proxy),
      nonce: permit.nonce.toString(),
      deadline: permit.deadline.toString(),
      witness: { diamondAddress: getAddress(permit.router), diamondCalldataHash: keccak256(permit.routerCalldata) },
    },
  };
}

/**
 * The Permit2 nonce of a relayed step: Permit2's nonces are unordered (a bit in a bitmap, any uint256), so the nonce
 * is drawn from what makes the signature unique — the chain, the owner, the step and its deadline — and the same quote
 * asked twice signs the same nonce, while a later quote of the same transfer (another deadline) gets a fresh one.
 */
export function relayNonce(chainId: number, owner: string, stepId: string, deadline: bigint): bigint {
  return BigInt(solidityPackedKeccak256(['string', 'uint256', 'address', 'string', 'uint256'], ['relay-nonce:v1', chainId, getAddress(owner), stepId, deadline]));
}
