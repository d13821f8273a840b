/**
 * What a name shown back to people may hold. Key names and integrator ids are shown in the portal, in the CLI's
 * listings and in logs: a control character can break a line or a terminal, and a bidirectional override or
 * isolate (U+202E RIGHT-TO-LEFT OVERRIDE...) makes text read differently from what it is ("yek-noitcudorp" shown
 * as "production-key"), so a name is refused if it holds any of them.
 */

/**
 * C0 controls (U+0000–U+001F), DEL and the C1 controls (U+007F–U+009F), the bidirectional embeddings and overrides
 * (U+202A–U+202E), isolates (U+2066–U+2069) and the invisible direction marks (U+200E, U+200F, U+061C).
 */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/u;

/** The rule of a name, as the 400 answers state it. */
export const NAME_RULE = 'no control characters (C0, C1), bidirectional overrides or isolates (U+202A–U+202E, U+2066–U+2069) or direction marks (U+200E, U+200F, U+061C)';

/** The first character of `text` that a name must not hold, as U+XXXX, or undefined when there is none. */
export function unsafeCharacter(text: string): string | undefined {
  const match = UNSAFE.exec(text);
  return match ? `U+${match[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}` : undefined;
}

/** A message naming `field`, the character found and the rule, for a name that breaks it; undefined otherwise. */
export function unsafeNameProblem(field: string, text: string): string | undefined {
  const found = unsafeCharacter(text);
  return found === undefined ? undefined : `${field} must hold ${NAME_RULE}; it holds ${found}`;
}
