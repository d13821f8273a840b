/**
 * Chain mode with the service's own deployment named in the chains file (`router`, `feeCollector` of an entry, as
 * after deploying `contracts/router/` to a chain): the transactions the quotes build call that router, ERC-20 inputs
 * are approved to it, fees are collected by that fee collector, and /v1/chains gives it as `diamondAddress`; chains
 * the file does not name keep routers.json's. (The chain's RPC need not answer for this: nothing is read here.)
 */
import request from 'supertest';
import { useContract, useTestApp } from '../support/app';
import { useScratchDir } from '../support/files';
import { ROUTER, WALLET } from '../support/fixtures';

const files = useScratchDir('own-deployment-');
const OWN_ROUTER = '0x1111111111111111111111111111111111111111';
const OWN_FEE_COLLECTOR = '0x2222222222222222222222222222222222222222';

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
