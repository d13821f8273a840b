/**
 * The genuine Uniswap contracts on an anvil chain, at their canonical (mainnet) addresses: the creation code
 * published on npm (@uniswap/v2-core 1.0.1, @uniswap/v2-periphery, @uniswap/v3-core 1.0.1, @uniswap/v3-periphery
 * 1.4.4, @uniswap/swap-router-contracts), deployed by replaying the original deployment: the original deployer is
 * impersonated, its nonce set to the one of the mainnet transaction (anvil_setNonce), and the creation code with
 * the ABI-encoded constructor arguments sent from it (eth_sendTransaction), so that the contract lands at
 * CREATE(deployer, nonce) — the canonical address — with its constructor run there: the V3 factory's NoDelegateCall
 * `original`, the periphery's factory and WETH9 immutables are those of a genuine deployment, and pools and pairs
 * created by the factories are at the addresses PoolAddress / UniswapV2Library compute
 * (src/core/liquidity/poolAddress.ts).
 *
 * Pools are then made through the protocols themselves: a V2 pair with factory.createPair, the two tokens sent to it
 * and pair.mint; a V3 pool with NonfungiblePositionManager.createAndInitializePoolIfNecessary and one mint per
 * liquidity band.
 */
import fs from 'node:fs';
import { AbiCoder, getAddress, getCreateAddress, Interface, keccak256, type JsonRpcProvider, type TransactionReceipt } from 'ethers';
import { waitForReceipt } from './rpc';

/** Mainnet's deployer of Uniswap V2 (factory at nonce 0, Router02 at nonce 3). */
export const UNISWAP_V2_DEPLOYER = '0x9C33eaCc2F50E39940D3AfaF2c7B8246B681A374';
/** Mainnet's deployer of Uniswap V3 and its periphery. */
export const UNISWAP_V3_DEPLOYER = '0x6C9FC64A53c1b71FB3f9Af64d1ae3A4931A5f4E9';
/** Mainnet's UniswapV2Factory feeToSetter (its constructor argument). */
export const UNISWAP_V2_FEE_TO_SETTER = '0xc0a4272bb5df52134178Df25d77561CfB17ce407';
/** Mainnet's NonfungibleTokenPositionDescriptor proxy (the position manager's tokenDescriptor; only tokenURI reads it). */
export const UNISWAP_V3_TOKEN_DESCRIPTOR = '0xEe6A57eC80ea46401049E92587E52f5Ec1c24785';

export interface UniswapAddresses {
  readonly weth: string;
  readonly v2Factory: string;
  readonly v2Router02: string;
  readonly v3Factory: string;
  readonly tickLens: string;
  readonly swapRouter: string;
  readonly positionManager: string;
  readonly quoterV2: string;
  readonly swapRouter02: string;
}

type ContractKey = Exclude<keyof UniswapAddresses, 'weth'>;

interface Artifact {
  readonly abi: readonly unknown[];
  /** Creation code, 0x-prefixed. */
  readonly bytecode: string;
}

/** The npm artifact of each contract (path under node_modules). */
const ARTIFACT_FILES = {
  UniswapV2Factory: '@uniswap/v2-core/build/UniswapV2Factory.json',
  UniswapV2Pair: '@uniswap/v2-core/build/UniswapV2Pair.json',
  UniswapV2Router02: '@uniswap/v2-periphery/build/UniswapV2Router02.json',
  WETH9: '@uniswap/v2-periphery/build/WETH9.json',
  UniswapV3Factory: '@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json',
  UniswapV3Pool: '@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json',
  SwapRouter: '@uniswap/v3-periphery/artifacts/contracts/SwapRouter.sol/SwapRouter.json',
  NonfungiblePositionManager: '@uniswap/v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json',
  QuoterV2: '@uniswap/v3-periphery/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json',
  TickLens: '@uniswap/v3-periphery/artifacts/contracts/lens/TickLens.sol/TickLens.json',
  SwapRouter02: '@uniswap/swap-router-contracts/artifacts/contracts/SwapRouter02.sol/SwapRouter02.json',
} as const;

export type UniswapContractName = keyof typeof ARTIFACT_FILES;

const artifactCache = new Map<UniswapContractName, Artifact>();

