/**
 * The pools of the exchanges whose routers are genuine (deploy.ts's module comment), created through the genuine
 * contracts: the transactions that create and fill them (a V2 pair minted from the snapshot's reserves; a V3 pool
 * warmed, then one position per liquidity band, reduced to the band exactly), and the check that reads them back and
 * compares them with the snapshot.
 */
import { getAddress, Interface } from 'ethers';
import type { RawExchangeRouter, RawPool, RawToken } from './data';
import { batchEthCall, type SendOptions } from './rpc';
import { uniswapInterface, type UniswapAddresses } from './uniswap';
import { amountsForLiquidity, liquidityBands, MAX_TICK, MIN_TICK, sqrtRatioAtTick } from './uniswapLiquidity';

const MAX_UINT128 = (1n << 128n) - 1n;
const MAX_UINT256 = (1n << 256n) - 1n;
/** The position manager's deadline argument: far in the future (2100-01-01). */
const DEADLINE = 4_102_444_800n;
/** Liquidity of the temporary position a V3 pool is warmed on (SeedOptions.warmPools). */
const WARM_LIQUIDITY = 10n ** 18n;

/** The genuine Uniswap deployment of a chain, its pools, and how exactly they reproduce the snapshot. */
export interface UniswapSeeding {
  readonly addresses: UniswapAddresses;
  /** The V3 periphery (position manager, SwapRouter, QuoterV2) of each exchange's genuine V3 pools: Uniswap's, or built for a fork. */
  readonly v3Periphery: Readonly<Record<string, UniswapAddresses>>;
  /** Fee tiers the V3 factory's owner enabled (ppm). */
  readonly feeTiersEnabled: readonly number[];
  readonly v2Pairs: number;
  readonly v3Pools: number;
  /** Positions minted, one per band of positive liquidity. */
  readonly bands: number;
  /** Bands whose mint gave exactly the band's liquidity. */
  readonly bandsExactByMint: number;
  /** Bands minted above it (no amounts give it exactly) and brought to it with decreaseLiquidity. */
  readonly bandsReduced: number;
  /** The largest excess a mint gave before its reduction (liquidity units). */
  readonly largestExcess: bigint;
  /** Pools whose state read back (reserves; slot0, liquidity, every tick's liquidityNet) equals the snapshot's. */
  readonly poolsExact: number;
  /** Every value read back that differs from the snapshot's (none expected); the chain is then the truth. */
  readonly differences: readonly { readonly pool: string; readonly field: string; readonly snapshot: string; readonly chain: string; readonly difference: bigint }[];
}

export interface GenuinePlan {
  readonly v2: readonly (RawPool & { kind: 'constantProduct' })[];
  readonly v3: readonly (RawPool & { kind: 'concentrated' })[];
  /** The factory of each pair and pool (by pool id): Uniswap's, or a fork's. */
  readonly factories: ReadonlyMap<string, string>;
  readonly transactions: readonly (SendOptions & { label?: string })[];
  readonly bands: number;
  readonly bandsExactByMint: number;
  readonly largestExcess: bigint;
}

/**
 * The transactions that create the genuine pools (module comment), all from `admin`, to be sent in one block after the
 * tokens they `give` are minted: V2 pairs get the snapshot's reserves (minted straight to the pair, as a transfer would
 * put them) and mint their LP tokens to the admin; the admin gets the amounts of every V3 position (each band's
 * amounts plus 2 units: the pool takes at most 1 more than the desired amount of the token that bounds the liquidity)
 * and of the warming swaps, and approves the position manager and the SwapRouter. Positions take the token ids 1, 2,
 * ... in order (a fresh position manager), which the reductions name.
 */
