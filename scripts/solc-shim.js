#!/usr/bin/env node
// A `solc` command line over solc-js (the project's npm `solc`, the compiler sandbox/compile.ts uses), for forge,
// which cannot download a native solc here (foundry.toml: solc = "scripts/solc-shim.js"). It answers what forge
// asks of a compiler: `--version`, and `--standard-json` (input on stdin, output on stdout), resolving imports that
// are not in the input from --base-path, --include-path and --allow-paths.
const fs = require('node:fs');
const path = require('node:path');
const solc = require('solc'); // resolved from scripts/: the repository's node_modules/solc

const args = process.argv.slice(2);
if (args.includes('--version')) {
  console.log(`solc, the solidity compiler commandline interface\nVersion: ${solc.version()}`);
  process.exit(0);
}
if (!args.includes('--standard-json')) {
  console.error(`solc-shim: only --version and --standard-json are supported (got: ${args.join(' ')})`);
  process.exit(2);
}
const bases = [process.cwd()];
for (let k = 0; k < args.length; k++) {
  if (args[k] === '--base-path') bases.unshift(args[k + 1]);
  if (args[k] === '--include-path' || args[k] === '--allow-paths') bases.push(...args[k + 1].split(','));
}
function findImports(unit) {
  for (const base of ['', ...bases]) {
    const file = path.resolve(base, unit);
    if (fs.existsSync(file)) return { contents: fs.readFileSync(file, 'utf8') };
  }
  return { error: `solc-shim: not found: ${unit}` };
}
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', () => process.stdout.write(solc.compile(input, { import: findImports })));
