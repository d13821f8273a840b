/**
 * allow / deny / prefer lists for bridges and exchanges. Special values: `all` (every tool of that type),
 * `none` and `[]` (no tool), `default` (the default settings: every tool). An empty or absent allow list means
 * the default. A tool is usable when it is allowed and not denied; preferred tools rank first.
 *
 * A name no tool has is refused (a typo would otherwise narrow or widen the search unseen), except a retired tool's
 * (the catalog's `retired`: Connext's `amarok`, which the ecosystem's SDK examples still name): it is left out of
 * the list, which keeps the other tools it names; an allow list naming only retired tools is refused, since it would
 * allow nothing that runs.
 */
import type { RetiredTool } from '../entities';
import { InvalidRequestError } from '../errors';

export interface ToolSelection {
  readonly allow?: readonly string[];
  readonly deny?: readonly string[];
  readonly prefer?: readonly string[];
}

export interface ToolPolicy {
  readonly kind: 'bridge' | 'exchange';
  allows(key: string): boolean;
  prefers(key: string): boolean;
  /** Why a tool is not usable, for the no-route reasons. */
  whyNot(key: string): string | undefined;
  readonly hasPreferences: boolean;
}

type Resolved = { mode: 'all' } | { mode: 'none' } | { mode: 'list'; keys: Set<string> };

export function toolPolicy(kind: 'bridge' | 'exchange', selection: ToolSelection, known: readonly string[], retiredTools: readonly RetiredTool[] = []): ToolPolicy {
  const parameter = kind === 'bridge' ? 'Bridges' : 'Exchanges';
  const retired = new Map(retiredTools.filter((t) => t.kind === kind).map((t) => [t.key, t]));
  const allow = resolve(selection.allow, `allow${parameter}`, known, 'all', retired);
  const deny = resolve(selection.deny, `deny${parameter}`, known, 'none', retired);
  const prefer = resolve(selection.prefer, `prefer${parameter}`, known, 'none', retired);
  const whyNot = (key: string) => {
    if (!inList(allow, key)) return `${kind} ${key} is not in allow${parameter}`;
    if (inList(deny, key)) return `${kind} ${key} is in deny${parameter}`;
    return undefined;
  };
  const everything = allow.mode === 'all' && deny.mode === 'none'; // the default: asked for every exchange a search extends
  return {
    kind,
    allows: (key) => everything || whyNot(key) === undefined,
    prefers: (key) => prefer.mode !== 'none' && inList(prefer, key),
    whyNot,
    hasPreferences: prefer.mode !== 'none',
  };
}

function inList(r: Resolved, key: string): boolean {
  return r.mode === 'all' || (r.mode === 'list' && r.keys.has(key));
}

function resolve(values: readonly string[] | undefined, parameter: string, known: readonly string[], whenAbsent: 'all' | 'none', retired: ReadonlyMap<string, RetiredTool>): Resolved {
  if (!values || values.length === 0) return { mode: whenAbsent };
  const named = values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
  const flat = named.filter((v) => !retired.has(v));
  if (flat.length === 0 && named.length > 0 && parameter.startsWith('allow')) {
    const which = named.map((v) => `${v} (${retired.get(v)!.name}: ${retired.get(v)!.note})`).join(', ');
    const message = `${parameter} names only retired tools, which carry nothing any more: ${which}; GET /v1/tools lists the tools that run`;
    throw new InvalidRequestError(message, { issues: [{ name: parameter, rule: 'runningTool', message: `retired: ${named.join(', ')}` }] });
  }
  if (flat.length === 0) return { mode: whenAbsent };
  if (flat.includes('all')) return { mode: 'all' };
  if (flat.includes('default')) return { mode: whenAbsent };
  if (flat.every((v) => v === 'none' || v === '[]')) return { mode: 'none' };
  const knownSet = new Set(known);
  const unknown = flat.filter((v) => v !== 'none' && v !== '[]' && !knownSet.has(v));
  if (unknown.length > 0) {
    throw new InvalidRequestError(`${parameter} names unknown tool(s) ${unknown.join(', ')}; GET /v1/tools lists them`, {
      issues: [{ name: parameter, rule: 'knownTool', message: `unknown: ${unknown.join(', ')}` }],
    });
  }
  return { mode: 'list', keys: new Set(flat.filter((v) => knownSet.has(v))) };
}
