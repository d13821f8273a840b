/**
 * Starts the sandbox's Solana chain and prints its RPC URL, WebSocket URL, wallets (address and secret key) and
 * mints; Ctrl-C or SIGTERM stops it.
 *
 *   npx tsx sandbox/solana/cli.ts                      # 4 wallets, a free port, an empty block every 400 ms
 *   npx tsx sandbox/solana/cli.ts --wallets 2 --port 8899 --slot-ms 0
 *
 * Secret keys are printed as solana-keygen's JSON array (64 bytes) and in base58 (what wallets import).
 */
import { getBase58Decoder } from '@solana/kit';
import { stopOnSignal } from '../cli';
import { startSolanaDevnet, type SolanaKeypair } from './devnet';

function argument(name: string, argv: readonly string[] = process.argv): string | undefined {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
}

function numberArgument(name: string, fallback: number): number {
  const value = argument(name);
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, not ${value}`);
  return n;
}

const keypairJson = (k: SolanaKeypair) => ({
  address: k.address,
  secretKey: getBase58Decoder().decode(k.secretKey),
  secretKeyJson: JSON.stringify([...k.secretKey]),
});

if (require.main === module) {
  (async () => {
    const devnet = await startSolanaDevnet({
      wallets: numberArgument('--wallets', 4),
      port: numberArgument('--port', 0),
      slotTimeMs: numberArgument('--slot-ms', 400),
      log: (line) => console.log(line),
    });
    console.log(JSON.stringify({
      chainId: devnet.chainId,
      rpc: devnet.url,
      ws: devnet.wsUrl,
      genesisHash: devnet.genesisHash,
      slot: String(devnet.ledger.slot),
      timings: devnet.timings,
      wallets: devnet.wallets.map(keypairJson),
      bridgeEscrow: keypairJson(devnet.bridgeEscrow),
      mintAuthority: keypairJson(devnet.mintAuthority),
      mints: devnet.mints.map((m) => ({ symbol: m.symbol, address: m.address, decimals: m.decimals, programId: m.programId })),
    }, null, 2));
    stopOnSignal(() => devnet.stop());
  })().catch((error: Error) => {
    console.error(error);
    process.exit(1);
  });
}
