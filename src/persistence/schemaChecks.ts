import { sql } from 'kysely';

/** A check that a text column holds one of `values` (the migrations spell out their own values). */
export function oneOf(column: string, values: readonly string[]) {
  return sql`${sql.ref(column)} in (${sql.join(values.map((value) => sql.lit(value)))})`;
}
