import { AddressSet } from '../../../src/core/access/ipAddress';
import { CHANGE_METHODS, csrfTokenMatches, isSecureRequest, newCsrfToken, originRefusal, type OriginFacts } from '../../../src/portal/csrf';

test('CSRF tokens are 256 random bits and match only themselves', () => {
  const token = newCsrfToken();
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(newCsrfToken()).not.toBe(token);
  expect(csrfTokenMatches(token, token)).toBe(true);
  expect(csrfTokenMatches(token, `${token}x`)).toBe(false);
  expect(csrfTokenMatches(token, token.slice(0, -1))).toBe(false);
  expect(csrfTokenMatches(token, '')).toBe(false);
  expect(csrfTokenMatches(token, undefined)).toBe(false);
  expect(csrfTokenMatches(token, [token])).toBe(false);
});

test('changes are POST, PUT, PATCH and DELETE', () => {
  expect([...CHANGE_METHODS].sort()).toEqual(['DELETE', 'PATCH', 'POST', 'PUT']);
});

describe('originRefusal', () => {
  const facts = (overrides: Partial<OriginFacts>): OriginFacts => ({ origin: 'http://localhost:8080', fetchSite: undefined, host: 'localhost:8080', secure: false, ...overrides });

  test('accepts the portal\'s own origin', () => {
    expect(originRefusal(facts({}))).toBeUndefined();
    expect(originRefusal(facts({ fetchSite: 'same-origin' }))).toBeUndefined();
    expect(originRefusal(facts({ origin: 'https://portal.example', host: 'portal.example', secure: true }))).toBeUndefined();
    // TLS ended by a proxy in front: the request is plain, the page's origin https
    expect(originRefusal(facts({ origin: 'https://portal.example', host: 'portal.example' }))).toBeUndefined();
  });

  test.each([
    ['another site', { origin: 'https://evil.example' }, /comes from https:\/\/evil\.example, not from this portal \(http:\/\/localhost:8080\)/],
    ['another port', { origin: 'http://localhost:9090' }, /comes from http:\/\/localhost:9090/],
    ['plain http to a TLS request', { origin: 'http://portal.example', host: 'portal.example', secure: true }, /not from this portal \(https:\/\/portal\.example\)/],
    ['no Origin', { origin: undefined }, /no Origin header/],
    ['an opaque origin', { origin: 'null' }, /no Origin header/],
    ['a malformed Origin', { origin: 'not a url' }, /not an origin/],
    ['a cross-site fetch', { fetchSite: 'cross-site' }, /another site \(Sec-Fetch-Site: cross-site\)/],
    ['a same-site fetch from another origin', { fetchSite: 'same-site' }, /Sec-Fetch-Site: same-site/],
    ['no Host', { host: undefined }, /no Host header/],
  ] as const)('refuses %s', (_what, overrides, expected) => {
    expect(originRefusal(facts(overrides))).toMatch(expected);
  });
});

test('a request is secure over TLS, or when a trusted proxy says it received it over https', () => {
  const none = { kind: 'none' } as const;
  const hops = { kind: 'hops', hops: 1 } as const;
  const listed = { kind: 'addresses', addresses: new AddressSet(['10.0.0.0/8']) } as const;
  expect(isSecureRequest({ encrypted: true, peer: '203.0.113.7', forwardedProto: undefined }, none)).toBe(true);
  expect(isSecureRequest({ encrypted: false, peer: '10.0.0.2', forwardedProto: 'https' }, none)).toBe(false); // nobody trusted
  expect(isSecureRequest({ encrypted: false, peer: '10.0.0.2', forwardedProto: 'https' }, hops)).toBe(true);
  expect(isSecureRequest({ encrypted: false, peer: '10.0.0.2', forwardedProto: 'HTTPS, http' }, hops)).toBe(true);
  expect(isSecureRequest({ encrypted: false, peer: '10.0.0.2', forwardedProto: 'http' }, hops)).toBe(false);
  expect(isSecureRequest({ encrypted: false, peer: '::ffff:10.0.0.2', forwardedProto: 'https' }, listed)).toBe(true);
  expect(isSecureRequest({ encrypted: false, peer: '203.0.113.7', forwardedProto: 'https' }, listed)).toBe(false); // not the proxy
  expect(isSecureRequest({ encrypted: false, peer: '10.0.0.2', forwardedProto: undefined }, hops)).toBe(false);
});
