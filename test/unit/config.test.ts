import path from 'node:path';
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
});
