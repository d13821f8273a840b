import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { CLIENT_ENTRY, PAGE_CSP, PAGE_HTML, pageScript } from '../../../src/portal/page';

jest.setTimeout(60_000);

test('the policy lets the page run its own script and stylesheet and talk to its own origin, nothing else', () => {
  const directives = Object.fromEntries(PAGE_CSP.split('; ').map((directive) => {
    const [name, ...values] = directive.split(' ');
    return [name, values];
  }));
  expect(directives).toEqual({
    'default-src': ["'none'"],
    'script-src': ["'self'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:'],
    'connect-src': ["'self'"],
    'base-uri': ["'none'"],
    'form-action': ["'none'"],
    'frame-ancestors': ["'none'"],
  });
  expect(PAGE_CSP).not.toMatch(/unsafe|\*/);
});

test('the page has no inline script or style, and loads its own script and stylesheet', () => {
  expect(PAGE_HTML).not.toMatch(/<script>|<style|\sstyle=|\son[a-z]+=/);
  expect(PAGE_HTML).toContain('<script src="/portal/portal.js" defer></script>');
  expect(PAGE_HTML).toContain('<link rel="stylesheet" href="/portal/portal.css" />');
});

test('the script bundles (once) and never writes markup from strings', async () => {
  const first = await pageScript();
  expect(first.length).toBeGreaterThan(10_000);
  expect(await pageScript()).toBe(first);
  expect(first).not.toMatch(/\.innerHTML\s*=|insertAdjacentHTML|document\.write\(/);
  expect(first).toContain('/portal/api');
});

test('the script type-checks as browser code (client/tsconfig.json)', async () => {
  const tsc = require.resolve('typescript/bin/tsc');
  const project = path.join(path.dirname(CLIENT_ENTRY), 'tsconfig.json');
  await expect(promisify(execFile)(process.execPath, [tsc, '--noEmit', '-p', project])).resolves.toBeDefined();
});
