/**
 * The fast path of the call-data encoder against ethers' AbiCoder, byte for byte: generated values of every
 * function the service knows (router, every bridge facet, fee collector, ERC-20, WETH, V2 / V3 routers, Curve,
 * common functions) and of extra types, including nested call data; values the fast path does not take go
 * through AbiCoder (same answer, same errors).
 */
import fc from 'fast-check';
import { AbiCoder, FunctionFragment, ParamType, getAddress } from 'ethers';
import { BRIDGE_FACETS, CALL_DATA, knownFunctions } from '../../../src/core/transactions/abi';
import { encodeFunctionCall } from '../../../src/core/transactions/abiFastPath';

const coder = AbiCoder.defaultAbiCoder();
const viaEthers = (fragment: FunctionFragment, values: readonly unknown[]) => `${fragment.selector}${coder.encode(fragment.inputs, values).slice(2)}`;

const hexDigits = (bytes: number) => fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((b) => Buffer.from(b).toString('hex'));
/** Addresses in the three forms ethers accepts: lower case, upper case digits, EIP-55 checksummed. */
const address = hexDigits(20).chain((h) => fc.constantFrom(`0x${h}`, `0x${h.toUpperCase()}`, getAddress(`0x${h}`)));
const bytes = fc.oneof(
  fc.constant('0x'),
  fc.uint8Array({ maxLength: 300 }).map((b) => `0x${Buffer.from(b).toString('hex')}`),
  fc.uint8Array({ maxLength: 70 }).map((b) => `0x${Buffer.from(b).toString('hex').toUpperCase()}`),
);
const text = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 20 }), fc.constant(''));

function uint(bits: number): fc.Arbitrary<bigint | number> {
  const max = (1n << BigInt(bits)) - 1n;
  return fc.oneof(fc.bigInt({ min: 0n, max }), fc.constantFrom(0n, max), fc.nat({ max: Math.min(Number.MAX_SAFE_INTEGER, Number(max)) }));
}
function int(bits: number): fc.Arbitrary<bigint | number> {
  const max = (1n << BigInt(bits - 1)) - 1n;
  return fc.oneof(fc.bigInt({ min: -max - 1n, max }), fc.constantFrom(-max - 1n, -1n, 0n, max), fc.integer({ min: -1000, max: 1000 }));
}

/** Values of a ParamType as the service writes them (arrays for tuples). */
function valueOf(type: ParamType): fc.Arbitrary<unknown> {
  if (type.isArray()) {
    const child = valueOf(type.arrayChildren);
    return type.arrayLength >= 0 ? fc.array(child, { minLength: type.arrayLength, maxLength: type.arrayLength }) : fc.array(child, { maxLength: 4 });
  }
  if (type.isTuple()) return fc.tuple(...type.components.map(valueOf));
  const base = type.baseType;
  if (base === 'address') return address;
  if (base === 'bool') return fc.boolean();
  if (base === 'string') return text;
  if (base === 'bytes') return bytes;
  let m = /^bytes(\d+)$/.exec(base);
  if (m) return hexDigits(Number(m[1])).map((h) => `0x${h}`);
  m = /^(u?)int(\d*)$/.exec(base);
  if (m) return m[1] === 'u' ? uint(Number(m[2] || 256)) : int(Number(m[2] || 256));
  throw new Error(`no generator for ${type.format()}`);
}

const fragments = [
  ...knownFunctions(Object.keys(BRIDGE_FACETS)),
  FunctionFragment.from(`function withCalls(${CALL_DATA}[] calls, bytes32 id, uint24 fee, int24 tick, bytes4 selector)`),
  FunctionFragment.from('function fixedArrays(address[2] pair, string[2] names, (uint256 a, bytes b)[3] items, uint8[0] none)'),
  FunctionFragment.from('function nested((uint256 x, (string s, bytes b)[] inner) outer, bool flag)'),
];

