/**
 * A local Solana chain for the sandbox, beside the anvil chains: a real SVM (LiteSVM, in process, the SPL programs
 * built in) behind a JSON-RPC endpoint (rpc.ts, with WebSocket subscriptions on the same port), seeded with
 *
 * - the catalog's SPL tokens of Solana (chain 1151111081099710, data/catalog/tokens.json) as Mint accounts at their
 *   mainnet mint addresses with the catalog's decimals, under the Token program, mint authority `mintAuthority`
 *   (written with setAccount in the Token program's Mint layout, encoded with @solana-program/token's codec); wSOL
 *   is the native mint LiteSVM already has (decimals checked against the catalog); SOL is the native coin, no mint;
 * - funded test wallets from fixed seeds: SOL from the faucet, then every SPL token minted into their associated
 *   token accounts and wSOL wrapped, all by real transactions (createAssociatedTokenIdempotent + mintTo signed by
 *   the mint authority; transfer + syncNative signed by the wallet) that show in the RPC's history;
 * - the bridge escrow (`bridgeEscrow`, BRIDGE_ESCROW_ADDRESS): the sandbox bridge endpoint's owner on Solana; its
 *   associated token accounts receive deposits and hold the bridge's liquidity, which the relayer releases by
 *   signing with this keypair.
 *
 *   npx tsx sandbox/solana/cli.ts            # prints the URL, wallets and mints; Ctrl-C stops it
 *
 * In code: `const sol = await startSolanaDevnet(); ... await sol.stop();`.
 */
import { createHash, createPrivateKey, createPublicKey } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { LiteSVM } from 'litesvm';
import {
  address,
  appendTransactionMessageInstructions,
  createKeyPairSignerFromPrivateKeyBytes,
  createTransactionMessage,
  getAddressEncoder,
  getTransactionEncoder,
  lamports,
  none,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  some,
  type Address,
  type Instruction,
  type KeyPairSigner,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getMintEncoder,
  getMintSize,
  getMintToInstruction,
  getSyncNativeInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import { Ledger } from './ledger';
import { NATIVE_MINT, SYSTEM_PROGRAM } from './programs';
import type { LandedTransaction } from './records';
import { decodeMint } from './tokens';
import { decodeTransaction } from './transaction';
import { SOLANA_CHAIN_ID } from './bridge';
import { isListedOnly } from '../../src/core/entities';
import { MAINNET_GENESIS_HASH, startSolanaRpc, type SolanaRpcServer } from './rpc';

/** The catalog's chain id of Solana (defined beside the bridge's Solana side, which the EVM seeding imports without LiteSVM). */
export { SOLANA_CHAIN_ID };
export const LAMPORTS_PER_SOL = 1_000_000_000n;
const DEFAULT_CATALOG_DIR = path.resolve(__dirname, '..', '..', 'data', 'catalog');

// ---------------------------------------------------------------------------------------------------------------
// Keypairs from fixed seeds

/** The 32-byte Ed25519 seed (private key) of a sandbox keypair: sha256("xchain-router sandbox solana <label>"). */
export function sandboxSeed(label: string): Uint8Array {
  return new Uint8Array(createHash('sha256').update(`xchain-router sandbox solana ${label}`).digest());
}

const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The public key of a seed, computed synchronously (node:crypto), as a base58 address. */
export function publicKeyOfSeed(seed: Uint8Array): Uint8Array {
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, Buffer.from(seed)]), format: 'der', type: 'pkcs8' });
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
  return new Uint8Array(Buffer.from(jwk.x!, 'base64url'));
}

function addressOfSeed(seed: Uint8Array): Address {
  return address(encodeBase58(publicKeyOfSeed(seed)));
}

function encodeBase58(bytes: Uint8Array): string {
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  let n = BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);
  let out = '';
  while (n > 0n) {
    out = alphabet[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = `1${out}`;
  }
  return out;
}

export const FAUCET_LABEL = 'faucet';
export const MINT_AUTHORITY_LABEL = 'mint authority';
export const BRIDGE_ESCROW_LABEL = 'bridge escrow';
export const walletLabel = (index: number): string => `wallet ${index}`;

/** The bridge escrow's address (the sandbox bridge endpoint's owner on Solana), known without starting the devnet. */
export const BRIDGE_ESCROW_ADDRESS: Address = addressOfSeed(sandboxSeed(BRIDGE_ESCROW_LABEL));
/** The mint authority of every sandbox mint. */
export const MINT_AUTHORITY_ADDRESS: Address = addressOfSeed(sandboxSeed(MINT_AUTHORITY_LABEL));
/** The address of test wallet `index`. */
export const walletAddress = (index: number): Address => addressOfSeed(sandboxSeed(walletLabel(index)));