/** The published artifact (ABI and creation code) of a genuine Uniswap contract. */
export function uniswapArtifact(name: UniswapContractName): Artifact {
  let artifact = artifactCache.get(name);
  if (!artifact) {
    const json = JSON.parse(fs.readFileSync(require.resolve(ARTIFACT_FILES[name]), 'utf8')) as { abi: unknown[]; bytecode: string };
    artifact = { abi: json.abi, bytecode: json.bytecode.startsWith('0x') ? json.bytecode : `0x${json.bytecode}` };
    artifactCache.set(name, artifact);
  }
  return artifact;
}

const interfaceCache = new Map<UniswapContractName, Interface>();
export function uniswapInterface(name: UniswapContractName): Interface {
  let i = interfaceCache.get(name);
  if (!i) interfaceCache.set(name, (i = new Interface(uniswapArtifact(name).abi as never)));
  return i;
}

const ERC20 = new Interface([
  'function approve(address spender, uint256 amount) returns (bool)',
  'function transfer(address to, uint256 amount) returns (bool)',
  'function balanceOf(address) view returns (uint256)',
]);

interface Deployment {
  readonly key: ContractKey;
  readonly contract: UniswapContractName;
  readonly deployer: string;
  readonly nonce: number;
  readonly address: string;
  /** Constructor argument types and values, given the addresses deployed so far. */
  readonly args: (a: UniswapAddresses) => readonly [readonly string[], readonly unknown[]];
}

/** The mainnet deployments, in nonce order per deployer (each one's constructor only reads those before it). */
export const UNISWAP_DEPLOYMENTS: readonly Deployment[] = [
  { key: 'v2Factory', contract: 'UniswapV2Factory', deployer: UNISWAP_V2_DEPLOYER, nonce: 0, address: '0x5C69bEe701ef814a2B6a3EDD4B1652CB9cc5aA6f', args: () => [['address'], [UNISWAP_V2_FEE_TO_SETTER]] },
  { key: 'v2Router02', contract: 'UniswapV2Router02', deployer: UNISWAP_V2_DEPLOYER, nonce: 3, address: '0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D', args: (a) => [['address', 'address'], [a.v2Factory, a.weth]] },
  { key: 'v3Factory', contract: 'UniswapV3Factory', deployer: UNISWAP_V3_DEPLOYER, nonce: 0, address: '0x1F98431c8aD98523631AE4a59f267346ea31F984', args: () => [[], []] },
  { key: 'tickLens', contract: 'TickLens', deployer: UNISWAP_V3_DEPLOYER, nonce: 2, address: '0xbfd8137f7d1516D3ea5cA83523914859ec47F573', args: () => [[], []] },
  { key: 'swapRouter', contract: 'SwapRouter', deployer: UNISWAP_V3_DEPLOYER, nonce: 4, address: '0xE592427A0AEce92De3Edee1F18E0157C05861564', args: (a) => [['address', 'address'], [a.v3Factory, a.weth]] },
  { key: 'positionManager', contract: 'NonfungiblePositionManager', deployer: UNISWAP_V3_DEPLOYER, nonce: 8, address: '0xC36442b4a4522E871399CD717aBDD847Ab11FE88', args: (a) => [['address', 'address', 'address'], [a.v3Factory, a.weth, UNISWAP_V3_TOKEN_DESCRIPTOR]] },
  { key: 'quoterV2', contract: 'QuoterV2', deployer: UNISWAP_V3_DEPLOYER, nonce: 13, address: '0x61fFE014bA17989E743c5F6cB21bF9697530B21e', args: (a) => [['address', 'address'], [a.v3Factory, a.weth]] },
  { key: 'swapRouter02', contract: 'SwapRouter02', deployer: UNISWAP_V3_DEPLOYER, nonce: 14, address: '0x68b3465833fb72A70ecDF485E0e4C7bD8665Fc45', args: (a) => [['address', 'address', 'address', 'address'], [a.v2Factory, a.v3Factory, a.positionManager, a.weth]] },
];

