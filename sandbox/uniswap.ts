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
 * Pools are then made through the protocols themselves (uniswapPools.ts): a V2 pair with factory.createPair, the two
 * tokens sent to it and pair.mint; a V3 pool with NonfungiblePositionManager.createAndInitializePoolIfNecessary and
 * one mint per liquidity band (the amounts a band's liquidity takes: uniswapLiquidity.ts).
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