describe('abiFastPath: byte for byte as ethers AbiCoder', () => {
  it.each(fragments.map((f) => [f.format('sighash'), f] as const))('%s', (_name, fragment) => {
    fc.assert(
      fc.property(fc.tuple(...fragment.inputs.map(valueOf)), (values) => {
        expect(encodeFunctionCall(fragment, values)).toBe(viaEthers(fragment, values));
      }),
      { numRuns: 25 },
    );
  });

  it('nested call data (a call inside a call) encodes the same', () => {
    const inner = fragments.find((f) => f.name === 'swapTokensGeneric')!;
    const outer = fragments.find((f) => f.name === 'swapAndStartBridgeTokensViaAcross')!;
    fc.assert(
      fc.property(fc.tuple(...inner.inputs.map(valueOf)), fc.tuple(...outer.inputs.map(valueOf)), (innerValues, outerValues) => {
        const callData = encodeFunctionCall(inner, innerValues);
        const values = structuredClone(outerValues) as unknown[];
        (values[2] as unknown[])[3] = callData; // destinationCallData
        expect(encodeFunctionCall(outer, values)).toBe(viaEthers(outer, values));
      }),
      { numRuns: 30 },
    );
  });
});

describe('abiFastPath: values it does not take go through AbiCoder', () => {
  it('the values the service writes do not (AbiCoder is not called for them)', () => {
    const fragment = fragments.find((f) => f.name === 'swapAndStartBridgeTokensViaStargate')!;
    const [values] = fc.sample(fc.tuple(...fragment.inputs.map(valueOf)), { numRuns: 1, seed: 7 });
    const spy = jest.spyOn(AbiCoder.prototype, 'encode');
    try {
      encodeFunctionCall(fragment, values);
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });

  const transfer = FunctionFragment.from('function transfer(address to, uint256 amount)');
  const approve = FunctionFragment.from('function f(int8 a, bytes2 b, bool c, string s)');
  const USER = '0x552008c0F6870C2f77e5cC1d2Eb9bdff03E30Ea9';

  it('a bad mixed-case checksum throws ethers error, every time (not remembered as valid)', () => {
    const bad = USER.replace('F6870', 'f6870');
    for (let k = 0; k < 2; k++) {
      expect(() => encodeFunctionCall(transfer, [bad, 1n])).toThrow(/bad address checksum/);
    }
    expect(() => viaEthers(transfer, [bad, 1n])).toThrow(/bad address checksum/);
  });

  it.each<[string, FunctionFragment, unknown[]]>([
    ['address without 0x', transfer, [USER.slice(2), 1n]],
    ['ICAP address', transfer, ['XE65GB6LDNXYOFTX0NSV3FUWKOWIXAMJK36', 1n]],
    ['amount as a decimal string', transfer, [USER, '1000']],
    ['amount as a hex string', transfer, [USER, '0x10']],
    ['tuple as an object with names', FunctionFragment.from('function g((address to, uint256 amount) p)'), [{ to: USER, amount: 5n }]],
    ['bool from a number', approve, [1n, '0x1234', 1, 'x']],
  ])('%s: same result as ethers', (_label, fragment, values) => {
    expect(encodeFunctionCall(fragment, values)).toBe(viaEthers(fragment, values));
  });

  it.each<[string, FunctionFragment, unknown[]]>([
    ['uint256 below 0', transfer, [USER, -1n]],
    ['uint256 above 2^256 - 1', transfer, [USER, 1n << 256n]],
    ['int8 out of range', approve, [128n, '0x1234', true, 'x']],
    ['bytes2 of the wrong length', approve, [1n, '0x12', true, 'x']],
    ['odd hex digits', approve, [1n, '0x123', true, 'x']],
    ['a lone surrogate in a string', approve, [1n, '0x1234', true, 'a\uD800b']],
    ['too few values', transfer, [USER]],
    ['not an address', transfer, ['0x1234', 1n]],
    ['an unsafe integer number', transfer, [USER, 2 ** 60]],
  ])('%s: throws as ethers does', (_label, fragment, values) => {
    let expected: unknown;
    try {
      viaEthers(fragment, values);
    } catch (caught) {
      expected = caught;
    }
    expect(expected).toBeInstanceOf(Error);
    expect(() => encodeFunctionCall(fragment, values)).toThrow((expected as Error).message);
  });
});
