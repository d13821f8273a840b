/**
 * API key management:  npm run keys -- <command> [options]
 *
 *   create --name NAME [--id ID] [--per-minute N] [--ip ADDRESS_OR_CIDR]... [--integrator ID]... [--json]
 *          prints the new key once (stdout; the rest goes to stderr) and stores only its SHA-256
 *   list [--json]                       ids, names, limits, restrictions, blocked state (never hashes)
 *   revoke ID                           removes the key
 *   block ID [--reason TEXT]            refuses the key with 403 until unblocked
 *   unblock ID
 *
 * The file is --file PATH, else API_KEYS_FILE. A running service re-reads it within 2 seconds.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseKeyDocument, serializeKeyDocument, type KeyDocument } from '../src/core/access/keyFile';
import { generateApiKey, generateKeyId, hashApiKey, type ApiKeyRecord } from '../src/core/access/keys';
import { keyLimits } from '../src/core/access/policy';

export interface CliIo {
  readonly env: Record<string, string | undefined>;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly now?: () => Date;
}

const USAGE = `usage: npm run keys -- <create|list|revoke|block|unblock> [options]
  create --name NAME [--id ID] [--per-minute N] [--ip ADDRESS_OR_CIDR]... [--integrator ID]... [--json]
  list [--json]
  revoke ID
  block ID [--reason TEXT]
  unblock ID
  common: --file PATH (default: $API_KEYS_FILE)`;

class UsageError extends Error {}

/** Runs one command; returns the process exit code (0 ok, 1 failure, 2 usage). */
export function runKeysCommand(argv: readonly string[], io: CliIo): number {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        file: { type: 'string' },
        name: { type: 'string' },
        id: { type: 'string' },
        'per-minute': { type: 'string' },
        ip: { type: 'string', multiple: true },
        integrator: { type: 'string', multiple: true },
        reason: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) {
      io.stdout(`${USAGE}\n`);
      return 0;
    }
    const [command, target, ...extra] = positionals;
    if (!command) throw new UsageError('no command given');
    const file = values.file ?? io.env.API_KEYS_FILE;
    if (!file) throw new UsageError('no key file: pass --file PATH or set API_KEYS_FILE');
    const needsTarget = ['revoke', 'block', 'unblock'].includes(command);
    if (needsTarget && !target) throw new UsageError(`${command} needs the key id`);
    if (extra.length > 0 || (!needsTarget && target)) throw new UsageError(`unexpected argument "${needsTarget ? extra[0] : target}"`);

    switch (command) {
      case 'create': {
        if (!values.name) throw new UsageError('create needs --name');
        const document = readDocument(file, true);
        const record: ApiKeyRecord = stripUndefined({
          id: values.id ?? generateKeyId(),
          name: values.name,
          sha256: '',
          createdAt: (io.now ?? (() => new Date()))().toISOString(),
          perMinute: values['per-minute'] === undefined ? undefined : Number(values['per-minute']),
          ipAllowlist: values.ip,
          integrators: values.integrator,
        });
        const key = generateApiKey();
        const stored = { ...record, sha256: hashApiKey(key) };
        writeDocument(file, { keys: [...document.keys, stored] });
        const limits = keyLimits(stored.perMinute);
        if (values.json) {
          io.stdout(`${JSON.stringify({ id: stored.id, key })}\n`);
        } else {
          io.stderr(`Created API key ${stored.id} (${stored.name}) in ${file}: ${limits.perMinute} requests per minute, ${limits.twoHourWindow} per two hours on quotes, routes and step transactions.\n`);
          io.stderr('The key follows. It is shown only now: the file keeps only its SHA-256. Send it in the x-svc-api-key header, from servers only.\n');
          io.stdout(`${key}\n`);
        }
        return 0;
      }
      case 'list': {
        const { keys } = readDocument(file, false);
        const rows = keys.map(({ sha256: _hash, ...rest }) => ({ ...rest, limits: keyLimits(rest.perMinute) }));
        if (values.json) {
          io.stdout(`${JSON.stringify(rows, null, 2)}\n`);
          return 0;
        }
        if (rows.length === 0) {
          io.stdout(`no keys in ${file}\n`);
          return 0;
        }
        for (const row of rows) {
          const parts = [
            row.id.padEnd(18),
            (row.name ?? '').padEnd(20),
            `${row.limits.perMinute}/min`.padEnd(10),
            row.blocked ? `BLOCKED${row.blockedReason ? ` (${row.blockedReason})` : ''}` : 'active',
          ];
          if (row.ipAllowlist) parts.push(`ips: ${row.ipAllowlist.join(',')}`);
          if (row.integrators) parts.push(`integrators: ${row.integrators.join(',')}`);
          if (row.createdAt) parts.push(`created ${row.createdAt}`);
          io.stdout(`${parts.join('  ')}\n`);
        }
        return 0;
      }
      case 'revoke':
      case 'block':
      case 'unblock': {
        const document = readDocument(file, false);
        const index = document.keys.findIndex((record) => record.id === target);
        if (index < 0) throw new Error(`no key with id "${target}" in ${file}`);
        const current = document.keys[index]!;
        const keys = [...document.keys];
        if (command === 'revoke') {
          keys.splice(index, 1);
        } else if (command === 'block') {
          keys[index] = stripUndefined({ ...current, blocked: true, blockedReason: values.reason ?? current.blockedReason });
        } else {
          const { blocked: _blocked, blockedReason: _reason, ...rest } = current;
          keys[index] = rest;
        }
        writeDocument(file, { keys });
        const done = { revoke: 'revoked (removed)', block: 'blocked', unblock: 'unblocked' }[command];
        io.stderr(`API key ${target} ${done}; a running service applies it within 2 seconds.\n`);
        return 0;
      }
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.stderr(`keys: ${(error as Error).message}\n${USAGE}\n`);
      return 2;
    }
    io.stderr(`keys: ${(error as Error).message}\n`);
    return 1;
  }
}

function readDocument(file: string, createIfMissing: boolean): KeyDocument {
  if (!fs.existsSync(file)) {
    if (createIfMissing) return { keys: [] };
    throw new Error(`key file ${file} does not exist (create a key first)`);
  }
  return parseKeyDocument(fs.readFileSync(file, 'utf8'), file);
}

/** Validates the whole document, then replaces the file atomically (owner-only permissions). */
function writeDocument(file: string, document: KeyDocument): void {
  const text = serializeKeyDocument(document);
  parseKeyDocument(text, file);
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, text, { mode: 0o600 });
  fs.renameSync(temporary, file);
}

function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

if (require.main === module) {
  process.exitCode = runKeysCommand(process.argv.slice(2), {
    env: process.env,
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  });
}
