/**
 * `npm run sandbox:transfer`: one transfer on a running sandbox (`npm run sandbox`), from quote to DONE, as an
 * integrator's client does it: GET /v1/quote with a test wallet as fromAddress, approve estimate.approvalAddress
 * when the token is not the native coin, sign and send transactionRequest unchanged, then poll GET /v1/status until
 * DONE or FAILED, printing every state met.
 *
 * From Solana (--fromChain 1151111081099710, the sandbox started with Solana among its chains): fromAddress is Solana
 * test wallet N; the quote's transactionRequest.data is a base64 v0 transaction with one empty signature slot (the
 * fee payer, fromAddress), which the wallet's keypair signs (@solana/kit) and the chain's RPC receives as it is; then
 * GET /v1/status with the signature, and the chains themselves (the destination endpoint's Released event for the
 * memo's transfer id, or the escrow's refund memo naming the deposit) say when the relayer is done. Without a
 * transactionRequest in the answer it says so and stops. To Solana, toAddress defaults to Solana test wallet N.
 *
 *   npm run sandbox:transfer -- --fromChain 8453 --toChain 42161 --fromToken USDC --toToken USDC --fromAmount 1000000000
 *   npm run sandbox:transfer -- --fromChain 1151111081099710 --toChain 42161 --fromToken USDC --toToken USDC --fromAmount 100000000
 *   (any other quote parameter as --name value; --wallet N picks test wallet N; --state FILE a sandbox state file)
 */
import fs from 'node:fs';
import { Interface, toBeHex, Wallet } from 'ethers';
import {
  createKeyPairSignerFromBytes,
  createSolanaRpc,
  getBase58Encoder,
  getBase64Encoder,
  getBase64EncodedWireTransaction,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  signTransaction,
  type Address,
  type KeyPairSigner,
} from '@solana/kit';
import { MEMO_PROGRAMS, parseBridgeMemo, type BridgeMemo } from '../src/core/chains/solana/memo';
import { BRIDGE_ENDPOINT_ADDRESS } from './data';
import { approveIfNeeded, sendTransactionRequest, type WireTransactionRequest } from './execute';
import { makeProvider } from './rpc';
import { DEFAULT_STATE_FILE, type SandboxState } from './service';
import { SOLANA_CHAIN_ID, waitForSignature, type ParsedTransaction } from './solana/bridge';

export interface TransferResult {
  readonly txHash: string;
  readonly states: readonly string[];
  readonly status: Record<string, unknown> & { status: string; substatus?: string; receiving?: { amount?: string } };
  readonly quote: { estimate: { toAmount: string; toAmountMin: string } };
  /** From Solana: what the chains say the relayer did (the status may lag behind or not know Solana yet). */
  readonly outcome?: { readonly kind: 'released' | 'refunded'; readonly tx: string; readonly amount?: string };
}

/** Solana test wallet `index` of a running sandbox's state. */
async function solanaWallet(state: SandboxState, index: number): Promise<KeyPairSigner> {
  const key = state.solanaWalletKeys?.[index];
  if (!key) {
    throw new Error(state.solanaWalletKeys
      ? `no Solana test wallet ${index} (${state.solanaWalletKeys.length} funded)`
      : `the running sandbox has no Solana chain: start it with npm run sandbox -- --chains 1,42161,8453,${SOLANA_CHAIN_ID}`);
  }
  return createKeyPairSignerFromBytes(new Uint8Array(getBase58Encoder().encode(key)));
}

