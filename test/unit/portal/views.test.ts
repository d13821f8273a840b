import type { KeyView } from '../../../src/persistence/keyRows';
import {
  InputError, allowlist, explorerPath, graceMs, keyName, keyStatus, orderKeys, portalKey, portalTransfer, portalWebhook, transfersLimit, usageWindow, webhookUrlOf,
  webhookUrlRefused,
} from '../../../src/portal/views';
import { WebhookUrlError } from '../../../src/webhooks/target';

const NOW = Date.parse('2026-05-01T12:34:56.000Z');
const view = (overrides: Partial<KeyView> = {}): KeyView => ({ id: 'key_1', createdAt: '2026-04-01T00:00:00.000Z', ...overrides });

function inputError(run: () => unknown): InputError {
  try {
    run();
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('expected an InputError');
}

test('a key\'s status: active, in its grace period, expired, revoked', () => {
  expect(keyStatus(view(), NOW)).toBe('active');
  expect(keyStatus(view({ expiresAt: new Date(NOW + 1).toISOString() }), NOW)).toBe('grace');
  expect(keyStatus(view({ expiresAt: new Date(NOW).toISOString() }), NOW)).toBe('expired');
  expect(keyStatus(view({ revokedAt: '2026-04-02T00:00:00.000Z', expiresAt: new Date(NOW + 1).toISOString() }), NOW)).toBe('revoked');
});

test('a key as shown: its limits (per minute and the two-hour window) and blocks, never a hash', () => {
  const shown = portalKey(view({ name: 'n', perMinute: 500, ipAllowlist: ['203.0.113.0/24'] }), [
    { id: 1, subject: { kind: 'key', id: 'key_1' }, rule: 'manual', reason: 'abuse', since: '2026-05-01T00:00:00.000Z', until: '2026-05-02T00:00:00.000Z', level: 1, createdBy: 'cli:ops' },
  ], NOW);
  expect(shown).toEqual({
    id: 'key_1', name: 'n', createdAt: '2026-04-01T00:00:00.000Z', status: 'active', ipAllowlist: ['203.0.113.0/24'],
    limits: { perMinute: 500, twoHourWindow: 60_000 },
    blocks: [{ rule: 'manual', reason: 'abuse', since: '2026-05-01T00:00:00.000Z', until: '2026-05-02T00:00:00.000Z' }],
  });
  expect(portalKey(view(), [], NOW).limits).toEqual({ perMinute: 100, twoHourWindow: 12_000 });
});

test('keys that work come first, newest first', () => {
  const keys = [
    portalKey(view({ id: 'old', createdAt: '2026-01-01T00:00:00.000Z' }), [], NOW),
    portalKey(view({ id: 'revoked', createdAt: '2026-05-01T00:00:00.000Z', revokedAt: '2026-05-01T01:00:00.000Z' }), [], NOW),
    portalKey(view({ id: 'new', createdAt: '2026-03-01T00:00:00.000Z' }), [], NOW),
  ];
  expect(orderKeys(keys).map((k) => k.id)).toEqual(['new', 'old', 'revoked']);
});

describe('allowlist', () => {
  test('addresses, CIDR ranges and named ranges, trimmed and each once; empty or null: anywhere', () => {
    expect(allowlist([' 203.0.113.7 ', '203.0.113.0/24', '2001:db8::/48', 'loopback', '203.0.113.7', ''])).toEqual(['203.0.113.7', '203.0.113.0/24', '2001:db8::/48', 'loopback']);
    expect(allowlist([])).toBeNull();
    expect(allowlist(null)).toBeNull();
    expect(allowlist(undefined)).toBeNull();
  });

  test('every bad entry is named', () => {
    const error = inputError(() => allowlist(['203.0.113.7', 'example.com', '300.1.1.1', '10.0.0.0/33']));
    expect(error.message).toBe('ipAllowlist: "example.com", "300.1.1.1", "10.0.0.0/33" are not IP addresses or CIDR ranges (e.g. 203.0.113.7, 203.0.113.0/24, 2001:db8::/48)');
    expect(error.details).toEqual({ invalid: ['example.com', '300.1.1.1', '10.0.0.0/33'] });
    expect(inputError(() => allowlist(['nope'])).message).toMatch(/^ipAllowlist: "nope" is not an IP address or CIDR range/);
  });

  test('must be a list of strings, at most 100', () => {
    expect(inputError(() => allowlist('203.0.113.7')).message).toMatch(/must be a list/);
    expect(inputError(() => allowlist([1])).message).toMatch(/must be a list/);
    expect(inputError(() => allowlist(Array.from({ length: 101 }, (_, i) => `10.0.${Math.floor(i / 250)}.${i % 250}`))).message).toMatch(/101 entries, more than 100/);
  });
});

test('key names: trimmed, 1 to 100 characters, no control characters', () => {
  expect(keyName('  production  ')).toBe('production');
  expect(inputError(() => keyName('')).message).toBe('name must be a non-empty string');
  expect(inputError(() => keyName(3)).message).toBe('name must be a non-empty string');
  expect(inputError(() => keyName('x'.repeat(101))).message).toMatch(/longer than 100/);
  expect(inputError(() => keyName('a\nb')).message).toMatch(/control characters/);
});

test('grace periods in hours, 0 to 720, default given', () => {
  expect(graceMs(undefined, 42)).toBe(42);
  expect(graceMs(0, 42)).toBe(0);
  expect(graceMs(1.5, 42)).toBe(5_400_000);
  for (const bad of [-1, 721, Number.NaN, '24']) expect(inputError(() => graceMs(bad, 42)).message).toMatch(/graceHours must be/);
});

test('usage windows end with the current step', () => {
  expect(usageWindow('1h', NOW)).toEqual({ range: '1h', stepMinutes: 1, from: new Date('2026-05-01T11:35:00.000Z'), to: new Date('2026-05-01T12:35:00.000Z') });
  expect(usageWindow(undefined, NOW)).toMatchObject({ range: '24h', stepMinutes: 15, to: new Date('2026-05-01T12:45:00.000Z'), from: new Date('2026-04-30T12:45:00.000Z') });
  expect(usageWindow('7d', NOW)).toMatchObject({ stepMinutes: 120, to: new Date('2026-05-01T14:00:00.000Z') });
  expect(inputError(() => usageWindow('toString', NOW)).message).toBe('range must be one of 1h, 24h, 7d');
  expect(inputError(() => usageWindow(['1h'], NOW)).message).toBe('range must be one of 1h, 24h, 7d');
});

describe('webhook', () => {
  test('a URL must be a non-empty string (trimmed); a refusal of the target checks names the field and the rule', () => {
    expect(webhookUrlOf('  https://hooks.example.com/x ')).toBe('https://hooks.example.com/x');
    for (const bad of [undefined, null, '', '   ', 42, ['https://hooks.example.com/']]) {
      const error = inputError(() => webhookUrlOf(bad));
      expect(error.message).toBe('url must be the webhook\'s URL (https://...)');
      expect(error.details).toEqual({ field: 'url' });
    }
    const refused = webhookUrlRefused(new WebhookUrlError('webhook URL resolves to a loopback address (127.0.0.1)', 'address'));
    expect(refused).toBeInstanceOf(InputError);
    expect(refused.message).toBe('url refused: webhook URL resolves to a loopback address (127.0.0.1)');
    expect(refused.details).toEqual({ field: 'url', rule: 'address' });
  });

  test('shown without its secret', () => {
    const issued = { id: 'wh_1', integratorId: 'dapp', url: 'https://hooks.example.com/x', createdAt: '2026-05-01T00:00:00.000Z', updatedAt: '2026-05-02T00:00:00.000Z', secret: 'whsec_x' };
    expect(portalWebhook(issued)).toEqual({ url: 'https://hooks.example.com/x', createdAt: '2026-05-01T00:00:00.000Z', updatedAt: '2026-05-02T00:00:00.000Z' });
  });
});

describe('transfers', () => {
  const txHash = `0x${'ab'.repeat(32)}`;

  test('listed with the path of their explorer page; a transfer without a sending hash is left out', () => {
    expect(portalTransfer({ status: 'DONE', substatus: 'COMPLETED', tool: 'across', sending: { chainId: 42161, txHash, timestamp: 1_790_000_000 }, receiving: { chainId: 8453 } })).toEqual({
      txHash, status: 'DONE', substatus: 'COMPLETED', tool: 'across', fromChainId: 42161, toChainId: 8453, startedAt: '2026-09-21T14:13:20.000Z', explorerUrl: `/explorer/tx/${txHash}`,
    });
    expect(portalTransfer({ status: 'PENDING', sending: { chainId: 1, txHash } })).toEqual({ txHash, status: 'PENDING', fromChainId: 1, explorerUrl: `/explorer/tx/${txHash}` });
    expect(portalTransfer({ status: 'PENDING', sending: { chainId: 1 } })).toBeUndefined();
    expect(portalTransfer({ status: 'PENDING' })).toBeUndefined();
    // whatever a hash holds stays in the path's segment
    expect(explorerPath('../../portal/api/me?x=1#y')).toBe('/explorer/tx/..%2F..%2Fportal%2Fapi%2Fme%3Fx%3D1%23y');
  });

  test('a limit from 1 to 50, 20 by default', () => {
    expect(transfersLimit(undefined)).toBe(20);
    expect(transfersLimit('1')).toBe(1);
    expect(transfersLimit('50')).toBe(50);
    expect(transfersLimit('007')).toBe(7);
    for (const bad of ['0', '51', '', '1e1', '-3', ' 5', ['5'], 5]) expect(inputError(() => transfersLimit(bad)).message).toBe('limit must be a whole number from 1 to 50');
  });
});
