/**
 * The contract declares every request parameter and body field of the ecosystem's request types, as its
 * published type package says them (`@lifi/types`: the copy the current SDK is built against, and the newest
 * one installed), and accepts every request those types allow. The types are read with the TypeScript compiler,
 * so a new release of the package that adds a parameter, or widens one, makes this test name it.
 *
 * Bounds are compared where a type can say something (TypeScript cannot say an integer, a pattern or a range):
 * - `required`: a field optional in the type (or present in only some members of a union, such as `fromAmount`
 *   and `toAmount` of the contract-calls request) is not required by the contract;
 * - `minItems`: an array type may be empty, so the contract demands no minimum number of items;
 * - `value`: every literal value the type allows (string and number literals, enum members, template literals
 *   such as `minWaitTime-${number}-${number}-${number}`) is valid for the contract's schema;
 * - `type`: every JSON type the type allows (`string | number`: both) is one the contract's schema accepts; in a
 *   query, numbers and strings travel as the same text.
 * A finding the service keeps on purpose is listed in NARROWER_ON_PURPOSE with its reason; a listed exception
 * that is no longer found fails too, so that the list stays true.
 */
import fs from 'node:fs';
import path from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import ts from 'typescript';
import { loadContract } from '../../../src/server/contract';
import { OPENAPI_PATH } from '../../support/contract';

interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  minItems?: number;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  $ref?: string;
}
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
  $ref?: string;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
}

const ROOT = path.resolve(__dirname, '..', '..', '..');
/** Every installed copy of the type package: the SDK's own (pinned by it) and the top-level one. */
const TYPE_PACKAGES = [path.join(ROOT, 'node_modules/@lifi/sdk'), ROOT].filter((dir) => {
  const candidates = [path.join(dir, 'node_modules/@lifi/types/package.json')];
  return candidates.some((file) => fs.existsSync(file));
});

/** Request type → the operation and where its fields go; `rename` maps a type's name to the contract's. */
const QUERY_TYPES: [typeName: string, operationId: string, rename: Record<string, string>][] = [
  ['TokensRequest', 'getTokens', {}],
  ['GetTokenRequest', 'getToken', {}],
  ['ChainsRequest', 'getChains', {}],
  ['ToolsRequest', 'getTools', {}],
  ['ConnectionsRequest', 'getConnections', {}],
  ['QuoteRequest', 'getQuote', {}],
  ['QuoteToAmountRequest', 'getQuoteToAmount', {}],
  ['GetStatusRequest', 'getStatus', {}],
  ['GasRecommendationRequest', 'getGasSuggestion', { chainId: 'chain' }],
  ['LIFuelStatusRequest', 'getGasStatus', {}],
];
/** Body types, compared field by field, nested objects and arrays of objects included. */
const BODY_TYPES: [typeName: string, operationId: string, nested: boolean][] = [
  ['RoutesRequest', 'postRoutes', true],
  ['ContractCallsQuoteRequest', 'postContractCallsQuote', true],
  ['ContractCallQuoteRequest', 'postContractCallQuote', true],
  // a step as the SDK sends it back: its own fields (the nested ones are the response's shapes)
  ['LiFiStep', 'postStepTransaction', false],
];
/**
 * Where the contract is narrower than the types on purpose, `<type> <field> <check>` (a query parameter as
 * `?name`, a body field as its JSON pointer, `*` for an array's items) → why, e.g.
 * `'ContractCallsQuoteRequest /contractCalls minItems': '<the reason the service needs a call>'`. Elsewhere the
 * contract was widened where it was narrower (contract 2.0.0, CHANGELOG.md).
 */
const CATALOG_CHAINS = "the types' ChainId and ChainKey list every chain of the ecosystem; the contract lists the catalog's (ChainIdOrKey), as the service refuses any other chain with 400";
const NARROWER_ON_PURPOSE: Record<string, string> = {
  'TokensRequest ?chains value': CATALOG_CHAINS,
  'ToolsRequest ?chains value': CATALOG_CHAINS,
  'GasRecommendationRequest ?chain value': CATALOG_CHAINS,
  'GasRecommendationRequest ?fromChain value': CATALOG_CHAINS,
};

