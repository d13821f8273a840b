/** Reading the service's answers: any JSON body, the calls GET /v1/calldata/parse gives back, and small comparisons. */

export type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** One decoded call of GET /v1/calldata/parse (nested calls in its parameters are decoded the same way). */
export interface ParsedCall {
  functionName: string;
  functionParameters: Record<string, Json>;
}

/** The same address (or hex string), whatever the casing. */
export const sameAddress = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/** An amount as the wire's hex quantity (transactionRequest value, gasLimit...). */
export const hex = (n: bigint | string): string => `0x${BigInt(n).toString(16)}`;
