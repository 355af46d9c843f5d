// The block's `targetScan`: for each target of the call, the words a person could name it by.
// Two changes are made to what the machine reads itself, both in the stricter direction: a word
// that is (part of) a secret becomes REDACTED_TARGET_WORD, and past the contract's cap only a
// prefix of the groups goes, marked incomplete (an incomplete scan clears nothing).
import { containsWholeLower, namesFor, MAX_NAMED_TARGETS, type NamingContext } from '../semantic/naming';
import type { TargetScan } from '../semantic/targets';
import { MAX_TARGET_SCAN_CHARS, REDACTED_TARGET_WORD } from './contract';

export interface CloudTargetScan {
  groups: string[][];
  complete: boolean;
}

/** Each target's names, lowercased (the naming check ignores case), sorted, each once. */
export function targetGroups(scan: TargetScan, ctx: NamingContext): string[][] {
  return scan.targets.map((target) => [...new Set(namesFor(target, ctx).map((name) => name.toLowerCase()))].sort());
}

/** A secret shorter than this is matched only whole: a short word inside it is not hidden for that. */
const PARTIAL_MATCH_LENGTH = 8;

/** Replaces every word that is, holds, or is a long part of a secret. */
export function hideSecretWords(groups: string[][], secrets: readonly string[]): string[][] {
  const lowered = [...new Set(secrets.map((s) => s.toLowerCase()).filter((s) => s.length > 0))];
  if (lowered.length === 0) return groups;
  const isSecret = (word: string): boolean =>
    lowered.some(
      (secret) =>
        secret === word ||
        (word.length >= PARTIAL_MATCH_LENGTH && secret.includes(word)) ||
        (secret.length >= PARTIAL_MATCH_LENGTH && word.includes(secret)),
    );
  return groups.map((group) => [...new Set(group.map((w) => (isSecret(w) ? REDACTED_TARGET_WORD : w)))].sort());
}

/** The groups whose serialized JSON fits in MAX_TARGET_SCAN_CHARS; the scan is incomplete past it. */
export function capTargetScan(groups: string[][], complete: boolean, cap = MAX_TARGET_SCAN_CHARS): CloudTargetScan {
  const kept: string[][] = [];
  let chars = 2; // "[]"
  for (const group of groups) {
    const cost = JSON.stringify(group).length + (kept.length > 0 ? 1 : 0);
    if (chars + cost > cap) return { groups: kept, complete: false };
    chars += cost;
    kept.push(group);
  }
  return { groups: kept, complete };
}

/**
 * Everything a naming check concludes from the groups and the words said, as one comparable
 * string: how many targets, whether a person spoke, whether every target is named, whether some
 * is. A word holding a NUL (a hidden secret) never counts as named.
 */
export function namingReading(groups: string[][], personSpoke: boolean, said: ReadonlyArray<string>): string {
  const texts = said.map((text) => text.toLowerCase());
  const named = (group: string[]): boolean =>
    group.some((word) => !word.includes('\u0000') && texts.some((text) => containsWholeLower(text, word)));
  if (groups.length > MAX_NAMED_TARGETS) return `${groups.length}|${personSpoke}|too-many`;
  const flags = groups.map(named);
  return `${groups.length}|${personSpoke}|${flags.every(Boolean)}|${flags.some(Boolean)}`;
}
