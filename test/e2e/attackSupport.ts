/**
 * What the attack tests (attacks.test.ts) share: an attacker's transactions (simulated first for the revert's
 * custom error, then sent as they are and mined, so that a revert is a real reverted transaction on the chain), the
 * devnet contracts and tokens of a chain, and the ledger of balances and allowances that each test compares before
 * and after its attack (nobody but the attacker loses anything; the router and its call executor hold exactly
 * what they held; no contract of the service keeps an allowance to anyone).
 */
import { ContractFactory, getAddress, Interface, Wallet, ZeroAddress, type JsonRpcProvider, type Log, type TransactionReceipt } from 'ethers';
import type { Devnet, DevnetChain } from '../../sandbox/devnet';
import { batchEthCall, waitForReceipt } from '../../sandbox/rpc';

export const NATIVE = ZeroAddress;
export const MAX_UINT256 = (1n << 256n) - 1n;

export const erc20 = new Interface([
  'function balanceOf(address) view returns (uint256)',
  'function allowance(address owner, address spender) view returns (uint256)',
  'function approve(address spender, uint256 amount) returns (bool)',
  'function transfer(address to, uint256 amount) returns (bool)',
  'function transferFrom(address from, address to, uint256 amount) returns (bool)',
  'function mint(address to, uint256 amount)',
  'function deposit() payable',
  'function withdraw(uint256 amount)',
]);

/** The custom errors of every devnet contract (each signature once), and the standard Error / Panic. */
export function errorInterface(devnet: Devnet): Interface {
  const seen = new Set<string>();
  const fragments: string[] = [];
  for (const artifact of Object.values(devnet.artifacts)) {
    for (const item of artifact.abi as { type: string; name: string; inputs: { type: string; components?: unknown }[] }[]) {
      if (item.type !== 'error') continue;
      const fragment = new Interface([item as never]).fragments[0].format('full');
      if (seen.has(fragment)) continue;
      seen.add(fragment);
      fragments.push(fragment);
    }
  }
  return new Interface(fragments);
}

/** What an attempted transaction did: mined and reverted (with its decoded error), or mined and succeeded. */
export interface Attempt {
  readonly receipt: TransactionReceipt;
  readonly reverted: boolean;
  /** The custom error's name (or Error / Panic), when the simulation reverted. */
  readonly error?: string;
  readonly errorArgs?: readonly unknown[];
  /** The raw revert data. */
  readonly revertData?: string;
}

export interface TxRequest {
  readonly to: string;
  readonly data: string;
  readonly value?: bigint;
  readonly gasLimit?: bigint;
}

/** The revert data of an eth_call that failed (ethers' error shapes), or undefined. */
export function revertDataOf(error: unknown): string | undefined {
  const e = error as { data?: unknown; info?: { error?: { data?: unknown } }; error?: { data?: unknown } };
  for (const d of [e.data, e.info?.error?.data, e.error?.data]) {
    if (typeof d === 'string' && d.startsWith('0x')) return d;
    if (d && typeof d === 'object' && typeof (d as { data?: unknown }).data === 'string') return (d as { data: string }).data;
  }
  return undefined;
}

export function decodeRevert(errors: Interface, data: string | undefined): { name: string; args: readonly unknown[] } | undefined {
  if (!data || data === '0x') return undefined;
  try {
    const parsed = errors.parseError(data);
    if (parsed) return { name: parsed.name, args: [...parsed.args] };
  } catch {
    /* not one of ours */
  }
  if (data.startsWith('0x08c379a0')) return { name: 'Error', args: [new Interface(['error Error(string)']).decodeErrorResult('Error', data)[0]] };
  if (data.startsWith('0x4e487b71')) return { name: 'Panic', args: [new Interface(['error Panic(uint256)']).decodeErrorResult('Panic', data)[0]] };
  return { name: data.slice(0, 10), args: [] };
}

/**
 * Sends `tx` from `wallet` as it is, mined whatever it does: simulated first (eth_call, for the revert's error),
 * then signed and sent with an explicit gas limit (no estimation, which would refuse a reverting transaction).
 */
