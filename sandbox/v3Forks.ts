/**
 * SushiSwap V3 on an anvil chain. Its core is Uniswap V3's build: the pool init code hash SushiSwap's SDK and factory
 * use is Uniswap's (0xe34f199b…8b54, keccak256 of `@uniswap/v3-core` 1.0.1's UniswapV3Pool creation code), so its
 * factory is UniswapV3Factory of that package. The factory is deployed as on mainnet by replaying its deployment:
 * SushiSwap's deployer (0xf87BC553…) impersonated at its nonce 63, which puts it at 0xbACEB8eC… with its constructor
 * run there (owner, the 0.05/0.3/1 % tiers); the 0.01 % tier is then enabled by that owner, as SushiSwap did.
 *
 * SushiSwap publishes no build of its periphery, and no SwapRouter at all (its SDK routes through its own route
 * processor). The sandbox therefore runs Uniswap's periphery (`@uniswap/v3-periphery`) constructed for SushiSwap's
 * factory: the NonfungiblePositionManager at SushiSwap's position manager address (the same deployer's nonce 67),
 * which creates and fills the snapshot's pools; a SwapRouter at routers.json's label address for SushiSwap's
 * concentrated pools (created elsewhere, its runtime code and its one storage slot copied there), which the service's
 * routes call; and a QuoterV2 (tests compare the core with it). The pools are the genuine ones either way, at the
 * CREATE2 addresses of SushiSwap's factory (src/core/liquidity/poolAddress.ts).
 */
import { AbiCoder, getAddress, getCreateAddress, type JsonRpcProvider } from 'ethers';
import { labelAddress } from './data';
import { enableFeeTiers, hex, impersonating, sendTransaction, uniswapAddresses, uniswapArtifact, UNISWAP_V3_TOKEN_DESCRIPTOR, type UniswapAddresses } from './uniswap';

export interface V3Fork {
  /** routers.json's exchange. */
  readonly exchange: string;
  readonly label: string;
  readonly factory: string;
  /** keccak256 of the pool creation code the factory deploys (Uniswap V3's). */
  readonly initCodeHash: string;
  /** The fork's deployer and the nonces of its factory and position manager. */
  readonly deployer: string;
  readonly factoryNonce: number;
  readonly positionManager: string;
  readonly positionManagerNonce: number;
}

export const SUSHISWAP_V3: V3Fork = {
  exchange: 'sushiswap',
  label: 'SushiSwap V3',
  factory: '0xbACEB8eC6b9355Dfc0269C18bac9d6E2Bdc29C4F',
  initCodeHash: '0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54',
  deployer: '0xf87BC5535602077d340806D71f805EA9907a843D',
  factoryNonce: 63,
  positionManager: '0x2214A42d8e2A1d20635c2cb0664422c528B6A432',
  positionManagerNonce: 67,
};

/**
 * The account that creates the periphery that has no address of the fork's own (the QuoterV2, and the SwapRouter
 * before its code is copied to routers.json's address): a fixed label's address, its nonces set (0 and 1), so the
 * QuoterV2 lands at the same address on every chain.
 */
const PERIPHERY_DEPLOYER = labelAddress('xchain-router:sandbox:v3-fork-periphery');

/** Where the QuoterV2 for a fork's factory is (the same on every chain: nonce 0 of PERIPHERY_DEPLOYER). */
export const V3_FORK_QUOTER = getCreateAddress({ from: PERIPHERY_DEPLOYER, nonce: 0 });

export interface DeployV3ForkOptions {
  /** The chain's wrapped native token (the periphery's WETH9). */
  readonly weth: string;
  /** routers.json's address of the fork's swap router for concentrated pools. */
  readonly swapRouter: string;
  /** The factory's fee tiers (fee ppm → tick spacing), routers.json's: those it lacks are enabled by its owner. */
  readonly feeTiers: Readonly<Record<string, number>>;
  readonly log?: (line: string) => void;
}

/**
 * The fork's factory, position manager, SwapRouter and QuoterV2 (module comment), and its fee tiers. Idempotent: an
 * address that holds code already is left as it is. Automine must be on. Returns Uniswap's addresses with the V3 ones
 * the fork's (for createV3Pool, mintV3Position...).
 */
export async function deployV3Fork(provider: JsonRpcProvider, fork: V3Fork, options: DeployV3ForkOptions): Promise<UniswapAddresses> {
  const weth = getAddress(options.weth);
  const swapRouter = getAddress(options.swapRouter);
  const addresses: UniswapAddresses = { ...uniswapAddresses(weth), v3Factory: fork.factory, positionManager: fork.positionManager, swapRouter, quoterV2: V3_FORK_QUOTER };
  const coder = AbiCoder.defaultAbiCoder();
  const create = async (from: string, nonce: number, contract: 'UniswapV3Factory' | 'NonfungiblePositionManager' | 'SwapRouter' | 'QuoterV2', args: [string[], unknown[]]) => {
    const at = getCreateAddress({ from, nonce });
    if ((await provider.getCode(at)) !== '0x') return at;
    await impersonating(provider, from, async () => {
      await provider.send('anvil_setNonce', [from, hex(nonce)]);
      const receipt = await sendTransaction(provider, { from, data: uniswapArtifact(contract).bytecode + coder.encode(...args).slice(2), gas: 15_000_000n }, `create ${fork.label} ${contract}`);
      if (getAddress(receipt.contractAddress!) !== at) throw new Error(`${fork.label} ${contract}: created at ${receipt.contractAddress}, not ${at}`);
      options.log?.(`${fork.label} ${contract} at ${at}`);
    });
    return at;
  };
  if ((await create(fork.deployer, fork.factoryNonce, 'UniswapV3Factory', [[], []])) !== fork.factory) throw new Error(`${fork.label}: CREATE(${fork.deployer}, ${fork.factoryNonce}) is not its factory ${fork.factory}`);
  await enableFeeTiers(provider, addresses, options.feeTiers);
  if ((await create(fork.deployer, fork.positionManagerNonce, 'NonfungiblePositionManager', [['address', 'address', 'address'], [fork.factory, weth, UNISWAP_V3_TOKEN_DESCRIPTOR]])) !== fork.positionManager) {
    throw new Error(`${fork.label}: CREATE(${fork.deployer}, ${fork.positionManagerNonce}) is not its position manager ${fork.positionManager}`);
  }
  await create(PERIPHERY_DEPLOYER, 0, 'QuoterV2', [['address', 'address'], [fork.factory, weth]]);
  if ((await provider.getCode(swapRouter)) === '0x') {
    // SwapRouter's immutables (factory, WETH9) are in its runtime code; its one storage variable (amountInCached, slot
    // 0, set to type(uint256).max at construction) is copied with it
    const built = await create(PERIPHERY_DEPLOYER, 1, 'SwapRouter', [['address', 'address'], [fork.factory, weth]]);
    await provider.send('anvil_setCode', [swapRouter, await provider.getCode(built)]);
    await provider.send('anvil_setStorageAt', [swapRouter, hex(0), await provider.getStorage(built, 0)]);
  }
  return addresses;
}
