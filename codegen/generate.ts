/**
 * Generates src/generated/openapi.ts from openapi.yaml with openapi-typescript.
 *   npm run codegen          write the file
 *   npm run codegen:check    fail when the committed file differs from a fresh generation
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const ROOT = path.resolve(__dirname, '..');
const SPEC = path.join(ROOT, 'openapi.yaml');
const OUTPUT = path.join(ROOT, 'src', 'generated', 'openapi.ts');
const HEADER = [
  '/**',
  ' * Generated from openapi.yaml by `npm run codegen` (openapi-typescript). Do not edit by hand:',
  ' * edit openapi.yaml and regenerate; `npm test` fails when this file is out of date.',
  ' */',
  '',
].join('\n');

export async function generate(): Promise<string> {
  const ast = await openapiTS(pathToFileURL(SPEC), { alphabetize: false, exportType: false });
  return HEADER + astToString(ast);
}

async function main(): Promise<void> {
  const fresh = await generate();
  if (process.argv.includes('--check')) {
    const committed = fs.existsSync(OUTPUT) ? fs.readFileSync(OUTPUT, 'utf8') : '';
    if (committed !== fresh) {
      process.stderr.write(
        `${path.relative(ROOT, OUTPUT)} is out of date with openapi.yaml: run \`npm run codegen\` and commit the result.\n`,
      );
      process.exit(1);
    }
    process.stdout.write(`${path.relative(ROOT, OUTPUT)} matches openapi.yaml\n`);
    return;
  }
  fs.mkdirSync(path.dirname(OUTPUT), { recursive: true });
  fs.writeFileSync(OUTPUT, fresh);
  process.stdout.write(`wrote ${path.relative(ROOT, OUTPUT)}\n`);
}

main().catch((error) => {
  process.stderr.write(`codegen failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