/** The canonical addresses (the same on every chain this sandbox deploys to), for a given WETH9. */
export function uniswapAddresses(weth: string): UniswapAddresses {
  return { weth: getAddress(weth), ...Object.fromEntries(UNISWAP_DEPLOYMENTS.map((d) => [d.key, d.address])) } as UniswapAddresses;
}

/** A quantity as JSON-RPC writes it (0x, no leading zeros). */
export const hex = (n: bigint | number) => `0x${BigInt(n).toString(16)}`;

/**
 * Sends one transaction from an unlocked (dev or impersonated) account, waits for it, throws if it reverted. Without
 * `gas`, the limit is anvil's estimate plus half: with the estimate alone, a Router02 swap here ran out of gas inside
 * the pair's swap.
 */
export async function sendTransaction(provider: JsonRpcProvider, tx: { from: string; to?: string; data: string; value?: bigint; gas?: bigint }, label = tx.to ?? 'creation'): Promise<TransactionReceipt> {
  const request: Record<string, string> = { from: tx.from, data: tx.data };
  if (tx.to) request.to = tx.to;
  if (tx.value) request.value = hex(tx.value);
  request.gas = hex(tx.gas ?? (BigInt((await provider.send('eth_estimateGas', [request])) as string) * 3n) / 2n + 20_000n);
  const hash = (await provider.send('eth_sendTransaction', [request])) as string;
  const receipt = await waitForReceipt(provider, hash);
  if (receipt.status !== 1) throw new Error(`${label}: transaction ${hash} reverted`);
  return receipt;
}

/**
 * Runs `send` with `account` impersonated and funded (anvil_impersonateAccount, 10^24 wei), then stops impersonating it
 * and puts its balance back, whatever `send` did.
 */
export async function impersonating<T>(provider: JsonRpcProvider, account: string, send: () => Promise<T>): Promise<T> {
  const balance = await provider.getBalance(account);
  await provider.send('anvil_impersonateAccount', [account]);
  await provider.send('anvil_setBalance', [account, hex(10n ** 24n)]);
  try {
    return await send();
  } finally {
    await provider.send('anvil_stopImpersonatingAccount', [account]);
    await provider.send('anvil_setBalance', [account, hex(balance)]);
  }
}

export interface DeployUniswapOptions {
  /** The chain's WETH9 (the catalog's wrapped native token): the periphery's WETH9 immutable. */
  readonly weth: string;
  readonly log?: (line: string) => void;
}

/**
 * Deploys every genuine Uniswap contract at its canonical address by replaying its mainnet deployment (module
 * comment). Idempotent: a contract whose address already holds code is left as it is. Each deployer's balance is
 * put back afterwards; its nonce stays past its last deployment. Automine must be on. Returns the addresses.
 */
export async function deployUniswap(provider: JsonRpcProvider, options: DeployUniswapOptions): Promise<UniswapAddresses> {
  const addresses = uniswapAddresses(options.weth);
  if ((await provider.getCode(addresses.weth)) === '0x') throw new Error(`no WETH9 at ${addresses.weth}: deploy the chain's wrapped native token first`);
  const impersonated = new Map<string, bigint>(); // deployer → its balance before
  try {
    for (const d of UNISWAP_DEPLOYMENTS) {
      if (getCreateAddress({ from: d.deployer, nonce: d.nonce }) !== d.address) throw new Error(`${d.contract}: CREATE(${d.deployer}, ${d.nonce}) is not ${d.address}`);
      if ((await provider.getCode(d.address)) !== '0x') {
        options.log?.(`${d.contract} already at ${d.address}`);
        continue;
      }
      if (!impersonated.has(d.deployer)) {
        impersonated.set(d.deployer, await provider.getBalance(d.deployer));
        await provider.send('anvil_impersonateAccount', [d.deployer]);
        await provider.send('anvil_setBalance', [d.deployer, hex(10n ** 24n)]);
      }
      await provider.send('anvil_setNonce', [d.deployer, hex(d.nonce)]);
      const [types, values] = d.args(addresses);
      const data = uniswapArtifact(d.contract).bytecode + AbiCoder.defaultAbiCoder().encode(types, values).slice(2);
      const receipt = await sendTransaction(provider, { from: d.deployer, data, gas: 15_000_000n }, `deploy ${d.contract}`);
      if (!receipt.contractAddress || getAddress(receipt.contractAddress) !== d.address) {
        throw new Error(`${d.contract} was created at ${receipt.contractAddress}, not at its canonical address ${d.address}`);
      }
      if ((await provider.getCode(d.address)) === '0x') throw new Error(`no code at ${d.address} after deploying ${d.contract}`);
      options.log?.(`${d.contract} deployed at ${d.address} (gas ${receipt.gasUsed})`);
    }
  } finally {
    for (const [deployer, balance] of impersonated) {
      await provider.send('anvil_stopImpersonatingAccount', [deployer]);
      await provider.send('anvil_setBalance', [deployer, hex(balance)]);
    }
  }
  return addresses;
}