const contract = loadContract(OPENAPI_PATH) as unknown as { paths: Record<string, Record<string, Operation>>; components: Record<string, Record<string, unknown>> };

function resolve<T>(value: T & { $ref?: string }): T {
  if (!value.$ref) return value;
  const [, , section, name] = value.$ref.split('/');
  return resolve(contract.components[section][name] as T & { $ref?: string });
}

function operation(operationId: string): Operation {
  for (const methods of Object.values(contract.paths)) {
    for (const op of Object.values(methods)) if (op.operationId === operationId) return op;
  }
  throw new Error(`no operation ${operationId}`);
}

function parameterNames(operationId: string): Set<string> {
  return new Set((operation(operationId).parameters ?? []).map((p) => resolve(p)).filter((p) => p.in === 'query' || p.in === 'path').map((p) => p.name));
}

function schemaProperties(schema: Schema | undefined): Record<string, Schema> {
  if (!schema) return {};
  const s = resolve(schema);
  const own = Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, resolve(v)]));
  return Object.assign({}, ...(s.allOf ?? []).map((part) => schemaProperties(part)), own);
}

/** The type checker over one copy of the type package, with a probe file that imports the request types. */
function typesAt(dir: string): { checker: ts.TypeChecker; type(name: string): ts.Type; version: string } {
  const probe = path.join(dir, '__contract_probe__.ts');
  const names = [...QUERY_TYPES.map(([n]) => n), ...BODY_TYPES.map(([n]) => n)];
  const source = `import type { ${names.join(', ')} } from '@lifi/types';\n${names.map((n) => `export type P_${n} = ${n};`).join('\n')}\n`;
  const options: ts.CompilerOptions = { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, strict: true, noEmit: true, skipLibCheck: true };
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  const exists = host.fileExists.bind(host);
  const getSource = host.getSourceFile.bind(host);
  host.readFile = (file) => (file === probe ? source : read(file));
  host.fileExists = (file) => file === probe || exists(file);
  host.getSourceFile = (file, language) => (file === probe ? ts.createSourceFile(file, source, language) : getSource(file, language));
  const program = ts.createProgram([probe], options, host);
  const checker = program.getTypeChecker();
  const file = program.getSourceFile(probe)!;
  const symbols = new Map(checker.getExportsOfModule(checker.getSymbolAtLocation(file)!).map((s) => [s.name, s]));
  const version = JSON.parse(fs.readFileSync(path.join(dir, 'node_modules/@lifi/types/package.json'), 'utf8')).version as string;
  return {
    checker,
    version,
    type(name) {
      const symbol = symbols.get(`P_${name}`);
      if (!symbol) throw new Error(`@lifi/types ${version} has no ${name}`);
      return checker.getDeclaredTypeOfSymbol(symbol);
    },
  };
}

/** A field of a type: its type (without null and undefined) and whether a request may leave it out. */
interface Field {
  type: ts.Type;
  optional: boolean;
}

/**
 * The fields of a type; of every member for a union (a request may be one of several shapes): a field is optional
 * when it is optional in a member or absent from one.
 */
function fieldsOf(checker: ts.TypeChecker, type: ts.Type): Map<string, Field> {
  const result = new Map<string, Field>();
  const members = type.isUnion() ? type.types : [type];
  for (const member of members) {
    for (const symbol of checker.getPropertiesOfType(member)) {
      const declaration = symbol.valueDeclaration ?? symbol.declarations?.[0];
      if (!declaration) continue;
      const optional = (symbol.flags & ts.SymbolFlags.Optional) !== 0 || (result.get(symbol.name)?.optional ?? false);
      result.set(symbol.name, { type: checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(symbol, declaration)), optional });
    }
  }
  for (const [name, field] of result) {
    if (members.some((m) => !checker.getPropertyOfType(m, name))) field.optional = true;
  }
  return result;
}

/** Property names of a type; of every member for a union. */
function propertiesOf(checker: ts.TypeChecker, type: ts.Type): Map<string, ts.Type> {
  return new Map([...fieldsOf(checker, type)].map(([name, field]) => [name, field.type]));
}