/** Quote → approve → send → poll /v1/status; `log` gets one line per step. */
export async function runTransfer(
  state: SandboxState, query: Record<string, string>, options: { wallet?: number; log?: (line: string) => void; timeoutMs?: number } = {},
): Promise<TransferResult> {
  const log = options.log ?? (() => undefined);
  const fromChainId = Number(query.fromChain);
  const chain = state.chains.find((c) => c.chainId === fromChainId);
  if (!chain) throw new Error(`fromChain ${query.fromChain} is not a chain of the sandbox (${state.chains.map((c) => c.chainId).join(', ')}): use a chain id`);
  if (fromChainId === SOLANA_CHAIN_ID) return runSolanaTransfer(state, query, chain.rpcUrl, options);
  // to Solana: the receiver is Solana test wallet N unless toAddress says otherwise
  const toSolana: Record<string, string> = Number(query.toChain) === SOLANA_CHAIN_ID && !query.toAddress
    ? { toAddress: (await solanaWallet(state, options.wallet ?? 0)).address }
    : {};
  const toSolanaChain = state.chains.find((c) => c.chainId === SOLANA_CHAIN_ID);
  const provider = makeProvider(chain.rpcUrl, fromChainId);
  try {
    const wallet = new Wallet(state.walletKeys[options.wallet ?? 0], provider);
    const params = new URLSearchParams({ ...toSolana, ...query, fromAddress: wallet.address });
    const path = query.toAmount ? '/v1/quote/toAmount' : '/v1/quote';
    const res = await fetch(`${state.url}${path}?${params}`);
    const quote = (await res.json()) as QuoteAnswer & { transactionRequest: WireTransactionRequest };
    if (res.status !== 200) throw new Error(`quote: ${res.status} ${quote.message ?? JSON.stringify(quote)}`);
    log(`quote: ${quote.action.fromAmount} ${quote.action.fromToken.symbol} → ${quote.estimate.toAmount} ${quote.action.toToken.symbol} (at least ${quote.estimate.toAmountMin}) via ${quote.tool}`);
    const approval = await approveIfNeeded(wallet, quote.action.fromToken.address, quote.estimate.approvalAddress, BigInt(quote.action.fromAmount));
    if (approval) log(`approved ${quote.estimate.approvalAddress}: ${approval.hash}`);
    const receipt = await sendTransactionRequest(wallet, quote.transactionRequest);
    log(`sent ${receipt.hash} (status ${receipt.status}, gas used ${receipt.gasUsed})`);
    // to Solana: the escrow's release memo on the receiver, or the endpoint's refund, also tell when the relayer is done
    const deposited = receipt.logs.find((l) => l.address.toLowerCase() === BRIDGE_ENDPOINT_ADDRESS.toLowerCase() && l.topics.length === 3);
    const receiver = params.get('toAddress');
    const onChain = Number(query.toChain) === SOLANA_CHAIN_ID && deposited && receiver && toSolanaChain
      ? () => releasedOnSolana(createSolanaRpc(toSolanaChain.rpcUrl), receiver, deposited.topics[2], deposited.topics[1], provider, receipt.blockNumber)
      : undefined;
    return await follow(state, receipt.hash, fromChainId, quote, onChain, log, options.timeoutMs);
  } finally {
    provider.destroy();
  }
}

/** A quote's answer as read here. */
interface QuoteAnswer {
  tool: string;
  message?: string;
  errors?: { issues?: { name?: string; rule?: string }[] };
  action: { fromAmount: string; fromToken: { address: string; symbol: string }; toToken: { symbol: string } };
  estimate: { toAmount: string; toAmountMin: string; approvalAddress: string };
  transactionRequest?: { data?: string };
}

const RELEASED = new Interface([
  'event Released(uint256 indexed fromChainId, uint256 indexed depositId, bytes32 indexed transactionId, address token, uint256 amount, address paidTo, bool destinationCall, bool destinationCallSucceeded)',
]);
const REFUNDED = new Interface(['event Refunded(uint256 indexed depositId, address token, uint256 amount, address to)']);