export function planGenuinePools(
  pools: readonly RawPool[],
  routers: ReadonlyMap<string, { genuine: boolean; entry: RawExchangeRouter }>,
  token: (address: string) => RawToken,
  admin: string,
  give: (token: string, holder: string, amount: bigint) => void,
  v3Periphery: ReadonlyMap<string, UniswapAddresses> | undefined,
  warm: boolean,
): GenuinePlan {
  const v2 = pools.filter((p): p is RawPool & { kind: 'constantProduct' } => p.kind === 'constantProduct');
  const v3 = pools.filter((p): p is RawPool & { kind: 'concentrated' } => p.kind === 'concentrated');
  // a genuine router's entry names its factory (checked with the contracts deployed)
  const factoryOf = (p: RawPool) => getAddress(routers.get(`${p.exchange}:${p.kind}`)!.entry.factory!.address);
  const factories = new Map([...v2, ...v3].map((p) => [p.id, factoryOf(p)]));
  if (!v3Periphery || pools.length === 0) return { v2, v3, factories, transactions: [], bands: 0, bandsExactByMint: 0, largestExcess: 0n };
  const factoryV2 = uniswapInterface('UniswapV2Factory');
  const pairI = uniswapInterface('UniswapV2Pair');
  const npm = uniswapInterface('NonfungiblePositionManager');
  const swapRouter = uniswapInterface('SwapRouter');
  const erc20 = new Interface(['function approve(address spender, uint256 amount) returns (bool)']);
  const tx = (to: string, i: Interface, fn: string, args: unknown[], gas?: bigint) => ({ to, data: i.encodeFunctionData(fn, args), label: `${fn} ${to}`, ...(gas ? { gas } : {}) });
  const sorted = (p: RawPool) => {
    const [t0, t1] = p.tokens.map((t) => token(t).address);
    if (BigInt(t0) >= BigInt(t1)) throw new Error(`pool ${p.id}: tokens not in the factory's order (token0 < token1)`);
    return [t0, t1];
  };

  const creates: (SendOptions & { label?: string })[] = [];
  const mints: (SendOptions & { label?: string })[] = [];
  const reductions: (SendOptions & { label?: string })[] = [];
  for (const p of v2) {
    const fee = routers.get(`${p.exchange}:${p.kind}`)!.entry.feePpm;
    if (fee !== undefined && p.feePpm !== fee) throw new Error(`pool ${p.id}: fee ${p.feePpm} ppm, but its factory charges ${fee}`);
    const [t0, t1] = sorted(p);
    // the pair's own factory (Uniswap's, or a fork's: the same createPair)
    creates.push(tx(factories.get(p.id)!, factoryV2, 'createPair', [t0, t1]));
    give(t0, getAddress(p.address), BigInt(p.reserves[0]));
    give(t1, getAddress(p.address), BigInt(p.reserves[1]));
    mints.push(tx(getAddress(p.address), pairI, 'mint', [admin]));
  }
  const approved = new Set<string>(); // `token:spender` approvals planned
  const nextTokenIds = new Map<string, bigint>(); // per position manager, from 1 (a fresh one's)
  let bands = 0;
  let bandsExactByMint = 0;
  let largestExcess = 0n;
  for (const p of v3) {
    const spacing = routers.get(`${p.exchange}:${p.kind}`)!.entry.feeTiers?.[String(p.feePpm)];
    if (spacing !== p.tickSpacing) throw new Error(`pool ${p.id}: fee ${p.feePpm} with tick spacing ${p.tickSpacing}, but its factory's is ${spacing}`);
    const [t0, t1] = sorted(p);
    const sqrtPriceX96 = BigInt(p.sqrtPriceX96);
    // the exchange's periphery (Uniswap's, or Uniswap's built for a fork's factory), checked to be the pool's factory's
    const uniswap = v3Periphery.get(p.exchange);
    if (!uniswap || uniswap.v3Factory !== factories.get(p.id)) throw new Error(`pool ${p.id}: no position manager for its factory ${factories.get(p.id)}`);
    const nextTokenId = () => {
      const id = nextTokenIds.get(uniswap.positionManager) ?? 1n;
      nextTokenIds.set(uniswap.positionManager, id + 1n);
      return id;
    };
    creates.push(tx(uniswap.positionManager, npm, 'createAndInitializePoolIfNecessary', [t0, t1, p.feePpm, sqrtPriceX96], 10_000_000n));
    for (const t of [t0, t1]) {
      for (const spender of [uniswap.positionManager, uniswap.swapRouter]) {
        if (approved.has(`${t}:${spender}`)) continue;
        approved.add(`${t}:${spender}`);
        creates.push(tx(t, erc20, 'approve', [spender, MAX_UINT256]));
      }
    }
    if (warm) {
      // a temporary position around the price; a swap of token0 down to a price just below, one of token1 back up to
      // exactly the snapshot's price (the swaps stop at their price limits); the position removed, its ticks cleared
      const base = Math.floor(p.tick / p.tickSpacing) * p.tickSpacing;
      const [lower, upper] = [base - p.tickSpacing, base + 2 * p.tickSpacing];
      const w = amountsForLiquidity(sqrtPriceX96, lower, upper, WARM_LIQUIDITY);
      const below = sqrtPriceX96 - sqrtPriceX96 / 10_000_000n - 1n;
      if (lower < MIN_TICK || upper > MAX_TICK || below <= sqrtRatioAtTick(lower)) throw new Error(`pool ${p.id}: no room for the warming position around tick ${p.tick}`);
      const tokenId = nextTokenId();
      mints.push(
        tx(uniswap.positionManager, npm, 'mint', [[t0, t1, p.feePpm, lower, upper, w.amount0, w.amount1, 0n, 0n, admin, DEADLINE]]),
        tx(uniswap.swapRouter, swapRouter, 'exactInputSingle', [[t0, t1, p.feePpm, admin, DEADLINE, w.amount0, 0n, below]]),
        tx(uniswap.swapRouter, swapRouter, 'exactInputSingle', [[t1, t0, p.feePpm, admin, DEADLINE, w.amount1, 0n, sqrtPriceX96]]),
        tx(uniswap.positionManager, npm, 'decreaseLiquidity', [[tokenId, w.minted, 0n, 0n, DEADLINE]]),
        tx(uniswap.positionManager, npm, 'collect', [[tokenId, admin, MAX_UINT128, MAX_UINT128]]),
        tx(uniswap.positionManager, npm, 'burn', [tokenId]),
      );
      // the position's amounts, and at most as much again for each swap
      give(t0, admin, 2n * w.amount0 + 2n);
      give(t1, admin, 2n * w.amount1 + 2n);
    }
    for (const band of liquidityBands(p.ticks)) {
      const a = amountsForLiquidity(sqrtPriceX96, band.tickLower, band.tickUpper, band.liquidity);
      bands++;
      const tokenId = nextTokenId();
      mints.push(tx(uniswap.positionManager, npm, 'mint', [[t0, t1, p.feePpm, band.tickLower, band.tickUpper, a.amount0, a.amount1, 0n, 0n, admin, DEADLINE]]));
      give(t0, admin, a.amount0 + 2n);
      give(t1, admin, a.amount1 + 2n);
      const excess = a.minted - band.liquidity;
      if (excess === 0n) bandsExactByMint++;
      else {
        reductions.push(tx(uniswap.positionManager, npm, 'decreaseLiquidity', [[tokenId, excess, 0n, 0n, DEADLINE]]));
        if (excess > largestExcess) largestExcess = excess;
      }
    }
  }
  return { v2, v3, factories, transactions: [...creates, ...mints, ...reductions], bands, bandsExactByMint, largestExcess };
}

