import { Interface } from 'ethers';
import { diagnoseRevert } from '../../../../src/core/status/failure';

const errors = new Interface([
  'error InsufficientAllowance(address owner, address spender, uint256 allowance, uint256 needed)',
  'error InsufficientBalance(address account, uint256 balance, uint256 needed)',
  'error CumulativeSlippageTooHigh(uint256 minAmount, uint256 receivedAmount)',
  'error TooLittleReceived(uint256 amountOut, uint256 amountOutMinimum)',
  'error Expired()',
  'error Unrelated(uint256 x)',
  'error Error(string)',
]);
const A = '0x00000000000000000000000000000000000000aa';
const B = '0x00000000000000000000000000000000000000bb';
/** What ethers throws for a reverted eth_call: the revert data in `data`. */
const reverted = (name: string, args: unknown[]) => ({ data: errors.encodeErrorResult(name, args), shortMessage: 'execution reverted' });

describe('diagnoseRevert: a router revert → FAILED substatus', () => {
  it.each([
    ['InsufficientAllowance', [A, B, 0n, 5n], 'INSUFFICIENT_ALLOWANCE'],
    ['InsufficientBalance', [A, 1n, 5n], 'INSUFFICIENT_BALANCE'],
    ['CumulativeSlippageTooHigh', [100n, 99n], 'SLIPPAGE_EXCEEDED'],
    ['TooLittleReceived', [99n, 100n], 'SLIPPAGE_EXCEEDED'],
    ['Expired', [], 'EXPIRED'],
    ['Unrelated', [7n], 'UNKNOWN_FAILED_ERROR'],
  ])('%s → %s', (name, args, substatus) => {
    const d = diagnoseRevert(reverted(name, args as unknown[]), false);
    expect(d.substatus).toBe(substatus);
  });

  it('names the decoded error and its arguments by their names, in words', () => {
    expect(diagnoseRevert(reverted('CumulativeSlippageTooHigh', [100n, 99n]), false).message).toMatch(/\. The contract reported CumulativeSlippageTooHigh: minAmount 100, receivedAmount 99\.$/);
    expect(diagnoseRevert(reverted('InsufficientAllowance', [A, B, 0n, 5n]), false).message).toMatch(new RegExp(`reported InsufficientAllowance: owner ${A}, spender ${B}, allowance 0, needed 5\\.$`, 'i'));
    expect(diagnoseRevert(reverted('Expired', []), false).message).toMatch(/The contract reported Expired\.$/);
  });

  it('reads Error(string) reasons of standard tokens', () => {
    expect(diagnoseRevert(reverted('Error', ['ERC20: insufficient allowance']), false).substatus).toBe('INSUFFICIENT_ALLOWANCE');
    expect(diagnoseRevert(reverted('Error', ['ERC20: transfer amount exceeds balance']), false).substatus).toBe('INSUFFICIENT_BALANCE');
    expect(diagnoseRevert(reverted('Error', ['Transaction too old']), false).substatus).toBe('EXPIRED');
    expect(diagnoseRevert(reverted('Error', ['LOK']), false).substatus).toBe('UNKNOWN_FAILED_ERROR');
  });

  it('a transaction that used all its gas is OUT_OF_GAS whatever the replay says; no data at all is unknown', () => {
    expect(diagnoseRevert(reverted('Expired', []), true).substatus).toBe('OUT_OF_GAS');
    expect(diagnoseRevert(new Error('socket hang up'), false)).toMatchObject({ substatus: 'UNKNOWN_FAILED_ERROR' });
  });
});
