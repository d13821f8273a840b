import request from 'supertest';
import { id } from 'ethers';
import { useAppAndContract } from '../support/app';
import { expectInvalidRequest } from '../support/contract';
import { ARB_USDC, ARB_WETH, NATIVE, WALLET } from '../support/fixtures';

const FEE_WALLET = '0xD6345B798ADA3A1a36E85424003D1ff14e3883b7';

const { t, contract } = useAppAndContract();

const word = (hex: string) => hex.replace(/^0x/, '').toLowerCase().padStart(64, '0');

describe('GET /v1/integrators/{integratorId}', () => {
  it('answers the fee balances of every supported chain with amounts and USD values', async () => {
    const res = await request(t.app).get('/v1/integrators/example-dapp');
    contract.expectResponse('getIntegrator', res);
    expect(res.status).toBe(200);
    expect(res.body.integratorId).toBe('example-dapp');
    const chains = (await request(t.app).get('/v1/chains')).body.chains.map((c: { id: number }) => c.id).sort((a: number, b: number) => a - b);
    expect(res.body.feeBalances.map((f: { chainId: number }) => f.chainId)).toEqual(chains);
    const arb = res.body.feeBalances.find((f: { chainId: number }) => f.chainId === 42161);
    expect(arb.tokenBalances.map((b: { token: { symbol: string } }) => b.token.symbol)).toEqual(['ETH', 'USDC', 'USDT']);
    // 0.0415 ETH · $3250 = $134.875; 125.43 USDC · $1 = $125.43
    expect(arb.tokenBalances[0]).toMatchObject({ amount: '41500000000000000', amountUsd: '134.875' });
    expect(arb.tokenBalances[1]).toMatchObject({ token: { address: ARB_USDC, chainId: 42161, decimals: 6 }, amount: '125430000', amountUsd: '125.43' });
    expect(res.body.feeBalances.find((f: { chainId: number }) => f.chainId === 56).tokenBalances).toEqual([]);
  });

  it('answers a known integrator without fees with every chain empty', async () => {
    const res = await request(t.app).get('/v1/integrators/fresh-partner');
    contract.expectResponse('getIntegrator', res);
    expect(res.status).toBe(200);
    expect(res.body.feeBalances.every((f: { tokenBalances: unknown[] }) => f.tokenBalances.length === 0)).toBe(true);
  });

  it('answers 404 code 1003 naming an unknown integrator', async () => {
    const res = await request(t.app).get('/v1/integrators/nobody');
    contract.expectResponse('getIntegrator', res);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(1003);
    expect(res.body.message).toContain('"nobody"');
  });

  it('answers 400 code 1011 for an integrator id outside the contract pattern', async () => {
    expectInvalidRequest(contract, 'getIntegrator', await request(t.app).get('/v1/integrators/bad%20id!'), /integratorId/);
  });
});

describe('GET /v1/integrators/{integratorId}/withdraw/{chainId}', () => {
  const withdraw = (integrator: string, chain: string, query: Record<string, string> = {}) =>
    request(t.app).get(`/v1/integrators/${integrator}/withdraw/${chain}`).query(query);

  it('calls batchWithdrawIntegratorFees(address[]) on the fee collector for the tokens asked', async () => {
    const res = await withdraw('example-dapp', '42161', { tokenAddresses: `${ARB_USDC},${NATIVE}` });
    contract.expectResponse('getIntegratorWithdrawal', res);
    expect(res.status).toBe(200);
    const tx = res.body.transactionRequest;
    const selector = id('batchWithdrawIntegratorFees(address[])').slice(0, 10);
    expect(selector).toBe('0xe5d64766');
    // selector, offset of the array (0x20), its length (2), the two addresses
    expect(tx.data).toBe(selector + word('20') + word('2') + word(ARB_USDC) + word(NATIVE));
    expect(tx).toMatchObject({ to: t.dependencies.routers.feeCollectorOf(42161), from: FEE_WALLET, value: '0x0', chainId: 42161 });
    // limit = ceil((30,000 + 2 · 45,000) · 1.25) = 150,000 = 0x249f0; Arbitrum's 0.02 gwei = 0x1312d00
    expect(tx).toMatchObject({ gasLimit: '0x249f0', gasPrice: '0x1312d00' });
  });

  it('accepts the chain by key and the tokens as repeated keys', async () => {
    const res = await request(t.app).get(`/v1/integrators/example-dapp/withdraw/arb?tokenAddresses=${ARB_USDC}&tokenAddresses=${NATIVE}`);
    contract.expectResponse('getIntegratorWithdrawal', res);
    expect(res.status).toBe(200);
    expect(res.body.transactionRequest.data).toBe('0xe5d64766' + word('20') + word('2') + word(ARB_USDC) + word(NATIVE));
  });

  it('withdraws one token with withdrawIntegratorFees(address), its address in any letter case', async () => {
    const res = await withdraw('example-dapp', 'arb', { tokenAddresses: ARB_USDC.toLowerCase() });
    contract.expectResponse('getIntegratorWithdrawal', res);
    expect(res.status).toBe(200);
    const selector = id('withdrawIntegratorFees(address)').slice(0, 10);
    expect(selector).toBe('0xbd0b380b');
    expect(res.body.transactionRequest.data).toBe(selector + word(ARB_USDC));
  });

  it('withdraws every token with a balance when none is named; no from without a recorded fee wallet', async () => {
    const res = await withdraw('acme', 'bsc');
    contract.expectResponse('getIntegratorWithdrawal', res);
    expect(res.status).toBe(200);
    expect(res.body.transactionRequest.data.slice(0, 10 + 128)).toBe('0xe5d64766' + word('20') + word('2'));
    expect(res.body.transactionRequest).not.toHaveProperty('from');
  });

  it.each([
    ['the requested tokens have no balance', 'example-dapp', 'arb', { tokenAddresses: '0x82aF49447D8a07e3bd95BD0d56f35241523fBab1' }, /no collected fees on Arbitrum/],
    ['the chain has no balance', 'acme', 'opt', {}, /no collected fees on OP Mainnet/],
    ['the chain is unknown', 'example-dapp', 'nochain', {}, /chainId: "nochain" is not a supported chain/],
    ['the chain is not an EVM chain', 'example-dapp', 'sol', {}, /EVM chains only/],
    ['a token address breaks the contract', 'example-dapp', 'arb', { tokenAddresses: '0x1234' }, /tokenAddresses/],
  ])('answers 400 code 1011 when %s', async (_name, integrator, chain, query, message) => {
    expectInvalidRequest(contract, 'getIntegratorWithdrawal', await withdraw(integrator, chain, query), message);
  });

  it('answers 404 code 1003 for an unknown integrator', async () => {
    const res = await withdraw('nobody', 'arb');
    contract.expectResponse('getIntegratorWithdrawal', res);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(1003);
    expect(res.body.message).toContain('"nobody"');
  });
});

