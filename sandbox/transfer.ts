/**
 * `npm run sandbox:transfer`: one transfer on a running sandbox (`npm run sandbox`), from quote to DONE, as an
 * integrator's client does it: GET /v1/quote with a test wallet as fromAddress, approve estimate.approvalAddress
 * when the token is not the native coin, sign and send transactionRequest unchanged, then poll GET /v1/status until
 * DONE or FAILED, printing every state met.
 *
 *   npm run sandbox:transfer -- --fromChain 8453 --toChain 42161 --fromToken USDC --toToken USDC --fromAmount 1000000000
 *   (any other quote parameter as --name value; --wallet N picks test wallet N; --state FILE a sandbox state file)
 */
import fs from 'node:fs';
import { Wallet } from 'ethers';
import { approveIfNeeded, sendTransactionRequest, type WireTransactionRequest } from './execute';
import { makeProvider } from './rpc';
import { DEFAULT_STATE_FILE, type SandboxState } from './service';

export interface TransferResult {
  readonly txHash: string;
  readonly states: readonly string[];
  readonly status: Record<string, unknown> & { status: string; substatus?: string; receiving?: { amount?: string } };
  readonly quote: { estimate: { toAmount: string; toAmountMin: string } };
}

/** Quote → approve → send → poll /v1/status; `log` gets one line per step. */
export async function runTransfer(
  state: SandboxState, query: Record<string, string>, options: { wallet?: number; log?: (line: string) => void; timeoutMs?: number } = {},
): Promise<TransferResult> {
  const log = options.log ?? (() => undefined);
  const fromChainId = Number(query.fromChain);
  const chain = state.chains.find((c) => c.chainId === fromChainId);
  if (!chain) throw new Error(`fromChain ${query.fromChain} is not a chain of the sandbox (${state.chains.map((c) => c.chainId).join(', ')}): use a chain id`);
  const provider = makeProvider(chain.rpcUrl, fromChainId);
  try {
    const wallet = new Wallet(state.walletKeys[options.wallet ?? 0], provider);
    const params = new URLSearchParams({ ...query, fromAddress: wallet.address });
    const path = query.toAmount ? '/v1/quote/toAmount' : '/v1/quote';
    const res = await fetch(`${state.url}${path}?${params}`);
    const quote = (await res.json()) as {
      tool: string; message?: string;
      action: { fromAmount: string; fromToken: { address: string; symbol: string }; toToken: { symbol: string } };
      estimate: { toAmount: string; toAmountMin: string; approvalAddress: string };
      transactionRequest: WireTransactionRequest;
    };
    if (res.status !== 200) throw new Error(`quote: ${res.status} ${quote.message ?? JSON.stringify(quote)}`);
    log(`quote: ${quote.action.fromAmount} ${quote.action.fromToken.symbol} → ${quote.estimate.toAmount} ${quote.action.toToken.symbol} (at least ${quote.estimate.toAmountMin}) via ${quote.tool}`);
    const approval = await approveIfNeeded(wallet, quote.action.fromToken.address, quote.estimate.approvalAddress, BigInt(quote.action.fromAmount));
    if (approval) log(`approved ${quote.estimate.approvalAddress}: ${approval.hash}`);
    const receipt = await sendTransactionRequest(wallet, quote.transactionRequest);
    log(`sent ${receipt.hash} (status ${receipt.status}, gas used ${receipt.gasUsed})`);
    const states: string[] = [];
    const deadline = Date.now() + (options.timeoutMs ?? 30_000);
    for (;;) {
      const s = await fetch(`${state.url}/v1/status?${new URLSearchParams({ txHash: receipt.hash, fromChain: String(fromChainId) })}`);
      const status = (await s.json()) as TransferResult['status'];
      const label = `${status.status}${status.substatus ? ` ${status.substatus}` : ''}`;
      if (states.at(-1) !== label) {
        states.push(label);
        log(`GET /v1/status: ${label}${status.substatusMessage ? ` (${status.substatusMessage})` : ''}`);
      }
      if (status.status === 'DONE' || status.status === 'FAILED' || status.status === 'INVALID') {
        if (status.receiving?.amount) log(`received ${status.receiving.amount} (quoted ${quote.estimate.toAmount}, at least ${quote.estimate.toAmountMin})`);
        return { txHash: receipt.hash, states, status, quote };
      }
      if (Date.now() > deadline) throw new Error(`still ${label} after ${options.timeoutMs ?? 30_000} ms`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    provider.destroy();
  }
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const query: Record<string, string> = {};
  let stateFile = DEFAULT_STATE_FILE;
  let wallet = 0;
  for (let k = 0; k < args.length; k += 2) {
    const name = args[k].replace(/^--/, '');
    const value = args[k + 1];
    if (value === undefined) {
      console.error(`--${name} needs a value`);
      process.exit(2);
    }
    if (name === 'state') stateFile = value;
    else if (name === 'wallet') wallet = Number(value);
    else query[name] = value;
  }
  if (!fs.existsSync(stateFile)) {
    console.error(`no running sandbox (${stateFile} is missing): start one with npm run sandbox`);
    process.exit(2);
  }
  const state = JSON.parse(fs.readFileSync(stateFile, 'utf8')) as SandboxState;
  runTransfer(state, query, { wallet, log: (line) => console.log(line) }).then((r) => {
    process.exit(r.status.status === 'DONE' ? 0 : 1);
  }, (error: Error) => {
    console.error(error.message);
    process.exit(1);
  });
}
