/**
 * The browser wallet the portal's page talks to (`window.ethereum`, EIP-1193): its requests, and its errors as
 * messages for the page.
 */

interface Eip1193Provider {
  request(args: { method: string; params?: readonly unknown[] | Record<string, unknown> }): Promise<unknown>;
  on?(event: string, listener: (...args: never[]) => void): void;
}

declare global {
  interface Window {
    ethereum?: Eip1193Provider;
  }
}

/** The wallet's error of a request (EIP-1193: `code` 4001 when the user refused, 4902 when a chain is unknown). */
export function walletErrorCode(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}

export function walletMessage(error: unknown): string {
  if (walletErrorCode(error) === 4001) return 'The request was refused in the wallet.';
  const message = (error as { message?: unknown } | null)?.message;
  return `The wallet answered: ${typeof message === 'string' ? message : String(error)}`;
}

export function wallet(): Eip1193Provider {
  const provider = window.ethereum;
  if (!provider) throw new Error('No browser wallet was found on this page.');
  return provider;
}

export async function walletRequest<T>(method: string, params?: readonly unknown[]): Promise<T> {
  try {
    return (await wallet().request(params === undefined ? { method } : { method, params })) as T;
  } catch (error) {
    throw new Error(walletMessage(error));
  }
}

export async function readChainId(): Promise<number> {
  return Number.parseInt(await walletRequest<string>('eth_chainId'), 16);
}
