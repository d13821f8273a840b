/**
 * The contract declares every request parameter and body field of the ecosystem's request types, as its
 * published type package says them (`@lifi/types`: the copy the current SDK is built against, and the newest
 * one installed). The types are read with the TypeScript compiler, so a new release of the package that adds a
 * parameter makes this test name it.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { loadContract } from '../../../src/server/contract';
import { OPENAPI_PATH } from '../../support/contract';

interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  allOf?: Schema[];
  $ref?: string;
}
interface Parameter {
  name: string;
  in: string;
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

/** Property names of a type; of every member for a union (a request may be one of several shapes). */
function propertiesOf(checker: ts.TypeChecker, type: ts.Type): Map<string, ts.Type> {
  const result = new Map<string, ts.Type>();
  const members = type.isUnion() ? type.types : [type];
  for (const member of members) {
    for (const symbol of checker.getPropertiesOfType(member)) {
      const declaration = symbol.valueDeclaration ?? symbol.declarations?.[0];
      if (declaration) result.set(symbol.name, checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(symbol, declaration)));
    }
  }
  return result;
}

/** The object type inside a field's type (itself, or an array's element), if the field holds objects. */
function objectInside(checker: ts.TypeChecker, type: ts.Type): ts.Type | undefined {
  const element = checker.isArrayType(type) ? checker.getTypeArguments(type as ts.TypeReference)[0] : type;
  const members = element.isUnion() ? element.types : [element];
  if (members.every((m) => m.flags & ts.TypeFlags.Object && !checker.isArrayType(m) && checker.getPropertiesOfType(m).length > 0)) return element;
  return undefined;
}

function missingBodyFields(checker: ts.TypeChecker, type: ts.Type, schema: Schema | undefined, pointer: string, nested: boolean): string[] {
  const declared = schemaProperties(schema);
  const missing: string[] = [];
  for (const [name, fieldType] of propertiesOf(checker, type)) {
    if (!(name in declared)) {
      missing.push(`${pointer}/${name}`);
      continue;
    }
    const inner = nested ? objectInside(checker, fieldType) : undefined;
    // a field described next to a shared schema is `allOf: [that schema]`
    const fieldSchema = [declared[name], ...(declared[name].allOf ?? []).map((part) => resolve(part))].find((part) => part.type) ?? declared[name];
    const innerSchema = fieldSchema.type === 'array' ? fieldSchema.items : fieldSchema;
    if (inner && innerSchema) missing.push(...missingBodyFields(checker, inner, innerSchema, `${pointer}/${name}${fieldSchema.type === 'array' ? '/*' : ''}`, nested));
  }
  return missing;
}

describe.each(TYPE_PACKAGES.map((dir) => [path.relative(ROOT, dir) || '(top level)', dir] as const))("the ecosystem's request types in %s", (_label, dir) => {
  const types = typesAt(dir);

  it.each(QUERY_TYPES)('%s: every field is a parameter of %s', (typeName, operationId, rename) => {
    const declared = parameterNames(operationId);
    const fields = [...propertiesOf(types.checker, types.type(typeName)).keys()].map((name) => rename[name] ?? name);
    expect(fields.length).toBeGreaterThan(0);
    expect({ version: types.version, missing: fields.filter((name) => !declared.has(name)) }).toEqual({ version: types.version, missing: [] });
  });

  it.each(BODY_TYPES)('%s: every field is in the body of %s', (typeName, operationId, nested) => {
    const body = operation(operationId).requestBody;
    const schema = body && resolve(body as { $ref?: string } & typeof body).content['application/json'].schema;
    const missing = missingBodyFields(types.checker, types.type(typeName), schema, '', nested);
    expect(propertiesOf(types.checker, types.type(typeName)).size).toBeGreaterThan(0);
    expect({ version: types.version, missing }).toEqual({ version: types.version, missing: [] });
  });
});

test('both copies of the type package are looked at (the SDK pins its own)', () => {
  expect(TYPE_PACKAGES.length).toBe(2);
});
