import { InvalidRequestError, NotFoundError } from '../errors';
import type { Catalog } from './catalog';
import type { Chain, Token } from '../entities';

/** Resolves a chain reference given in parameter `parameter`, or fails naming the parameter. */
export function requireChain(catalog: Catalog, ref: string | number, parameter: string): Chain {
  const chain = catalog.resolveChain(ref);
  if (!chain) {
    throw new InvalidRequestError(
      `${parameter} "${ref}" is not a supported chain id or key; GET /v1/chains lists the supported chains`,
      { issues: [{ name: parameter, rule: 'supportedChain', message: `unknown chain ${ref}` }] },
    );
  }
  return chain;
}

export function requireChains(catalog: Catalog, refs: readonly (string | number)[], parameter: string): Chain[] {
  return refs.map((ref) => requireChain(catalog, ref, parameter));
}

/** Resolves a token by address or symbol on a chain, or fails with a not-found naming both. */
export function requireToken(catalog: Catalog, chain: Chain, ref: string, parameter: string): Token {
  const token = catalog.findToken(chain.id, ref);
  if (!token) {
    throw new NotFoundError(`${parameter} "${ref}" is not a known token on ${chain.name} (${chain.id}); GET /v1/tokens?chains=${chain.key} lists them`);
  }
  return token;
}
