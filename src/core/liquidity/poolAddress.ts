/**
 * Where Uniswap V2 pairs and V3 pools live: their factories create them with CREATE2, so an address follows from the
 * factory, its init code hash, the pair's tokens (sorted) and, for V3, the fee tier —
 *
 *   V2: salt = keccak256(abi.encodePacked(token0, token1))                (UniswapV2Library.pairFor)
 *   V3: salt = keccak256(abi.encode(token0, token1, uint24 fee))          (PoolAddress.computeAddress)
 *   address = last 20 bytes of keccak256(0xff ‖ factory ‖ salt ‖ initCodeHash)
 *
 * A fork (SushiSwap, PancakeSwap...) is the same rule with its own factory and init code hash. The canonical
 * deployments are mainnet's; their init code hashes are keccak256 of the genuine creation code published in
 * @uniswap/v2-core 1.0.1 (UniswapV2Pair) and @uniswap/v3-core 1.0.1 (UniswapV3Pool).
 */
import { AbiCoder, getAddress, getCreate2Address, keccak256, solidityPacked } from 'ethers';

export interface UniswapFactory {
  readonly factory: string;
  readonly initCodeHash: string;
}

export const UNISWAP_V2_FACTORY: UniswapFactory = {
  factory: '0x5C69bEe701ef814a2B6a3EDD4B1652CB9cc5aA6f',
  initCodeHash: '0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f',
};

export const UNISWAP_V3_FACTORY: UniswapFactory = {
  factory: '0x1F98431c8aD98523631AE4a59f267346ea31F984',
  initCodeHash: '0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54',
};

/** The V3 fee tiers of the canonical factory (ppm) and their tick spacings (UniswapV3Factory's constructor). */
export const UNISWAP_V3_TICK_SPACINGS: ReadonlyMap<number, number> = new Map([[500, 10], [3000, 60], [10000, 200]]);

/** The two tokens in the factories' order (by address, as numbers). */
export function sortTokens(a: string, b: string): [string, string] {
  const [x, y] = [getAddress(a), getAddress(b)];
  if (x === y) throw new Error(`a pool needs two different tokens: ${x}`);
  return BigInt(x) < BigInt(y) ? [x, y] : [y, x];
}

/** The address of the V2 pair of two tokens (UniswapV2Library.pairFor). */
export function v2PairAddress(factory: UniswapFactory, tokenA: string, tokenB: string): string {
  const [token0, token1] = sortTokens(tokenA, tokenB);
  return getCreate2Address(factory.factory, keccak256(solidityPacked(['address', 'address'], [token0, token1])), factory.initCodeHash);
}

/** The address of the V3 pool of two tokens and a fee tier in ppm (PoolAddress.computeAddress). */
export function v3PoolAddress(factory: UniswapFactory, tokenA: string, tokenB: string, feePpm: number | bigint): string {
  const [token0, token1] = sortTokens(tokenA, tokenB);
  const salt = keccak256(AbiCoder.defaultAbiCoder().encode(['address', 'address', 'uint24'], [token0, token1, feePpm]));
  return getCreate2Address(factory.factory, salt, factory.initCodeHash);
}