// --- WETH9

/**
 * WETH9's storage: name (slot 0), symbol (1) and decimals (2), set by its field initialisers, then balanceOf (3) and
 * allowance (4). The genuine contract (the one at 0xC02aaA39… on mainnet, whose build @uniswap/v2-periphery
 * publishes) has no other state: totalSupply() is the contract's own ether balance.
 */
const WETH9_NAME_SLOT = 0;
const WETH9_SYMBOL_SLOT = 1;
const WETH9_DECIMALS_SLOT = 2;
const WETH9_BALANCE_SLOT = 3;

/** The genuine WETH9's runtime code (no immutables, no constructor: its state is its storage). */
export function weth9RuntimeCode(): string {
  const json = JSON.parse(fs.readFileSync(require.resolve(ARTIFACT_FILES.WETH9), 'utf8')) as { evm: { deployedBytecode: { object: string } } };
  return `0x${json.evm.deployedBytecode.object.replace(/^0x/, '')}`;
}

/** A string of at most 31 bytes as Solidity stores it in one slot: the bytes left-aligned, the length × 2 last. */
function shortStringSlot(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length > 31) throw new Error(`"${text}" does not fit a short string slot`);
  const word = Buffer.alloc(32);
  bytes.copy(word);
  word[31] = bytes.length * 2;
  return `0x${word.toString('hex')}`;
}

const word = (n: bigint | number) => `0x${BigInt(n).toString(16).padStart(64, '0')}`;

/**
 * The JSON-RPC calls that put the genuine WETH9 at `address` as the chain's wrapped native token: its runtime code,
 * its name, symbol and 18 decimals in their slots (what its constructor would have stored, with the chain's own
 * names: "Wrapped Ether"/"WETH", "Wrapped AVAX"/"WAVAX"...).
 */
export function weth9Placement(address: string, name: string, symbol: string): [string, unknown[]][] {
  return [
    ['anvil_setCode', [address, weth9RuntimeCode()]],
    ['anvil_setStorageAt', [address, word(WETH9_NAME_SLOT), shortStringSlot(name)]],
    ['anvil_setStorageAt', [address, word(WETH9_SYMBOL_SLOT), shortStringSlot(symbol)]],
    ['anvil_setStorageAt', [address, word(WETH9_DECIMALS_SLOT), word(18)]],
  ];
}

/**
 * The JSON-RPC calls that give WETH9 holders their balances as deposits would (balanceOf slots written), the contract
 * holding the ether behind them (`backing`: the ether it holds already, plus every amount given).
 */
export function weth9Balances(address: string, balances: ReadonlyMap<string, bigint>, backing: bigint): [string, unknown[]][] {
  let total = backing;
  const calls: [string, unknown[]][] = [];
  for (const [holder, amount] of balances) {
    total += amount;
    calls.push(['anvil_setStorageAt', [address, keccak256(AbiCoder.defaultAbiCoder().encode(['address', 'uint256'], [holder, WETH9_BALANCE_SLOT])), word(amount)]]);
  }
  calls.push(['anvil_setBalance', [address, `0x${total.toString(16)}`]]);
  return calls;
}

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

// --- fee tiers

/**
 * Enables on the V3 factory every fee tier (fee ppm → tick spacing) it does not have yet, as its owner (impersonated;
 * the V3 deployer on a replayed deployment): the canonical factory is constructed with 500/10, 3000/60 and
 * 10000/200 only, and 100/1 was added on mainnet later by governance. A tier the factory has with another spacing
 * is an error. Automine must be on. Returns the tiers enabled.
 */
