/**
 * Why a transaction of the router reverted: the revert of the same call replayed on the state before its block
 * (read by TransferReads.replay), its data decoded with the errors of the router, the tokens, the exchanges and the
 * bridge endpoint, and mapped onto the contract's FAILED substatus values. A failed Solana deposit: the node's
 * TransactionError and the programs' logs, mapped the same way (diagnoseSolanaFailure).
 */
import { ErrorDescription, Interface } from 'ethers';
import type { Revert } from './ports';
import type { Substatus } from './transferStatus';

/** Custom errors that the service's contracts and the exchanges they call can raise. */
const KNOWN_ERRORS = new Interface([
  'error InsufficientAllowance(address owner, address spender, uint256 allowance, uint256 needed)',
  'error InsufficientBalance(address account, uint256 balance, uint256 needed)',
  'error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)',
  'error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)',
  'error CumulativeSlippageTooHigh(uint256 minAmount, uint256 receivedAmount)',
  'error InsufficientOutputAmount(uint256 amountOut, uint256 amountOutMin)',
  'error TooLittleReceived(uint256 amountOut, uint256 amountOutMinimum)',
  'error Slippage(uint256 dy, uint256 minDy)',
  'error BelowDestinationMinimum(uint256 amount, uint256 minimum)',
  'error Expired()',
  'error NativeAmountMismatch(uint256 needed, uint256 sent)',
  'error NotEnoughNativeForFees(uint256 sent, uint256 fees)',
  'error NativeFeeTooLow(uint256 sent, uint256 needed)',
  'error AmountTooLow(uint256 amount, uint256 minAmount)',
  'error AmountTooHigh(uint256 amount, uint256 maxAmount)',
  'error TransferFailed(address token, address to, uint256 amount)',
  'error UnknownRoute(string bridge, uint256 fromChainId, uint256 toChainId, address token)',
  'error InvalidBridge(string expected, string given)',
]);

const BY_ERROR: Readonly<Record<string, Substatus>> = {
  InsufficientAllowance: 'INSUFFICIENT_ALLOWANCE',
  ERC20InsufficientAllowance: 'INSUFFICIENT_ALLOWANCE',
  InsufficientBalance: 'INSUFFICIENT_BALANCE',
  ERC20InsufficientBalance: 'INSUFFICIENT_BALANCE',
  NativeAmountMismatch: 'INSUFFICIENT_BALANCE',
  NotEnoughNativeForFees: 'INSUFFICIENT_BALANCE',
  CumulativeSlippageTooHigh: 'SLIPPAGE_EXCEEDED',
  InsufficientOutputAmount: 'SLIPPAGE_EXCEEDED',
  TooLittleReceived: 'SLIPPAGE_EXCEEDED',
  Slippage: 'SLIPPAGE_EXCEEDED',
  BelowDestinationMinimum: 'SLIPPAGE_EXCEEDED',
  Expired: 'EXPIRED',
};

const MESSAGES: Readonly<Record<string, string>> = {
  INSUFFICIENT_ALLOWANCE: 'The router was not allowed to take the tokens: approve the approvalAddress for at least fromAmount, then send the transaction again.',
  INSUFFICIENT_BALANCE: 'The sending wallet did not hold enough of the token (or of the native coin for the value) when the transaction ran.',
  SLIPPAGE_EXCEEDED: 'The price moved beyond the slippage allowed by the quote before the transaction ran: request a new quote (or allow more slippage).',
  EXPIRED: 'The quote\'s deadline had passed when the transaction ran: request a new quote.',
  OUT_OF_GAS: 'The transaction ran out of gas: send it with at least the quoted gasLimit.',
  UNKNOWN_FAILED_ERROR: 'The transaction reverted for a reason the service does not recognise.',
};

export interface FailureDiagnosis {
  readonly substatus: Substatus;
  readonly message: string;
}

