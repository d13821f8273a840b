/**
 * Pool addresses against mainnet's real ones (the published addresses of USDC/WETH on Uniswap) and the init code
 * hashes against the genuine creation code on npm.
 */
import fs from 'node:fs';
import path from 'node:path';
import { keccak256 } from 'ethers';
import { UNISWAP_V2_FACTORY, UNISWAP_V3_FACTORY, sortTokens, v2PairAddress, v3PoolAddress } from '../../../../src/core/liquidity/poolAddress';

const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const WETH = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2';
const USDT = '0xdAC17F958D2ee523a2206206994597C13D831ec7';

test('USDC/WETH on mainnet: the V3 pools of each fee tier and the V2 pair, in either token order', () => {
  expect(v3PoolAddress(UNISWAP_V3_FACTORY, USDC, WETH, 500)).toBe('0x88e6A0c2dDD26FEEb64F039a2c41296FcB3f5640');
  expect(v3PoolAddress(UNISWAP_V3_FACTORY, WETH, USDC, 500)).toBe('0x88e6A0c2dDD26FEEb64F039a2c41296FcB3f5640');
  expect(v3PoolAddress(UNISWAP_V3_FACTORY, USDC, WETH, 3000)).toBe('0x8ad599c3A0ff1De082011EFDDc58f1908eb6e6D8');
  expect(v2PairAddress(UNISWAP_V2_FACTORY, USDC, WETH)).toBe('0xB4e16d0168e52d35CaCD2c6185b44281Ec28C9Dc');
  expect(v2PairAddress(UNISWAP_V2_FACTORY, WETH, USDT)).toBe('0x0d4a11d5EEaaC28EC3F61d100daF4d40471f1852');
});

test('the init code hashes are those of the genuine creation code (@uniswap/v2-core, @uniswap/v3-core 1.0.1)', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pool = require('@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json') as { bytecode: string };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pair = require('@uniswap/v2-core/build/UniswapV2Pair.json') as { bytecode: string };
  expect(keccak256(pool.bytecode)).toBe(UNISWAP_V3_FACTORY.initCodeHash);
  expect(keccak256(`0x${pair.bytecode.replace(/^0x/, '')}`)).toBe(UNISWAP_V2_FACTORY.initCodeHash);
});

test('a fork, addressed by its own factory and init code hash: SushiSwap V2\'s USDC/WETH on mainnet, from routers.json', () => {
  const routers = JSON.parse(fs.readFileSync(path.join(__dirname, '../../../../data/catalog/routers.json'), 'utf8')) as { exchangeRouters: { exchange: string; kind: string; factory?: { address: string; initCodeHash: string } }[] };
  const sushi = routers.exchangeRouters.find((r) => r.exchange === 'sushiswap' && r.kind === 'constantProduct')!.factory!;
  expect(v2PairAddress({ factory: sushi.address, initCodeHash: sushi.initCodeHash }, WETH, USDC)).toBe('0x397FF1542f962076d0BFE58eA045FfA2d347ACa0');
});

test('SushiSwap V2\'s init code hash is that of the pair creation code inside its genuine factory (@sushiswap/sushiswap 0.1.1 deployments)', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const factory = require('@sushiswap/sushiswap/deployments/ethereum/UniswapV2Factory.json') as { bytecode: string };
  const creation = factory.bytecode.replace(/^0x/, '');
  // type(UniswapV2Pair).creationCode, which createPair deploys, sits in the factory's creation code at byte 1,959
  // (9,351 bytes: solc 0.6.12's build, the deployed one)
  const [start, length] = [1959 * 2, 9351 * 2];
  expect(creation.slice(start, start + 8)).toBe('60806040');
  expect(keccak256(`0x${creation.slice(start, start + length)}`)).toBe('0xe18a34eb0e04b04f7a0ac29a6e80748dca96319b42c54d679cb821dca90c6303');
});

test('tokens sort by address as numbers; one token twice is no pool', () => {
  expect(sortTokens(WETH, USDC)).toEqual([USDC, WETH]);
  expect(() => sortTokens(USDC, USDC.toLowerCase())).toThrow(/two different tokens/);
});