export interface SolanaKeypair {
  readonly label: string;
  readonly address: Address;
  /** What @solana/kit signs with (setTransactionMessageFeePayerSigner, signTransactionMessageWithSigners...). */
  readonly signer: KeyPairSigner;
  /** The 32-byte private key (seed). */
  readonly seed: Uint8Array;
  /** 64 bytes, seed ‖ public key: solana-keygen's id.json array, and (base58) the wallets' "import private key". */
  readonly secretKey: Uint8Array;
}

export async function sandboxKeypair(label: string): Promise<SolanaKeypair> {
  const seed = sandboxSeed(label);
  const signer = await createKeyPairSignerFromPrivateKeyBytes(seed);
  const secretKey = new Uint8Array(64);
  secretKey.set(seed, 0);
  secretKey.set(getAddressEncoder().encode(signer.address), 32);
  return { label, address: signer.address, signer, seed, secretKey };
}

// ---------------------------------------------------------------------------------------------------------------
// Catalog

export interface SolanaMint {
  readonly symbol: string;
  readonly name: string;
  readonly address: Address;
  readonly decimals: number;
  readonly programId: Address;
  /** null for wSOL (the native mint has none). */
  readonly mintAuthority: Address | null;
}

interface CatalogToken {
  readonly chainId: number;
  readonly address: string;
  readonly symbol: string;
  readonly decimals: number;
  readonly name: string;
}

/** The catalog's SPL tokens on Solana (the native SOL entry left out: it is the chain's coin, not a mint; and the
 *  listed-only tokens, which no route of the embedded data moves). */
export function catalogSplTokens(catalogDir = DEFAULT_CATALOG_DIR): CatalogToken[] {
  const file = JSON.parse(fs.readFileSync(path.join(catalogDir, 'tokens.json'), 'utf8')) as { tokens: (CatalogToken & { priceUSD: string })[] };
  return file.tokens.filter((t) => t.chainId === SOLANA_CHAIN_ID && t.address !== SYSTEM_PROGRAM && !isListedOnly(t));
}

// ---------------------------------------------------------------------------------------------------------------
// The devnet

export interface SolanaDevnetOptions {
  /** Funded test wallets (default 4, at most 16). */
  readonly wallets?: number;
  /** Whole SOL each wallet gets (default 1,000,000), besides the SOL it wraps. */
  readonly walletSol?: bigint;
  /** Whole tokens of every SPL token each wallet gets (default 10,000,000; wSOL: `walletWrappedSol`). */
  readonly walletTokens?: bigint;
  /** Whole wSOL each wallet wraps (default 10,000). */
  readonly walletWrappedSol?: bigint;
  /** Whole tokens of every SPL token the bridge escrow holds as the bridge's liquidity (default 1,000,000,000; wSOL 1,000,000). */
  readonly escrowTokens?: bigint;
  /**
   * An empty block every `slotTimeMs` ms (0, default: the chain moves only when a transaction lands, one block per
   * transaction). With 400 (mainnet's pace), a blockhash expires after about a minute without traffic, as on mainnet.
   */
  readonly slotTimeMs?: number;
  /** RPC port on 127.0.0.1 (default 0: a free port). */
  readonly port?: number;
  /** getGenesisHash's answer (default mainnet-beta's: the chain stands in for Solana mainnet). */
  readonly genesisHash?: string;
  readonly catalogDir?: string;
  readonly log?: (line: string) => void;
}

export interface SolanaDevnet {
  readonly chainId: number;
  /** JSON-RPC over HTTP, http://127.0.0.1:<port>. */
  readonly url: string;
  /** Subscriptions (signature, slot, root, account, logs), ws://127.0.0.1:<port>. */
  readonly wsUrl: string;
  readonly genesisHash: string;
  readonly svm: LiteSVM;
  readonly ledger: Ledger;
  readonly rpc: SolanaRpcServer;
  /** Genesis account that pays airdrops (requestAirdrop) and funds the others. */
  readonly faucet: SolanaKeypair;
  readonly mintAuthority: SolanaKeypair;
  readonly bridgeEscrow: SolanaKeypair;
  readonly wallets: readonly SolanaKeypair[];
  /** Test wallet `index` (default 0). */
  wallet(index?: number): SolanaKeypair;
  readonly mints: readonly SolanaMint[];
  /** A mint by the catalog's symbol (USDC, USDT, wSOL...) or its address. */
  mint(symbolOrAddress: string): SolanaMint;
  /** The associated token account of `owner` for a mint (symbol or address). */
  tokenAccount(owner: Address | string, mint: string): Promise<Address>;
  /** Sends instructions in a v0 transaction paid by `payer` (with any other signers they carry) and returns it landed. */
  submit(payer: KeyPairSigner, instructions: readonly Instruction[]): Promise<LandedTransaction>;
  /** Milliseconds from the call to ready. */
  readonly timings: Readonly<Record<string, number>>;
  stop(): Promise<void>;
}