export async function enableFeeTiers(provider: JsonRpcProvider, uniswap: UniswapAddresses, tiers: Readonly<Record<string, number>>): Promise<number[]> {
  const factory = uniswapInterface('UniswapV3Factory');
  const call = async (fn: string, args: unknown[] = []) => factory.decodeFunctionResult(fn, await provider.call({ to: uniswap.v3Factory, data: factory.encodeFunctionData(fn, args) }))[0];
  const missing: [number, number][] = [];
  for (const [fee, spacing] of Object.entries(tiers)) {
    const current = Number(await call('feeAmountTickSpacing', [Number(fee)]));
    if (current === 0) missing.push([Number(fee), spacing]);
    else if (current !== spacing) throw new Error(`the V3 factory has fee ${fee} with tick spacing ${current}, not ${spacing}`);
  }
  if (missing.length === 0) return [];
  const owner = getAddress(await call('owner') as string);
  await impersonating(provider, owner, async () => {
    for (const [fee, spacing] of missing) {
      await sendTransaction(provider, { from: owner, to: uniswap.v3Factory, data: factory.encodeFunctionData('enableFeeAmount', [fee, spacing]), gas: 200_000n }, `enableFeeAmount(${fee}, ${spacing})`);
    }
  });
  return missing.map(([fee]) => fee);
}

// --- the liquidity of a position, as the position manager computes it

const Q96 = 1n << 96n;
const MAX_UINT256 = (1n << 256n) - 1n;
export const MIN_TICK = -887272;
export const MAX_TICK = 887272;

/** v3-core TickMath.getSqrtRatioAtTick, bit for bit (its constants; the sandbox does not use the routing core). */
export function sqrtRatioAtTick(tick: number): bigint {
  if (!Number.isSafeInteger(tick) || tick < MIN_TICK || tick > MAX_TICK) throw new Error(`tick ${tick} out of range`);
  const abs = Math.abs(tick);
  let ratio = abs & 0x1 ? 0xfffcb933bd6fad37aa2d162d1a594001n : 0x100000000000000000000000000000000n;
  const multipliers: [number, bigint][] = [
    [0x2, 0xfff97272373d413259a46990580e213an], [0x4, 0xfff2e50f5f656932ef12357cf3c7fdccn], [0x8, 0xffe5caca7e10e4e61c3624eaa0941cd0n],
    [0x10, 0xffcb9843d60f6159c9db58835c926644n], [0x20, 0xff973b41fa98c081472e6896dfb254c0n], [0x40, 0xff2ea16466c96a3843ec78b326b52861n],
    [0x80, 0xfe5dee046a99a2a811c461f1969c3053n], [0x100, 0xfcbe86c7900a88aedcffc83b479aa3a4n], [0x200, 0xf987a7253ac413176f2b074cf7815e54n],
    [0x400, 0xf3392b0822b70005940c7a398e4b70f3n], [0x800, 0xe7159475a2c29b7443b29c7fa6e889d9n], [0x1000, 0xd097f3bdfd2022b8845ad8f792aa5825n],
    [0x2000, 0xa9f746462d870fdf8a65dc1f90e061e5n], [0x4000, 0x70d869a156d2a1b890bb3df62baf32f7n], [0x8000, 0x31be135f97d08fd981231505542fcfa6n],
    [0x10000, 0x9aa508b5b7a84e1c677de54f3e99bc9n], [0x20000, 0x5d6af8dedb81196699c329225ee604n], [0x40000, 0x2216e584f5fa1ea926041bedfe98n],
    [0x80000, 0x48a170391f7dc42444e8fa2n],
  ];
  for (const [bit, m] of multipliers) if (abs & bit) ratio = (ratio * m) >> 128n;
  if (tick > 0) ratio = MAX_UINT256 / ratio;
  return (ratio >> 32n) + (ratio % (1n << 32n) === 0n ? 0n : 1n);
}

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;
/** LiquidityAmounts.getLiquidityForAmount0 (FullMath.mulDiv rounds down; the product fits, no overflow in bigint). */
const liquidityForAmount0 = (sa: bigint, sb: bigint, amount0: bigint) => (amount0 * ((sa * sb) / Q96)) / (sb - sa);
const liquidityForAmount1 = (sa: bigint, sb: bigint, amount1: bigint) => (amount1 * Q96) / (sb - sa);

