/**
 * The service's relayer across the connected EVM chains (the Relaying port of src/usecases/ports.ts): on every chain
 * with the service's Permit2 proxy, the hot wallet (RELAYER_PRIVATE_KEY) sends the relay tasks of the database
 * (src/chain/relaySender.ts), and the relay operations read what a gasless step needs of the chain now — the gas
 * price, the owner's allowance to Permit2 and the token's EIP-2612 domain and nonce, whether a Permit2 nonce is spent,
 * the relayer's balance against its floor.
 *
 * A token counts as having an EIP-2612 permit when it answers `nonces(owner)` and `DOMAIN_SEPARATOR()`, and the
 * separator is the one EIP-712 gives for its `name()` and `version()` (or "1" where it has no `version()`): a token
 * whose domain cannot be told is treated as one without a permit, rather than asking the user to sign a message the
 * token would refuse.
 */
import { Contract, TypedDataEncoder, Wallet, type JsonRpcProvider } from 'ethers';
import type { Logger } from 'pino';
import type { RouterDeployments } from '../core/catalog/routers';
import type { RelayTaskStore } from '../core/relay/tasks';
import type { RelayerOnChain, Relaying, TokenPermitState } from '../core/relay/ports';
import { RelaySender } from './relaySender';

/** Multicall3, at its canonical address on every chain (sandbox/multicall3.ts deploys it there on the devnet). */
export const MULTICALL3 = '0xcA11bde05977b3631167028862bE2a173976CA11';

const TOKEN = [
  'function allowance(address owner, address spender) view returns (uint256)',
  'function nonces(address owner) view returns (uint256)',
  'function name() view returns (string)',
  'function version() view returns (string)',
  'function DOMAIN_SEPARATOR() view returns (bytes32)',
];
const PERMIT2 = ['function nonceBitmap(address owner, uint256 wordPosition) view returns (uint256)'];

export interface RelayingChain {
  readonly chainId: number;
  readonly provider: JsonRpcProvider;
}

export interface RelayingOptions {
  readonly chains: readonly RelayingChain[];
  readonly routers: RouterDeployments;
  readonly tasks: RelayTaskStore;
  /** The relayer's hot wallet key (the same account on every chain). */
  readonly privateKey: string;
  /** Below this balance (wei) a chain's relayer takes no new task. */
  readonly balanceFloorWei: bigint;
  /** This instance's name in the task leases. */
  readonly instance: string;
  readonly logger: Logger;
  readonly pollIntervalMs?: number;
  readonly clock?: () => number;
}

export class ChainRelaying implements Relaying {
  readonly tasks: RelayTaskStore;
  private readonly relayers = new Map<number, ChainRelayer>();

  constructor(private readonly options: RelayingOptions) {
    this.tasks = options.tasks;
    for (const chain of options.chains) {
      const permit2 = options.routers.permit2Of(chain.chainId);
      const proxy = options.routers.permit2ProxyOf(chain.chainId);
      if (!permit2 || !proxy) continue; // the witness permit needs both: no gasless step from this chain
      const sender = new RelaySender({
        chainId: chain.chainId, wallet: new Wallet(options.privateKey, chain.provider), store: options.tasks, instance: options.instance,
        balanceFloorWei: options.balanceFloorWei, logger: options.logger, ...(options.pollIntervalMs ? { pollIntervalMs: options.pollIntervalMs } : {}),
        ...(options.clock ? { clock: options.clock } : {}),
      });
      this.relayers.set(chain.chainId, new ChainRelayer(chain, permit2, proxy, sender));
    }
  }

  on(chainId: number): RelayerOnChain | undefined {
    return this.relayers.get(chainId);
  }

  now(): bigint {
    return BigInt(Math.floor((this.options.clock ?? Date.now)() / 1000));
  }

  /** The chains the relayer sends on. */
  get chainIds(): number[] {
    return [...this.relayers.keys()];
  }

  start(): void {
    for (const relayer of this.relayers.values()) relayer.sender.start();
  }

  async stop(): Promise<void> {
    await Promise.all([...this.relayers.values()].map((r) => r.sender.stop()));
  }
}

class ChainRelayer implements RelayerOnChain {
  readonly chainId: number;
  readonly multicall = MULTICALL3;

  constructor(private readonly chain: RelayingChain, readonly permit2: string, readonly proxy: string, readonly sender: RelaySender) {
    this.chainId = chain.chainId;
  }

  get address(): string {
    return this.sender.address;
  }

  /** What a transaction is expected to pay per gas now (eth_gasPrice: the base fee and the usual tip), not the cap it may pay. */
  async gasPriceWei(): Promise<bigint> {
    const fees = await this.chain.provider.getFeeData();
    return fees.gasPrice ?? fees.maxFeePerGas ?? 0n;
  }

  async tokenPermitState(token: string, owner: string): Promise<TokenPermitState> {
    const contract = new Contract(token, TOKEN, this.chain.provider);
    const optional = <T>(call: Promise<T>) => call.then((value) => value, () => undefined);
    const [allowance, nonce, name, version, separator] = await Promise.all([
      contract.allowance(owner, this.permit2) as Promise<bigint>,
      optional(contract.nonces(owner) as Promise<bigint>),
      optional(contract.name() as Promise<string>),
      optional(contract.version() as Promise<string>),
      optional(contract.DOMAIN_SEPARATOR() as Promise<string>),
    ]);
    if (nonce === undefined || name === undefined || separator === undefined) return { permit2Allowance: allowance };
    const domainVersion = version ?? '1';
    const expected = TypedDataEncoder.hashDomain({ name, version: domainVersion, chainId: this.chainId, verifyingContract: token });
    if (expected !== separator) return { permit2Allowance: allowance };
    return { permit2Allowance: allowance, eip2612: { name, version: domainVersion, nonce } };
  }

  async permit2NonceUsed(owner: string, nonce: bigint): Promise<boolean> {
    const bitmap = (await new Contract(this.permit2, PERMIT2, this.chain.provider).nonceBitmap(owner, nonce >> 8n)) as bigint;
    return ((bitmap >> (nonce & 0xffn)) & 1n) === 1n;
  }

  aboveFloor(): Promise<boolean> {
    return this.sender.aboveFloor();
  }

  async simulate(to: string, data: string, gasLimit: bigint): Promise<string | undefined> {
    try {
      await this.chain.provider.call({ from: this.address, to, data, gasLimit });
      return undefined;
    } catch (error) {
      const e = error as { shortMessage?: string; reason?: string | null; message?: string };
      return e.reason ?? e.shortMessage ?? e.message ?? 'reverted';
    }
  }
}
