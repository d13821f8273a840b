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
  const ORIGINS = ['http://localhost:8080', 'https://portal.example'];
  const refusal = (overrides: Partial<OriginFacts>) => originRefusal({ origin: 'http://localhost:8080', fetchSite: undefined, ...overrides }, ORIGINS);

  test('accepts the portal\'s configured origins', () => {
    expect(refusal({})).toBeUndefined();
    expect(refusal({ fetchSite: 'same-origin' })).toBeUndefined();
    expect(refusal({ origin: 'https://portal.example' })).toBeUndefined();
    expect(refusal({ origin: 'https://portal.example:443' })).toBeUndefined(); // the same origin, spelt with its default port
  });

  test.each([
    ['another site', { origin: 'https://evil.example' }, /comes from https:\/\/evil\.example, not from this portal \(http:\/\/localhost:8080, https:\/\/portal\.example\)/],
    ['another port', { origin: 'http://localhost:9090' }, /comes from http:\/\/localhost:9090/],
    ['another scheme', { origin: 'http://portal.example' }, /comes from http:\/\/portal\.example, not/],
    ['another site that a client says is the Host it reached (no Host is looked at)', { origin: 'https://nft-game.example' }, /comes from https:\/\/nft-game\.example/],
    ['no Origin', { origin: undefined }, /no Origin header/],
    ['an opaque origin', { origin: 'null' }, /no Origin header/],
    ['a malformed Origin', { origin: 'not a url' }, /not an origin/],
    ['a cross-site fetch', { fetchSite: 'cross-site' }, /another site \(Sec-Fetch-Site: cross-site\)/],
    ['a same-site fetch from another origin', { fetchSite: 'same-site' }, /Sec-Fetch-Site: same-site/],
  ] as const)('refuses %s', (_what, overrides, expected) => {
    expect(refusal(overrides)).toMatch(expected);
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