export async function attempt(wallet: Wallet, errors: Interface, tx: TxRequest): Promise<Attempt> {
  const provider = wallet.provider as JsonRpcProvider;
  let revertData: string | undefined;
  let simulatedRevert = false;
  try {
    await provider.call({ from: wallet.address, to: tx.to, data: tx.data, value: tx.value ?? 0n, gasLimit: tx.gasLimit ?? 8_000_000n });
  } catch (error) {
    simulatedRevert = true;
    revertData = revertDataOf(error);
  }
  const sent = await wallet.sendTransaction({ to: tx.to, data: tx.data, value: tx.value ?? 0n, gasLimit: tx.gasLimit ?? 8_000_000n });
  const receipt = await waitForReceipt(provider, sent.hash);
  const reverted = receipt.status !== 1;
  if (reverted !== simulatedRevert) throw new Error(`transaction ${receipt.hash}: simulated ${simulatedRevert ? 'a revert' : 'a success'}, mined ${reverted ? 'reverted' : 'successful'}`);
  const decoded = decodeRevert(errors, revertData);
  return { receipt, reverted, error: decoded?.name, errorArgs: decoded?.args, revertData };
}

/** Deploys a contract from `wallet` (a creation transaction; throws when it reverts). */
export async function deploy(wallet: Wallet, devnet: Devnet, name: string, args: readonly unknown[]): Promise<string> {
  const artifact = devnet.artifacts[name];
  if (!artifact) throw new Error(`no artifact ${name}: is it under contracts/?`);
  const request = await new ContractFactory(artifact.abi as never, artifact.bytecode).getDeployTransaction(...args);
  const sent = await wallet.sendTransaction({ data: request.data, gasLimit: 6_000_000n });
  const receipt = await waitForReceipt(wallet.provider as JsonRpcProvider, sent.hash);
  if (receipt.status !== 1 || !receipt.contractAddress) throw new Error(`${name} deployment reverted`);
  return getAddress(receipt.contractAddress);
}

/** Sends `tx` from `wallet` and requires it to succeed (set-up steps). */
export async function mustSend(wallet: Wallet, errors: Interface, tx: TxRequest, what: string): Promise<TransactionReceipt> {
  const a = await attempt(wallet, errors, tx);
  if (a.reverted) throw new Error(`${what} reverted: ${a.error ?? a.revertData}(${(a.errorArgs ?? []).map(String).join(', ')})`);
  return a.receipt;
}

/** A new key holding only gas: 10 ETH on each chain (anvil_setBalance), no tokens, no approvals, no history. */
export async function newAttacker(devnet: Devnet, chainIds: readonly number[]): Promise<{ address: string; on(chainId: number): Wallet }> {
  const key = Wallet.createRandom().privateKey;
  const address = new Wallet(key).address;
  await Promise.all(chainIds.map((id) => devnet.chain(id).provider.send('anvil_setBalance', [address, `0x${(10n ** 19n).toString(16)}`])));
  return { address, on: (chainId) => new Wallet(key, devnet.chain(chainId).provider) };
}

/** Events of `iface` emitted by `address` in `logs`. */
export function eventsOf(logs: readonly Log[], address: string, iface: Interface) {
  return logs
    .filter((l) => l.address.toLowerCase() === address.toLowerCase())
    .map((l) => {
      try {
        return iface.parseLog(l);
      } catch {
        return null;
      }
    })
    .filter((e): e is NonNullable<typeof e> => e !== null);
}

/** A random 32-byte transfer id. */
export function transferId(): string {
  return Wallet.createRandom().privateKey.toLowerCase();
}

// ------------------------------------------------------------------------------------------------------ the ledger

/** Who and what a ledger reads on one chain. */
export interface Watch {
  readonly chain: DevnetChain;
  /** ERC-20 tokens (the native coin is always read). */
  readonly tokens: readonly string[];
  /** Accounts whose balances must not go down (and, for `exact`, not change). */
  readonly holders: Readonly<Record<string, string>>;
  /** Holders that must end with exactly what they had (the router, the call executor). */
  readonly exact: readonly string[];
  /** Contracts of the service: none may have an allowance to anyone of `spenders`. */
  readonly owners: Readonly<Record<string, string>>;
  readonly spenders: Readonly<Record<string, string>>;
  /** Allowances that must stay as they are (the victim's MaxUint256 to the router and the endpoint). */
  readonly kept: readonly { readonly owner: string; readonly spender: string }[];
}