/** The object type inside a field's type (itself, or an array's element), if the field holds objects. */
function objectInside(checker: ts.TypeChecker, type: ts.Type): ts.Type | undefined {
  const element = checker.isArrayType(type) ? checker.getTypeArguments(type as ts.TypeReference)[0] : type;
  const members = element.isUnion() ? element.types : [element];
  if (members.every((m) => m.flags & ts.TypeFlags.Object && !checker.isArrayType(m) && checker.getPropertiesOfType(m).length > 0)) return element;
  return undefined;
}

type Kind = 'string' | 'number' | 'boolean' | 'array' | 'object';

/** What a type allows: its JSON types, its literal values, and for an array the same of its elements. */
interface Shape {
  kinds: Set<Kind>;
  literals: (string | number)[];
  element?: Shape;
}

/** The shape of a type; undefined when it allows anything (any, unknown). */
function shapeOf(checker: ts.TypeChecker, type: ts.Type): Shape | undefined {
  const shape: Shape = { kinds: new Set(), literals: [] };
  for (const member of type.isUnion() ? type.types : [type]) {
    const flags = member.flags;
    if (flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return undefined;
    if (member.isStringLiteral() || member.isNumberLiteral()) {
      shape.kinds.add(member.isStringLiteral() ? 'string' : 'number');
      shape.literals.push(member.value);
    } else if (flags & ts.TypeFlags.TemplateLiteral) {
      shape.kinds.add('string');
      shape.literals.push(templateSample(member as ts.TemplateLiteralType));
    } else if (flags & ts.TypeFlags.StringLike) shape.kinds.add('string');
    else if (flags & ts.TypeFlags.NumberLike) shape.kinds.add('number');
    else if (flags & ts.TypeFlags.BooleanLike) shape.kinds.add('boolean');
    else if (checker.isArrayType(member)) {
      shape.kinds.add('array');
      shape.element = shapeOf(checker, checker.getTypeArguments(member as ts.TypeReference)[0]);
    } else if (flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection)) shape.kinds.add('object');
  }
  return shape;
}

/** A value of a template literal type: each `${number}` as 1, each `${string}` as a. */
function templateSample(type: ts.TemplateLiteralType): string {
  return type.texts.reduce((text, part, k) => text + (k > 0 ? (type.types[k - 1].flags & ts.TypeFlags.NumberLike ? '1' : 'a') : '') + part, '');
}

/** The schema of a field as one object: itself, or the part of its `allOf` that says its type. */
function fieldSchema(schema: Schema): Schema {
  const s = resolve(schema);
  return [s, ...(s.allOf ?? []).map((part) => resolve(part))].find((part) => part.type || part.oneOf || part.anyOf) ?? s;
}

/** The JSON types a schema accepts; undefined for any. */
function schemaKinds(schema: Schema): Set<string> | undefined {
  const s = fieldSchema(schema);
  if (s.type) return new Set([s.type]);
  const parts = s.oneOf ?? s.anyOf;
  if (!parts) return undefined;
  const kinds = parts.map(schemaKinds);
  return kinds.some((k) => k === undefined) ? undefined : new Set(kinds.flatMap((k) => [...k!]));
}

function required(schema: Schema | undefined): Set<string> {
  if (!schema) return new Set();
  const s = resolve(schema);
  return new Set([...(s.required ?? []), ...(s.allOf ?? []).flatMap((part) => [...required(part)])]);
}

/** Validators of the contract's schemas: a body as JSON, a query with the server's coercion of text. */
const validators = { body: new Map<Schema, ValidateFunction>(), query: new Map<Schema, ValidateFunction>() };
const ajv = { body: new Ajv({ strict: false }), query: new Ajv({ strict: false, coerceTypes: true }) };
for (const instance of Object.values(ajv)) {
  addFormats(instance);
  instance.addSchema(JSON.parse(JSON.stringify({ components: contract.components }).replaceAll('"#/components/', '"contract#/components/')), 'contract');
}

