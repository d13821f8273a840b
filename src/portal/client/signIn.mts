/** Connecting the wallet, signing in with it (Sign-In with Ethereum, EIP-4361) and signing out. */
import { getAddress, toHex } from 'viem';
import type { MeAnswer, NonceAnswer } from '../api';
import { api } from './api.mjs';
import { loadIntegrators } from './integrators.mjs';
import { clearAlerts } from './render.mjs';
import { resetSession, state } from './state.mjs';
import { readChainId, walletRequest } from './wallet.mjs';

/** The text of the sign-in message's statement (the server's SIGN_IN_STATEMENT, src/portal/siwe.ts). */
const SIGN_IN_STATEMENT = 'Sign in to the partner portal to manage your integrators, API keys and fees.';

/** The sign-in message expires this long after it is made (the server accepts at most maxMessageSeconds). */
const MESSAGE_LIFETIME_MS = 5 * 60_000;

export async function connect(): Promise<void> {
  const accounts = await walletRequest<string[]>('eth_requestAccounts');
  if (!accounts[0]) throw new Error('The wallet shared no account.');
  state.account = getAddress(accounts[0]);
  state.walletChainId = await readChainId();
}

/** The EIP-4361 message the server checks (its canonical form: the server refuses any other spacing). */
function signInMessage(address: string, chainId: number, nonce: string, now: number): string {
  return [
    `${window.location.host} wants you to sign in with your Ethereum account:`,
    address,
    '',
    SIGN_IN_STATEMENT,
    '',
    `URI: ${window.location.origin}/portal`,
    'Version: 1',
    `Chain ID: ${chainId}`,
    `Nonce: ${nonce}`,
    `Issued At: ${new Date(now).toISOString()}`,
    `Expiration Time: ${new Date(now + MESSAGE_LIFETIME_MS).toISOString()}`,
  ].join('\n');
}

export async function signIn(): Promise<void> {
  if (!state.account) await connect();
  const address = state.account!;
  const chainId = await readChainId();
  state.walletChainId = chainId;
  const { nonce, chainIds } = await api<NonceAnswer>('GET', '/nonce');
  if (!chainIds.includes(chainId)) {
    throw new Error(`The wallet is on chain ${chainId}, which the portal does not accept for signing in: switch to one of ${chainIds.join(', ')}.`);
  }
  const message = signInMessage(address, chainId, nonce, Date.now());
  const signature = await walletRequest<string>('personal_sign', [toHex(message), address]);
  state.me = await api<MeAnswer>('POST', '/session', { message, signature });
  clearAlerts();
  await loadIntegrators();
}

export async function signOut(): Promise<void> {
  if (state.me.signedIn) await api<MeAnswer>('POST', '/logout');
  resetSession();
}
