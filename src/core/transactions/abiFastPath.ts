/**
 * ABI encoding of function calls: ethers' AbiCoder, with a fast path for the values the service writes.
 *
 * ethers' AbiCoder stays the one reference: it encodes everything this fast path does not take, and every
 * error is its own. The fast path (profiled: about half the CPU of an uncached quote went into AbiCoder,
 * which rebuilds its coders, re-derives the EIP-55 checksum of every address with a keccak, converts every
 * hex string to bytes and copies nested call data several times, and computes the selector with a keccak on
 * every call) writes the head/tail layout directly as hex, from coders compiled once per function fragment.
 * It takes a value only when ethers would accept it and encode it the same way, and checks what ethers checks:
 *   - address: 0x + 40 hex digits; mixed case must be a valid EIP-55 checksum (checked with ethers' getAddress
 *     once per distinct address, remembered), one letter case needs none (as in ethers);
 *   - uintN / intN: a bigint or a safe integer within the type's bounds (two's complement for negatives);
 *   - bool: a boolean; bytes / bytesN: 0x + an even number of hex digits (exactly N bytes for bytesN);
 *   - string: a well-formed UTF-16 string (no lone surrogate), written as UTF-8;
 *   - tuples and arrays: arrays of exactly the right length.
 * Anything else (an object for a tuple, a hex string for a number, an ICAP address, a bad checksum...) makes
 * the whole call go through AbiCoder, which encodes it or throws as it always did. The unit tests compare
 * both byte for byte on generated values of every type the router ABI uses.
 */
import { AbiCoder, getAddress, type FunctionFragment, type ParamType } from 'ethers';

const coder = AbiCoder.defaultAbiCoder();

/** Thrown inside the fast path when a value is not one it takes: the call is then encoded by AbiCoder. */
const NOT_TAKEN: unique symbol = Symbol('not taken by the fast path');

interface FastCoder {
  readonly dynamic: boolean;
  /** Size of the static encoding in hex digits (64 per word); 64 for dynamic types (their offset word). */
  readonly headHex: number;
  /** The encoding as hex without 0x (for a dynamic type: its tail). */
  encode(value: unknown): string;
}

interface CompiledCall {
  readonly selector: string;
  readonly tuple: FastCoder | undefined;
}

const compiled = new WeakMap<FunctionFragment, CompiledCall>();

/** selector + ABI-encoded arguments, as ethers' `fragment.selector + AbiCoder.encode(fragment.inputs, values)`. */
export function encodeFunctionCall(fragment: FunctionFragment, values: readonly unknown[]): string {
  let call = compiled.get(fragment);
  if (!call) {
    call = { selector: fragment.selector, tuple: compileTuple(fragment.inputs) };
    compiled.set(fragment, call);
  }
  if (call.tuple) {
    try {
      return `${call.selector}${call.tuple.encode(values)}`;
    } catch (caught) {
      if (caught !== NOT_TAKEN) throw caught;
    }
  }
  return `${call.selector}${coder.encode(fragment.inputs, values).slice(2)}`;
}

function compile(type: ParamType): FastCoder | undefined {
  if (type.isArray()) return compileArray(type);
  if (type.isTuple()) return compileTuple(type.components);
  const base = type.baseType;
  if (base === 'address') return ADDRESS;
  if (base === 'bool') return BOOL;
  if (base === 'string') return STRING;
  if (base === 'bytes') return BYTES;
  let m = /^bytes([1-9][0-9]?)$/.exec(base);
  if (m && Number(m[1]) <= 32) return fixedBytes(Number(m[1]));
  m = /^(u?)int([1-9][0-9]*)$/.exec(base);
  if (m && Number(m[2]) % 8 === 0 && Number(m[2]) <= 256) return integer(m[1] !== 'u', Number(m[2]));
  return undefined;
}

const WORD = 64;
const ZEROS = '0'.repeat(WORD);
const word = (n: bigint | number) => {
  const hex = n.toString(16);
  return hex.length < WORD ? ZEROS.slice(hex.length) + hex : hex;
};

function compileTuple(types: readonly ParamType[]): FastCoder | undefined {
  const coders: FastCoder[] = [];
  for (const type of types) {
    const c = compile(type);
    if (!c) return undefined;
    coders.push(c);
  }
  const dynamic = coders.some((c) => c.dynamic);
  const headHex = coders.reduce((n, c) => n + c.headHex, 0);
  return {
    dynamic,
    headHex: dynamic ? WORD : headHex,
    encode: (value) => {
      if (!Array.isArray(value) || value.length !== coders.length) throw NOT_TAKEN;
      return pack(coders, value, headHex);
    },
  };
}

