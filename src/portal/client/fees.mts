/** An integrator's fee balances per chain, and their withdrawal: built by the portal, sent by the wallet. */
import { formatUnits, getAddress } from 'viem';
import type { ChainFeesInfo, FeesAnswer, WithdrawalAnswer } from '../api';
import { api, integratorPath } from './api.mjs';
import { h } from './dom.mjs';
import { button, render, showAlert } from './render.mjs';
import { state } from './state.mjs';
import { readChainId, wallet, walletErrorCode, walletMessage, walletRequest } from './wallet.mjs';

async function loadFees(): Promise<void> {
  const id = state.selectedIntegrator;
  if (id) state.fees = await api<FeesAnswer>('GET', `${integratorPath(id)}/fees`);
}

/** Builds the withdrawal on the server, switches the wallet to its chain, has the wallet send it and waits for it. */
async function withdraw(chain: ChainFeesInfo): Promise<void> {
  const id = state.selectedIntegrator!;
  state.withdrawal = { chainId: chain.chainId, state: 'preparing' };
  render();
  try {
    const answer = await api<WithdrawalAnswer>('GET', `${integratorPath(id)}/fees/${chain.chainId}/withdrawal`);
    const { transaction } = answer;
    if (!transaction.from) throw new Error(`The fees of "${id}" on ${answer.chainName} are not booked to a wallet: nobody can withdraw them.`);
    if (!state.account || getAddress(transaction.from) !== state.account) {
      throw new Error(`The fees on ${answer.chainName} are booked to ${transaction.from}: connect that wallet to withdraw them.`);
    }
    if ((await readChainId()) !== answer.chainId) {
      state.withdrawal = { chainId: chain.chainId, state: 'switching' };
      render();
      await switchChain(answer);
    }
    state.walletChainId = answer.chainId;
    state.withdrawal = { chainId: chain.chainId, state: 'confirm in wallet' };
    render();
    const hash = await walletRequest<string>('eth_sendTransaction', [{
      from: state.account, to: transaction.to, data: transaction.data, value: transaction.value, gas: transaction.gas, gasPrice: transaction.gasPrice,
    }]);
    state.withdrawal = { chainId: chain.chainId, hash, state: 'sent' };
    render();
    const status = await receiptStatus(hash);
    state.withdrawal = { chainId: chain.chainId, hash, state: status === 'success' ? 'confirmed' : 'failed' };
    if (status === 'success') showAlert('info', `Withdrawn on ${answer.chainName}: ${answer.tokens.join(', ')} (transaction ${hash}).`);
    else throw new Error(status === 'reverted' ? `The withdrawal on ${answer.chainName} was reverted (transaction ${hash}).` : `No receipt for ${hash} yet: look it up in the wallet.`);
    await loadFees();
  } catch (error) {
    state.withdrawal = { ...state.withdrawal!, state: 'failed' };
    throw error;
  }
}

async function switchChain(answer: WithdrawalAnswer): Promise<void> {
  try {
    await wallet().request({ method: 'wallet_switchEthereumChain', params: [{ chainId: answer.addChain.chainId }] });
  } catch (error) {
    if (walletErrorCode(error) !== 4902) throw new Error(walletMessage(error));
    // the wallet does not know the chain: add it (EIP-3085), which also switches to it
    await walletRequest('wallet_addEthereumChain', [answer.addChain]);
  }
}

/** Polls the wallet for the transaction's receipt, up to two minutes. */
async function receiptStatus(hash: string): Promise<'success' | 'reverted' | 'unknown'> {
  for (let attempt = 0; attempt < 120; attempt += 1) {
    const receipt = await walletRequest<{ status?: string } | null>('eth_getTransactionReceipt', [hash]);
    if (receipt) return receipt.status === '0x1' ? 'success' : 'reverted';
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  return 'unknown';
}

export function feesSection(): Node {
  const fees = state.fees;
  const title = h('h2', {}, 'Fee balances');
  const done = state.withdrawal?.state === 'confirmed' && !fees?.chains.some((c) => c.chainId === state.withdrawal?.chainId)
    ? h('p', { class: 'small', 'data-withdrawal': 'confirmed' }, `Withdrawn on chain ${state.withdrawal.chainId}: transaction `, h('span', { class: 'mono' }, state.withdrawal.hash ?? ''))
    : null;
  if (!fees || fees.chains.length === 0) {
    return h('section', { class: 'card', 'data-section': 'fees' }, title, h('p', { class: 'empty' }, 'No fees to withdraw: none collected yet, or all withdrawn.'), done);
  }
  const elsewhere = fees.bookedTo && state.me.signedIn && fees.bookedTo.toLowerCase() !== state.me.address.toLowerCase()
    ? h('p', { class: 'alert error' }, `These fees are booked to ${fees.bookedTo}: only that wallet can withdraw them.`)
    : null;
  const rows = fees.chains.map((chain) => {
    const progress = state.withdrawal?.chainId === chain.chainId ? state.withdrawal : undefined;
    return h('tr', { 'data-chain-id': chain.chainId },
      h('td', {}, `${chain.chainName} (${chain.chainId})`, fees.staleChains.includes(chain.chainId) ? h('div', { class: 'small muted' }, 'last known figures') : null),
      h('td', {}, ...chain.tokenBalances.map((b) => h('div', { 'data-token': b.symbol }, `${formatUnits(BigInt(b.amount), b.decimals)} ${b.symbol}`, h('span', { class: 'muted small' }, ` ≈ $${b.amountUsd}`)))),
      h('td', { class: 'actions' },
        chain.withdrawable ? button('Withdraw', () => withdraw(chain), { class: 'primary', 'data-action': 'withdraw' }) : h('span', { class: 'muted small' }, 'not withdrawable here'),
        progress ? h('div', { class: 'small', 'data-withdrawal': progress.state }, progress.state, progress.hash ? h('div', { class: 'mono' }, progress.hash) : null) : null));
  });
  return h('section', { class: 'card', 'data-section': 'fees' },
    title,
    h('p', { class: 'muted small' }, 'A withdrawal is a transaction your wallet sends to the chain\'s fee collector, which pays the balance to the sending wallet.'),
    elsewhere,
    h('table', { 'data-table': 'fees' }, h('thead', {}, h('tr', {}, ...['Chain', 'Balance', ''].map((t) => h('th', {}, t)))), h('tbody', {}, ...rows)),
    done);
}
