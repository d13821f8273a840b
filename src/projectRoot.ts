/**
 * The project's folder: the one that holds package.json, openapi.yaml and data/. Found from this file's folder
 * upwards, so that the same code finds it when it runs from src/ (tsx, the tests) and when it runs bundled into
 * dist/ (`npm run build`).
 */
import fs from 'node:fs';
import path from 'node:path';

export function findProjectRoot(from: string): string {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'openapi.yaml'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no project folder (package.json and openapi.yaml) above ${from}`);
  }
}

export const PROJECT_ROOT = findProjectRoot(__dirname);