const pow10 = (n: number) => 10n ** BigInt(n);
const chunks = <T>(items: readonly T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
};

export async function startSolanaDevnet(options: SolanaDevnetOptions = {}): Promise<SolanaDevnet> {
  const started = Date.now();
  const timings: Record<string, number> = {};
  const walletCount = options.wallets ?? 4;
  if (!Number.isInteger(walletCount) || walletCount < 1 || walletCount > 16) throw new Error('wallets must be between 1 and 16');
  const log = options.log;

  const ledger = new Ledger();
  const svm = ledger.svm;
  const [faucet, mintAuthority, bridgeEscrow, ...wallets] = await Promise.all([
    sandboxKeypair(FAUCET_LABEL),
    sandboxKeypair(MINT_AUTHORITY_LABEL),
    sandboxKeypair(BRIDGE_ESCROW_LABEL),
    ...Array.from({ length: walletCount }, (_, i) => sandboxKeypair(walletLabel(i))),
  ]);

  // --- genesis: the faucet's lamports, the catalog's mints ---------------------------------------------------------
  svm.setAccount({
    address: faucet.address, data: new Uint8Array(), executable: false, lamports: lamports(500_000_000n * LAMPORTS_PER_SOL),
    programAddress: address(SYSTEM_PROGRAM), space: 0n,
  });
  const mintEncoder = getMintEncoder();
  const mints: SolanaMint[] = [];
  for (const token of catalogSplTokens(options.catalogDir)) {
    const mintAddress = address(token.address);
    if (token.address === NATIVE_MINT) {
      const native = decodeMint(ledger.account(NATIVE_MINT));
      if (!native) throw new Error('LiteSVM has no native mint (withNativeMints)');
      if (native.decimals !== token.decimals) throw new Error(`catalog's ${token.symbol} has ${token.decimals} decimals, the native mint ${native.decimals}`);
      mints.push({ symbol: token.symbol, name: token.name, address: mintAddress, decimals: native.decimals, programId: TOKEN_PROGRAM_ADDRESS, mintAuthority: null });
      continue;
    }
    const data = new Uint8Array(mintEncoder.encode({
      mintAuthority: some(mintAuthority.address), supply: 0n, decimals: token.decimals, isInitialized: true, freezeAuthority: none(),
    }));
    svm.setAccount({
      address: mintAddress, data, executable: false, lamports: lamports(svm.minimumBalanceForRentExemption(BigInt(getMintSize()))),
      programAddress: TOKEN_PROGRAM_ADDRESS, space: BigInt(data.length),
    });
    mints.push({ symbol: token.symbol, name: token.name, address: mintAddress, decimals: token.decimals, programId: TOKEN_PROGRAM_ADDRESS, mintAuthority: mintAuthority.address });
  }
  const mint = (symbolOrAddress: string): SolanaMint => {
    const found = mints.find((m) => m.symbol === symbolOrAddress || m.address === symbolOrAddress)
      ?? mints.find((m) => m.symbol.toLowerCase() === symbolOrAddress.toLowerCase());
    if (!found) throw new Error(`no Solana mint ${symbolOrAddress} in the catalog (${mints.map((m) => m.symbol).join(', ')})`);
    return found;
  };
  const tokenAccount = async (owner: Address | string, m: string): Promise<Address> => {
    const info = mint(m);
    const [ata] = await findAssociatedTokenPda({ owner: address(owner), mint: info.address, tokenProgram: info.programId });
    return ata;
  };

  // --- real transactions ---------------------------------------------------------------------------------------
  const encoder = getTransactionEncoder();
  const submit = async (payer: KeyPairSigner, instructions: readonly Instruction[]): Promise<LandedTransaction> => {
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(payer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(ledger.latestBlockhash() as never, m),
      (m) => appendTransactionMessageInstructions(instructions, m),
    );
    const signed = await signTransactionMessageWithSigners(message);
    const outcome = ledger.send(decodeTransaction(new Uint8Array(encoder.encode(signed))));
    if (!outcome.landed) throw new Error(`transaction dropped: ${JSON.stringify(outcome.err)}\n${outcome.logs.join('\n')}`);
    if (outcome.transaction.err) throw new Error(`transaction failed: ${JSON.stringify(outcome.transaction.err)}\n${outcome.transaction.logs.join('\n')}`);
    return outcome.transaction;
  };

  const walletSol = (options.walletSol ?? 1_000_000n) * LAMPORTS_PER_SOL;
  const walletTokens = options.walletTokens ?? 10_000_000n;
  const wrapped = (options.walletWrappedSol ?? 10_000n) * LAMPORTS_PER_SOL;
  const escrowTokens = options.escrowTokens ?? 1_000_000_000n;
  const escrowWrapped = 1_000_000n * LAMPORTS_PER_SOL;
  const wsol = mints.find((m) => m.address === NATIVE_MINT);
  const splMints = mints.filter((m) => m.address !== NATIVE_MINT);
  const holders = [
    ...wallets.map((w) => ({ keypair: w, tokens: walletTokens, sol: walletSol + (wsol ? wrapped : 0n), wrap: wrapped })),
    { keypair: bridgeEscrow, tokens: escrowTokens, sol: 1_000_000n * LAMPORTS_PER_SOL + (wsol ? escrowWrapped : 0n), wrap: escrowWrapped },
  ];

  // SOL from the faucet: the mint authority (rent of the token accounts it creates), the escrow, the wallets
  const solTransfers = [
    { to: mintAuthority.address, amount: 10_000n * LAMPORTS_PER_SOL },
    ...holders.map((h) => ({ to: h.keypair.address, amount: h.sol })),
  ];
  for (const batch of chunks(solTransfers, 10)) {
    await submit(faucet.signer, batch.map((t) => getTransferSolInstruction({ source: faucet.signer, destination: t.to, amount: t.amount })));
  }
  // every SPL token into each holder's associated token account: createAssociatedTokenIdempotent + mintTo
  for (const holder of holders) {
    for (const batch of chunks(splMints, 4)) {
      const instructions: Instruction[] = [];
      for (const m of batch) {
        const [ata] = await findAssociatedTokenPda({ owner: holder.keypair.address, mint: m.address, tokenProgram: m.programId });
        instructions.push(
          getCreateAssociatedTokenIdempotentInstruction({ payer: mintAuthority.signer, ata, owner: holder.keypair.address, mint: m.address, tokenProgram: m.programId }),
          getMintToInstruction({ mint: m.address, token: ata, mintAuthority: mintAuthority.signer, amount: holder.tokens * pow10(m.decimals) }, { programAddress: m.programId }),
        );
      }
      await submit(mintAuthority.signer, instructions);
    }
    if (wsol) {
      // wSOL: the holder wraps SOL into its associated token account (transfer + syncNative)
      const [ata] = await findAssociatedTokenPda({ owner: holder.keypair.address, mint: wsol.address, tokenProgram: wsol.programId });
      await submit(holder.keypair.signer, [
        getCreateAssociatedTokenIdempotentInstruction({ payer: holder.keypair.signer, ata, owner: holder.keypair.address, mint: wsol.address, tokenProgram: wsol.programId }),
        getTransferSolInstruction({ source: holder.keypair.signer, destination: ata, amount: holder.wrap }),
        getSyncNativeInstruction({ account: ata }, { programAddress: wsol.programId }),
      ]);
    }
  }
  timings.seeded = Date.now() - started;

  // --- RPC -----------------------------------------------------------------------------------------------------
  const genesisHash = options.genesisHash ?? MAINNET_GENESIS_HASH;
  const rpc = await startSolanaRpc({
    ledger,
    port: options.port,
    genesisHash,
    log,
    requestAirdrop: async (to, amount) => {
      const landed = await submit(faucet.signer, [getTransferSolInstruction({ source: faucet.signer, destination: address(to), amount })]);
      return landed.decoded.signature;
    },
  });
  const timer = options.slotTimeMs && options.slotTimeMs > 0 ? setInterval(() => ledger.tick(), options.slotTimeMs) : undefined;
  timer?.unref();
  timings.ready = Date.now() - started;
  log?.(`solana ready on ${rpc.url} (slot ${ledger.slot}): ${mints.length} mints, ${wallets.length} wallets, bridge escrow ${bridgeEscrow.address}`);

  let stopped = false;
  return {
    chainId: SOLANA_CHAIN_ID,
    url: rpc.url,
    wsUrl: rpc.wsUrl,
    genesisHash,
    svm,
    ledger,
    rpc,
    faucet,
    mintAuthority,
    bridgeEscrow,
    wallets,
    wallet: (index = 0) => {
      const w = wallets[index];
      if (!w) throw new Error(`no Solana test wallet ${index} (${wallets.length} funded)`);
      return w;
    },
    mints,
    mint,
    tokenAccount,
    submit,
    timings,
    async stop() {
      if (stopped) return;
      stopped = true;
      if (timer) clearInterval(timer);
      await rpc.close();
    },
  };
}
