/**
 * A lean Solidity ABI encoder driven by ethers' ParamTypes (the same fragments as abi.ts), for the hot
 * path of quotes: ethers' AbiCoder re-derives every address's EIP-55 checksum (keccak) and converts hex
 * to bytes and back for every word, which costs about as much as pricing the route. This writes the
 * head/tail layout directly as hex. Types: uintN, intN, address, bool, bytesN, bytes, string, T[], T[k],
 * tuples. The unit tests check it byte for byte against ethers' AbiCoder and against hand-checked layouts.
 */
import type { FunctionFragment, ParamType } from 'ethers';

const WORD_HEX = 64;
const TWO_256 = 1n << 256n;

export class AbiEncodingError extends Error {}

/** selector + encoded arguments of a function call. */
export function encodeCall(fragment: FunctionFragment, values: readonly unknown[]): string {
  return `${fragment.selector}${encodeParams(fragment.inputs, values)}`;
}

/** The ABI encoding of `values` as the tuple `types`, as hex without 0x. */
export function encodeParams(types: readonly ParamType[], values: readonly unknown[]): string {
  if (types.length !== values.length) throw new AbiEncodingError(`expected ${types.length} values, got ${values.length}`);
  return encodeTuple(types, values);
}

function isDynamic(type: ParamType): boolean {
  if (type.baseType === 'bytes' || type.baseType === 'string') return true;
  if (type.isArray()) return type.arrayLength === -1 || isDynamic(type.arrayChildren);
  if (type.isTuple()) return type.components.some(isDynamic);
  return false;
}

function encodeTuple(types: readonly ParamType[], values: readonly unknown[]): string {
  const heads: string[] = [];
  const tails: string[] = [];
  let headSize = 0;
  for (const type of types) headSize += isDynamic(type) ? 32 : staticSize(type);
  let tailOffset = headSize;
  types.forEach((type, k) => {
    const encoded = encodeValue(type, values[k]);
    if (isDynamic(type)) {
      heads.push(uintWord(BigInt(tailOffset)));
      tails.push(encoded);
      tailOffset += encoded.length / 2;
    } else {
      heads.push(encoded);
    }
  });
  return heads.join('') + tails.join('');
}

function staticSize(type: ParamType): number {
  if (type.isArray()) return type.arrayLength * staticSize(type.arrayChildren);
  if (type.isTuple()) return type.components.reduce((s, c) => s + staticSize(c), 0);
  return 32;
}

function encodeValue(type: ParamType, value: unknown): string {
  if (type.isArray()) {
    if (!Array.isArray(value)) throw new AbiEncodingError(`${type.format()} expects an array`);
    const items = value as unknown[];
    if (type.arrayLength >= 0 && items.length !== type.arrayLength) throw new AbiEncodingError(`${type.format()} expects ${type.arrayLength} items`);
    const body = encodeTuple(items.map(() => type.arrayChildren), items);
    return type.arrayLength === -1 ? uintWord(BigInt(items.length)) + body : body;
  }
  if (type.isTuple()) {
    if (!Array.isArray(value)) throw new AbiEncodingError(`${type.format()} expects an array of its fields`);
    if (value.length !== type.components.length) throw new AbiEncodingError(`${type.format()} expects ${type.components.length} fields`);
    return encodeTuple(type.components, value);
  }
  const base = type.baseType;
  if (base === 'address') return addressWord(value);
  if (base === 'bool') {
    if (typeof value !== 'boolean') throw new AbiEncodingError('bool expects a boolean');
    return uintWord(value ? 1n : 0n);
  }
  if (base === 'string') {
    if (typeof value !== 'string') throw new AbiEncodingError('string expects a string');
    return dynamicBytes(Buffer.from(value, 'utf8').toString('hex'));
  }
  if (base === 'bytes') return dynamicBytes(hexBody(value, 'bytes'));
  let m = /^bytes([0-9]+)$/.exec(base);
  if (m) {
    const size = Number(m[1]);
    const hex = hexBody(value, base);
    if (hex.length !== size * 2) throw new AbiEncodingError(`${base} expects ${size} bytes`);
    return hex.padEnd(WORD_HEX, '0');
  }
  m = /^(u?)int([0-9]*)$/.exec(base);
  if (m) {
    const bits = BigInt(m[2] || '256');
    const n = toBigInt(value, base);
    if (m[1] === 'u') {
      if (n < 0n || n >= 1n << bits) throw new AbiEncodingError(`${n} does not fit ${base}`);
      return uintWord(n);
    }
    const limit = 1n << (bits - 1n);
    if (n < -limit || n >= limit) throw new AbiEncodingError(`${n} does not fit ${base}`);
    return uintWord(n < 0n ? TWO_256 + n : n);
  }
  throw new AbiEncodingError(`unsupported ABI type ${type.format()}`);
}

function uintWord(n: bigint): string {
  return n.toString(16).padStart(WORD_HEX, '0');
}

function addressWord(value: unknown): string {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(value)) throw new AbiEncodingError(`address expects 0x and 40 hex digits, got ${String(value)}`);
  return value.slice(2).toLowerCase().padStart(WORD_HEX, '0');
}

function hexBody(value: unknown, type: string): string {
  if (typeof value !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(value)) throw new AbiEncodingError(`${type} expects 0x-prefixed hex bytes`);
  return value.slice(2).toLowerCase();
}

function dynamicBytes(hex: string): string {
  const length = hex.length / 2;
  const padded = length % 32 === 0 ? hex : hex.padEnd(Math.ceil(length / 32) * WORD_HEX, '0');
  return uintWord(BigInt(length)) + padded;
}

function toBigInt(value: unknown, type: string): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  throw new AbiEncodingError(`${type} expects a bigint or a safe integer`);
}
