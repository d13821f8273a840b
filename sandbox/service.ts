/**
 * `npm run sandbox`: the devnet (sandbox/devnet.ts: one anvil per chain, seeded from the snapshot, relayer) and the
 * service in chain mode against it, in this process: a CHAINS_FILE in a temporary folder names each chain's RPC URL,
 * router, fee collector and bridge endpoint; the service reads every pool from the chains before it listens and
 * follows them block by block. Prints the service URL, the RPC URLs, the test wallets' keys and the time to ready.
 * With Solana's chain id (1151111081099710) among --chains, the sandbox's Solana chain (sandbox/solana/devnet.ts) runs
 * beside the anvils: CHAINS_FILE names its RPC (rpcUrl only), so /v1/chains advertises it first for Solana; it prints
 * its RPC and WebSocket URLs, its wallets (address and secret key) and the bridge escrow. The relayer then relays
 * both ways between Solana and the anvil chains (sandbox/relayer.ts addSolana: deposits into the bridge escrow are
 * released on their EVM destination, EVM deposits to Solana are paid out of the escrow), with the destination swaps of
 * a Solana memo encoded on the service's own graph and routers.
 *
 *   npm run sandbox                              # Ethereum, Arbitrum, Base on http://localhost:8080 (PORT)
 *   npm run sandbox -- --chains 1,10,8453
 *   npm run sandbox -- --chains 1,42161,8453,1151111081099710   # and Solana
 *   npm run sandbox -- --bridge-time-scale 0     # bridges release at once (default: modelled duration × 0.005)
 *
 * Ctrl-C / SIGTERM: the service stops listening, chain mode stops, every anvil is stopped by its pid, the Solana
 * chain's RPC server closes and its block timer is cleared.
 */
import fs from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pino, { type Logger } from 'pino';
import { keccak256, toQuantity, toUtf8Bytes, Wallet } from 'ethers';
import { getBase58Decoder } from '@solana/kit';
import { handlers } from '../handlers';
import { startChainMode, type ChainMode } from '../src/chain/mode';
import { TransferIndexer } from '../src/chain/transferIndexer';
import { solanaFollowersOf } from '../src/chain/solanaTransferIndexer';
import { makeChainProvider } from '../src/chain/rpc';
import { openDatabase, type Database } from '../src/persistence/database';
import { databaseHistory } from '../src/persistence/transfers';
import { DatabaseRelayTaskStore } from '../src/persistence/relayTasks';
import { TransferEventFeed } from '../src/persistence/transferEvents';
import { WebhookWorker } from '../src/webhooks/worker';
import { statusToWire } from '../handlers/wire/status';
import { loadConfig } from '../src/config';
import { buildAccessControl } from '../src/server/access/build';
import { createApp } from '../src/server/app';
import { explorerRouter } from '../src/server/explorer';
import { buildDependencies, type Dependencies } from '../src/server/dependencies';
import { Metrics } from '../src/server/metrics';
import { readinessChecks } from '../src/server/operations';
import { chainsArgument, stopOnSignal } from './cli';
import { DEFAULT_CHAINS, settledWithin, startDevnet, StartPhases, startTimeoutMs, withStartTimeout, type Devnet } from './devnet';
import { SOLANA_CHAIN_ID, startSolanaDevnet, type SolanaDevnet } from './solana/devnet';

/**
 * The CHAINS_FILE document of a running devnet (the devnet's gas is the snapshot's by default: its anvils run at
 * base fee 0; gasPrice 'chain' quotes with their eth_gasPrice instead).
 */

/**
 * The sandbox's gasless relayer (src/chain/relaying.ts): a devnet account of its own (not one of the test wallets,
 * whose balances the tests count), funded with RELAYER_FUNDS_WEI on every chain at start.
 */
export const SANDBOX_RELAYER_KEY = keccak256(toUtf8Bytes('xchain-router:sandbox:gasless-relayer'));
const RELAYER_FUNDS_WEI = 1_000n * 10n ** 18n;

