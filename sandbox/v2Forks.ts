/**
 * Uniswap V2 forks on an anvil chain, at their mainnet addresses, from their genuine bytecode published on npm. Each
 * fork's factory carries its pair's creation code, whose keccak256 is the fork's init code hash, and its Router02
 * carries the same hash (pairFor), so the pairs the factory creates are where the fork's SDK and
 * src/core/liquidity/poolAddress.ts put them (test/e2e/uniswap-genuine.test.ts checks both for every fork):
 *
 *  - SushiSwap V2 (every chain of the catalog): SushiSwap's own deployment records, `@sushiswap/sushiswap` 0.1.1
 *    `deployments/ethereum/UniswapV2Factory.json` and `UniswapV2Router02.json` (the package's `artifacts/` are a later
 *    build whose metadata differs: they do not reproduce the hash and are not used);
 *  - Trader Joe V1 (Avalanche): Trader Joe's deployment records, `@traderjoe-xyz/core` 2.4.6
 *    `deployments/avalanche/JoeFactory.json` and `JoeRouter02.json` (their `receipt.from` is the deployer);
 *  - Pangolin (Avalanche): `@pangolindex/exchange-contracts` 1.0.1 `artifacts/` (PangolinFactory, PangolinRouter); the
 *    pair inside the factory reproduces Pangolin's hash; the router's code differs between the package's versions only
 *    in its metadata hash;
 *  - QuickSwap V2 (Polygon): Uniswap V2's own code (its init code hash is Uniswap V2's: the pair's creation code is
 *    byte for byte `@uniswap/v2-core`'s), `@uniswap/v2-core` UniswapV2Factory and `@uniswap/v2-periphery`
 *    UniswapV2Router02 constructed with QuickSwap's factory and the chain's wrapped native token.
 *
 * Mainnet's deployment transactions are not in those packages, so they cannot be replayed as Uniswap's are
 * (sandbox/uniswap.ts). Instead each contract is created from an impersonated account with its mainnet constructor
 * arguments and its runtime code copied to the canonical address (anvil_setCode): the same runtime code as mainnet's
 * (the factories have no immutables; a router's factory and WETH immutables are set by its own constructor), and the
 * factory's one constructor-set slot (feeToSetter, slot 1 in all four) written. Pairs are then created through the
 * factory. The routers' function names differ (Joe's and Pangolin's say AVAX for ETH), but
 * `swapExactTokensForTokens`, `getAmountsOut` and `getAmountsIn`, the ones the service and the tests call, are the same.
 */
import fs from 'node:fs';
import { AbiCoder, getAddress, Interface, keccak256, type JsonRpcProvider } from 'ethers';
import { labelAddress } from './data';
import { hex, impersonating, sendTransaction, uniswapArtifact } from './uniswap';

/**
 * The account that creates a fork's contracts whose deployer is not in the published records (a fixed label's
 * address, so that no account of the sandbox spends a nonce on them).
 */
const STAND_IN_DEPLOYER = labelAddress('xchain-router:sandbox:v2-fork-deployer');

/** UniswapV2Factory's storage slot of feeToSetter (feeTo 0, feeToSetter 1, then the pairs), the same in every fork here. */
const FEE_TO_SETTER_SLOT = 1;

/** A contract's published ABI and creation code (0x-prefixed). */
export interface PublishedContract {
  readonly abi: readonly unknown[];
  readonly bytecode: string;
}

export interface V2Fork {
  /** routers.json's exchange. */
  readonly exchange: string;
  readonly label: string;
  readonly factory: string;
  readonly router02: string;
  /** keccak256 of the pair creation code inside the genuine factory (the fork's SDK's INIT_CODE_HASH). */
  readonly initCodeHash: string;
  /** The account the contracts are created from (the fork's deployer where its records name it). */
  readonly deployer: string;
  /** The factory's feeToSetter (its constructor argument). */
  readonly feeToSetter: string;
  /** Where the genuine code comes from. */
  readonly source: string;
  contract(name: 'factory' | 'router02'): PublishedContract;
}

const readJson = <T>(file: string): T => JSON.parse(fs.readFileSync(require.resolve(file), 'utf8')) as T;
const prefixed = (code: string) => (code.startsWith('0x') ? code : `0x${code}`);

/** A deployment record (hardhat-deploy's format): the contract at `address` on the fork's chain. */
function deploymentRecord(file: string, address: string): PublishedContract {
  const json = readJson<{ address: string; abi: unknown[]; bytecode: string }>(file);
  if (getAddress(json.address) !== getAddress(address)) throw new Error(`${file}: deployed at ${json.address}, not ${address}`);
  return { abi: json.abi, bytecode: prefixed(json.bytecode) };
}

function artifact(file: string): PublishedContract {
  const json = readJson<{ abi: unknown[]; bytecode: string }>(file);
  return { abi: json.abi, bytecode: prefixed(json.bytecode) };
}

export const SUSHISWAP_V2: V2Fork = {
  exchange: 'sushiswap',
  label: 'SushiSwap V2',
  factory: '0xC0AEe478e3658e2610c5F7A4A2E1777cE9e4f2Ac',
  router02: '0xd9e1cE17f2641f24aE83637ab66a2cca9C378B9F',
  initCodeHash: '0xe18a34eb0e04b04f7a0ac29a6e80748dca96319b42c54d679cb821dca90c6303',
  deployer: '0xf87BC5535602077d340806D71f805EA9907a843D',
  feeToSetter: '0xCc159BCb6a466DA442D254Ad934125f05DAB66b5',
  source: '@sushiswap/sushiswap 0.1.1, deployments/ethereum: UniswapV2Factory, UniswapV2Router02',
  contract(name) {
    return deploymentRecord(`@sushiswap/sushiswap/deployments/ethereum/${name === 'factory' ? 'UniswapV2Factory' : 'UniswapV2Router02'}.json`, name === 'factory' ? this.factory : this.router02);
  },
};