/** From Solana: quote → sign the base64 transaction with the wallet's keypair → send → follow until the relayer is done. */
async function runSolanaTransfer(
  state: SandboxState, query: Record<string, string>, rpcUrl: string, options: { wallet?: number; log?: (line: string) => void; timeoutMs?: number },
): Promise<TransferResult> {
  const log = options.log ?? (() => undefined);
  const signer = await solanaWallet(state, options.wallet ?? 0);
  const toChainId = Number(query.toChain);
  // to an EVM chain: the receiver is EVM test wallet N unless toAddress says otherwise
  const toEvm: Record<string, string> = toChainId !== SOLANA_CHAIN_ID && !query.toAddress ? { toAddress: new Wallet(state.walletKeys[options.wallet ?? 0]).address } : {};
  const params = new URLSearchParams({ ...toEvm, ...query, fromAddress: signer.address });
  const res = await fetch(`${state.url}${query.toAmount ? '/v1/quote/toAmount' : '/v1/quote'}?${params}`);
  const quote = (await res.json()) as QuoteAnswer;
  if (res.status !== 200) {
    if (quote.errors?.issues?.some((i) => i.rule === 'sendingSupported')) {
      throw new Error(`the service does not send from Solana yet (400 sendingSupported: ${quote.message}): nothing to sign`);
    }
    throw new Error(`quote: ${res.status} ${quote.message ?? JSON.stringify(quote)}`);
  }
  log(`quote: ${quote.action.fromAmount} ${quote.action.fromToken.symbol} → ${quote.estimate.toAmount} ${quote.action.toToken.symbol} (at least ${quote.estimate.toAmountMin}) via ${quote.tool}`);
  const data = quote.transactionRequest?.data;
  if (!data) throw new Error('the quote has no transactionRequest (the service does not build Solana transactions here yet): nothing to sign');

  // the wallet's part: decode, check it is the signer asked for, sign, send unchanged
  const transaction = getTransactionDecoder().decode(getBase64Encoder().encode(data));
  const signers = Object.keys(transaction.signatures);
  if (!signers.includes(signer.address)) throw new Error(`the transaction is to be signed by ${signers.join(', ')}, not by the wallet ${signer.address}`);
  const signed = await signTransaction([signer.keyPair], transaction);
  const rpc = createSolanaRpc(rpcUrl);
  const destination = state.chains.find((c) => c.chainId === toChainId && c.chainId !== SOLANA_CHAIN_ID);
  const provider = destination ? makeProvider(destination.rpcUrl, destination.chainId) : undefined;
  try {
    const fromBlock = provider ? await provider.getBlockNumber() : 0;
    const signature = await rpc.sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: 'base64' }).send();
    await waitForSignature(rpc, signature);
    log(`sent ${signature}`);
    const memo = memoOf(signed.messageBytes);
    if (!memo) log('the transaction carries no bridge memo: following GET /v1/status only');

    return await follow(state, signature, SOLANA_CHAIN_ID, quote, memo ? () => chainOutcome(memo, signature, signer.address, rpc, provider, fromBlock + 1) : undefined, log, options.timeoutMs);
  } finally {
    provider?.destroy();
  }
}

/**
 * Polls GET /v1/status until a final answer, printing every state met. `onChain`, when given, reads the relayer's
 * outcome from the chains themselves: once it has one, the status gets five more seconds to say the same, then the
 * outcome is the answer.
 */
