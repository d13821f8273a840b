/**
 * Hostile inputs for the fuzz suite (fast-check): each operation's example request, broken by a few
 * random edits: wrong types, huge, negative and fractional numbers, exponents, bad hex and addresses
 * with wrong checksums or lengths, unknown chains and keys, unicode and control characters, long
 * values, prototype keys (`__proto__`, `constructor`), unknown and repeated parameters, malformed and
 * deeply nested JSON, odd content types and encodings, API keys that do not exist.
 */
import fc from 'fast-check';
import { encode, type OperationModel, type WireRequest } from './fuzzModel';

const CHECKSUMMED = [
  '0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea9',
  '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
  '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
  '0x1231DEB6f5749EF6cE6943a275A1D3E7486F4EaE',
];

/** A checksummed address with the case of one letter flipped: a bad EIP-55 checksum. */
const badChecksum = fc.tuple(fc.constantFrom(...CHECKSUMMED), fc.nat()).map(([address, n]) => {
  const letters = [...address.slice(2)].map((c, i) => [c, i + 2] as const).filter(([c]) => /[a-fA-F]/.test(c));
  const [c, i] = letters[n % letters.length]!;
  const flipped = c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase();
  return address.slice(0, i) + flipped + address.slice(i + 1);
});

const hexDigits = fc.constantFrom(...'0123456789abcdefABCDEF');
const hexish = fc.oneof(
  fc.string({ unit: hexDigits, maxLength: 140 }).map((s) => `0x${s}`),
  fc.string({ unit: fc.constantFrom(...'0123456789abcdefxyzXYZ -'), maxLength: 70 }).map((s) => `0x${s}`),
  fc.integer({ min: 38, max: 42 }).chain((n) => fc.string({ unit: hexDigits, minLength: n, maxLength: n })).map((s) => `0x${s}`),
  fc.string({ unit: hexDigits, minLength: 64, maxLength: 64 }).map((s) => `0x${s}`),
  badChecksum,
  fc.constantFrom('0x', '0X', 'x0', '0x0', '0xg', '0x0000000000000000000000000000000000000000', '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE', '0XAF88D065E77C8CC2239327C5EDB3A432268E5831'),
);

const numberish = fc.oneof(
  fc.constantFrom('-1', '0', '-0', '1e18', '1E+30', '1e-7', '1.5', '0.1', '.5', '5.', '+1', ' 1', '1 ', '00001', '0x10', '0b1', '1_000', '1,000', '١٢٣', '１２３', 'NaN', 'Infinity', '-Infinity', '1e400', '9007199254740993'),
  fc.bigInt({ min: -(10n ** 90n), max: 10n ** 90n }).map(String),
  fc.double().map(String),
  fc.integer().map(String),
);

const chainish = fc.oneof(
  fc.constantFrom('eth', 'arb', 'ETH', 'Arb', 'sol', 'btc', 'sui', 'trx', 'nochain', '1', '42161', '0', '-1', '999999999', '1151111081099710', '18446744073709551617', '1e3', '0x1', 'a', 'a'.repeat(40)),
  fc.nat().map(String),
);

/** Names that break code which uses plain objects as maps. */
export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__', 'isPrototypeOf', 'then', 'length'] as const;

const special = fc.constantFrom(
  ...PROTOTYPE_KEYS,
  '',
  ' ',
  'null',
  'undefined',
  'true',
  'false',
  '[]',
  '{}',
  '[object Object]',
  '<script>alert(1)</script>',
  "' OR '1'='1",
  '../../etc/passwd',
  '${jndi:ldap://x}',
  '{{7*7}}',
  '%s%s%n',
  '\u0000',
  '\r\nx-injected: 1',
  'USDC,USDT,,',
  ',',
);

const unicode = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constantFrom('ä', '🚀', '\u202eevil', '\ufeffusdc', 'İ', 'ß', 'ﬀ', 'ＵＳＤＣ', 'usdc\u200b', 'Ethereum 🦄'),
);