export function chainsFileOf(devnet: Devnet, options: {
  pollIntervalMs?: number; rpcTimeoutMs?: number; gasPrice?: 'chain' | 'snapshot';
  /** Confirmations by chain id (default 1). */
  confirmations?: Readonly<Record<number, number>>;
  /** The sandbox's Solana chain, named with its RPC URL alone (a non-EVM entry takes no contract, gas or confirmations). */
  solana?: SolanaDevnet;
} = {}): object {
  return {
    chains: [
      ...[...devnet.chains.values()].map((c) => ({
        chainId: c.chainId, rpcUrl: c.url, router: c.deployment.router, feeCollector: c.deployment.feeCollector,
        bridgeEndpoint: c.deployment.bridgeEndpoint, permit2Proxy: c.deployment.permit2Proxy,
        confirmations: options.confirmations?.[c.chainId] ?? 1, gasPrice: options.gasPrice ?? 'snapshot',
      })),
      ...(options.solana ? [{ chainId: options.solana.chainId, rpcUrl: options.solana.url }] : []),
    ],
    pollIntervalMs: options.pollIntervalMs ?? 100,
    rpcTimeoutMs: options.rpcTimeoutMs ?? 2000,
  };
}

export interface Sandbox {
  readonly devnet: Devnet;
  /** The Solana chain, when Solana's chain id is among the chains. */
  readonly solana?: SolanaDevnet;
  readonly url: string;
  readonly chainsFile: string;
  readonly dependencies: Dependencies;
  readonly chainMode: ChainMode;
  /** Milliseconds from startSandbox to listening, and of its phases. */
  readonly readyMs: number;
  readonly timings: Readonly<Record<string, number>>;
  stop(): Promise<void>;
}

/** What `npm run sandbox:transfer` needs of a running sandbox (written to DEFAULT_STATE_FILE by `npm run sandbox`). */
export interface SandboxState {
  readonly url: string;
  readonly chains: readonly { readonly chainId: number; readonly rpcUrl: string }[];
  readonly walletKeys: readonly string[];
  /** The Solana test wallets' secret keys (base58 of the 64-byte keypair), when the sandbox runs Solana. */
  readonly solanaWalletKeys?: readonly string[];
  readonly pid: number;
}

export const DEFAULT_STATE_FILE = path.join(__dirname, '.cache', 'running.json');

/** `npm run sandbox`'s bridge time scale: a bridge route's modelled duration × 0.005 (cctp's 19 min → 5.7 s, across's 10 s → 50 ms). */
export const DEFAULT_BRIDGE_TIME_SCALE = 0.005;

/** The sandbox's Solana chain: an empty block every 400 ms (mainnet's pace: blockhashes move, and expire after about a minute). */
const SOLANA_SLOT_MS = 400;

