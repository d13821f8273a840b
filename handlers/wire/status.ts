/** Wire shapes of transfer tracking (StatusResponse, GasStatus) from the core's TransferStatus / GasRefillStatus. */
import type { Catalog } from '../../src/core/catalog/catalog';
import type { Token } from '../../src/core/entities';
import type { components } from '../../src/generated/openapi';
import type { CollectedFee, GasRefillStatus, IncludedStep, TransferStatus, TransferTransaction } from '../../src/core/status/transferStatus';
import { usdString } from './routes';
import { tokenToWire } from './catalog';

type Schemas = components['schemas'];

/** Own tools of the service (not third-party): the router itself when no exchange is recognised. */
const OWN_TOOL_NAMES: Readonly<Record<string, string>> = { router: 'Router', feeCollection: 'Integrator fee', wrapper: 'Wrapper' };

/** A status as the contract's StatusResponse; `publicUrl` (PUBLIC_URL) starts the link to the transfer's explorer page. */
export function statusToWire(catalog: Catalog, s: TransferStatus, publicUrl: string): Schemas['StatusResponse'] {
  const page = s.sending?.txHash ? `${publicUrl}/explorer/tx/${encodeURIComponent(s.sending.txHash)}` : undefined;
  return {
    status: s.status,
    ...(s.substatus ? { substatus: s.substatus } : {}),
    ...(s.substatusMessage ? { substatusMessage: s.substatusMessage } : {}),
    ...(s.transactionId ? { transactionId: s.transactionId } : {}),
    ...(s.sending ? { sending: transactionToWire(catalog, s.sending) } : {}),
    ...(s.receiving ? { receiving: transactionToWire(catalog, s.receiving) } : {}),
    ...(s.fromAddress ? { fromAddress: s.fromAddress } : {}),
    ...(s.toAddress ? { toAddress: s.toAddress } : {}),
    ...(s.tool ? { tool: s.tool } : {}),
    ...(s.integrator !== undefined ? { metadata: { integrator: s.integrator } } : {}),
    ...(s.fees ? { feeCosts: s.fees.filter((f) => f.token).map(feeToWire) } : {}),
    ...(page ? { explorerLink: page, lifiExplorerLink: page } : {}),
  };
}

export function gasStatusToWire(catalog: Catalog, s: GasRefillStatus): Schemas['GasStatus'] {
  const leg = (t: NonNullable<GasRefillStatus['sending']>): Schemas['GasTransactionInfo'] => ({
    txHash: t.txHash,
    chainId: t.chainId,
    ...linkOf(catalog, t.chainId, t.txHash),
    ...(t.amount !== undefined ? { amount: t.amount.toString() } : {}),
    ...(t.token ? { token: tokenToWire(t.token) } : {}),
    ...(t.block !== undefined ? { block: t.block } : {}),
  });
  return { status: s.status, ...(s.sending ? { sending: leg(s.sending) } : {}), ...(s.receiving ? { receiving: leg(s.receiving) } : {}) };
}

function transactionToWire(catalog: Catalog, t: TransferTransaction): Schemas['TransactionInfo'] {
  return {
    chainId: t.chainId,
    ...(t.txHash ? { txHash: t.txHash, ...linkOf(catalog, t.chainId, t.txHash) } : {}),
    ...(t.amount !== undefined ? { amount: t.amount.toString() } : {}),
    ...(t.amount !== undefined && t.token ? { amountUSD: usd(t.amount, t.token) } : {}),
    ...(t.token ? { token: tokenToWire(t.token) } : {}),
    ...(t.gasPrice !== undefined ? { gasPrice: t.gasPrice.toString() } : {}),
    ...(t.gasUsed !== undefined ? { gasUsed: t.gasUsed.toString() } : {}),
    ...(t.gasToken ? { gasToken: tokenToWire(t.gasToken) } : {}),
    ...(t.gasAmount !== undefined ? { gasAmount: t.gasAmount.toString() } : {}),
    ...(t.gasAmount !== undefined && t.gasToken ? { gasAmountUSD: usd(t.gasAmount, t.gasToken) } : {}),
    ...(t.value !== undefined ? { value: t.value.toString() } : {}),
    ...(t.timestamp !== undefined ? { timestamp: t.timestamp } : {}),
    ...(t.includedSteps ? { includedSteps: t.includedSteps.filter((s) => s.fromToken && s.toToken).map((s) => stepToWire(catalog, s)) } : {}),
  };
}

function stepToWire(catalog: Catalog, s: IncludedStep): Schemas['StatusIncludedStep'] {
  const tool = catalog.bridges.find((b) => b.key === s.tool) ?? catalog.exchanges.find((e) => e.key === s.tool);
  const toolDetails = tool ? (tool.logoURI ? { key: s.tool, name: tool.name, logoURI: tool.logoURI } : { key: s.tool, name: tool.name }) : { key: s.tool, name: OWN_TOOL_NAMES[s.tool] ?? s.tool };
  return {
    tool: s.tool,
    toolDetails,
    fromAmount: s.fromAmount.toString(),
    fromToken: tokenToWire(s.fromToken!),
    toAmount: s.toAmount.toString(),
    toToken: tokenToWire(s.toToken!),
    ...(s.bridgedAmount !== undefined ? { bridgedAmount: s.bridgedAmount.toString() } : {}),
  };
}

function feeToWire(f: CollectedFee): Schemas['FeeCost'] {
  const amount = f.integratorFee + f.serviceFee;
  return {
    name: 'Integrator fee',
    description: 'Fee collected by the fee collector for the integrator and the service in the sending transaction.',
    percentage: String(f.fraction),
    token: tokenToWire(f.token!),
    amount: amount.toString(),
    amountUSD: usd(amount, f.token!),
    included: true,
    feeSplit: { integratorFee: f.integratorFee.toString(), serviceFee: f.serviceFee.toString() },
  };
}

/** USD value of a raw amount, for display only (float). */
function usd(amount: bigint, token: Token): string {
  return usdString((Number(amount) / 10 ** token.decimals) * Number(token.priceUSD ?? 0));
}

function linkOf(catalog: Catalog, chainId: number, txHash: string): { txLink?: string } {
  const explorer = catalog.getChain(chainId)?.metamask.blockExplorerUrls[0];
  if (!explorer) return {};
  return { txLink: `${explorer.endsWith('/') ? explorer : `${explorer}/`}tx/${txHash}` };
}
