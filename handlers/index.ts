import type { HandlerTable } from '../src/server/operation';
import { getChains } from './getChains';
import { getToken } from './getToken';
import { getTokens } from './getTokens';
import { getTools } from './getTools';

/** One handler per implemented operation; every other operation of the contract answers 501. */
export const handlers: HandlerTable = {
  getChains,
  getTokens,
  getToken,
  getTools,
};
