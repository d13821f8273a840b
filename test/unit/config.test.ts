import path from 'node:path';
import { ConfigError, DEFAULT_DATA_DIR, loadConfig } from '../../src/config';

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
});