/** Up to ~24 KB once percent-encoded: over the 8 KB URL limit, and past node's 16 KB head limit. */
const long = fc.tuple(fc.integer({ min: 200, max: 9000 }), fc.constantFrom('a', '9', 'é', ',', 'eth,')).map(([n, c]) => c.repeat(Math.ceil(n / c.length)));

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: numberish, weight: 4 },
  { arbitrary: hexish, weight: 4 },
  { arbitrary: chainish, weight: 3 },
  { arbitrary: special, weight: 3 },
  { arbitrary: unicode, weight: 2 },
  { arbitrary: fc.string({ maxLength: 20 }), weight: 2 },
  { arbitrary: long, weight: 1 },
);

const hostileKey = fc.oneof({ arbitrary: fc.constantFrom(...PROTOTYPE_KEYS), weight: 2 }, { arbitrary: fc.string({ maxLength: 12 }), weight: 1 }, { arbitrary: unicode, weight: 1 });

/** Raw JSON number literals that JSON.stringify cannot write. */
const RAW_NUMBERS = ['1e400', '-1e400', '1E+308', '-0', '0.0000000000000000000000000000001', `1${'0'.repeat(400)}`, `0.${'1'.repeat(400)}`, '123456789012345678901234567890', '-9007199254740993'];
const RAW = '\u0001raw:';

const hostileLeaf: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: hostileString, weight: 4 },
  { arbitrary: fc.integer(), weight: 1 },
  { arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }), weight: 1 },
  { arbitrary: fc.constantFrom(1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 64, 5e-324, -1, 0, 0.5, 1.5), weight: 1 },
  { arbitrary: fc.constantFrom(...RAW_NUMBERS).map((n) => `${RAW}${n}`), weight: 1 },
  { arbitrary: fc.boolean(), weight: 1 },
  { arbitrary: fc.constant(null), weight: 1 },
);

export const hostileJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { arbitrary: hostileLeaf, weight: 5 },
    { arbitrary: fc.array(tie('value'), { maxLength: 4 }), weight: 1 },
    { arbitrary: fc.dictionary(hostileKey, tie('value'), { maxKeys: 4 }), weight: 1 },
  ),
})).value;

/** `[[[…]]]` or `{"a":{"a":…}}` from 10 to 300,000 levels (the deepest are over the 1 MB body limit). */
const DEEP = '\u0001deep:';
const deep = fc.tuple(fc.integer({ min: 10, max: 300_000 }), fc.constantFrom('array', 'object')).map(([depth, kind]) => `${DEEP}${kind}:${depth}`);

export type Edit =
  | { kind: 'setParam'; index: number; value: string }
  | { kind: 'dropParam'; index: number }
  | { kind: 'addParam'; name: string; value: string }
  | { kind: 'repeatParam'; index: number; value: string }
  | { kind: 'rawQuery'; fragment: string }
  | { kind: 'setBody'; path: number[]; value: unknown }
  | { kind: 'addBodyKey'; path: number[]; key: string; value: unknown }
  | { kind: 'dropBodyKey'; path: number[] }
  | { kind: 'replaceBody'; value: unknown }
  | { kind: 'rawBody'; text: string }
  | { kind: 'duplicateBodyKey'; value: unknown }
  | { kind: 'header'; name: string; value: string }
  | { kind: 'method'; value: string };

const ascii = fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 60 }).map((s) => s.replace(/[^\x20-\x7e]/g, 'x'));

/** Malformed or odd JSON texts. */
const rawBody = fc.oneof(
  fc.constantFrom('{', '{"a":', '[1,2', '{"a":1,}', "{'a':1}", '{"a":NaN}', '{"a":undefined}', 'null', 'true', '"text"', '123', '', ' ', '\ufeff{}', '{}garbage', '[]', '{"__proto__":{"polluted":true}}', '{"constructor":{"prototype":{"polluted":true}}}'),
  fc.string({ maxLength: 200 }),
  fc.json(),
);

