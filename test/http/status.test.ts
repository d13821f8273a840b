import request from 'supertest';
import { useContract, useTestApp } from '../support/app';
import { useScratchDir } from '../support/files';

const HASH = '0x0991f754c91240e76304af7d026bd597f23c9f9736ec7dafb4f9c7b2b2a17e7c';

const contract = useContract();

describe('GET /v1/status on the embedded snapshot (no chain connected)', () => {
  const t = useTestApp();

  it('answers 200 NOT_FOUND for a well-formed hash, saying why', async () => {
    const res = await request(t.app).get('/v1/status').query({ txHash: HASH });
    contract.expectResponse('getStatus', res);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('NOT_FOUND');
    expect(res.body.substatusMessage).toMatch(/not connected to any chain/);
  });

  it('answers 400 naming the parameter for a malformed hash or an unknown chain', async () => {
    const bad = await request(t.app).get('/v1/status').query({ txHash: '0x1234' });
    contract.expectResponse('getStatus', bad);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/txHash/);
    const chain = await request(t.app).get('/v1/status').query({ txHash: HASH, fromChain: 'nochain' });
    contract.expectResponse('getStatus', chain);
    expect(chain.status).toBe(400);
    expect(chain.body.message).toMatch(/fromChain: "nochain" is not a supported chain/);
  });

  it('GET /v1/gas/status answers 200 NOT_FOUND', async () => {
    const res = await request(t.app).get('/v1/gas/status').query({ txHash: HASH });
    contract.expectResponse('getGasStatus', res);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'NOT_FOUND' });
  });
});

describe('GET /v1/status in chain mode with a chain that does not answer', () => {
  const files = useScratchDir('status-');
  // port 1 on loopback: connection refused at once
  const t = useTestApp(() => ({ env: { CHAINS_FILE: files.writeJson('chains.json', { rpcTimeoutMs: 500, chains: [{ chainId: 42161, rpcUrl: 'http://127.0.0.1:1' }] }) } }));

  it('answers PENDING CHAIN_NOT_AVAILABLE naming the chain, never a 5xx', async () => {
    const res = await request(t.app).get('/v1/status').query({ txHash: HASH, fromChain: 'arb' });
    contract.expectResponse('getStatus', res);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'PENDING', substatus: 'CHAIN_NOT_AVAILABLE' });
    expect(res.body.substatusMessage).toMatch(/chain 42161 did not answer/);
  });

  it('answers CHAIN_NOT_AVAILABLE for a chain this instance is not connected to', async () => {
    const res = await request(t.app).get('/v1/status').query({ txHash: HASH, fromChain: 'eth' });
    contract.expectResponse('getStatus', res);
    expect(res.body).toMatchObject({ status: 'PENDING', substatus: 'CHAIN_NOT_AVAILABLE' });
    expect(res.body.substatusMessage).toMatch(/Chain 1 is not connected/);
  });
});
