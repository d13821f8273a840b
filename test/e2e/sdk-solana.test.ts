/**
 * The ecosystem's Solana client against the sandbox, as an integrator uses it: `@lifi/sdk` 4 with
 * `@lifi/sdk-provider-solana` 4, untouched, pointed at the service in chain mode, with a wallet-standard wallet over a
 * test keypair (what Phantom and the other wallets expose: `solana:signTransaction` of the transaction bytes). The
 * provider's own KeypairWalletAdapter cannot sign any transaction it receives as bytes: it decodes them and then
 * requires the lifetime that decoding never restores ("Transaction does not have a blockhash lifetime"), so the
 * wallet here is the few lines a wallet is. `executeRoute` takes a route from Solana USDC to Arbitrum USDC,
 * has the wallet sign the step's `transactionRequest.data` as it is, simulates and sends it through the RPC that
 * /v1/chains advertises for Solana (the sandbox's), then polls GET /v1/status with the Solana signature until DONE.
 * The receiver's USDC on Arbitrum moves by the amount the final status reports, at least the route's toAmountMin;
 * the sender's USDC on Solana by exactly fromAmount.
 */
import pino from 'pino';
import { Contract } from 'ethers';
import { createClient, executeRoute, getRoutes, type RouteExtended } from '@lifi/sdk';
import { SolanaProvider } from '@lifi/sdk-provider-solana';
import { SolanaSignTransaction, type SolanaSignTransactionFeature } from '@solana/wallet-standard-features';
import type { Wallet } from '@wallet-standard/base';
import {
  address, createSolanaRpc, getAddressEncoder, getTransactionDecoder, getTransactionEncoder, signTransaction, type KeyPairSigner,
} from '@solana/kit';
import { SOLANA_CHAIN_ID } from '../../sandbox/solana/devnet';
import { startSandbox, type Sandbox } from '../../sandbox/service';

jest.setTimeout(90_000);

const ARB = 42161;
const RECEIVER = '0x552008c0f6870c2f77e5cc1d2eb9bdff03e30ea9';
let sandbox: Sandbox | undefined;

beforeAll(async () => {
  sandbox = await startSandbox({ chains: [ARB, SOLANA_CHAIN_ID], port: 0, host: '127.0.0.1', logger: pino({ level: 'silent' }), bridgeTimeScale: 0.002 });
}, 120_000);

afterAll(async () => {
  await sandbox?.stop();
});

/** A wallet-standard wallet with one account, signing with `signer` what it is given (solana:signTransaction). */
function keypairWallet(signer: KeyPairSigner): Wallet {
  const chains = ['solana:mainnet'] as const;
  const feature: SolanaSignTransactionFeature = {
    [SolanaSignTransaction]: {
      version: '1.0.0',
      supportedTransactionVersions: ['legacy', 0],
      signTransaction: async (...inputs) => Promise.all(inputs.map(async (input) => {
        const transaction = getTransactionDecoder().decode(input.transaction);
        const signed = await signTransaction([signer.keyPair], transaction);
        return { signedTransaction: new Uint8Array(getTransactionEncoder().encode(signed)) };
      })),
    },
  };
  return {
    version: '1.0.0',
    name: 'Sandbox test wallet',
    icon: 'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=',
    chains,
    accounts: [{ address: signer.address, publicKey: new Uint8Array(getAddressEncoder().encode(signer.address)), chains, features: [SolanaSignTransaction] }],
    features: feature,
  };
}

function tokenAddress(chainId: number, symbol: string): string {
  const token = sandbox!.dependencies.catalog.findToken(chainId, symbol);
  if (!token) throw new Error(`no ${symbol} on chain ${chainId}`);
  return token.address;
}

test('executeRoute takes 10 USDC from Solana to Arbitrum to DONE with the SDK\'s Solana provider', async () => {
  const solana = sandbox!.solana!;
  const wallet = solana.wallet(1);
  const client = createClient({
    integrator: 'sdk-solana-e2e',
    apiUrl: `${sandbox!.url}/v1`,
    providers: [SolanaProvider({ getWallet: async () => keypairWallet(wallet.signer) })],
  });
  const solUsdc = tokenAddress(SOLANA_CHAIN_ID, 'USDC');
  const arbUsdc = tokenAddress(ARB, 'USDC');
  const { routes } = await getRoutes(client, {
    fromChainId: SOLANA_CHAIN_ID, toChainId: ARB, fromTokenAddress: solUsdc, toTokenAddress: arbUsdc, fromAmount: '10000000',
    fromAddress: wallet.address, toAddress: RECEIVER,
  });
  expect(routes.length).toBeGreaterThan(0);
  const route = routes[0];

  const rpc = createSolanaRpc(solana.url);
  const senderAccount = await solana.tokenAccount(wallet.address, 'USDC');
  const solBefore = BigInt((await rpc.getTokenAccountBalance(address(senderAccount)).send()).value.amount);
  const arb = sandbox!.devnet.chain(ARB).provider;
  const usdc = new Contract(arbUsdc, ['function balanceOf(address) view returns (uint256)'], arb);
  const arbBefore = (await usdc.balanceOf(RECEIVER)) as bigint;

  const done = (await executeRoute(client, route)) as RouteExtended;
  const execution = done.steps[0].execution!;
  expect(execution.status).toBe('DONE');
  const received = BigInt(execution.toAmount!);
  expect(received).toBeGreaterThanOrEqual(BigInt(route.toAmountMin));
  expect((await usdc.balanceOf(RECEIVER)) as bigint).toBe(arbBefore + received);
  const solAfter = BigInt((await rpc.getTokenAccountBalance(address(senderAccount)).send()).value.amount);
  expect(solBefore - solAfter).toBe(BigInt(route.fromAmount));
});