export async function startSandbox(options: {
  /** Chain ids: anvil chains, and Solana's (1151111081099710) for the Solana chain (default Ethereum, Arbitrum, Base). */
  chains?: readonly number[]; port?: number; host?: string; logger?: Logger; log?: (line: string) => void; stateFile?: string;
  /** Bridge transfers are released after their modelled duration times this (sandbox/devnet.ts; default 0: at once). */
  bridgeTimeScale?: number;
  /**
   * The whole start's limit, devnet to listening (default 120 s, DEFAULT_START_TIMEOUT_MS, or SANDBOX_START_TIMEOUT_MS):
   * past it everything started is stopped (every anvil by its pid) and a StartTimeoutError names the chains that
   * were not ready and the phase each was in.
   */
  startTimeoutMs?: number;
} = {}): Promise<Sandbox> {
  const started = performance.now();
  const startedAt = Date.now();
  const timeoutMs = startTimeoutMs(options.startTimeoutMs);
  const withSolana = options.chains?.includes(SOLANA_CHAIN_ID) ?? false;
  const evmChains = options.chains?.filter((id) => id !== SOLANA_CHAIN_ID);
  const evmIds = evmChains ?? DEFAULT_CHAINS;
  const phases = new StartPhases(startedAt, [...evmIds, ...(withSolana ? [SOLANA_CHAIN_ID] : [])], 'starting anvil');
  if (withSolana) phases.set(SOLANA_CHAIN_ID, 'starting the Solana chain (LiteSVM, seeding)');
  const setPhase = (phase: string) => phases.setAll(phase);

  // what the start has made so far, all of which stop() stops
  let devnet: Devnet | undefined;
  let solana: SolanaDevnet | undefined;
  let dir: string | undefined;
  let dependencies: Dependencies | undefined;
  let chainMode: ChainMode | undefined;
  let server: http.Server | undefined;
  let indexer: TransferIndexer | undefined;
  let events: TransferEventFeed | undefined;
  let webhooks: WebhookWorker | undefined;
  // the transfer index (GET /v1/analytics/transfers, the widget's history page): an in-memory database of the
  // sandbox's own, opened while the chains start
  const database: Promise<Database | undefined> = openDatabase({ dir: 'memory://' }).catch(() => undefined);
  let stateFile: string | undefined;
  const close = (s: http.Server) => new Promise<void>((resolve) => {
    s.close(() => resolve());
    s.closeAllConnections();
  });
  const stop = async () => {
    dependencies?.streams.slots.closeAll();
    if (server) await close(server);
    await events?.close();
    await webhooks?.stop();
    await dependencies?.relaying?.stop();
    await indexer?.stop();
    await chainMode?.stop();
    dependencies?.chains?.close();
    await dependencies?.access.close();
    await (await database)?.close();
    await devnet?.stop();
    await solana?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    if (stateFile) fs.rmSync(stateFile, { force: true });
  };

  // anvils and the Solana chain start side by side; when one fails (or the start is abandoned) the other is stopped
  const devnetAbort = new AbortController();
  const devnetStart = startDevnet({
    chains: evmChains, log: options.log, bridgeTimeScale: options.bridgeTimeScale, startTimeoutMs: timeoutMs, signal: devnetAbort.signal,
    onPhase: (chainId, phase) => phases.set(chainId, phase),
  }).then((d) => {
    devnet = d;
    if (withSolana) for (const id of evmIds) phases.set(id, 'devnet ready, waiting for the Solana chain');
    return d;
  });
  const solanaStart = withSolana
    ? startSolanaDevnet({ slotTimeMs: SOLANA_SLOT_MS, log: options.log }).then((s) => {
      solana = s;
      phases.set(SOLANA_CHAIN_ID, 'ready, waiting for the anvil chains');
      return s;
    })
    : Promise.resolve(undefined);
  let chainModeStart: Promise<ChainMode> | undefined;
  let abandoned = false;
  /** After a failure or the timeout: the devnet's start abandoned, the others waited for (10 s at most each), all stopped. */
  const abandon = async () => {
    abandoned = true;
    devnetAbort.abort(new Error('sandbox start abandoned'));
    await Promise.allSettled([devnetStart]); // settles: startDevnet stops its anvils and rejects on abort
    const solanaDone = await settledWithin(solanaStart, 10_000);
    const chainModeDone = chainModeStart && (await settledWithin(chainModeStart, 10_000));
    if (chainModeDone?.status === 'fulfilled') chainMode = chainModeDone.value;
    await stop();
    // a start that outlived the wait: stopped when it is done
    if (!solanaDone) void solanaStart.then((s) => s?.stop(), () => undefined);
    if (chainModeStart && !chainModeDone) void chainModeStart.then((c) => c.stop(), () => undefined);
  };
  const check = () => {
    if (abandoned) throw new Error('sandbox start abandoned');
  };

  const work = async (): Promise<Sandbox> => {
    const [evm, sol] = await Promise.allSettled([devnetStart, solanaStart]);
    if (evm.status === 'rejected') throw evm.reason;
    if (sol.status === 'rejected') throw sol.reason;
    check();
    const devnet = evm.value;
    const solana = sol.value;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-'));
    const chainsFile = path.join(dir, 'chains.json');
    fs.writeFileSync(chainsFile, JSON.stringify(chainsFileOf(devnet, { solana }), null, 2));
    const config = loadConfig({ ...process.env, CHAINS_FILE: chainsFile, PORT: String(options.port ?? process.env.PORT ?? 8080), ...(options.host ? { HOST: options.host } : {}) });
    const logger = options.logger ?? pino({ level: process.env.LOG_LEVEL ?? 'warn' });
    const opened = await database;
    if (!opened) throw new Error('the sandbox\'s in-memory database did not open');
    events = new TransferEventFeed(async () => opened.db, { logger });
    // the gasless relayer: a devnet account of its own, funded on every chain, its tasks in the sandbox's database
    const relayerKey = SANDBOX_RELAYER_KEY;
    for (const chain of devnet.chains.values()) await chain.provider.send('anvil_setBalance', [new Wallet(relayerKey).address, toQuantity(RELAYER_FUNDS_WEI)]);
    const relayed = { ...config, relayer: Object.freeze({ privateKey: () => relayerKey, balanceFloorWei: 10n ** 16n }) };
    dependencies = buildDependencies(relayed, {
      access: buildAccessControl(config, { logger }), history: databaseHistory(async () => opened.db), events, relayTasks: new DatabaseRelayTaskStore(opened.db), logger,
    });
    const devnetReady = performance.now();
    if (solana && devnet.relayer) {
      setPhase('relayer: adding the Solana chain');
      const deps = dependencies;
      await devnet.relayer.addSolana({
        url: solana.url,
        escrow: solana.bridgeEscrow.signer,
        mints: solana.mints.map((m) => ({ address: m.address, decimals: m.decimals })),
        data: devnet.data,
        // the graph and routers the service quotes on (in chain mode the graph is replaced as pools move)
        context: () => ({ graph: deps.graph, routers: deps.routers }),
      });
      check();
    }
    setPhase('chain mode: checking the chains, reading every pool (src/chain/mode.ts)');
    chainModeStart = startChainMode(dependencies, config, logger);
    chainMode = await chainModeStart;
    check();
    // every transfer on the devnet's chains, from their first block (the Solana chain's escrow from its first slot),
    // into the index; on connections of its own (sharing the chain follower's delayed its discovery of new pools:
    // e2e uniswap-following)
    const deps = dependencies;
    indexer = new TransferIndexer({
      db: opened.db, chains: (deps.chains?.chains ?? []).map((c) => ({ chainId: c.chainId, provider: makeChainProvider(c.rpcUrl, c.chainId), router: c.router, startBlock: 0 })),
      followers: solanaFollowersOf(config.chains, () => deps.catalog, (chainId) => deps.routers.bridgeEscrowOf(chainId)?.owner, { startSlot: 0 }),
      tracker: deps.transfers, holder: `sandbox:${process.pid}`, logger, pollIntervalMs: 1000,
    });
    indexer.start();
    // the integrators' webhooks (receivers on this machine allowed: WEBHOOK_ALLOW_PRIVATE's setting, on here)
    webhooks = new WebhookWorker({
      db: async () => opened.db, toWire: (status) => statusToWire(deps.catalog, status, deps.publicUrl), holder: `sandbox:${process.pid}:webhooks`, allowPrivate: true, logger,
    });
    webhooks.start();
    deps.relaying?.start();
    const chainModeMs = Math.round(performance.now() - devnetReady);
    // GET /ready and /metrics follow the devnet's chains as chain mode reports them
    const metrics = new Metrics();
    metrics.observeChains(chainMode.status);
    const readiness = readinessChecks(dependencies, config, { chains: chainMode.status });
    setPhase('service: building the app, listening');
    const explorer = explorerRouter({ dependencies, trustProxy: config.access.trustProxy });
    const app = await createApp(dependencies, config, { handlers, logger, operations: { metrics, readiness }, explorer });
    check();
    const listening = await new Promise<http.Server>((resolve, reject) => {
      const s = app.listen(config.port, config.host, (error?: Error) => (error ? reject(error) : resolve(s)));
    });
    if (abandoned) await close(listening); // stop() has run already
    check();
    server = listening;
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const host = config.host === '0.0.0.0' ? 'localhost' : config.host;
    if (options.stateFile) {
      const state: SandboxState = {
        url: `http://${host}:${port}`,
        chains: [...[...devnet.chains.values()].map((c) => ({ chainId: c.chainId, rpcUrl: c.url })), ...(solana ? [{ chainId: solana.chainId, rpcUrl: solana.url }] : [])],
        walletKeys: [...devnet.walletKeys],
        ...(solana ? { solanaWalletKeys: solana.wallets.map((w) => getBase58Decoder().decode(w.secretKey)) } : {}),
        pid: process.pid,
      };
      fs.mkdirSync(path.dirname(options.stateFile), { recursive: true });
      fs.writeFileSync(options.stateFile, JSON.stringify(state, null, 2));
      stateFile = options.stateFile;
    }
    setPhase('ready');
    return { devnet, ...(solana ? { solana } : {}), url: `http://${host}:${port}`, chainsFile, dependencies, chainMode, readyMs: Math.round(performance.now() - started),
      timings: { devnet: Math.round(devnetReady - started), ...(solana ? { solana: solana.timings.ready } : {}), chainMode: chainModeMs, service: Math.round(performance.now() - started) }, stop };
  };

  try {
    return await withStartTimeout('the sandbox', timeoutMs, phases, work(), abandon, undefined, startedAt);
  } catch (error) {
    if (!abandoned) await abandon();
    throw error;
  }
}

