/**
 * Automatic temporary blocking (specification, Authentication 7): keys or client addresses that persistently exceed
 * their limits, that try to multiply their limits with several keys or addresses, or that degrade the service.
 * Pure rules over what was counted in a recent window (the usage the access control records, shared by every
 * instance through the database); the caller stores the blocks they decide, and the access rules refuse a blocked
 * subject (403) until its block ends or an operator lifts it.
 *
 * The rules and their defaults (BLOCKING_DEFAULTS; configurable, docs/integrating.md "Automatic blocking"):
 * - sustained-429: a key or client refused with 429 in at least `sustainedMinutes` (10) of the last `windowMinutes`
 *   (15) minutes. A caller within its limits is never refused with 429, so it is never blocked by this rule.
 * - keys-per-address: one client address using at least `keysPerAddress` (3) different keys in the window while
 *   being refused with 429 on any of them (switching keys to multiply limits): the address is blocked.
 * - key-spread: one key presented from at least `foreignAddresses` (3) different addresses outside its allowlist in
 *   the window (a key leaked or spread beyond the addresses it was issued for): those addresses are blocked, and the
 *   key is not — its owner keeps its service from the allowlist (the foreign requests were refused anyway).
 * - expensive-share: a subject whose route searches (quote and routes operations) in the window are at least
 *   `expensiveMinimum` (2,000) and at least `expensiveShare` (half) of all the service's, while it was refused
 *   with 429 on them (it keeps pushing the most expensive requests past its limit): blocked.
 * A block lasts `baseMinutes` (15) × 4^(earlier blocks of the subject), at most `maxMinutes` (one day): 15 min,
 * 1 h, 4 h, 16 h, then a day.
 */

export type BlockRule = 'sustained-429' | 'keys-per-address' | 'key-spread' | 'expensive-share';

export interface BlockSubject {
  readonly kind: 'key' | 'client';
  /** A key id, or a client's rate-limit id (an IPv4 address or an IPv6 /64). */
  readonly id: string;
}

export interface BlockingThresholds {
  readonly windowMinutes: number;
  readonly sustainedMinutes: number;
  readonly keysPerAddress: number;
  readonly foreignAddresses: number;
  readonly expensiveMinimum: number;
  readonly expensiveShare: number;
  readonly baseMinutes: number;
  readonly maxMinutes: number;
}

export const BLOCKING_DEFAULTS: BlockingThresholds = Object.freeze({
  windowMinutes: 15,
  sustainedMinutes: 10,
  keysPerAddress: 3,
  foreignAddresses: 3,
  expensiveMinimum: 2000,
  expensiveShare: 0.5,
  baseMinutes: 15,
  maxMinutes: 24 * 60,
});

/** What the window counted, per subject and across them. */
export interface UsageWindow {
  readonly subjects: readonly {
    readonly subject: BlockSubject;
    /** Minutes of the window in which the subject was refused with 429 at least once. */
    readonly minutesWith429: number;
    /** Its route searches (quote and routes operations), and how many of them were refused with 429. */
    readonly expensive: number;
    readonly expensive429: number;
  }[];
  /** Route searches of every subject in the window. */
  readonly totalExpensive: number;
  /** Per client address: the keys it presented in the window, and whether it was refused with 429 on any. */
  readonly keysByAddress: readonly { readonly clientId: string; readonly keyIds: readonly string[]; readonly refused429: boolean }[];
  /** Per key: the addresses it was refused from for being outside its allowlist. */
  readonly foreignAddressesByKey: readonly { readonly keyId: string; readonly clientIds: readonly string[] }[];
}

export interface BlockDecision {
  readonly subject: BlockSubject;
  readonly rule: BlockRule;
  readonly reason: string;
  /** How long (minutes), from the subject's earlier blocks. */
  readonly minutes: number;
}

/**
 * The blocks the window calls for, one per subject (the first rule that applies, in the order above); subjects
 * already blocked (`active`) are left out. `earlierBlocks` counts each subject's past blocks (for the duration).
 */
export function blocksToMake(
  usage: UsageWindow,
  thresholds: BlockingThresholds,
  context: { readonly active: (subject: BlockSubject) => boolean; readonly earlierBlocks: (subject: BlockSubject) => number },
): BlockDecision[] {
  const decided = new Map<string, BlockDecision>();
  const decide = (subject: BlockSubject, rule: BlockRule, reason: string): void => {
    const id = `${subject.kind}:${subject.id}`;
    if (decided.has(id) || context.active(subject)) return;
    decided.set(id, { subject, rule, reason, minutes: blockMinutes(context.earlierBlocks(subject), thresholds) });
  };
  const { windowMinutes } = thresholds;
  for (const s of usage.subjects) {
    if (s.minutesWith429 >= thresholds.sustainedMinutes) {
      decide(s.subject, 'sustained-429', `persistently exceeding its limits: refused with 429 in ${s.minutesWith429} of the last ${windowMinutes} minutes`);
    }
  }
  for (const a of usage.keysByAddress) {
    const keys = new Set(a.keyIds);
    if (a.refused429 && keys.size >= thresholds.keysPerAddress) {
      decide({ kind: 'client', id: a.clientId }, 'keys-per-address', `bypassing limits with several keys: ${keys.size} API keys used from this address in the last ${windowMinutes} minutes, beyond their limits`);
    }
  }
  for (const k of usage.foreignAddressesByKey) {
    const addresses = [...new Set(k.clientIds)].sort();
    if (addresses.length >= thresholds.foreignAddresses) {
      for (const clientId of addresses) {
        decide({ kind: 'client', id: clientId }, 'key-spread', `using API key ${k.keyId} outside its allowlist: the key was presented from ${addresses.length} addresses outside its allowlist in the last ${windowMinutes} minutes`);
      }
    }
  }
  for (const s of usage.subjects) {
    const share = usage.totalExpensive > 0 ? s.expensive / usage.totalExpensive : 0;
    if (s.expensive >= thresholds.expensiveMinimum && share >= thresholds.expensiveShare && s.expensive429 > 0) {
      decide(s.subject, 'expensive-share', `degrading the service: ${Math.round(share * 100)} % of all route searches in the last ${windowMinutes} minutes, past its limits`);
    }
  }
  return [...decided.values()];
}

/** baseMinutes × 4^earlier, at most maxMinutes. */
export function blockMinutes(earlier: number, thresholds: Pick<BlockingThresholds, 'baseMinutes' | 'maxMinutes'>): number {
  return Math.min(thresholds.maxMinutes, thresholds.baseMinutes * 4 ** Math.min(earlier, 10));
}
