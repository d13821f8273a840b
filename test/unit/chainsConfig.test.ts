import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseChainsConfig } from '../../src/chainsConfig';
import { loadConfig, ConfigError } from '../../src/config';

describe('chain mode configuration (CHAINS_FILE)', () => {
  it('reads chains with defaults and checksums addresses', () => {
    const problems: string[] = [];
    const config = parseChainsConfig({
      chains: [{ chainId: 1, rpcUrl: 'http://127.0.0.1:8545', bridgeEndpoint: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48' }, { chainId: 8453, rpcUrl: 'https://base.example', confirmations: 3, gasPrice: 'snapshot' }],
    }, problems);
    expect(problems).toEqual([]);
    expect(config.pollIntervalMs).toBe(250);
    expect(config.rpcTimeoutMs).toBe(3000);
    expect(config.chains[0]).toEqual({ chainId: 1, rpcUrl: 'http://127.0.0.1:8545', confirmations: 1, gasPrice: 'chain', bridgeEndpoint: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48' });
    expect(config.chains[1].confirmations).toBe(3);
    expect(config.chains[1].gasPrice).toBe('snapshot');
  });

  it('names every bad entry with its path and rule', () => {
    const problems: string[] = [];
    parseChainsConfig({ pollIntervalMs: 1, chains: [{ chainId: -1, rpcUrl: 'x' }, { chainId: 2, rpcUrl: 'ftp://x', router: '0x12' }, { chainId: 2, rpcUrl: 'http://a', gasPrice: 'low' }] }, problems, 'F');
    expect(problems).toEqual([
      'F: pollIntervalMs must be an integer from 10 to 60000 (got 1)',
      'F: chains[0].chainId must be a positive integer (got -1)',
      'F: chains[1].rpcUrl must be an http(s) or ws(s) URL (got "ftp://x")',
      'F: chains[1].router must be a 0x-prefixed 20-byte address (got "0x12")',
      'F: chains[2].chainId 2 appears twice',
      'F: chains[2].gasPrice must be "chain" or "snapshot" (got "low")',
    ]);
  });

  it('is loaded from the file named by CHAINS_FILE, and a missing file stops the start-up', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chains-'));
    const file = path.join(dir, 'chains.json');
    fs.writeFileSync(file, JSON.stringify({ chains: [{ chainId: 42161, rpcUrl: 'http://127.0.0.1:1' }] }));
    expect(loadConfig({ CHAINS_FILE: file }).chains?.chains.map((c) => c.chainId)).toEqual([42161]);
    expect(loadConfig({}).chains).toBeUndefined();
    expect(() => loadConfig({ CHAINS_FILE: path.join(dir, 'missing.json') })).toThrow(ConfigError);
    fs.rmSync(dir, { recursive: true });
  });
});