/** What `npm run sandbox` prints of its Solana chain: URLs, wallets with their secret keys (base58, what wallets import), the escrow. */
function solanaLines(solana: SolanaDevnet): string[] {
  const secret = (key: Uint8Array) => getBase58Decoder().decode(key);
  return [
    `chain ${solana.chainId} (Solana): rpc ${solana.url}  ws ${solana.wsUrl}  genesis ${solana.genesisHash}  (${solana.mints.length} SPL mints at their mainnet addresses: ${solana.mints.map((m) => m.symbol).join(', ')})`,
    '  Solana test wallets (SOL, wSOL and every SPL token; secret key: base58 of the 64-byte keypair):',
    ...solana.wallets.map((w) => `    ${w.address}  key ${secret(w.secretKey)}`),
    `  bridge escrow ${solana.bridgeEscrow.address}  key ${secret(solana.bridgeEscrow.secretKey)}`,
    '  the relayer relays both ways between Solana and the anvil chains; /v1/chains advertises this RPC first for Solana',
  ];
}

if (require.main === module) {
  const scaleArg = process.argv.indexOf('--bridge-time-scale');
  const bridgeTimeScale = scaleArg >= 0 ? Number(process.argv[scaleArg + 1]) : DEFAULT_BRIDGE_TIME_SCALE;
  if (!Number.isFinite(bridgeTimeScale) || bridgeTimeScale < 0) {
    console.error('--bridge-time-scale must be a number ≥ 0 (0: bridges release at once)');
    process.exit(2);
  }
  startSandbox({ chains: chainsArgument(), log: (l) => console.log(l), stateFile: DEFAULT_STATE_FILE, bridgeTimeScale }).then((sandbox) => {
    const { devnet } = sandbox;
    const lines = [
      '',
      `service (chain mode): ${sandbox.url}`,
      ...[...devnet.chains.values()].map((c) => {
        const s = sandbox.chainMode.status().find((x) => x.chainId === c.chainId);
        return `chain ${c.chainId}: rpc ${c.url}  router ${c.deployment.router}  feeCollector ${c.deployment.feeCollector}  bridgeEndpoint ${c.deployment.bridgeEndpoint}  (${s?.poolsRead ?? 0} pools read at block ${s?.lastBlock ?? '?'})`;
      }),
      'test wallets (funded with every token on every chain):',
      ...devnet.walletKeys.map((k) => `  ${new Wallet(k).address}  key ${k}`),
      ...(sandbox.solana ? solanaLines(sandbox.solana) : []),
      `CHAINS_FILE ${sandbox.chainsFile}`,
      `ready in ${(sandbox.readyMs / 1000).toFixed(1)} s, ${(performance.now() / 1000).toFixed(1)} s since the process started (ms: ${JSON.stringify(sandbox.timings)}; devnet ${JSON.stringify(devnet.timings)})`,
      `try: curl '${sandbox.url}/v1/quote?fromChain=${[...devnet.chains.keys()][0]}&toChain=${[...devnet.chains.keys()].at(-1)}&fromToken=USDC&toToken=USDC&fromAmount=1000000000&fromAddress=${new Wallet(devnet.walletKeys[0]).address}'`,
      `or, from quote to DONE: npm run sandbox:transfer -- --fromChain ${[...devnet.chains.keys()][0]} --toChain ${[...devnet.chains.keys()].at(-1)} --fromToken USDC --toToken USDC --fromAmount 1000000000`,
      `Ctrl-C stops the service and every anvil${sandbox.solana ? ' and the Solana chain' : ''}`,
    ];
    console.log(lines.join('\n'));
    stopOnSignal(() => sandbox.stop());
  }, (error: Error) => {
    console.error(error);
    process.exit(1);
  });
}
