/**
 * API key management, on the service's database:  npm run keys -- <command> [options]
 *
 *   create --name NAME [--id ID] [--per-minute N] [--ip ADDRESS_OR_CIDR]... [--integrator ID]... [--json]
 *          prints the new key once (stdout; the rest goes to stderr) and stores only its SHA-256
 *   list [--json]                       ids, names, limits, restrictions, blocked state (never hashes)
 *   rotate ID [--grace-hours N] [--json]
 *          prints a new key once (same settings, new id); the old key keeps working N more hours (default 24)
 *   revoke ID                           the key never authenticates again
 *   block ID [--reason TEXT]            refuses the key with 403 until unblocked
 *   unblock ID_OR_ADDRESS               lifts every block in force of the key or client address (manual and automatic)
 *   blocks [--json]                     the blocks in force: subject, rule, reason, until when
 *
 * The database is DATABASE_URL (PostgreSQL) or DATABASE_DIR (PGlite's folder; default .data/db). --file PATH, else
 * API_KEYS_FILE, is a key document imported into the database first (once per content). A running service sees
 * every change within about a second. With PGlite, the folder serves one process: stop the service first, or share
 * a PostgreSQL server.
 */
import { parseArgs } from 'node:util';
import { clientLimitId, normalizeIp } from '../src/core/access/ipAddress';
import { keyLimits } from '../src/core/access/policy';
import { liftBlocks, listBlocks, type Block } from '../src/persistence/blocks';
import { databaseOptionsFromEnv, openDatabase, type Database } from '../src/persistence/database';
import { importKeyFile } from '../src/persistence/keyImport';
import { blockKey, createKey, getKey, listKeys, revokeKey, rotateKey, unblockKey } from '../src/persistence/keys';

export interface CliIo {
  readonly env: Record<string, string | undefined>;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly now?: () => Date;
  /** An open database to use (and leave open) instead of the environment's. */
  readonly database?: Database;
}

const USAGE = `usage: npm run keys -- <create|list|rotate|revoke|block|unblock|blocks> [options]
  create --name NAME [--id ID] [--per-minute N] [--ip ADDRESS_OR_CIDR]... [--integrator ID]... [--json]
  list [--json]
  rotate ID [--grace-hours N] [--json]
  revoke ID
  block ID [--reason TEXT]
  unblock ID_OR_ADDRESS
  blocks [--json]
  database: $DATABASE_URL (PostgreSQL) or $DATABASE_DIR (PGlite folder, default .data/db)
  common: --file PATH (default: $API_KEYS_FILE): import that key file into the database first (once)`;

const COMMANDS = ['create', 'list', 'rotate', 'revoke', 'block', 'unblock', 'blocks'];
const WITH_TARGET = ['rotate', 'revoke', 'block', 'unblock'];
const DEFAULT_GRACE_HOURS = 24;

class UsageError extends Error {}

