/**
 * The pattern of a chain reference the catalog knows, as the service reads one (Catalog.resolveChain): a chain id in
 * decimal, leading zeros allowed, or a chain key in any case. openapi.yaml declares it on every chain query and path
 * parameter (`ChainIdOrKey`, written by `npm run contract:chains`), so that a client, a validating proxy and the
 * staging mock refuse an unknown chain as the service does, before any lookup.
 */
export interface ChainRefOf {
  readonly id: number;
  readonly key: string;
}

export function chainRefPattern(chains: readonly ChainRefOf[]): string {
  const ids = [...chains].sort((a, b) => a.id - b.id).map((c) => String(c.id));
  const keys = [...chains].map((c) => c.key).sort().map(anyCase);
  return `^(0*(${ids.join('|')})|${keys.join('|')})$`;
}

/** `arb` → `[aA][rR][bB]`: a key matched in any case; digits and `-` as they are. */
function anyCase(key: string): string {
  return [...key].map((ch) => (/[a-z]/i.test(ch) ? `[${ch.toLowerCase()}${ch.toUpperCase()}]` : ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('');
}
