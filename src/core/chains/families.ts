/**
 * The chain families, by chain type: the one place that maps a chain to its family. Outside src/core/chains, code
 * asks `familyOf(chain)` instead of branching on `chainType`.
 */
import type { Chain, ChainType } from '../entities';
import { evm } from './evm';
import type { ChainFamily } from './family';
import { mvm } from './mvm';
import { svm } from './svm';
import { tvm } from './tvm';
import { utxo } from './utxo';

export const FAMILIES: { readonly [T in ChainType]: ChainFamily<T> } = { EVM: evm, SVM: svm, UTXO: utxo, MVM: mvm, TVM: tvm };

export function familyOf<T extends ChainType>(chain: { readonly chainType: T }): ChainFamily<T>;
export function familyOf(chain: Pick<Chain, 'chainType'>): ChainFamily {
  return FAMILIES[chain.chainType];
}
