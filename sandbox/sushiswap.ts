/**
 * SushiSwap V2 (a Uniswap V2 fork) on an anvil chain, at its mainnet addresses, from its genuine bytecode: the
 * creation code of SushiSwap's own deployment records published on npm (@sushiswap/sushiswap 0.1.1,
 * `deployments/ethereum/UniswapV2Factory.json` and `UniswapV2Router02.json`). The pair creation code inside that
 * factory hashes to SushiSwap's init code hash (0xe18a34eb…6303), which its Router02 also carries (pairFor), so pairs
 * the factory creates are where SushiSwap's SDK and src/core/liquidity/poolAddress.ts put them. (The package's
 * `artifacts/` are a later build whose metadata differs: they do not reproduce the hash and are not used.)
 *
 * Mainnet's deployment transactions are not in those records, so they cannot be replayed as Uniswap's are
 * (sandbox/uniswap.ts). Instead each contract is created from an impersonated account with its mainnet constructor
 * arguments and its runtime code copied to the canonical address (anvil_setCode): the same runtime code as mainnet's
 * (the factory has no immutables; the router's factory and WETH9 immutables are set by its own constructor), and the
 * factory's one constructor-set slot (feeToSetter, slot 1) written. Pairs are then created through the factory.
 */
import fs from 'node:fs';
import { AbiCoder, getAddress, Interface, keccak256, type JsonRpcProvider } from 'ethers';
import { hex, sendTransaction } from './uniswap';

export const SUSHISWAP_V2_FACTORY = '0xC0AEe478e3658e2610c5F7A4A2E1777cE9e4f2Ac';
export const SUSHISWAP_V2_ROUTER02 = '0xd9e1cE17f2641f24aE83637ab66a2cca9C378B9F';
/** keccak256 of the pair creation code inside the genuine factory (SushiSwap's SDK: SUSHISWAP_V2_INIT_CODE_HASH). */
export const SUSHISWAP_V2_INIT_CODE_HASH = '0xe18a34eb0e04b04f7a0ac29a6e80748dca96319b42c54d679cb821dca90c6303';
/** SushiSwap's deployer on most chains: the account the contracts are created from here (its nonce is irrelevant). */
const SUSHISWAP_DEPLOYER = '0xf87BC5535602077d340806D71f805EA9907a843D';
/** The factory's feeToSetter on the chains whose deployment records name it (its constructor argument). */
const SUSHISWAP_V2_FEE_TO_SETTER = '0xCc159BCb6a466DA442D254Ad934125f05DAB66b5';
/** UniswapV2Factory's storage slot of feeToSetter (feeTo 0, feeToSetter 1, migrator 2, getPair 3, allPairs 4). */
const FEE_TO_SETTER_SLOT = 1;

interface Record {
  readonly address: string;
  readonly abi: readonly unknown[];
  /** Creation code, 0x-prefixed. */
  readonly bytecode: string;
}

/** One of SushiSwap's mainnet deployment records. */
export function sushiswapRecord(name: 'UniswapV2Factory' | 'UniswapV2Router02'): Record {
  const json = JSON.parse(fs.readFileSync(require.resolve(`@sushiswap/sushiswap/deployments/ethereum/${name}.json`), 'utf8')) as Record;
  return { address: getAddress(json.address), abi: json.abi, bytecode: json.bytecode.startsWith('0x') ? json.bytecode : `0x${json.bytecode}` };
}

export function sushiswapInterface(name: 'UniswapV2Factory' | 'UniswapV2Router02'): Interface {
  return new Interface(sushiswapRecord(name).abi as never);
}


/**
 * SushiSwap V2's factory and Router02 at their mainnet addresses, the router's WETH9 being `weth` (the chain's wrapped
 * native token). Idempotent: an address that holds code already is left as it is. Automine must be on.
 */
export async function deploySushiSwapV2(provider: JsonRpcProvider, options: { readonly weth: string; readonly log?: (line: string) => void }): Promise<{ factory: string; router02: string }> {
  const factory = sushiswapRecord('UniswapV2Factory');
  const router = sushiswapRecord('UniswapV2Router02');
  if (factory.address !== SUSHISWAP_V2_FACTORY || router.address !== SUSHISWAP_V2_ROUTER02) throw new Error('@sushiswap/sushiswap: its Ethereum records are not at the mainnet addresses');
  const balance = await provider.getBalance(SUSHISWAP_DEPLOYER);
  await provider.send('anvil_impersonateAccount', [SUSHISWAP_DEPLOYER]);
  await provider.send('anvil_setBalance', [SUSHISWAP_DEPLOYER, hex(10n ** 24n)]);
  try {
    const place = async (record: Record, types: string[], values: unknown[]) => {
      if ((await provider.getCode(record.address)) !== '0x') {
        options.log?.(`SushiSwap ${record.address} already deployed`);
        return;
      }
      const data = record.bytecode + AbiCoder.defaultAbiCoder().encode(types, values).slice(2);
      const receipt = await sendTransaction(provider, { from: SUSHISWAP_DEPLOYER, data, gas: 15_000_000n }, `create ${record.address}`);
      const runtime = (await provider.getCode(receipt.contractAddress!)) as string;
      await provider.send('anvil_setCode', [record.address, runtime]);
      options.log?.(`SushiSwap ${record.address} placed (runtime ${keccak256(runtime).slice(0, 10)}…)`);
    };
    await place(factory, ['address'], [SUSHISWAP_V2_FEE_TO_SETTER]);
    await provider.send('anvil_setStorageAt', [SUSHISWAP_V2_FACTORY, hex(FEE_TO_SETTER_SLOT), AbiCoder.defaultAbiCoder().encode(['address'], [SUSHISWAP_V2_FEE_TO_SETTER])]);
    await place(router, ['address', 'address'], [SUSHISWAP_V2_FACTORY, getAddress(options.weth)]);
  } finally {
    await provider.send('anvil_stopImpersonatingAccount', [SUSHISWAP_DEPLOYER]);
    await provider.send('anvil_setBalance', [SUSHISWAP_DEPLOYER, hex(balance)]);
  }
  return { factory: SUSHISWAP_V2_FACTORY, router02: SUSHISWAP_V2_ROUTER02 };
}