/** Maps a revert (undefined: none known) to a FAILED substatus with a message naming the error. */
export function diagnoseRevert(revert: Revert | undefined, outOfGas: boolean): FailureDiagnosis {
  if (outOfGas) return { substatus: 'OUT_OF_GAS', message: MESSAGES.OUT_OF_GAS };
  const data = revert?.data;
  let decoded: ErrorDescription | null = null;
  if (data && data.length >= 10) {
    try {
      decoded = KNOWN_ERRORS.parseError(data);
    } catch {
      decoded = null;
    }
  }
  if (decoded && decoded.name === 'Error') {
    // Error(string): a reason string, read below like a node's reason
    return byReason(String(decoded.args[0]));
  }
  if (decoded) {
    const substatus = BY_ERROR[decoded.name] ?? 'UNKNOWN_FAILED_ERROR';
    return { substatus, message: `${MESSAGES[substatus]} ${errorInWords(decoded)}` };
  }
  const reason = revert?.reason ?? reasonIn(data) ?? revert?.message;
  if (reason) return byReason(reason);
  return { substatus: 'UNKNOWN_FAILED_ERROR', message: MESSAGES.UNKNOWN_FAILED_ERROR };
}

/**
 * The decoded error as a reader takes it: its name and each argument by its name ("The contract reported
 * ERC20InsufficientAllowance: spender 0x…, allowance 0, needed 5000000."), not the raw call form.
 */
function errorInWords(decoded: ErrorDescription): string {
  const inputs = decoded.fragment.inputs;
  if (inputs.length === 0) return `The contract reported ${decoded.name}.`;
  const args = inputs.map((input, k) => `${input.name || `argument ${k + 1}`} ${String(decoded.args[k])}`);
  return `The contract reported ${decoded.name}: ${args.join(', ')}.`;
}

/** A revert reason string (standard ERC-20s, Uniswap's routers) mapped by its words. */
function byReason(reason: string): FailureDiagnosis {
  const substatus: Substatus = /allowance/i.test(reason) ? 'INSUFFICIENT_ALLOWANCE'
    : /balance|insufficient funds/i.test(reason) ? 'INSUFFICIENT_BALANCE'
      : /slippage|too little|insufficient.?output|min.?amount|\bSTF\b|received/i.test(reason) ? 'SLIPPAGE_EXCEEDED'
        : /expired|deadline|too old/i.test(reason) ? 'EXPIRED'
          : 'UNKNOWN_FAILED_ERROR';
  return { substatus, message: `${MESSAGES[substatus]} The contract reported: ${reason.replace(/\.$/, '')}.` };
}

/** The reason string of Error(string) revert data. */
function reasonIn(data: string | undefined): string | undefined {
  if (!data || !data.startsWith('0x08c379a0')) return undefined;
  try {
    return String(new Interface(['error Error(string)']).parseError(data)?.args[0]);
  } catch {
    return undefined;
  }
}

const SOLANA_MESSAGES: Readonly<Record<string, string>> = {
  INSUFFICIENT_BALANCE: 'The sending wallet did not hold enough of the token (or enough SOL for the fee and rent) when the transaction ran.',
  OUT_OF_GAS: 'The transaction ran out of compute units: send it with at least the compute unit limit it was built with.',
  UNKNOWN_FAILED_ERROR: 'The transaction failed for a reason the service does not recognise.',
};

/**
 * A failed Solana transaction's substatus, from the node's TransactionError (JSON, e.g. {"InstructionError":[3,
 * {"Custom":1}]} or "InsufficientFundsForFee") and the programs' logs ("Error: insufficient funds" of the Token
 * program, "Transfer: insufficient lamports" of the System program, "exceeded CUs meter"...); the message names the error.
 */
export function diagnoseSolanaFailure(error: unknown, logs: readonly string[]): FailureDiagnosis {
  const text = typeof error === 'string' ? error : JSON.stringify(error, (_, v) => (typeof v === 'bigint' ? v.toString() : v)) ?? String(error);
  const all = `${text}\n${logs.join('\n')}`;
  const substatus: Substatus = /ComputationalBudgetExceeded|exceeded CUs meter|compute units? (?:limit|budget) exceeded/i.test(all) ? 'OUT_OF_GAS'
    : /InsufficientFunds|insufficient funds|insufficient lamports|insufficient account balance/i.test(all) ? 'INSUFFICIENT_BALANCE'
      : 'UNKNOWN_FAILED_ERROR';
  return { substatus, message: `${SOLANA_MESSAGES[substatus]} (${text})` };
}
