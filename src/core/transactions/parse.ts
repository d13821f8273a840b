/**
 * Decodes call data with every ABI the service knows (abi.ts: the router and its bridge facets, the fee
 * collector, ERC-20, wrapped native, the exchange routers, Curve pools, common public functions).
 * Values: numbers as decimal strings, addresses EIP-55 checksummed, bytes as hex, booleans, arrays, structs
 * as objects by field name. A nested call (SwapData.callData, <B>Data.destinationCallData, multicall data) is
 * decoded recursively into an array of {functionName, functionParameters} when its selector is known and
 * decodes cleanly, and left as hex otherwise.
 */
import { AbiCoder, getAddress, type FunctionFragment, type ParamType } from 'ethers';
import { InvalidRequestError } from '../errors';
import { knownFunctions, NESTED_CALL_PARAMETERS } from './abi';

export type ParsedValue = string | boolean | ParsedValue[] | { [name: string]: ParsedValue } | ParsedCall[];

export interface ParsedCall {
  readonly functionName: string;
  readonly functionParameters: Record<string, ParsedValue>;
}

/** Nested calls deeper than this are left as hex. */
const MAX_DEPTH = 6;

export class CallDataParser {
  private readonly bySelector = new Map<string, FunctionFragment>();
  private readonly coder = AbiCoder.defaultAbiCoder();

  constructor(bridgeKeys: readonly string[]) {
    for (const fragment of knownFunctions(bridgeKeys)) this.bySelector.set(fragment.selector, fragment);
  }

  /** The function a selector (0x + 8 hex digits) belongs to, if known. */
  functionOf(selector: string): FunctionFragment | undefined {
    return this.bySelector.get(selector.toLowerCase());
  }

  /**
   * Parses top-level call data; InvalidRequestError (naming `parameter`) when it is not hex, is shorter
   * than a selector, has an unknown selector or does not decode as its function's arguments.
   */
  parse(callData: string, parameter = 'callData'): ParsedCall[] {
    const fail = (rule: string, message: string): never => {
      throw new InvalidRequestError(message, { issues: [{ name: parameter, rule, message }] });
    };
    if (!/^0x([0-9a-fA-F]{2})*$/.test(callData)) fail('hex', `${parameter} must be 0x-prefixed hex with an even number of digits`);
    if (callData.length < 10) fail('selector', `${parameter} must hold at least a 4-byte function selector; got ${(callData.length - 2) / 2} byte(s)`);
    const selector = callData.slice(0, 10).toLowerCase();
    const fragment = this.bySelector.get(selector);
    if (!fragment) {
      fail('knownFunction', `${parameter} calls function selector ${selector}, which matches no known ABI (router, fee collector, ERC-20, wrapped native, exchange routers, Curve pools, common functions)`);
    }
    const decoded = this.decode(fragment!, callData, 0);
    if (!decoded) fail('decodable', `${parameter} does not decode as ${fragment!.format('sighash')}: the arguments are malformed or truncated`);
    return [decoded!];
  }

  /** Nested call data: parsed calls when known and decodable, the hex itself otherwise. */
  private nested(callData: string, depth: number): ParsedValue {
    if (depth >= MAX_DEPTH || callData.length < 10) return callData;
    const fragment = this.bySelector.get(callData.slice(0, 10).toLowerCase());
    if (!fragment) return callData;
    const decoded = this.decode(fragment, callData, depth);
    return decoded ? [decoded] : callData;
  }

  private decode(fragment: FunctionFragment, callData: string, depth: number): ParsedCall | undefined {
    const body = `0x${callData.slice(10)}`;
    let values: readonly unknown[];
    try {
      values = this.coder.decode(fragment.inputs, body);
      // Strict: the arguments must re-encode to the same bytes (no trailing garbage, canonical padding).
      if (this.coder.encode(fragment.inputs, values).toLowerCase() !== body.toLowerCase()) return undefined;
    } catch {
      return undefined;
    }
    const functionParameters: Record<string, ParsedValue> = {};
    fragment.inputs.forEach((param, k) => {
      functionParameters[param.name || `arg${k}`] = this.value(param, values[k], depth);
    });
    return { functionName: fragment.name, functionParameters };
  }

  private value(param: ParamType, value: unknown, depth: number): ParsedValue {
    if (param.isArray()) {
      const child = param.arrayChildren;
      const items = value as readonly unknown[];
      if (child.type === 'bytes' && NESTED_CALL_PARAMETERS.has(param.name)) return items.map((v) => this.nested(String(v), depth + 1));
      return items.map((v) => this.value(child, v, depth));
    }
    if (param.isTuple()) {
      const items = value as readonly unknown[];
      const object: Record<string, ParsedValue> = {};
      param.components.forEach((c, k) => {
        object[c.name || `arg${k}`] = this.value(c, items[k], depth);
      });
      return object;
    }
    switch (param.baseType) {
      case 'address':
        return getAddress(String(value));
      case 'bool':
        return Boolean(value);
      case 'string':
        return String(value);
      case 'bytes':
        return NESTED_CALL_PARAMETERS.has(param.name) ? this.nested(String(value), depth + 1) : String(value);
      default:
        if (typeof value === 'bigint') return value.toString();
        return String(value);
    }
  }
}