/** v3-periphery LiquidityAmounts.getLiquidityForAmounts: the liquidity NonfungiblePositionManager.mint gives desired amounts. */
export function liquidityForAmounts(sqrtPriceX96: bigint, sa: bigint, sb: bigint, amount0: bigint, amount1: bigint): bigint {
  if (sqrtPriceX96 <= sa) return liquidityForAmount0(sa, sb, amount0);
  if (sqrtPriceX96 < sb) {
    const l0 = liquidityForAmount0(sqrtPriceX96, sb, amount0);
    const l1 = liquidityForAmount1(sa, sqrtPriceX96, amount1);
    return l0 < l1 ? l0 : l1;
  }
  return liquidityForAmount1(sa, sb, amount1);
}

export interface BandAmounts {
  /** Desired amounts for the position manager's mint. */
  readonly amount0: bigint;
  readonly amount1: bigint;
  /** The liquidity the mint gives for them: the target, or the least above it the amounts can reach. */
  readonly minted: bigint;
}

/**
 * The smallest desired amounts whose mint gives at least `liquidity` in [tickLower, tickUpper] at the pool's price.
 * getLiquidityForAmount0/1 round down a linear function of the amount: the smallest amount reaching L gives exactly L
 * when L is reachable at all, and otherwise the least liquidity above L the token's granularity allows (one unit of a
 * 6-decimal token in a 1-tick band is ~2·10^4 units of liquidity at a 1:1 price); in range, the mint takes the
 * smaller of the two tokens' liquidities, so exact when either token reaches L exactly.
 */
export function amountsForLiquidity(sqrtPriceX96: bigint, tickLower: number, tickUpper: number, liquidity: bigint): BandAmounts {
  const sa = sqrtRatioAtTick(tickLower);
  const sb = sqrtRatioAtTick(tickUpper);
  const amount0For = (lower: bigint) => ceilDiv(liquidity * (sb - lower), (lower * sb) / Q96);
  const amount1For = (upper: bigint) => ceilDiv(liquidity * (upper - sa), Q96);
  let amount0 = 0n;
  let amount1 = 0n;
  if (sqrtPriceX96 <= sa) amount0 = amount0For(sa);
  else if (sqrtPriceX96 < sb) {
    amount0 = amount0For(sqrtPriceX96);
    amount1 = amount1For(sqrtPriceX96);
  } else amount1 = amount1For(sb);
  const minted = liquidityForAmounts(sqrtPriceX96, sa, sb, amount0, amount1);
  if (minted < liquidity) throw new Error(`amountsForLiquidity: ${minted} < ${liquidity} in [${tickLower}, ${tickUpper}]`);
  return { amount0, amount1, minted };
}

/**
 * The liquidity bands of a pool's initialised ticks: between consecutive ticks (in order), the active liquidity is
 * the sum of the liquidityNet of the ticks at or below; one position per band of positive liquidity reproduces every
 * tick's liquidityNet (each tick gets +L of the band above and −L of the band below) and the active liquidity.
 */
export function liquidityBands(ticks: readonly (readonly [number, bigint | string])[]): { tickLower: number; tickUpper: number; liquidity: bigint }[] {
  const bands: { tickLower: number; tickUpper: number; liquidity: bigint }[] = [];
  let active = 0n;
  for (let k = 0; k < ticks.length; k++) {
    if (k > 0 && ticks[k][0] <= ticks[k - 1][0]) throw new Error(`ticks out of order at ${ticks[k][0]}`);
    active += BigInt(ticks[k][1]);
    if (active < 0n) throw new Error(`negative liquidity above tick ${ticks[k][0]}`);
    if (active > 0n) {
      if (k === ticks.length - 1) throw new Error(`liquidity ${active} above the last tick ${ticks[k][0]}: the ticks' liquidityNet do not sum to 0`);
      bands.push({ tickLower: ticks[k][0], tickUpper: ticks[k + 1][0], liquidity: active });
    }
  }
  return bands;
}
