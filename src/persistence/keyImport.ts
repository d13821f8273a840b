/**
 * Moving from a key document (API_KEYS_FILE, API_KEYS: src/core/access/keyFile.ts) to the database: a document is
 * imported once, recorded by the SHA-256 of its text, so that the next start (or another instance starting at the
 * same moment) does not import it again. Its keys keep their ids, hashes, names, allowlists, integrators,
 * per-minute limits, creation times and manual blocks. The database is the keys' home afterwards: a key it already
 * holds (same id or same hash) is left as it is, so a changed document only adds the keys that are new.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { Kysely } from 'kysely';
import { parseKeyDocument } from '../core/access/keyFile';
import { insertBlock } from './blocks';
import { recordKeyEvent } from './keyEvents';
import type { Schema } from './schema';

export interface ImportResult {
  /** False: this document (same content) was imported before; nothing was done. */
  readonly imported: boolean;
  readonly source: string;
  readonly contentSha256: string;
  /** Ids of the keys added. */
  readonly added: readonly string[];
  /** Ids of the document's keys the database held already (by id or by hash), left unchanged. */
  readonly skipped: readonly string[];
}

/** The actor of the imports' key events and blocks. */
export const IMPORT_ACTOR = 'import';

/**
 * Imports a key document's text, once per content. `source` names it in the record and in messages (a file name,
 * `API_KEYS`). An invalid document throws KeyDocumentError and imports nothing.
 */
export async function importKeyDocument(db: Kysely<Schema>, input: { readonly text: string; readonly source: string; readonly now?: Date }): Promise<ImportResult> {
  const { keys } = parseKeyDocument(input.text, input.source);
  const contentSha256 = createHash('sha256').update(input.text, 'utf8').digest('hex');
  const now = input.now ?? new Date();
  const base = { source: input.source, contentSha256 };
  return db.transaction().execute(async (trx) => {
    // the record comes first: an instance importing the same document at the same moment waits for it, then skips
    const recorded = await trx
      .insertInto('key_imports')
      .values({ source: input.source, content_sha256: contentSha256, key_count: 0, imported_at: now })
      .onConflict((oc) => oc.column('content_sha256').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!recorded) return { ...base, imported: false, added: [], skipped: [] };
    const added: string[] = [];
    const skipped: string[] = [];
    for (const record of keys) {
      const createdAt = record.createdAt !== undefined && !Number.isNaN(Date.parse(record.createdAt)) ? new Date(record.createdAt) : now;
      const inserted = await trx
        .insertInto('api_keys')
        .values({
          id: record.id,
          sha256: record.sha256,
          name: record.name ?? null,
          integrator_id: null,
          integrators: record.integrators ? [...record.integrators] : null,
          ip_allowlist: record.ipAllowlist ? [...record.ipAllowlist] : null,
          per_minute: record.perMinute ?? null,
          created_at: createdAt,
        })
        .onConflict((oc) => oc.doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!inserted) {
        skipped.push(record.id);
        continue;
      }
      added.push(record.id);
      await recordKeyEvent(trx, { keyId: record.id, type: 'imported', at: now, actor: IMPORT_ACTOR, detail: { source: input.source } });
      if (record.blocked) {
        await insertBlock(trx, { subject: { kind: 'key', id: record.id }, rule: 'manual', reason: record.blockedReason ?? '', actor: IMPORT_ACTOR, now });
      }
    }
    await trx.updateTable('key_imports').set({ key_count: added.length }).where('id', '=', recorded.id).execute();
    return { ...base, imported: true, added, skipped };
  });
}

/** Imports a key file (API_KEYS_FILE), once per content; `source` defaults to the path given. */
export async function importKeyFile(db: Kysely<Schema>, file: string, options: { readonly source?: string; readonly now?: Date } = {}): Promise<ImportResult> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot read the API key file ${file}: ${(error as Error).message}`);
  }
  return importKeyDocument(db, { text, source: options.source ?? file, ...(options.now ? { now: options.now } : {}) });
}