/**
 * Reads the genuine pools back and compares them with the snapshot: each pair's and pool's address from its factory,
 * a pair's getReserves, a pool's slot0 (price, tick), liquidity() and the liquidityNet of every snapshot tick (the
 * positions touch no other tick).
 */
export async function checkGenuinePools(url: string, plan: GenuinePlan): Promise<Pick<UniswapSeeding, 'poolsExact' | 'differences'>> {
  const factoryV2 = uniswapInterface('UniswapV2Factory');
  const factoryV3 = uniswapInterface('UniswapV3Factory');
  const pairI = uniswapInterface('UniswapV2Pair');
  const poolI = uniswapInterface('UniswapV3Pool');
  interface Read { readonly pool: RawPool; readonly field: string; readonly to: string; readonly data: string; decode(result: string): bigint | string; readonly snapshot: bigint | string }
  const reads: Read[] = [];
  for (const p of plan.v2) {
    reads.push({ pool: p, field: 'address', to: plan.factories.get(p.id)!, data: factoryV2.encodeFunctionData('getPair', [p.tokens[0], p.tokens[1]]), decode: (r) => getAddress(factoryV2.decodeFunctionResult('getPair', r)[0] as string), snapshot: getAddress(p.address) });
    for (const k of [0, 1]) reads.push({ pool: p, field: `reserve${k}`, to: getAddress(p.address), data: pairI.encodeFunctionData('getReserves'), decode: (r) => pairI.decodeFunctionResult('getReserves', r)[k] as bigint, snapshot: BigInt(p.reserves[k]) });
  }
  for (const p of plan.v3) {
    const address = getAddress(p.address);
    reads.push({ pool: p, field: 'address', to: plan.factories.get(p.id)!, data: factoryV3.encodeFunctionData('getPool', [p.tokens[0], p.tokens[1], p.feePpm]), decode: (r) => getAddress(factoryV3.decodeFunctionResult('getPool', r)[0] as string), snapshot: address });
    reads.push({ pool: p, field: 'sqrtPriceX96', to: address, data: poolI.encodeFunctionData('slot0'), decode: (r) => poolI.decodeFunctionResult('slot0', r)[0] as bigint, snapshot: BigInt(p.sqrtPriceX96) });
    reads.push({ pool: p, field: 'tick', to: address, data: poolI.encodeFunctionData('slot0'), decode: (r) => poolI.decodeFunctionResult('slot0', r)[1] as bigint, snapshot: BigInt(p.tick) });
    reads.push({ pool: p, field: 'liquidity', to: address, data: poolI.encodeFunctionData('liquidity'), decode: (r) => poolI.decodeFunctionResult('liquidity', r)[0] as bigint, snapshot: BigInt(p.liquidity) });
    for (const [t, net] of p.ticks) {
      reads.push({ pool: p, field: `liquidityNet(${t})`, to: address, data: poolI.encodeFunctionData('ticks', [t]), decode: (r) => poolI.decodeFunctionResult('ticks', r)[1] as bigint, snapshot: BigInt(net) });
    }
  }
  const results = await batchEthCall(url, reads);
  const differences: { pool: string; field: string; snapshot: string; chain: string; difference: bigint }[] = [];
  reads.forEach((read, k) => {
    const r = results[k];
    const chain = r.ok ? read.decode(r.data) : `error: ${r.error}`;
    if (chain === read.snapshot) return;
    const difference = typeof chain === 'bigint' && typeof read.snapshot === 'bigint' ? (chain > read.snapshot ? chain - read.snapshot : read.snapshot - chain) : -1n;
    differences.push({ pool: read.pool.id, field: read.field, snapshot: String(read.snapshot), chain: String(chain), difference });
  });
  const inexact = new Set(differences.map((d) => d.pool));
  return { poolsExact: plan.v2.length + plan.v3.length - inexact.size, differences };
}