/** Runs one command; resolves to the process exit code (0 ok, 1 failure, 2 usage). */
export async function runKeysCommand(argv: readonly string[], io: CliIo): Promise<number> {
  let opened: Database | undefined;
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
        'grace-hours': { type: 'string' },
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
    if (!COMMANDS.includes(command)) throw new UsageError(`unknown command "${command}"`);
    const needsTarget = WITH_TARGET.includes(command);
    if (needsTarget && !target) throw new UsageError(`${command} needs the key id${command === 'unblock' ? ' or client address' : ''}`);
    if (extra.length > 0 || (!needsTarget && target)) throw new UsageError(`unexpected argument "${needsTarget ? extra[0] : target}"`);
    if (command === 'create' && !values.name) throw new UsageError('create needs --name');

    const database = io.database ?? (opened = await openDatabase(databaseOptionsFromEnv(io.env)));
    const { db } = database;
    const now = (io.now ?? (() => new Date()))();
    const by = { actor: io.env.USER ? `cli:${io.env.USER}` : 'cli', now };
    const file = values.file ?? io.env.API_KEYS_FILE;
    if (file) {
      const imported = await importKeyFile(db, file, { now });
      if (imported.imported) {
        const skipped = imported.skipped.length > 0 ? ` (${imported.skipped.length} already there: ${imported.skipped.join(', ')})` : '';
        io.stderr(`Imported ${imported.added.length} keys from ${file} into the database${skipped}; this file is not imported again unless it changes.\n`);
      }
    }

    switch (command) {
      case 'create': {
        const issued = await createKey(
          db,
          {
            name: values.name!,
            ...(values.id === undefined ? {} : { id: values.id }),
            ...(values['per-minute'] === undefined ? {} : { perMinute: Number(values['per-minute']) }),
            ...(values.ip === undefined ? {} : { ipAllowlist: values.ip }),
            ...(values.integrator === undefined ? {} : { integrators: values.integrator }),
          },
          by,
        );
        const limits = keyLimits(issued.view.perMinute);
        if (values.json) {
          io.stdout(`${JSON.stringify({ id: issued.view.id, key: issued.key })}\n`);
        } else {
          io.stderr(`Created API key ${issued.view.id} (${issued.view.name}) in ${database.location}: ${limits.perMinute} requests per minute, ${limits.twoHourWindow} per two hours on quotes, routes and step transactions.\n`);
          io.stderr('The key follows. It is shown only now: the database keeps only its SHA-256. Send it in the x-svc-api-key header, from servers only.\n');
          io.stdout(`${issued.key}\n`);
        }
        return 0;
      }
      case 'list': {
        const rows = (await listKeys(db, { now })).map((view) => ({ ...view, limits: keyLimits(view.perMinute) }));
        if (values.json) {
          io.stdout(`${JSON.stringify(rows, null, 2)}\n`);
          return 0;
        }
        if (rows.length === 0) {
          io.stdout(`no keys in ${database.location}\n`);
          return 0;
        }
        for (const row of rows) {
          const parts = [
            row.id.padEnd(18),
            (row.name ?? '').padEnd(20),
            `${row.limits.perMinute}/min`.padEnd(10),
            row.blocked ? `BLOCKED${row.blockedReason ? ` (${row.blockedReason})` : ''}` : 'active',
          ];
          if (row.expiresAt) parts.push(`expires ${row.expiresAt} (rotated to ${row.rotatedTo})`);
          if (row.integratorId) parts.push(`integrator: ${row.integratorId}`);
          if (row.ipAllowlist) parts.push(`ips: ${row.ipAllowlist.join(',')}`);
          if (row.integrators) parts.push(`integrators: ${row.integrators.join(',')}`);
          parts.push(`created ${row.createdAt}`);
          io.stdout(`${parts.join('  ')}\n`);
        }
        return 0;
      }
      case 'rotate': {
        const hours = values['grace-hours'] === undefined ? DEFAULT_GRACE_HOURS : Number(values['grace-hours']);
        const rotation = await rotateKey(db, target!, hours * 3_600_000, by);
        if (values.json) {
          io.stdout(`${JSON.stringify({ id: rotation.view.id, key: rotation.key, replaces: rotation.previous.id, previousExpiresAt: rotation.previous.expiresAt })}\n`);
        } else {
          io.stderr(`Rotated API key ${target}: the new key is ${rotation.view.id}, with the same settings. ${target} keeps working until ${rotation.previous.expiresAt} (${hours} hours): deploy the new key before then.\n`);
          io.stderr('The new key follows. It is shown only now: the database keeps only its SHA-256.\n');
          io.stdout(`${rotation.key}\n`);
        }
        return 0;
      }
      case 'revoke':
      case 'block': {
        if (command === 'revoke') await revokeKey(db, target!, { ...by, ...(values.reason === undefined ? {} : { reason: values.reason }) });
        else await blockKey(db, target!, { ...by, ...(values.reason === undefined ? {} : { reason: values.reason }) });
        io.stderr(`API key ${target} ${command === 'revoke' ? 'revoked' : 'blocked'}; a running service applies it within about a second.\n`);
        return 0;
      }
      case 'unblock': {
        let lifted: Block[];
        let what: string;
        if (await getKey(db, target!, now)) {
          lifted = await unblockKey(db, target!, by);
          what = `API key ${target}`;
        } else {
          const address = normalizeIp(target) === undefined ? target! : clientLimitId(target!);
          lifted = await liftBlocks(db, { kind: 'client', id: address }, by);
          if (lifted.length === 0) throw new Error(`no key with id "${target}", and no block in force of the client address ${address}`);
          what = `client ${address}`;
        }
        const rules = lifted.map((liftedBlock) => liftedBlock.rule).join(', ');
        io.stderr(lifted.length === 0 ? `${what} was not blocked.\n` : `${what} unblocked (lifted: ${rules}); a running service applies it within about a second.\n`);
        return 0;
      }
      case 'blocks': {
        const blocks = await listBlocks(db, { active: true, now });
        if (values.json) {
          io.stdout(`${JSON.stringify(blocks, null, 2)}\n`);
          return 0;
        }
        if (blocks.length === 0) {
          io.stdout('no blocks in force\n');
          return 0;
        }
        for (const shown of blocks) {
          const parts = [
            `${shown.subject.kind} ${shown.subject.id}`.padEnd(30),
            shown.rule.padEnd(16),
            (shown.until ? `until ${shown.until}` : 'until lifted').padEnd(30),
            `#${shown.level}`.padEnd(4),
            `since ${shown.since} by ${shown.createdBy}`,
          ];
          if (shown.reason) parts.push(`(${shown.reason})`);
          io.stdout(`${parts.join('  ')}\n`);
        }
        return 0;
      }
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (error instanceof UsageError || (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'))) {
      io.stderr(`keys: ${(error as Error).message}\n${USAGE}\n`);
      return 2;
    }
    io.stderr(`keys: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await opened?.close();
  }
}

if (require.main === module) {
  void runKeysCommand(process.argv.slice(2), {
    env: process.env,
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  }).then((code) => {
    process.exitCode = code;
  });
}