/** Heads (static values inline, offsets of dynamic ones) then tails, as ethers' pack. */
function pack(coders: readonly FastCoder[] | FastCoder, values: readonly unknown[], headHex: number): string {
  let head = '';
  let tail = '';
  for (let k = 0; k < values.length; k++) {
    const c = Array.isArray(coders) ? (coders as readonly FastCoder[])[k] : (coders as FastCoder);
    if (c.dynamic) {
      head += word((headHex + tail.length) / 2);
      tail += c.encode(values[k]);
    } else {
      head += c.encode(values[k]);
    }
  }
  return head + tail;
}

function compileArray(type: ParamType): FastCoder | undefined {
  if (!type.arrayChildren || type.arrayLength === null) return undefined;
  const child = compile(type.arrayChildren);
  if (!child) return undefined;
  const length = type.arrayLength;
  if (length >= 0) {
    // T[k]: a tuple of k times T (dynamic when T is, as in ethers)
    const headHex = child.headHex * length;
    return {
      dynamic: child.dynamic,
      headHex: child.dynamic ? WORD : headHex,
      encode: (value) => {
        if (!Array.isArray(value) || value.length !== length) throw NOT_TAKEN;
        return pack(child, value, headHex);
      },
    };
  }
  return {
    dynamic: true,
    headHex: WORD,
    encode: (value) => {
      if (!Array.isArray(value)) throw NOT_TAKEN;
      return word(value.length) + pack(child, value, child.headHex * value.length);
    },
  };
}

/** Mixed-case addresses whose EIP-55 checksum ethers accepted (a keccak each): bounded, wallets repeat. */
const CHECKED = new Set<string>();
const ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/;
const HAS_LOWER = /[a-f]/;
const HAS_UPPER = /[A-F]/;

const ADDRESS: FastCoder = {
  dynamic: false,
  headHex: WORD,
  encode: (value) => {
    if (typeof value !== 'string' || !ADDRESS_PATTERN.test(value)) throw NOT_TAKEN;
    const digits = value.slice(2);
    if (HAS_LOWER.test(digits) && HAS_UPPER.test(digits) && !CHECKED.has(value)) {
      let valid: boolean;
      try {
        valid = getAddress(value) === value;
      } catch {
        valid = false;
      }
      if (!valid) throw NOT_TAKEN; // ethers throws "bad address checksum"
      if (CHECKED.size >= 10_000) CHECKED.clear();
      CHECKED.add(value);
    }
    return `000000000000000000000000${digits.toLowerCase()}`;
  },
};

const BOOL: FastCoder = {
  dynamic: false,
  headHex: WORD,
  encode: (value) => {
    if (typeof value !== 'boolean') throw NOT_TAKEN;
    return value ? `${ZEROS.slice(1)}1` : ZEROS;
  },
};

const HEX_BYTES = /^0x(?:[0-9a-fA-F]{2})*$/;

function hexBytes(value: unknown): string {
  if (typeof value !== 'string' || !HEX_BYTES.test(value)) throw NOT_TAKEN;
  return value.slice(2).toLowerCase();
}

/** Length word, then the bytes padded with zeros to a whole number of words. */
function dynamicBytes(hex: string): string {
  const rest = hex.length % WORD;
  return word(hex.length / 2) + (rest === 0 ? hex : hex + ZEROS.slice(rest));
}

const BYTES: FastCoder = { dynamic: true, headHex: WORD, encode: (value) => dynamicBytes(hexBytes(value)) };

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const STRING: FastCoder = {
  dynamic: true,
  headHex: WORD,
  encode: (value) => {
    if (typeof value !== 'string' || LONE_SURROGATE.test(value)) throw NOT_TAKEN; // ethers refuses lone surrogates
    return dynamicBytes(Buffer.from(value, 'utf8').toString('hex'));
  },
};

function fixedBytes(size: number): FastCoder {
  return {
    dynamic: false,
    headHex: WORD,
    encode: (value) => {
      const hex = hexBytes(value);
      if (hex.length !== size * 2) throw NOT_TAKEN;
      return hex + ZEROS.slice(hex.length);
    },
  };
}

const TWO_256 = 1n << 256n;

function integer(signed: boolean, bits: number): FastCoder {
  const max = signed ? (1n << BigInt(bits - 1)) - 1n : (1n << BigInt(bits)) - 1n;
  const min = signed ? -(1n << BigInt(bits - 1)) : 0n;
  return {
    dynamic: false,
    headHex: WORD,
    encode: (value) => {
      let n: bigint;
      if (typeof value === 'bigint') n = value;
      else if (typeof value === 'number' && Number.isSafeInteger(value)) n = BigInt(value);
      else throw NOT_TAKEN;
      if (n < min || n > max) throw NOT_TAKEN; // ethers: "value out-of-bounds"
      return word(n < 0n ? TWO_256 + n : n);
    },
  };
}