export const editArbitrary: fc.Arbitrary<Edit> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('setParam' as const), index: fc.nat(), value: hostileString }), weight: 8 },
  { arbitrary: fc.record({ kind: fc.constant('dropParam' as const), index: fc.nat() }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('addParam' as const), name: hostileKey, value: hostileString }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('repeatParam' as const), index: fc.nat(), value: hostileString }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('rawQuery' as const), fragment: fc.constantFrom('%', '%ZZ', '%FF%FE', '%00', '%E0%A4%A', '&&', '==', '&=&', 'a[b]=1', 'a[]=1&a[]=2', '%C0%AE%C0%AE', '+', ';x=1') }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('setBody' as const), path: fc.array(fc.nat(), { maxLength: 4 }), value: fc.oneof({ arbitrary: hostileJson, weight: 5 }, { arbitrary: deep, weight: 1 }) }), weight: 8 },
  { arbitrary: fc.record({ kind: fc.constant('addBodyKey' as const), path: fc.array(fc.nat(), { maxLength: 3 }), key: hostileKey, value: hostileJson }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('dropBodyKey' as const), path: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('replaceBody' as const), value: fc.oneof(hostileJson, deep) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('rawBody' as const), text: rawBody }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('duplicateBodyKey' as const), value: hostileJson }), weight: 1 },
  {
    arbitrary: fc.oneof(
      fc.record({ kind: fc.constant('header' as const), name: fc.constant('content-type'), value: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', 'application/json; charset=utf-16', 'application/vnd.api+json', 'multipart/form-data; boundary=x', 'application/JSON') }),
      fc.record({ kind: fc.constant('header' as const), name: fc.constant('content-encoding'), value: fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'x-unknown') }),
      fc.record({ kind: fc.constant('header' as const), name: fc.constant('x-svc-api-key'), value: ascii }),
      fc.record({ kind: fc.constant('header' as const), name: fc.constant('x-request-id'), value: ascii }),
      fc.record({ kind: fc.constant('header' as const), name: fc.constant('accept'), value: fc.constantFrom('text/html', 'application/xml', '*/*', 'application/json;q=0') }),
      fc.record({ kind: fc.constant('header' as const), name: fc.constant('x-forwarded-for'), value: fc.constantFrom('1.2.3.4', 'not-an-ip', '::1, 10.0.0.1', '') }),
    ),
    weight: 2,
  },
  { arbitrary: fc.record({ kind: fc.constant('method' as const), value: fc.constantFrom('PUT', 'DELETE', 'PATCH', 'GET', 'POST') }), weight: 1 },
);

/** 1 to 4 edits; sometimes none (the valid example itself). */
export const editsArbitrary = fc.oneof({ arbitrary: fc.array(editArbitrary, { minLength: 1, maxLength: 4 }), weight: 12 }, { arbitrary: fc.constant([] as Edit[]), weight: 1 });

