/**
 * Token accounts and mints of the Token and Token-2022 programs decoded, and token amounts as the real RPC writes them
 * (uiTokenAmount, the token balances of a transaction's meta).
 */
import type { EncodedAccount } from '@solana/kit';
import { getMintDecoder, getTokenDecoder } from '@solana-program/token';
import { TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from './programs';

export interface UiTokenAmount {
  readonly amount: string;
  readonly decimals: number;
  readonly uiAmount: number;
  readonly uiAmountString: string;
}

export interface TokenBalance {
  readonly accountIndex: number;
  readonly mint: string;
  readonly owner: string;
  readonly programId: string;
  readonly uiTokenAmount: UiTokenAmount;
}

const tokenDecoder = getTokenDecoder();
const mintDecoder = getMintDecoder();

export function isTokenProgram(program: string): boolean {
  return program === TOKEN_PROGRAM || program === TOKEN_2022_PROGRAM;
}

/** The base state of an initialized token account (Token, or Token-2022 with its extensions after byte 165). */
export function decodeTokenAccount(account: EncodedAccount | null): ReturnType<typeof tokenDecoder.decode> | undefined {
  if (!account || !isTokenProgram(account.programAddress)) return undefined;
  const data = account.data;
  const isAccount = data.length === 165 || (account.programAddress === TOKEN_2022_PROGRAM && data.length > 165 && data[165] === 2);
  if (!isAccount || data[108] === 0) return undefined;
  return tokenDecoder.decode(data.subarray(0, 165));
}

/** The decoded mint of a Token / Token-2022 mint account. */
export function decodeMint(account: EncodedAccount | null): ReturnType<typeof mintDecoder.decode> | undefined {
  if (!account || !isTokenProgram(account.programAddress)) return undefined;
  const data = account.data;
  const isMint = data.length === 82 || (account.programAddress === TOKEN_2022_PROGRAM && data.length > 165 && data[165] === 1);
  if (!isMint) return undefined;
  const mint = mintDecoder.decode(data.subarray(0, 82));
  return mint.isInitialized ? mint : undefined;
}

/** The RPC's decimal string of a token amount, trailing zeros trimmed (real_number_string_trimmed). */
export function uiAmountString(amount: bigint, decimals: number): string {
  if (decimals === 0) return amount.toString();
  const digits = amount.toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

export function uiTokenAmount(amount: bigint, decimals: number): UiTokenAmount {
  return { amount: amount.toString(), decimals, uiAmount: Number(amount) / 10 ** decimals, uiAmountString: uiAmountString(amount, decimals) };
}
