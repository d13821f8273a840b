/**
 * The addresses of the programs the sandbox's Solana chain knows by name (the system program, SPL Token and
 * Token-2022, associated token accounts, compute budget, the loaders, the memo program at each of its addresses) and
 * of the native mint.
 */
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';

export const SYSTEM_PROGRAM = '11111111111111111111111111111111';
export const TOKEN_PROGRAM = TOKEN_PROGRAM_ADDRESS as string;
export const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';
export const ASSOCIATED_TOKEN_PROGRAM = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';
export const COMPUTE_BUDGET_PROGRAM = 'ComputeBudget111111111111111111111111111111';
export const NATIVE_LOADER = 'NativeLoader1111111111111111111111111111111';
export const BPF_LOADER_UPGRADEABLE = 'BPFLoaderUpgradeab1e11111111111111111111111';
export const NATIVE_MINT = 'So11111111111111111111111111111111111111112';
/** Memo v1, v3 (the address LiteSVM loads the memo program at) and v4 (the address @solana-program/memo 0.15 builds for). */
export const MEMO_PROGRAM_V1 = 'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo';
export const MEMO_PROGRAM_V3 = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr';
export const MEMO_PROGRAM_V4 = 'Memo4c2pN8afCj432Lb7RMVKi9PbQnnW7ewFFaV3oAH';
export const MEMO_PROGRAMS: ReadonlySet<string> = new Set([MEMO_PROGRAM_V1, MEMO_PROGRAM_V3, MEMO_PROGRAM_V4]);