export const TRADERJOE_V1: V2Fork = {
  exchange: 'traderjoe',
  label: 'Trader Joe V1',
  factory: '0x9Ad6C38BE94206cA50bb0d90783181662f0Cfa10',
  router02: '0x60aE616a2155Ee3d9A68541Ba4544862310933d4',
  initCodeHash: '0x0bbca9af0511ad1a1da383135cf3a8d2ac620e549ef9f6ae3a4c33c2fed0af91',
  deployer: '0x5D3e4C0FE11e0aE4c32F0FF74B4544C49538AC61',
  feeToSetter: '0x5D3e4C0FE11e0aE4c32F0FF74B4544C49538AC61',
  source: '@traderjoe-xyz/core 2.4.6, deployments/avalanche: JoeFactory, JoeRouter02',
  contract(name) {
    return deploymentRecord(`@traderjoe-xyz/core/deployments/avalanche/${name === 'factory' ? 'JoeFactory' : 'JoeRouter02'}.json`, name === 'factory' ? this.factory : this.router02);
  },
};

export const PANGOLIN: V2Fork = {
  exchange: 'pangolin',
  label: 'Pangolin',
  factory: '0xefa94DE7a4656D787667C749f7E1223D71E9FD88',
  router02: '0xE54Ca86531e17Ef3616d22Ca28b0D458b6C89106',
  initCodeHash: '0x40231f6b438bce0797c9ada29b718a87ea0a5cea3fe9a771abdd76bd41a3e545',
  // mainnet's deployer and feeToSetter are not in the published package
  deployer: STAND_IN_DEPLOYER,
  feeToSetter: STAND_IN_DEPLOYER,
  source: '@pangolindex/exchange-contracts 1.0.1, artifacts: PangolinFactory, PangolinRouter',
  contract(name) {
    return artifact(name === 'factory'
      ? '@pangolindex/exchange-contracts/artifacts/contracts/pangolin-core/PangolinFactory.sol/PangolinFactory.json'
      : '@pangolindex/exchange-contracts/artifacts/contracts/pangolin-periphery/PangolinRouter.sol/PangolinRouter.json');
  },
};

export const QUICKSWAP_V2: V2Fork = {
  exchange: 'quickswap',
  label: 'QuickSwap V2',
  factory: '0x5757371414417b8C6CAad45bAeF941aBc7d3Ab32',
  router02: '0xa5E0829CaCEd8fFDD4De3c43696c57F7D7A678ff',
  initCodeHash: '0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f',
  // mainnet's deployer and feeToSetter are not in the published packages
  deployer: STAND_IN_DEPLOYER,
  feeToSetter: STAND_IN_DEPLOYER,
  source: 'Uniswap V2\'s code: @uniswap/v2-core UniswapV2Factory, @uniswap/v2-periphery UniswapV2Router02',
  contract(name) {
    return uniswapArtifact(name === 'factory' ? 'UniswapV2Factory' : 'UniswapV2Router02');
  },
};

/** The Uniswap V2 forks whose genuine code the sandbox runs. */
export const V2_FORKS: readonly V2Fork[] = [SUSHISWAP_V2, TRADERJOE_V1, PANGOLIN, QUICKSWAP_V2];

export function v2ForkInterface(fork: V2Fork, name: 'factory' | 'router02'): Interface {
  return new Interface(fork.contract(name).abi as never);
}

/**
 * The fork's factory and Router02 at their mainnet addresses, the router's WETH being `weth` (the chain's wrapped
 * native token). Idempotent: an address that holds code already is left as it is. Automine must be on.
 */
export async function deployV2Fork(provider: JsonRpcProvider, fork: V2Fork, options: { readonly weth: string; readonly log?: (line: string) => void }): Promise<{ factory: string; router02: string }> {
  await impersonating(provider, fork.deployer, async () => {
    const place = async (address: string, contract: PublishedContract, types: string[], values: unknown[]) => {
      if ((await provider.getCode(address)) !== '0x') {
        options.log?.(`${fork.label} ${address} already deployed`);
        return;
      }
      const data = contract.bytecode + AbiCoder.defaultAbiCoder().encode(types, values).slice(2);
      const receipt = await sendTransaction(provider, { from: fork.deployer, data, gas: 15_000_000n }, `create ${fork.label} ${address}`);
      const runtime = (await provider.getCode(receipt.contractAddress!)) as string;
      await provider.send('anvil_setCode', [address, runtime]);
      options.log?.(`${fork.label} ${address} placed (runtime ${keccak256(runtime).slice(0, 10)}…)`);
    };
    await place(fork.factory, fork.contract('factory'), ['address'], [fork.feeToSetter]);
    await provider.send('anvil_setStorageAt', [fork.factory, hex(FEE_TO_SETTER_SLOT), AbiCoder.defaultAbiCoder().encode(['address'], [fork.feeToSetter])]);
    await place(fork.router02, fork.contract('router02'), ['address', 'address'], [fork.factory, getAddress(options.weth)]);
  });
  return { factory: fork.factory, router02: fork.router02 };
}
