import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import { ConfigError, DEFAULT_DATA_DIR, loadConfig, portalOrigins } from '../../src/config';

describe('loadConfig', () => {
  it('uses the documented defaults on an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 8080, host: '0.0.0.0', logLevel: 'info', dataDir: DEFAULT_DATA_DIR });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads PORT, HOST, LOG_LEVEL and DATA_DIR', () => {
    const config = loadConfig({ PORT: '9000', HOST: '127.0.0.1', LOG_LEVEL: 'debug', DATA_DIR: 'some/dir' });
    expect(config).toMatchObject({ port: 9000, host: '127.0.0.1', logLevel: 'debug', dataDir: path.resolve('some/dir') });
  });

  it.each([['abc'], ['-1'], ['70000'], ['80.5']])('rejects PORT=%s with a message naming it', (port) => {
    expect(() => loadConfig({ PORT: port })).toThrow(/PORT must be an integer from 0 to 65535/);
  });

  it('reports every problem at once', () => {
    try {
      loadConfig({ PORT: 'x', LOG_LEVEL: 'loud' });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toHaveLength(2);
      expect((error as Error).message).toMatch(/LOG_LEVEL must be one of fatal, error/);
    }
  });

  it('reads PORTAL_ORIGIN, one origin or several; without it the portal is the listen address\'s for a browser on this machine', () => {
    expect(portalOrigins(loadConfig({ PORTAL_ORIGIN: 'https://portal.example.com' }), 8080)).toEqual(['https://portal.example.com']);
    expect(portalOrigins(loadConfig({ PORTAL_ORIGIN: 'https://a.example, http://localhost:3000' }), 8080)).toEqual(['https://a.example', 'http://localhost:3000']);
    expect(portalOrigins(loadConfig({}), 8080)).toEqual(['http://localhost:8080', 'http://127.0.0.1:8080', 'http://[::1]:8080']);
    expect(portalOrigins(loadConfig({ HOST: '192.0.2.10' }), 80)).toEqual(['http://localhost', 'http://127.0.0.1', 'http://[::1]', 'http://192.0.2.10']);
    expect(portalOrigins(loadConfig({ HOST: '::' }), 9000)).toEqual(['http://localhost:9000', 'http://127.0.0.1:9000', 'http://[::1]:9000']);
  });

  it.each([['portal.example.com'], ['https://portal.example.com/portal'], ['ftp://portal.example.com'], [' , ']])('rejects PORTAL_ORIGIN=%s, naming it', (origin) => {
    expect(() => loadConfig({ PORTAL_ORIGIN: origin })).toThrow(/PORTAL_ORIGIN must be the origin/);
  });

  it('reads PUBLIC_URL (the links of answers; default the listen port on localhost) and WEBHOOK_ALLOW_PRIVATE (default off)', () => {
    expect(loadConfig({ PORT: '9090' }).publicUrl).toBe('http://localhost:9090');
    expect(loadConfig({ PUBLIC_URL: 'https://router.example.com/' }).publicUrl).toBe('https://router.example.com');
    expect(() => loadConfig({ PUBLIC_URL: 'https://router.example.com/api' })).toThrow(/PUBLIC_URL must be the origin/);
    expect(() => loadConfig({ PUBLIC_URL: 'javascript:alert(1)' })).toThrow(/PUBLIC_URL must be the origin/);
    expect(loadConfig({}).webhooks.allowPrivate).toBe(false);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'true' }).webhooks.allowPrivate).toBe(true);
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'yes please' })).toThrow(/WEBHOOK_ALLOW_PRIVATE must be true or false/);
  });

  describe('the gasless relayer: RELAYER_PRIVATE_KEY, RELAYER_BALANCE_FLOOR_WEI', () => {
    const KEY = `0x${'5a'.repeat(32)}`;
    const chainsFile = () => {
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'relayer-config-')), 'chains.json');
      fs.writeFileSync(file, JSON.stringify({ chains: [{ chainId: 42161, rpcUrl: 'http://127.0.0.1:8545' }] }));
      return file;
    };

    it('none without a key; with one, in chain mode with a database, the key (behind a function) and the floor (default 10^16 wei)', () => {
      expect(loadConfig({}).relayer).toBeUndefined();
      const config = loadConfig({ RELAYER_PRIVATE_KEY: KEY, CHAINS_FILE: chainsFile(), DATABASE_DIR: 'memory://' });
      expect(config.relayer!.privateKey()).toBe(KEY);
      expect(config.relayer!.balanceFloorWei).toBe(10n ** 16n);
      expect(loadConfig({ RELAYER_PRIVATE_KEY: KEY, RELAYER_BALANCE_FLOOR_WEI: '5', CHAINS_FILE: chainsFile(), DATABASE_DIR: 'memory://' }).relayer!.balanceFloorWei).toBe(5n);
    });

    it('the key is in nothing that serializes or prints the configuration', () => {
      const config = loadConfig({ RELAYER_PRIVATE_KEY: KEY, CHAINS_FILE: chainsFile(), DATABASE_DIR: 'memory://' });
      const printed = JSON.stringify(config, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
      expect(printed).not.toContain('5a5a5a5a');
      expect(inspect(config, { depth: 10 })).not.toContain('5a5a5a5a');
    });

    it('refuses a malformed key (without repeating it), a key without chains or database, a floor that is not wei', () => {
      const bad = `0x${'5a'.repeat(31)}zz`;
      let message = '';
      try {
        loadConfig({ RELAYER_PRIVATE_KEY: bad, CHAINS_FILE: chainsFile(), DATABASE_DIR: 'memory://' });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(/RELAYER_PRIVATE_KEY must be 0x and 64 hex digits/);
      expect(message).not.toContain('5a5a5a5a');
      expect(() => loadConfig({ RELAYER_PRIVATE_KEY: KEY, DATABASE_DIR: 'memory://' })).toThrow(/RELAYER_PRIVATE_KEY needs CHAINS_FILE/);
      expect(() => loadConfig({ RELAYER_PRIVATE_KEY: KEY, CHAINS_FILE: chainsFile() })).toThrow(/RELAYER_PRIVATE_KEY needs a database/);
      expect(() => loadConfig({ RELAYER_PRIVATE_KEY: KEY, RELAYER_BALANCE_FLOOR_WEI: '0.5', CHAINS_FILE: chainsFile(), DATABASE_DIR: 'memory://' })).toThrow(/RELAYER_BALANCE_FLOOR_WEI must be a whole number/);
      expect(() => loadConfig({ RELAYER_BALANCE_FLOOR_WEI: '5' })).toThrow(/without RELAYER_PRIVATE_KEY/);
    });
  });
});