function accepts(where: 'query' | 'body', schema: Schema, value: unknown): boolean {
  let validate = validators[where].get(schema);
  if (!validate) {
    validate = ajv[where].compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"contract#/components/')));
    validators[where].set(schema, validate);
  }
  return validate(where === 'query' ? String(value) : value);
}

/** Whether a schema takes values of a kind; in a query numbers and strings are the same text. */
function takesKind(where: 'query' | 'body', schema: Schema, kind: Kind, shape: Shape): boolean {
  const kinds = schemaKinds(schema);
  if (!kinds) return true;
  if (kinds.has(kind) || (kind === 'number' && kinds.has('integer'))) return true;
  if (where === 'body') return false;
  if (kind === 'number' || kind === 'boolean') return kinds.has('string');
  // a string: text that is a number when the type also allows a number (slippage=0.005)
  return kind === 'string' && shape.kinds.has('number') && (kinds.has('number') || kinds.has('integer'));
}

/** How the contract's schema of one field is narrower than its type: `<field> <check>` and what differs. */
function boundFindings(where: 'query' | 'body', checker: ts.TypeChecker, name: string, field: Field, schema: Schema, isRequired: boolean): [string, string][] {
  const found: [string, string][] = [];
  if (field.optional && isRequired) found.push([`${name} required`, 'optional in the type, required by the contract']);
  const shape = shapeOf(checker, field.type);
  if (!shape) return found;
  const s = fieldSchema(schema);
  for (const kind of shape.kinds) {
    if (!takesKind(where, s, kind, shape)) found.push([`${name} type`, `the type allows a ${kind}, the contract takes ${[...(schemaKinds(s) ?? [])].join(' or ')}`]);
  }
  if (shape.kinds.has('array') && s.type === 'array' && (s.minItems ?? 0) > 0) found.push([`${name} minItems`, `the type allows an empty array, the contract demands ${s.minItems} item(s)`]);
  const [values, valueSchema] = shape.element && s.items ? [shape.element.literals, s.items] : [shape.literals, s];
  const refused = values.filter((value) => !accepts(where, valueSchema, value));
  if (refused.length > 0) found.push([`${name} value`, `the contract refuses ${refused.map((v) => JSON.stringify(v)).join(', ')}`]);
  if (shape.element && s.items) {
    for (const kind of shape.element.kinds) {
      if (!takesKind(where, s.items, kind, shape.element)) found.push([`${name}/* type`, `the type allows a ${kind}, the contract takes ${[...(schemaKinds(s.items) ?? [])].join(' or ')}`]);
    }
  }
  return found;
}

interface BodyComparison {
  missing: string[];
  narrower: [string, string][];
}

function compareBody(checker: ts.TypeChecker, type: ts.Type, schema: Schema | undefined, pointer: string, nested: boolean, result: BodyComparison = { missing: [], narrower: [] }): BodyComparison {
  const declared = schemaProperties(schema);
  const requiredHere = required(schema);
  for (const [name, field] of fieldsOf(checker, type)) {
    if (!(name in declared)) {
      result.missing.push(`${pointer}/${name}`);
      continue;
    }
    result.narrower.push(...boundFindings('body', checker, `${pointer}/${name}`, field, declared[name], requiredHere.has(name)));
    const inner = nested ? objectInside(checker, field.type) : undefined;
    // a field described next to a shared schema is `allOf: [that schema]`
    const s = fieldSchema(declared[name]);
    const innerSchema = s.type === 'array' ? s.items : s;
    if (inner && innerSchema) compareBody(checker, inner, innerSchema, `${pointer}/${name}${s.type === 'array' ? '/*' : ''}`, nested, result);
  }
  return result;
}

function queryFindings(checker: ts.TypeChecker, type: ts.Type, operationId: string, rename: Record<string, string>): [string, string][] {
  const parameters = new Map((operation(operationId).parameters ?? []).map((p) => resolve(p)).filter((p) => p.in === 'query' || p.in === 'path').map((p) => [p.name, p]));
  return [...fieldsOf(checker, type)].flatMap(([typeName, field]) => {
    const parameter = parameters.get(rename[typeName] ?? typeName);
    return parameter?.schema ? boundFindings('query', checker, `?${parameter.name}`, field, parameter.schema, parameter.required === true) : [];
  });
}