/** The request the edits make of the operation's example. */
export function buildRequest(operation: OperationModel, edits: readonly Edit[]): WireRequest {
  let method = operation.method;
  const params = operation.params.map((p) => ({ name: p.name, in: p.in, value: p.example }));
  const extra: { name: string; value: string }[] = [];
  const rawFragments: string[] = [];
  const headers: Record<string, string> = {};
  let body: unknown = operation.bodyExample === undefined ? undefined : structuredClone(operation.bodyExample);
  let rawText: string | undefined;
  let duplicate: unknown;
  let hasDuplicate = false;

  for (const edit of edits) {
    switch (edit.kind) {
      case 'setParam':
        if (params.length) params[edit.index % params.length]!.value = edit.value;
        break;
      case 'dropParam':
        if (params.length) params.splice(edit.index % params.length, 1);
        break;
      case 'addParam':
        extra.push({ name: edit.name, value: edit.value });
        break;
      case 'repeatParam': {
        const query = params.filter((p) => p.in === 'query');
        if (query.length) extra.push({ name: query[edit.index % query.length]!.name, value: edit.value });
        break;
      }
      case 'rawQuery':
        rawFragments.push(edit.fragment);
        break;
      case 'setBody':
        body = setAt(body ?? {}, edit.path, edit.value);
        break;
      case 'addBodyKey':
        body = addAt(body ?? {}, edit.path, edit.key, edit.value);
        break;
      case 'dropBodyKey':
        body = dropAt(body, edit.path);
        break;
      case 'replaceBody':
        body = edit.value;
        break;
      case 'rawBody':
        rawText = edit.text;
        break;
      case 'duplicateBodyKey':
        duplicate = edit.value;
        hasDuplicate = true;
        break;
      case 'header':
        headers[edit.name] = edit.value;
        break;
      case 'method':
        method = edit.value;
        break;
    }
  }

  let path = operation.pathTemplate;
  for (const p of operation.params.filter((q) => q.in === 'path')) {
    const current = params.find((q) => q.in === 'path' && q.name === p.name);
    path = path.replace(`{${p.name}}`, current ? encode(current.value) : '');
  }
  for (const p of params.filter((q) => q.in === 'header')) headers[p.name.toLowerCase()] ??= p.value.replace(/[^\x20-\x7e]/g, 'x');
  const pairs = [...params.filter((p) => p.in === 'query'), ...extra].map((p) => `${encode(p.name)}=${encodeListValue(p.value)}`);
  const query = [...pairs, ...rawFragments].join('&');

  let text: string | undefined = rawText;
  if (text === undefined && body !== undefined) {
    text = serialise(body);
    if (hasDuplicate && text.startsWith('{') && text.length > 2) {
      const firstKey = /^\{("(?:[^"\\]|\\.)*"):/.exec(text)?.[1];
      if (firstKey) text = `{${firstKey}:${serialise(duplicate)},${text.slice(1)}`;
    }
  }
  if (text !== undefined) headers['content-type'] ??= 'application/json';
  return { method, url: query ? `${path}?${query}` : path, headers, ...(text !== undefined ? { body: text } : {}) };
}

/** Commas of list values travel as they are (the contract's comma-joined lists); everything else is encoded. */
function encodeListValue(value: string): string {
  return value.split(',').map(encode).join(',');
}

function serialise(value: unknown): string {
  return JSON.stringify(value)
    .replace(new RegExp(`"${RAW}([^"]*)"`, 'g'), (_m, n: string) => n)
    .replace(new RegExp(`"${DEEP}(array|object):(\\d+)"`, 'g'), (_m, kind: string, depth: string) => {
      const n = Number(depth);
      return kind === 'array' ? `${'['.repeat(n)}${']'.repeat(n)}` : `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
    });
}

function children(node: unknown): [string | number, unknown][] {
  if (Array.isArray(node)) return node.map((v, i) => [i, v]);
  if (node && typeof node === 'object') return Object.entries(node);
  return [];
}

function setAt(root: unknown, path: number[], value: unknown): unknown {
  if (path.length === 0 || children(root).length === 0) return path.length === 0 ? value : root;
  const entries = children(root);
  const [key, child] = entries[path[0]! % entries.length]!;
  (root as Record<string | number, unknown>)[key] = setAt(child, path.slice(1), value);
  return root;
}

function addAt(root: unknown, path: number[], key: string, value: unknown): unknown {
  const containers = children(root).filter(([, v]) => v && typeof v === 'object' && !Array.isArray(v));
  if (path.length === 0 || containers.length === 0) {
    if (root && typeof root === 'object' && !Array.isArray(root)) {
      // defineProperty: "__proto__" becomes an own key, as JSON.parse makes it on the server
      Object.defineProperty(root, key, { value, enumerable: true, writable: true, configurable: true });
    }
    return root;
  }
  const [, child] = containers[path[0]! % containers.length]!;
  addAt(child, path.slice(1), key, value);
  return root;
}

function dropAt(root: unknown, path: number[]): unknown {
  const entries = children(root);
  if (entries.length === 0) return root;
  const [key, child] = entries[path[0]! % entries.length]!;
  if (path.length === 1) {
    if (Array.isArray(root)) root.splice(key as number, 1);
    else delete (root as Record<string, unknown>)[key as string];
  } else {
    dropAt(child, path.slice(1));
  }
  return root;
}
