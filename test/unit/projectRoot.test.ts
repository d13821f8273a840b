import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findProjectRoot, PROJECT_ROOT } from '../../src/projectRoot';

test('the project folder is the one with package.json and openapi.yaml, from any folder below it', () => {
  expect(fs.existsSync(path.join(PROJECT_ROOT, 'openapi.yaml'))).toBe(true);
  expect(findProjectRoot(path.join(PROJECT_ROOT, 'src', 'core', 'fees'))).toBe(PROJECT_ROOT);
  expect(findProjectRoot(path.join(PROJECT_ROOT, 'dist'))).toBe(PROJECT_ROOT); // the build's folder, even before it exists
});

test('a folder outside any project is an error, not a guess', () => {
  const lone = fs.mkdtempSync(path.join(os.tmpdir(), 'no-project-'));
  try {
    expect(() => findProjectRoot(lone)).toThrow(/no project folder/);
  } finally {
    fs.rmSync(lone, { recursive: true });
  }
});
