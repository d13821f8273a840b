/**
 * Chain mode with the service's own deployment named in the chains file (`router`, `feeCollector` of an entry, as
 * after deploying `contracts/router/` to a chain): the transactions the quotes build call that router, ERC-20 inputs
 * are approved to it, fees are collected by that fee collector, and /v1/chains gives it as `diamondAddress` (and
 * `permit2Proxy`, `permit2` as the file names them: routers.json's proxy is not given with another router); chains
 * the file does not name keep routers.json's. (The chain's RPC need not answer for this: nothing is read here.)
 */
import request from 'supertest';
import { useContract, useTestApp } from '../support/app';
import { useScratchDir } from '../support/files';
import { ROUTER, WALLET } from '../support/fixtures';

const files = useScratchDir('own-deployment-');
const OWN_ROUTER = '0x1111111111111111111111111111111111111111';
const OWN_FEE_COLLECTOR = '0x2222222222222222222222222222222222222222';
/** routers.json's Permit2 (Uniswap's, canonical address) and Permit2 proxy. */
const PERMIT2 = '0x000000000022D473030F116dDEE9F6B43aC78BA3';
const PERMIT2_PROXY = '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9';

const contract = useContract();
const t = useTestApp(() => ({
  env: {
    CHAINS_FILE: files.writeJson('chains.json', {
      chains: [{ chainId: 42161, rpcUrl: 'http://127.0.0.1:9', router: OWN_ROUTER, feeCollector: OWN_FEE_COLLECTOR }],
      pollIntervalMs: 1000, rpcTimeoutMs: 500,
    }),
  },
}));

test('quotes on the named chain call its router and approve it; other chains keep routers.json\'s', async () => {
  const own = await request(t.app).get('/v1/quote').query({ fromChain: 'arb', toChain: 'opt', fromToken: 'USDC', toToken: 'USDC', fromAmount: '100000000', fromAddress: WALLET, integrator: 'acme', fee: '0.01' });
  contract.expectResponse('getQuote', own);
  expect(own.status).toBe(200);
  expect(own.body.transactionRequest.to).toBe(OWN_ROUTER);
  expect(own.body.estimate.approvalAddress).toBe(OWN_ROUTER);
  // the fee collection's call goes to the named fee collector
  const parsed = await request(t.app).get('/v1/calldata/parse').query({ callData: own.body.transactionRequest.data, chainId: '42161' });
  expect(JSON.stringify(parsed.body)).toContain(OWN_FEE_COLLECTOR);
  const other = await request(t.app).get('/v1/quote').query({ fromChain: 'opt', toChain: 'arb', fromToken: 'USDC', toToken: 'USDC', fromAmount: '100000000', fromAddress: WALLET });
  expect(other.body.transactionRequest.to).toBe(ROUTER);
});

test('/v1/chains gives the named deployment as diamondAddress', async () => {
  const res = await request(t.app).get('/v1/chains');
  contract.expectResponse('getChains', res);
  const byId = new Map(res.body.chains.map((c: { id: number; diamondAddress?: string }) => [c.id, c.diamondAddress]));
  expect(byId.get(42161)).toBe(OWN_ROUTER);
  expect(byId.get(10)).toBe(ROUTER);
});

test('/v1/chains gives no Permit2 proxy with a router of its own that names none (routers.json\'s calls routers.json\'s router)', async () => {
  const res = await request(t.app).get('/v1/chains');
  contract.expectResponse('getChains', res);
  const byId = new Map(res.body.chains.map((c: { id: number; permit2?: string; permit2Proxy?: string }) => [c.id, { permit2: c.permit2, permit2Proxy: c.permit2Proxy }]));
  // the SDK then asks for an approval of the router, as before
  expect(byId.get(42161)).toEqual({ permit2: PERMIT2, permit2Proxy: undefined });
  expect(byId.get(10)).toEqual({ permit2: PERMIT2, permit2Proxy: PERMIT2_PROXY });
});

describe('with the Permit2 proxy of its own deployment named in the chains file', () => {
  const OWN_PROXY = '0x3333333333333333333333333333333333333333';
  const OWN_PERMIT2 = '0x4444444444444444444444444444444444444444';
  const own = useTestApp(() => ({
    env: {
      CHAINS_FILE: files.writeJson('chains-permit2.json', {
        chains: [
          { chainId: 42161, rpcUrl: 'http://127.0.0.1:9', router: OWN_ROUTER, feeCollector: OWN_FEE_COLLECTOR, permit2Proxy: OWN_PROXY },
          { chainId: 8453, rpcUrl: 'http://127.0.0.1:9', permit2Proxy: OWN_PROXY, permit2: OWN_PERMIT2 },
        ],
        pollIntervalMs: 1000, rpcTimeoutMs: 500,
      }),
    },
  }));

  test('/v1/chains gives it, and Permit2 (the canonical one unless named); quotes still approve the router', async () => {
    const res = await request(own.app).get('/v1/chains');
    contract.expectResponse('getChains', res);
    const byId = new Map(res.body.chains.map((c: { id: number; diamondAddress?: string; permit2?: string; permit2Proxy?: string }) => [c.id, { diamondAddress: c.diamondAddress, permit2: c.permit2, permit2Proxy: c.permit2Proxy }]));
    expect(byId.get(42161)).toEqual({ diamondAddress: OWN_ROUTER, permit2: PERMIT2, permit2Proxy: OWN_PROXY });
    expect(byId.get(8453)).toEqual({ diamondAddress: ROUTER, permit2: OWN_PERMIT2, permit2Proxy: OWN_PROXY });
    expect(byId.get(10)).toEqual({ diamondAddress: ROUTER, permit2: PERMIT2, permit2Proxy: PERMIT2_PROXY });
    const quote = await request(own.app).get('/v1/quote').query({ fromChain: 'arb', toChain: 'opt', fromToken: 'USDC', toToken: 'USDC', fromAmount: '100000000', fromAddress: WALLET });
    contract.expectResponse('getQuote', quote);
    expect(quote.body.estimate.approvalAddress).toBe(OWN_ROUTER);
    expect(quote.body.transactionRequest.to).toBe(OWN_ROUTER);
  });
});