async function follow(
  state: SandboxState, txHash: string, fromChainId: number, quote: TransferResult['quote'] & { estimate: { toAmount: string; toAmountMin: string } },
  onChain: (() => Promise<TransferResult['outcome']>) | undefined, log: (line: string) => void, timeoutMs = 30_000,
): Promise<TransferResult> {
  const states: string[] = [];
  let status: TransferResult['status'] = { status: 'UNKNOWN' };
  let outcome: TransferResult['outcome'];
  let outcomeAt = 0;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const s = await fetch(`${state.url}/v1/status?${new URLSearchParams({ txHash, fromChain: String(fromChainId) })}`);
    const body = (await s.json()) as TransferResult['status'] & { message?: string };
    const label = s.status === 200 ? `${body.status}${body.substatus ? ` ${body.substatus}` : ''}` : `HTTP ${s.status}`;
    if (s.status === 200) status = body;
    if (states.at(-1) !== label) {
      states.push(label);
      log(`GET /v1/status: ${label}${body.substatusMessage ? ` (${body.substatusMessage})` : body.message ? ` (${body.message})` : ''}`);
    }
    if (s.status === 200 && (body.status === 'DONE' || body.status === 'FAILED' || body.status === 'INVALID')) {
      if (body.receiving?.amount) log(`received ${body.receiving.amount} (quoted ${quote.estimate.toAmount}, at least ${quote.estimate.toAmountMin})`);
      return { txHash, states, status, quote, ...(outcome ? { outcome } : {}) };
    }
    if (onChain && !outcome) {
      outcome = await onChain();
      if (outcome) {
        outcomeAt = Date.now();
        log(outcome.kind === 'released'
          ? `released: ${outcome.amount} (quoted ${quote.estimate.toAmount}, at least ${quote.estimate.toAmountMin}) in ${outcome.tx}`
          : `refunded: ${outcome.tx}`);
      }
    }
    if (outcome && Date.now() - outcomeAt > 5_000) return { txHash, states, status, quote, outcome };
    if (Date.now() > deadline) throw new Error(`still ${label} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** EVM → Solana: the escrow's release memo on the receiver's account, or the source endpoint's refund of the deposit. */
async function releasedOnSolana(
  rpc: ReturnType<typeof createSolanaRpc>, receiver: string, transferId: string, depositIdTopic: string, source: ReturnType<typeof makeProvider>, fromBlock: number,
): Promise<TransferResult['outcome']> {
  const releases = await rpc.getSignaturesForAddress(receiver as Address, { limit: 50 }).send();
  for (const s of releases) {
    if (s.memo?.includes(`xchain:release:v1:${transferId.toLowerCase()}:`)) {
      const tx = (await rpc.getTransaction(s.signature, { encoding: 'jsonParsed', maxSupportedTransactionVersion: 0 }).send()) as unknown as ParsedTransaction | null;
      const paid = tx?.transaction.message.instructions.find((ix) => typeof ix.parsed === 'object' && (ix.parsed.type === 'transferChecked' || ix.parsed.type === 'transfer'));
      const info = paid && typeof paid.parsed === 'object' ? paid.parsed.info : undefined;
      const amount = info ? String((info.tokenAmount as { amount?: string } | undefined)?.amount ?? info.lamports ?? '') : undefined;
      return { kind: 'released', tx: s.signature, ...(amount ? { amount } : {}) };
    }
  }
  const refunds = await source.getLogs({ address: BRIDGE_ENDPOINT_ADDRESS, fromBlock, toBlock: 'latest', topics: [REFUNDED.getEvent('Refunded')!.topicHash, depositIdTopic] });
  return refunds.length > 0 ? { kind: 'refunded', tx: refunds[0].transactionHash } : undefined;
}

/** The bridge memo of a compiled transaction message, if it has one. */
function memoOf(messageBytes: Uint8Array | ArrayLike<number>): BridgeMemo | undefined {
  const message = getCompiledTransactionMessageDecoder().decode(new Uint8Array(messageBytes as ArrayLike<number>)) as unknown as {
    staticAccounts: readonly string[]; instructions: readonly { programAddressIndex: number; data?: ArrayLike<number> }[];
  };
  const memoPrograms = new Set<string>(Object.values(MEMO_PROGRAMS));
  for (const ix of message.instructions) {
    if (!memoPrograms.has(message.staticAccounts[ix.programAddressIndex])) continue;
    const memo = parseBridgeMemo(new TextDecoder().decode(new Uint8Array(ix.data ?? [])));
    if (memo) return memo;
  }
  return undefined;
}

/** What the chains say of a Solana deposit: its release on the destination endpoint, or its refund by the escrow. */
async function chainOutcome(
  memo: BridgeMemo, signature: string, sender: Address, rpc: ReturnType<typeof createSolanaRpc>, provider: ReturnType<typeof makeProvider> | undefined, fromBlock: number,
): Promise<TransferResult['outcome']> {
  if (provider && (await provider.getBlockNumber()) >= fromBlock) {
    const logs = await provider.getLogs({
      address: BRIDGE_ENDPOINT_ADDRESS, fromBlock, toBlock: 'latest',
      topics: [RELEASED.getEvent('Released')!.topicHash, toBeHex(SOLANA_CHAIN_ID, 32), null, memo.transferId],
    });
    if (logs.length > 0) return { kind: 'released', tx: logs[0].transactionHash, amount: String(RELEASED.parseLog(logs[0])!.args.amount) };
  }
  // the refund names the deposit in its memo and touches the sender's account
  for (const s of await rpc.getSignaturesForAddress(sender, { limit: 50 }).send()) {
    if (s.memo?.includes(`xchain:refund:v1:${memo.transferId}:${signature}`)) return { kind: 'refunded', tx: s.signature };
  }
  return undefined;
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
    process.exit(r.status.status === 'DONE' || r.outcome?.kind === 'released' ? 0 : 1);
  }, (error: Error) => {
    console.error(error.message);
    process.exit(1);
  });
}