export interface Ledger {
  readonly balances: Map<string, bigint>;
  readonly allowances: Map<string, bigint>;
}

const key = (...parts: string[]) => parts.map((p) => p.toLowerCase()).join(':');

export async function readLedger(w: Watch): Promise<Ledger> {
  const balances = new Map<string, bigint>();
  const allowances = new Map<string, bigint>();
  const calls: { to: string; data: string; put: (v: bigint) => void }[] = [];
  for (const [name, holder] of Object.entries(w.holders)) {
    for (const token of w.tokens) {
      calls.push({ to: token, data: erc20.encodeFunctionData('balanceOf', [holder]), put: (v) => balances.set(key(name, token), v) });
    }
  }
  for (const [ownerName, owner] of Object.entries(w.owners)) {
    for (const [spenderName, spender] of Object.entries(w.spenders)) {
      if (owner.toLowerCase() === spender.toLowerCase()) continue;
      for (const token of w.tokens) {
        calls.push({ to: token, data: erc20.encodeFunctionData('allowance', [owner, spender]), put: (v) => allowances.set(key(ownerName, spenderName, token), v) });
      }
    }
  }
  for (const { owner, spender } of w.kept) {
    for (const token of w.tokens) {
      calls.push({ to: token, data: erc20.encodeFunctionData('allowance', [owner, spender]), put: (v) => allowances.set(key('kept', owner, spender, token), v) });
    }
  }
  const results = await batchEthCall(w.chain.url, calls);
  results.forEach((r, k) => {
    if (!r.ok) throw new Error(`chain ${w.chain.chainId}: eth_call to ${calls[k].to} failed: ${r.error}`);
    calls[k].put(BigInt(r.data));
  });
  await Promise.all(Object.entries(w.holders).map(async ([name, holder]) => balances.set(key(name, NATIVE), await w.chain.provider.getBalance(holder))));
  return { balances, allowances };
}

/** An expected change of a holder's balance (a legitimate transfer of the test, e.g. a bridge release). */
export interface Expected {
  readonly holder: string;
  readonly token: string;
  readonly delta: bigint;
}

/**
 * The invariant of every attack: no holder (the attacker is not one) has less of any token or of the native coin
 * than before, the `exact` holders (router, executor) have exactly what they had, no service contract has an
 * allowance to any spender, and the kept allowances are unchanged. `expected` names the legitimate changes
 * (holder name, token, delta), checked exactly. Returns the differences found (empty when it holds).
 */
export function ledgerDifferences(w: Watch, before: Ledger, after: Ledger, expected: readonly Expected[] = []): string[] {
  const problems: string[] = [];
  const chain = w.chain.chainId;
  for (const name of Object.keys(w.holders)) {
    for (const token of [NATIVE, ...w.tokens]) {
      const k = key(name, token);
      const b = before.balances.get(k)!;
      const a = after.balances.get(k)!;
      const exp = expected.filter((e) => e.holder === name && e.token.toLowerCase() === token.toLowerCase()).reduce((s, e) => s + e.delta, 0n);
      const hasExpected = expected.some((e) => e.holder === name && e.token.toLowerCase() === token.toLowerCase());
      if (hasExpected || w.exact.includes(name)) {
        if (a - b !== exp) problems.push(`chain ${chain}: ${name}'s ${token} changed by ${a - b}, expected ${exp} (${b} → ${a})`);
      } else if (a < b) {
        problems.push(`chain ${chain}: ${name} lost ${b - a} of ${token} (${b} → ${a})`);
      }
    }
  }
  for (const [k, a] of after.allowances) {
    const b = before.allowances.get(k);
    if (k.startsWith('kept:')) {
      if (a !== b) problems.push(`chain ${chain}: allowance ${k} changed: ${b} → ${a}`);
    } else if (a !== 0n) {
      problems.push(`chain ${chain}: allowance ${k} is ${a} (was ${b})`);
    }
  }
  return problems;
}
