/**
 * Pools made through the genuine Uniswap contracts (deployed by uniswap.ts): a V2 pair with its factory's createPair,
 * both tokens sent to it and pair.mint; a V3 pool with the position manager's createAndInitializePoolIfNecessary, then
 * its positions minted, reduced and burnt.
 */
import { getAddress, Interface, type JsonRpcProvider, type TransactionReceipt } from 'ethers';
import { sendTransaction, uniswapInterface, type UniswapAddresses } from './uniswap';

const ERC20 = new Interface([
  'function approve(address spender, uint256 amount) returns (bool)',
  'function transfer(address to, uint256 amount) returns (bool)',
  'function balanceOf(address) view returns (uint256)',
]);

// --- V2 pairs

export interface V2PairOptions {
  /** An unlocked account holding both amounts. */
  readonly from: string;
  readonly tokenA: string;
  readonly tokenB: string;
  readonly amountA: bigint;
  readonly amountB: bigint;
}

/**
 * A V2 pair made by the genuine factory (createPair, unless it exists), with liquidity added as the Router does it:
 * both tokens sent to the pair, then pair.mint(from). Returns the pair's address and the LP tokens minted.
 */
export async function createV2Pair(provider: JsonRpcProvider, uniswap: UniswapAddresses, o: V2PairOptions): Promise<{ pair: string; liquidity: bigint }> {
  const factory = uniswapInterface('UniswapV2Factory');
  const pairI = uniswapInterface('UniswapV2Pair');
  const getPair = async () => getAddress(factory.decodeFunctionResult('getPair', await provider.call({ to: uniswap.v2Factory, data: factory.encodeFunctionData('getPair', [o.tokenA, o.tokenB]) }))[0] as string);
  let pair = await getPair();
  if (BigInt(pair) === 0n) {
    await sendTransaction(provider, { from: o.from, to: uniswap.v2Factory, data: factory.encodeFunctionData('createPair', [o.tokenA, o.tokenB]) }, 'createPair');
    pair = await getPair();
  }
  await sendTransaction(provider, { from: o.from, to: o.tokenA, data: ERC20.encodeFunctionData('transfer', [pair, o.amountA]) }, 'transfer tokenA');
  await sendTransaction(provider, { from: o.from, to: o.tokenB, data: ERC20.encodeFunctionData('transfer', [pair, o.amountB]) }, 'transfer tokenB');
  const receipt = await sendTransaction(provider, { from: o.from, to: pair, data: pairI.encodeFunctionData('mint', [o.from]) }, 'pair.mint');
  const mint = receipt.logs.filter((l) => getAddress(l.address) === pair).map((l) => pairI.parseLog(l)).find((e) => e?.name === 'Transfer' && BigInt(e.args[0]) === 0n && getAddress(e.args[1]) === getAddress(o.from));
  return { pair, liquidity: mint ? (mint.args[2] as bigint) : 0n };
}

// --- V3 pools and positions

/** The position manager's deadline argument: far in the future (2100-01-01). */
const DEADLINE = 4_102_444_800n;
const MAX_UINT128 = (1n << 128n) - 1n;

export interface V3Band {
  readonly tickLower: number;
  readonly tickUpper: number;
  /** Desired amounts of token0 and token1 (the position manager takes what the range needs at the current price). */
  readonly amount0: bigint;
  readonly amount1: bigint;
}

export interface V3Position {
  readonly tokenId: bigint;
  readonly tickLower: number;
  readonly tickUpper: number;
  readonly liquidity: bigint;
  readonly amount0: bigint;
  readonly amount1: bigint;
}

export interface V3PoolOptions {
  /** An unlocked account holding the amounts (it approves the position manager for both tokens and owns the positions). */
  readonly from: string;
  /** token0 < token1 (the factory's order, as numbers): sqrtPriceX96 and the amounts are in these terms. */
  readonly token0: string;
  readonly token1: string;
  readonly fee: number;
  /** √(token1 per token0, raw units)·2^96. */
  readonly sqrtPriceX96: bigint;
  readonly bands: readonly V3Band[];
}

/**
 * A V3 pool made by the genuine factory through the position manager (createAndInitializePoolIfNecessary), then one
 * position minted per band. Returns the pool's address (from the factory's getPool) and the positions.
 */
