import { InvalidRequestError } from '../../src/core/errors';

/** The InvalidRequestError that `fn` throws: its message and its first issue (fails the test when it throws none). */
export function invalidRequestOf(fn: () => unknown): { message: string; issue: { name: string; rule: string } } {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidRequestError);
    return { message: (error as Error).message, issue: ((error as InvalidRequestError).details as { issues: { name: string; rule: string }[] }).issues[0] };
  }
  throw new Error('expected an InvalidRequestError');
}
