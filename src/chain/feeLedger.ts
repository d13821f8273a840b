/**
 * Chain mode's fee ledger: integrators' collected fees read from the fee collector contract of every connected
 * chain, getTokenBalance(bookingAddress, token) for every catalog token of the chain (the native coin is address 0,
 * as the fee collector books it). The calls of one chain are issued in the same tick, so the chain's provider sends
 * them as JSON-RPC batches of up to 100 calls (src/chain/rpc.ts; a chain of the published token lists holds up to
 * ~1,000 tokens: 11 batches on Ethereum); all chains are read in parallel, on every request (no cache: a withdrawal
 * shows at once).
 *
 * Decisions:
 * - Chains that are not connected keep the seeded ledger's figures (data/integrators/ledger.json or
 *   FEE_LEDGER_FILE).
 * - Which integrators exist: every integrator of the seeded ledger (even when all its on-chain balances are zero,
 *   e.g. after a withdrawal: it stays known, with empty lists), plus any other id with a non-zero balance at its
 *   booking address on a connected chain (an integrator that started passing `integrator=<id>` in quotes sees its
 *   fees without being registered first). Any other id is unknown (404 code 1003). The booking address is the
 *   seeded fee wallet, else integratorAccount(id) (src/core/fees/booking.ts): the address transactions book under.
 * - An unreachable chain (timeout, refused connection, error answer, no fee collector code there) never fails the
 *   request: that chain keeps its last figures read from the chain in this process, or the seeded ones when none
 *   were read yet, and is listed in `fallbackChains` (the handler logs it). An integrator reading its balances
 *   wants the other chains' figures rather than an error, and a withdrawal built on a fallback figure is harmless:
 *   the fee collector pays what it holds, and skips tokens without a balance. When every chain is unreachable and
 *   the id is not seeded, it is unknown until a chain answers.
 */
import type { Catalog } from '../core/catalog/catalog';
import type { Chain, Token } from '../core/entities';
import { familyOf } from '../core/chains/families';
import { bookingAddress } from '../core/fees/booking';
import type { InMemoryFeeLedger } from '../core/fees/ledger';
import type { FeeBalance, FeeLedger, IntegratorFees } from '../core/fees/feeLedger';
import { feeCollectorInterface } from '../core/transactions/abi';
import { ZERO_ADDRESS } from '../core/transactions/ids';

/** What the ledger needs of a connected chain (a ChainConnection of src/chain/rpc.ts). */
export interface FeeCollectorEndpoint {
  readonly chainId: number;
  readonly feeCollector: string;
  readonly provider: { send(method: string, params: unknown[]): Promise<unknown> };
}

export class ChainFeeLedger implements FeeLedger {
  /** Last figures read per `${chainId}:${bookingAddress}`, for integrators that exist (bounded by them). */
  private readonly lastRead = new Map<string, readonly FeeBalance[]>();
  private readonly endpoints: readonly { endpoint: FeeCollectorEndpoint; chain: Chain; tokens: readonly Token[] }[];

  /** `chains`: the connected chains (ChainConnections.chains); those outside the catalog's EVM chains are ignored. */
  constructor(private readonly seed: InMemoryFeeLedger, chains: readonly FeeCollectorEndpoint[], catalog: Catalog) {
    this.endpoints = chains.flatMap((endpoint) => {
      const chain = catalog.getChain(endpoint.chainId);
      return chain && familyOf(chain).evmContracts ? [{ endpoint, chain, tokens: catalog.tokensOf(chain.id) }] : [];
    });
  }

  feeWallet(integratorId: string): string | undefined {
    return this.seed.feeWallet(integratorId);
  }

  get integratorIds(): readonly string[] {
    return this.seed.integratorIds;
  }

  async integrator(integratorId: string): Promise<IntegratorFees | undefined> {
    const seeded = this.seed.get(integratorId);
    const holder = bookingAddress(this.seed, integratorId);
    const connected = new Set(this.endpoints.map((e) => e.chain.id));
    const reads = await Promise.all(this.endpoints.map((e) => readBalances(e.endpoint, e.chain, e.tokens, holder)));

    const balances: FeeBalance[] = (seeded?.balances ?? []).filter((b) => !connected.has(b.chainId));
    const fallbackChains: number[] = [];
    const fresh: [string, readonly FeeBalance[]][] = [];
    this.endpoints.forEach(({ chain }, k) => {
      const key = `${chain.id}:${holder}`;
      const read = reads[k];
      if (read) {
        balances.push(...read);
        fresh.push([key, read]);
      } else {
        fallbackChains.push(chain.id);
        balances.push(...(this.lastRead.get(key) ?? seeded?.balances.filter((b) => b.chainId === chain.id) ?? []));
      }
    });
    const known = seeded !== undefined || balances.length > 0;
    for (const [key, read] of fresh) {
      if (known) this.lastRead.set(key, read);
      else this.lastRead.delete(key);
    }
    if (!known) return undefined;
    return {
      integratorId,
      ...(seeded?.feeWallet !== undefined ? { feeWallet: seeded.feeWallet } : {}),
      balances,
      fallbackChains,
    };
  }
}

/** The holder's non-zero balances on one chain (catalog order), or undefined when the chain could not be read. */
async function readBalances(endpoint: FeeCollectorEndpoint, chain: Chain, tokens: readonly Token[], holder: string): Promise<FeeBalance[] | undefined> {
  try {
    // issued in one tick: JSON-RPC batches of 100 calls
    const answers = await Promise.all(tokens.map((token) => endpoint.provider.send('eth_call', [{
      to: endpoint.feeCollector,
      data: feeCollectorInterface.encodeFunctionData('getTokenBalance', [holder, collectorToken(chain, token)]),
    }, 'latest'])));
    return tokens.flatMap((token, k) => {
      const amount = feeCollectorInterface.decodeFunctionResult('getTokenBalance', answers[k] as string)[0] as bigint;
      return amount > 0n ? [{ chainId: chain.id, token, amount }] : [];
    });
  } catch {
    return undefined;
  }
}

/** The fee collector's key of a token: address 0 for the chain's native coin, the token's address otherwise. */
function collectorToken(chain: Chain, token: Token): string {
  return token.address.toLowerCase() === chain.nativeToken.address.toLowerCase() ? ZERO_ADDRESS : token.address;
}
