/**
 * The address sets and the address normal form, against node's own parser and BlockList as the reference (the core
 * does not use them: node:net is an I/O module, and the core reads no socket).
 */
import net from 'node:net';
import fc from 'fast-check';
import { AddressSet, clientLimitId, normalizeIp } from '../../../../src/core/access/ipAddress';

const v4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((parts) => parts.join('.'));
const v6 = fc.array(fc.nat(0xffff), { minLength: 8, maxLength: 8 }).map((groups) => groups.map((g) => g.toString(16)).join(':'));

test('a valid address is valid exactly where node says so, and normal form is lower case', () => {
  const zone = fc.constantFrom('', '%', '%eth0', '%a b', '%_', '%-.:', '%%');
  const text = fc.oneof(v4, v6, fc.string({ maxLength: 12 }), fc.tuple(fc.oneof(v4, v6), zone).map(([a, z]) => a + z),
    fc.constantFrom('01.2.3.4', '127.1', '0x7f.0.0.1', '1::2::3', '::1.2.3.4', '1:2:3:4:5:6:7:8:9', '::', 'FE80::A', '::%', '1.2.3.4%a', '[::1]', '[::1%lo]', '[1.2.3.4]'));
  fc.assert(fc.property(text, (raw) => {
    const ip = normalizeIp(raw);
    // brackets around an address (as in a Host header) are read as the address inside; node's parser takes none
    const bare = raw.trim().replace(/^\[(.*)\]$/s, '$1');
    const known = net.isIP(bare.toLowerCase()) !== 0;
    expect(ip !== undefined).toBe(known);
    if (ip) expect(ip).toBe(ip.toLowerCase());
  }), { numRuns: 2000 });
});

test('IPv4-mapped IPv6 addresses are their IPv4 client, in dotted and in hex form', () => {
  expect(normalizeIp('::ffff:1.2.3.4')).toBe('1.2.3.4');
  expect(normalizeIp('::FFFF:102:304')).toBe('1.2.3.4');
  expect(new AddressSet(['1.2.3.0/24']).has('::ffff:102:3ff')).toBe(true);
  expect(clientLimitId('::ffff:102:304')).toBe('1.2.3.4');
  expect(normalizeIp('::1.2.3.4')).toBe('::1.2.3.4'); // IPv4-compatible, not mapped: an IPv6 address
});

test('an address set matches as node\'s BlockList does, IPv4 and IPv6, single addresses and ranges', () => {
  const range = fc.oneof(
    fc.tuple(v4, fc.integer({ min: 0, max: 32 })).map(([a, bits]) => ({ text: `${a}/${bits}`, address: a, bits, family: 'ipv4' as const })),
    fc.tuple(v6, fc.integer({ min: 0, max: 128 })).map(([a, bits]) => ({ text: `${a}/${bits}`, address: a, bits, family: 'ipv6' as const })),
  );
  fc.assert(fc.property(fc.array(range, { minLength: 1, maxLength: 4 }), fc.oneof(v4, v6, v4.map((a) => `::${a}`), v4.map((a) => `::ffff:${a}`)), (ranges, probe) => {
    const reference = new net.BlockList();
    for (const r of ranges) reference.addSubnet(r.address, r.bits, r.family);
    const set = new AddressSet(ranges.map((r) => r.text));
    const family = probe.includes(':') ? 'ipv6' : 'ipv4';
    expect(set.has(probe)).toBe(reference.check(probe, family));
    // the first address of a range is always in it
    for (const r of ranges) expect(set.has(r.address)).toBe(true);
  }), { numRuns: 1000 });
});

test('named ranges, and entries that are not addresses or ranges, refused with the entry named', () => {
  const set = new AddressSet(['loopback', 'uniquelocal']);
  expect(set.has('127.0.0.1')).toBe(true);
  expect(set.has('::1')).toBe(true);
  expect(set.has('10.9.8.7')).toBe(true);
  expect(set.has('fd00::1')).toBe(true);
  expect(set.has('8.8.8.8')).toBe(false);
  expect(set.has('not an address')).toBe(false);
  expect(() => new AddressSet(['10.0.0.0/33'])).toThrow('"10.0.0.0/33" has an invalid prefix length (0 to 32)');
  expect(() => new AddressSet(['::/129'])).toThrow('(0 to 128)');
  expect(() => new AddressSet(['10.0.0/8'])).toThrow('"10.0.0/8" is not an IP address or CIDR range');
  expect(() => new AddressSet(['1.2.3.4/8/9'])).toThrow('is not an IP address or CIDR range');
});
