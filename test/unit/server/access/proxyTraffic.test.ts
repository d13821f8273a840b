import pino from 'pino';
import request from 'supertest';
import { AddressSet, parseTrustProxy } from '../../../../src/core/access/ipAddress';
import { proxyTrafficWatch, type ProxyTrafficWarning } from '../../../../src/server/access/proxyTraffic';
import { makeTestApp } from '../../../support/app';

function watching(trustProxy: string | undefined) {
  const warnings: [ProxyTrafficWarning, string][] = [];
  const watch = proxyTrafficWatch(parseTrustProxy(trustProxy), (kind, message) => warnings.push([kind, message]));
  return { watch, warnings };
}

test('without TRUST_PROXY, forwarded requests warn once: all their clients count as the proxy', () => {
  const { watch, warnings } = watching(undefined);
  watch('203.0.113.9', undefined);
  expect(warnings).toEqual([]);
  watch('::ffff:10.0.0.2', '198.51.100.7');
  watch('10.0.0.2', '198.51.100.8');
  expect(warnings).toHaveLength(1);
  expect(warnings[0]![0]).toBe('forwarded-untrusted');
  expect(warnings[0]![1]).toMatch(/^requests arrive with X-Forwarded-For \(from 10\.0\.0\.2\) but TRUST_PROXY is not set: every client behind that proxy counts as 10\.0\.0\.2/);
});

test('TRUST_PROXY as a hop count, and a request that did not pass the proxy: a client could choose its own address', () => {
  const { watch, warnings } = watching('1');
  watch('10.0.0.2', '198.51.100.7');
  expect(warnings).toEqual([]);
  watch('203.0.113.9', undefined);
  watch('203.0.113.10', undefined);
  expect(warnings.map(([kind]) => kind)).toEqual(['direct-with-hops']);
  expect(warnings[0]![1]).toMatch(/TRUST_PROXY=1 and a request arrived without X-Forwarded-For \(from 203\.0\.113\.9\): .*chooses its own address/);
});

test('TRUST_PROXY as addresses: direct clients are fine, X-Forwarded-For from a peer not listed warns once', () => {
  const { watch, warnings } = watching('10.0.0.0/8');
  expect(parseTrustProxy('10.0.0.0/8')).toMatchObject({ kind: 'addresses', addresses: expect.any(AddressSet) });
  watch('10.0.0.2', '198.51.100.7');
  watch('203.0.113.9', undefined);
  expect(warnings).toEqual([]);
  watch('192.0.2.1', '198.51.100.7');
  watch('192.0.2.2', '198.51.100.7');
  expect(warnings.map(([kind]) => kind)).toEqual(['forwarded-from-unlisted']);
  expect(warnings[0]![1]).toMatch(/X-Forwarded-For arrived from 192\.0\.2\.1, which TRUST_PROXY does not list/);
});

test('the service\'s log says so, through the real app', async () => {
  const lines: string[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
  const t = await makeTestApp({ logger });
  try {
    await request(t.app).get('/v1/chains').set('x-forwarded-for', '198.51.100.7');
    await request(t.app).get('/v1/chains').set('x-forwarded-for', '198.51.100.8');
    const warnings = lines.filter((line) => line.includes('TRUST_PROXY is not set'));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 40, trustProxy: 'forwarded-untrusted' });
  } finally {
    await t.dependencies.access.close();
  }
});
