/**
 * The base of the breaking-change gate: the contract the change under review started from, read from git.
 *
 * The rule (`npm run contract:diff`, in a working tree and in CI alike):
 *   1. `--base <git-ref>`: that commit's openapi.yaml (CI for a pull request passes where the branch left the main
 *      branch, `$(git merge-base origin/main HEAD)`, so that the branch's commits are judged together; CI for a
 *      push of several commits passes the commit before the push);
 *   2. otherwise, when openapi.yaml in the working tree differs from HEAD's, the change under review
 *      is that edit: the base is HEAD;
 *   3. otherwise the change under review is the commit HEAD itself (a clean checkout, as CI has): the base is
 *      HEAD's first parent (for a merge on the main branch, the main branch before it).
 * No base, and the gate compares with the released contract only, when there is nothing earlier to break: not a
 * git work tree, no commit yet, HEAD the first commit, or no openapi.yaml at the base. A shallow clone that lacks
 * HEAD's parent is judged against the release only, and the report says so (the naming rule holds there too).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export type BaseChoice =
  /** `label`: the base as the report names it; `review`: what the change under review is. */
  | { kind: 'base'; ref: string; commit: string; label: string; review: string; text: string }
  | { kind: 'none'; reason: string }
  | { kind: 'error'; reason: string };

function git(repo: string, args: string[]): string | undefined {
  try {
    return execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024 });
  } catch {
    return undefined;
  }
}

/** The commit a ref names, or undefined. */
function commitOf(repo: string, ref: string): string | undefined {
  return git(repo, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])?.trim() || undefined;
}

/** The file as the commit has it (`<commit>:./<file>`, relative to the repository directory), or undefined. */
function fileAt(repo: string, commit: string, file: string): string | undefined {
  return git(repo, ['show', `${commit}:./${file.split(path.sep).join('/')}`]);
}

/**
 * The base for the contract `file` (relative to `repo`) of the repository at `repo`.
 * `explicit` is the `--base` option.
 */
export function chooseBase(repo: string, options: { file?: string; explicit?: string } = {}): BaseChoice {
  const file = options.file ?? 'openapi.yaml';
  const short = (commit: string) => commit.slice(0, 12);
  if (options.explicit) {
    const commit = commitOf(repo, options.explicit);
    if (!commit) return { kind: 'error', reason: `--base ${options.explicit}: no such commit in ${repo}` };
    const text = fileAt(repo, commit, file);
    if (text === undefined) return { kind: 'none', reason: `${options.explicit} (${short(commit)}) has no ${file}: nothing earlier to break` };
    return { kind: 'base', ref: options.explicit, commit, label: `${options.explicit} (${short(commit)}, given by --base)`, review: `${file} as it is now`, text };
  }
  if (git(repo, ['rev-parse', '--is-inside-work-tree'])?.trim() !== 'true') return { kind: 'none', reason: `${repo} is not a git work tree` };
  const head = commitOf(repo, 'HEAD');
  if (!head) return { kind: 'none', reason: 'the repository has no commit yet' };
  const atHead = fileAt(repo, head, file);
  if (atHead === undefined) return { kind: 'none', reason: `HEAD (${short(head)}) has no ${file}: nothing earlier to break` };
  const working = fs.readFileSync(path.join(repo, file), 'utf8');
  if (working !== atHead) {
    return { kind: 'base', ref: 'HEAD', commit: head, label: `HEAD (${short(head)})`, review: `${file} in the working tree, which differs from HEAD's`, text: atHead };
  }
  const parent = commitOf(repo, 'HEAD^1');
  if (!parent) {
    if (git(repo, ['rev-parse', '--is-shallow-repository'])?.trim() === 'true') {
      // a CI that clones one commit deep still gets the gate: every breaking change since the last release must be
      // named by operation and place all the same, which is what a second break hiding behind a first would miss
      return { kind: 'none', reason: `HEAD's parent is not in this shallow clone: the contract is judged against the last release only (git fetch --deepen=1, or --base <git-ref>, to judge the change under review itself)` };
    }
    return { kind: 'none', reason: `HEAD (${short(head)}) is the repository's first commit` };
  }
  const text = fileAt(repo, parent, file);
  if (text === undefined) return { kind: 'none', reason: `HEAD's parent (${short(parent)}) has no ${file}: nothing earlier to break` };
  return { kind: 'base', ref: 'HEAD~1', commit: parent, label: `HEAD~1 (${short(parent)})`, review: `the commit HEAD (${short(head)}); ${file} in the working tree is HEAD's`, text };
}
