import type { HandlerTable } from '../src/server/operation';
import { getChains } from './getChains';
import { getToken } from './getToken';
import { getTokens } from './getTokens';
import { getTools } from './getTools';
import { getConnections } from './getConnections';
import { getQuote } from './getQuote';
import { getQuoteToAmount } from './getQuoteToAmount';
import { postRoutes } from './postRoutes';
import { postStepTransaction } from './postStepTransaction';
import { parseCallData } from './parseCallData';
import { postPossibilities } from './postPossibilities';
import { testApiKey } from './testApiKey';
import { getIntegrator } from './getIntegrator';
import { getIntegratorWithdrawal } from './getIntegratorWithdrawal';
import { getGasSuggestion } from './getGasSuggestion';
import { postContractCallsQuote } from './postContractCallsQuote';
import { postContractCallQuote } from './postContractCallQuote';
import { getStatus } from './getStatus';
import { getStatusStream } from './getStatusStream';
import { getGasStatus } from './getGasStatus';
import { getGasPrices } from './getGasPrices';
import { getGasPrice } from './getGasPrice';
import { getAnalyticsTransfers } from './getAnalyticsTransfers';
import { getAnalyticsTransfersPage } from './getAnalyticsTransfersPage';
import { getAnalyticsTransfersSummary } from './getAnalyticsTransfersSummary';
import { getRelayerQuote } from './getRelayerQuote';
import { relayTransaction } from './relayTransaction';
import { relayAdvanced } from './relayAdvanced';
import { getRelayerStatus } from './getRelayerStatus';

/** One handler per implemented operation; every other operation of the contract answers 501. */
export const handlers: HandlerTable = {
  getChains,
  getTokens,
  getToken,
  getTools,
  getConnections,
  getQuote,
  getQuoteToAmount,
  postRoutes,
  postStepTransaction,
  parseCallData,
  postPossibilities,
  testApiKey,
  getIntegrator,
  getIntegratorWithdrawal,
  getGasSuggestion,
  postContractCallsQuote,
  postContractCallQuote,
  getGasPrices,
  getGasPrice,
  getStatus,
  getStatusStream,
  getGasStatus,
  getAnalyticsTransfers,
  getAnalyticsTransfersPage,
  getAnalyticsTransfersSummary,
  getRelayerQuote,
  relayTransaction,
  relayAdvanced,
  getRelayerStatus,
};