export async function createV3Pool(provider: JsonRpcProvider, uniswap: UniswapAddresses, o: V3PoolOptions): Promise<{ pool: string; positions: V3Position[] }> {
  if (BigInt(getAddress(o.token0)) >= BigInt(getAddress(o.token1))) throw new Error('createV3Pool: token0 must sort below token1');
  const npm = uniswapInterface('NonfungiblePositionManager');
  for (const token of [o.token0, o.token1]) {
    await sendTransaction(provider, { from: o.from, to: token, data: ERC20.encodeFunctionData('approve', [uniswap.positionManager, (1n << 256n) - 1n]) }, 'approve position manager');
  }
  await sendTransaction(provider, {
    from: o.from,
    to: uniswap.positionManager,
    data: npm.encodeFunctionData('createAndInitializePoolIfNecessary', [o.token0, o.token1, o.fee, o.sqrtPriceX96]),
    gas: 10_000_000n,
  }, 'createAndInitializePoolIfNecessary');
  const factory = uniswapInterface('UniswapV3Factory');
  const pool = getAddress(factory.decodeFunctionResult('getPool', await provider.call({ to: uniswap.v3Factory, data: factory.encodeFunctionData('getPool', [o.token0, o.token1, o.fee]) }))[0] as string);
  const positions: V3Position[] = [];
  for (const band of o.bands) positions.push(await mintV3Position(provider, uniswap, { from: o.from, token0: o.token0, token1: o.token1, fee: o.fee, band }));
  return { pool, positions };
}

/** One NonfungiblePositionManager.mint (the owner must have approved the position manager for both tokens). */
export async function mintV3Position(provider: JsonRpcProvider, uniswap: UniswapAddresses, o: { from: string; token0: string; token1: string; fee: number; band: V3Band }): Promise<V3Position> {
  const npm = uniswapInterface('NonfungiblePositionManager');
  const { band } = o;
  const receipt = await sendTransaction(provider, {
    from: o.from,
    to: uniswap.positionManager,
    data: npm.encodeFunctionData('mint', [[o.token0, o.token1, o.fee, band.tickLower, band.tickUpper, band.amount0, band.amount1, 0n, 0n, o.from, DEADLINE]]),
  }, `mint [${band.tickLower}, ${band.tickUpper}]`);
  const event = positionEvent(receipt, uniswap, 'IncreaseLiquidity');
  return { tokenId: event[0] as bigint, tickLower: band.tickLower, tickUpper: band.tickUpper, liquidity: event[1] as bigint, amount0: event[2] as bigint, amount1: event[3] as bigint };
}

/** Removes `liquidity` of a position (decreaseLiquidity) and collects what it is owed; returns the amounts removed. */
export async function decreaseV3Liquidity(provider: JsonRpcProvider, uniswap: UniswapAddresses, o: { from: string; tokenId: bigint; liquidity: bigint }): Promise<{ amount0: bigint; amount1: bigint }> {
  const npm = uniswapInterface('NonfungiblePositionManager');
  const receipt = await sendTransaction(provider, {
    from: o.from,
    to: uniswap.positionManager,
    data: npm.encodeFunctionData('decreaseLiquidity', [[o.tokenId, o.liquidity, 0n, 0n, DEADLINE]]),
  }, `decreaseLiquidity ${o.tokenId}`);
  const event = positionEvent(receipt, uniswap, 'DecreaseLiquidity');
  await sendTransaction(provider, {
    from: o.from,
    to: uniswap.positionManager,
    data: npm.encodeFunctionData('collect', [[o.tokenId, o.from, MAX_UINT128, MAX_UINT128]]),
  }, `collect ${o.tokenId}`);
  return { amount0: event[2] as bigint, amount1: event[3] as bigint };
}

/** Closes a position: all its liquidity removed and collected, then the NFT burnt. */
export async function burnV3Position(provider: JsonRpcProvider, uniswap: UniswapAddresses, o: { from: string; tokenId: bigint }): Promise<{ amount0: bigint; amount1: bigint }> {
  const npm = uniswapInterface('NonfungiblePositionManager');
  const position = npm.decodeFunctionResult('positions', await provider.call({ to: uniswap.positionManager, data: npm.encodeFunctionData('positions', [o.tokenId]) }));
  const liquidity = position[7] as bigint;
  const removed = liquidity > 0n ? await decreaseV3Liquidity(provider, uniswap, { ...o, liquidity }) : { amount0: 0n, amount1: 0n };
  await sendTransaction(provider, { from: o.from, to: uniswap.positionManager, data: npm.encodeFunctionData('burn', [o.tokenId]) }, `burn ${o.tokenId}`);
  return removed;
}

function positionEvent(receipt: TransactionReceipt, uniswap: UniswapAddresses, name: 'IncreaseLiquidity' | 'DecreaseLiquidity'): readonly unknown[] {
  const npm = uniswapInterface('NonfungiblePositionManager');
  for (const log of receipt.logs) {
    if (getAddress(log.address) !== uniswap.positionManager) continue;
    const parsed = npm.parseLog(log);
    if (parsed?.name === name) return parsed.args;
  }
  throw new Error(`no ${name} event in ${receipt.hash}`);
}