describe('a fee is booked only for a registered integrator (issue 33: no fee stream to hijack)', () => {
  const sameChain = { fromChain: 'arb', toChain: 'arb', fromToken: 'USDC', toToken: 'WETH', fromAmount: '1000000000', fromAddress: WALLET };
  const REFUSAL = /^integrator "squatted-dapp" is not a registered integrator, and a fee is booked only for one: register it in the partner portal \(\/portal\)/;

  it('a quote or a route search with a fee for an id nobody registered is refused with 400 naming the integrator and how to register', async () => {
    const quoted = await request(t.app).get('/v1/quote').query({ ...sameChain, integrator: 'squatted-dapp', fee: '0.01' });
    expectInvalidRequest(contract, 'getQuote', quoted, REFUSAL);
    expect(quoted.body.errors).toEqual({ issues: [{ in: 'query', name: 'integrator', rule: 'registeredIntegrator', message: quoted.body.message }] });
    const routes = await request(t.app).post('/v1/advanced/routes').send({ fromChainId: 42161, toChainId: 42161, fromTokenAddress: ARB_USDC, toTokenAddress: ARB_WETH, fromAmount: '1000000000', options: { integrator: 'squatted-dapp', fee: 0.01 } });
    expectInvalidRequest(contract, 'postRoutes', routes, /"squatted-dapp" is not a registered integrator/);
    // an id differing only in case is another id, and not registered either
    expectInvalidRequest(contract, 'getQuote', await request(t.app).get('/v1/quote').query({ ...sameChain, integrator: 'Example-Dapp', fee: '0.01' }), /"Example-Dapp" is not a registered integrator/);
  });

  it('contract calls and a step transaction with such a fee are refused, naming the body field', async () => {
    const calls = await request(t.app).post('/v1/quote/contractCalls').send({
      fromChain: 42161, toChain: 42161, fromToken: 'USDC', toToken: 'USDC', fromAddress: WALLET, toAmount: '100000000', fee: 0.01, integrator: 'squatted-dapp',
      contractCalls: [{ fromAmount: '100000000', fromTokenAddress: ARB_USDC, toContractAddress: '0x1111111111111111111111111111111111111111', toContractCallData: '0x', toContractGasLimit: '100000' }],
    });
    expectInvalidRequest(contract, 'postContractCallsQuote', calls, /body field \/integrator "squatted-dapp" is not a registered integrator/);

    // a step quoted for a ledger integrator, its integrator swapped for an unregistered one
    const step = (await request(t.app).get('/v1/quote').query({ ...sameChain, integrator: 'acme', fee: '0.01' })).body as { integrator: string };
    const swapped = await request(t.app).post('/v1/advanced/stepTransaction').send({ ...step, integrator: 'squatted-dapp' });
    expectInvalidRequest(contract, 'postStepTransaction', swapped, /^body field \/integrator "squatted-dapp" is not a registered integrator/);
  });

  it('without a fee any integrator id works (the SDK and the widget send one with every request); the ledger\'s ids take fees', async () => {
    for (const query of [{ integrator: 'squatted-dapp' }, { integrator: 'squatted-dapp', fee: '0' }, { integrator: 'lifi-sdk' }]) {
      const res = await request(t.app).get('/v1/quote').query({ ...sameChain, ...query });
      contract.expectResponse('getQuote', res);
      expect(res.status).toBe(200);
    }
    // with a fee wallet in the ledger, and known to the ledger without one
    for (const integrator of ['example-dapp', 'acme']) expect((await request(t.app).get('/v1/quote').query({ ...sameChain, integrator, fee: '0.01' })).status).toBe(200);
  });
});