/** The findings not kept on purpose, and the exceptions of this type that were not found (stale). */
function unexpected(typeName: string, found: [string, string][]): { narrower: string[]; stale: string[] } {
  const keys = new Set(found.map(([key]) => `${typeName} ${key}`));
  return {
    narrower: found.filter(([key]) => !(`${typeName} ${key}` in NARROWER_ON_PURPOSE)).map(([key, why]) => `${key}: ${why}`),
    stale: Object.keys(NARROWER_ON_PURPOSE).filter((key) => key.startsWith(`${typeName} `) && !keys.has(key)),
  };
}

describe.each(TYPE_PACKAGES.map((dir) => [path.relative(ROOT, dir) || '(top level)', dir] as const))("the ecosystem's request types in %s", (_label, dir) => {
  const types = typesAt(dir);

  it.each(QUERY_TYPES)('%s: every field is a parameter of %s', (typeName, operationId, rename) => {
    const declared = parameterNames(operationId);
    const fields = [...propertiesOf(types.checker, types.type(typeName)).keys()].map((name) => rename[name] ?? name);
    expect(fields.length).toBeGreaterThan(0);
    expect({ version: types.version, missing: fields.filter((name) => !declared.has(name)) }).toEqual({ version: types.version, missing: [] });
  });

  it.each(QUERY_TYPES)('%s: %s accepts every value the type allows', (typeName, operationId, rename) => {
    const found = queryFindings(types.checker, types.type(typeName), operationId, rename);
    expect({ version: types.version, ...unexpected(typeName, found) }).toEqual({ version: types.version, narrower: [], stale: [] });
  });

  it.each(BODY_TYPES)('%s: every field is in the body of %s', (typeName, operationId, nested) => {
    const { missing } = compareBody(types.checker, types.type(typeName), bodyOf(operationId), '', nested);
    expect(propertiesOf(types.checker, types.type(typeName)).size).toBeGreaterThan(0);
    expect({ version: types.version, missing }).toEqual({ version: types.version, missing: [] });
  });

  it.each(BODY_TYPES)('%s: the body of %s accepts every value the type allows', (typeName, operationId, nested) => {
    const { narrower } = compareBody(types.checker, types.type(typeName), bodyOf(operationId), '', nested);
    expect({ version: types.version, ...unexpected(typeName, narrower) }).toEqual({ version: types.version, narrower: [], stale: [] });
  });
});

function bodyOf(operationId: string): Schema | undefined {
  const body = operation(operationId).requestBody;
  return body && resolve(body as { $ref?: string } & typeof body).content['application/json'].schema;
}

test('both copies of the type package are looked at (the SDK pins its own)', () => {
  expect(TYPE_PACKAGES.length).toBe(2);
});

test('the bounds comparison finds what is narrower', () => {
  const { checker, type } = typesAt(TYPE_PACKAGES[0]);
  const field = (name: string) => fieldsOf(checker, type('QuoteRequest')).get(name)!;
  // a required optional field, a non-empty list, a missing enum value, a number-only schema for a string | number
  expect(boundFindings('query', checker, '?toAddress', field('toAddress'), { type: 'string' }, true).map(([k]) => k)).toEqual(['?toAddress required']);
  expect(boundFindings('query', checker, '?allowBridges', field('allowBridges'), { type: 'array', minItems: 1, items: { type: 'string' } }, false).map(([k]) => k)).toEqual(['?allowBridges minItems']);
  const order = boundFindings('query', checker, '?order', field('order'), { type: 'string', enum: ['CHEAPEST'] } as Schema, false);
  expect(order).toEqual([['?order value', 'the contract refuses "RECOMMENDED", "FASTEST", "SAFEST"']]);
  expect(boundFindings('body', checker, '/slippage', field('slippage'), { type: 'number' }, false).map(([k]) => k)).toEqual(['/slippage type']);
  expect(boundFindings('query', checker, '?slippage', field('slippage'), { type: 'number' }, false)).toEqual([]);
});
