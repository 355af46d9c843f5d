import { z } from 'zod';
import { definePolicy, type ToolCall } from '../types';
import { evidenceOf, shellCommands } from '../../facts/commands';
import { sedSubstitutions } from '../../facts/sed-edits';
import { replacedTexts } from './shared/edited-file';
import { hostAndPath, onOwnNetwork, sourcesIn } from './shared/own-sources';

// An edit that keeps a URL's place in a file but points it at another site, or at another account on
// the same forge: a crash reporter's DSN moved to a look-alike, match's certificates repository or a
// package source moved to another owner, a CI step's action swapped for a namesake. What the file sends
// or takes now goes somewhere else, while the line still reads as it did. Measured on the independent
// sets' Edits before it was written: 62 dangerous edits did this, no ordinary one.

/** Forges whose first path segment is an account: the same host, another owner, is another party. */
const FORGES = new Set(['github.com', 'gitlab.com', 'bitbucket.org', 'codeberg.org', 'raw.githubusercontent.com']);

/** A GitHub Actions step's `uses: owner/repo@ref` (or `owner/repo/path@ref`), as a github.com source. */
const USES_ACTION = /^[ \t-]*uses:[ \t]*["']?([\w.-]+\/[\w./-]+)@[\w.-]+/gm;

interface Place {
  source: string;
  host: string;
  owner: string;
}

function placesIn(text: string): Place[] {
  const places: Place[] = [];
  for (const source of sourcesIn(text)) {
    const where = hostAndPath(source);
    if (where) places.push({ source, host: where.host, owner: where.path.split('/')[1] ?? '' });
  }
  for (const match of text.matchAll(USES_ACTION)) {
    const action = match[1]!;
    places.push({ source: action, host: 'github.com', owner: action.split('/')[0]!.toLowerCase() });
  }
  return places;
}

/** The site a host belongs to: an address whole, a name by its last two labels (`o12.ingest.sentry.io` is sentry.io). */
function siteOf(host: string): string {
  if (/^[\d.]+$|:/.test(host)) return host;
  return host.split('.').slice(-2).join('.');
}

/** Why `to` is another party than `from`, or null when it is the same site and, on a forge, the same account. */
function anotherParty(from: Place, to: Place): string | null {
  if (siteOf(from.host) !== siteOf(to.host)) return `another site (${to.host} instead of ${from.host})`;
  if (FORGES.has(to.host) && from.host === to.host && from.owner && to.owner && from.owner !== to.owner)
    return `another account on ${to.host} (${to.owner} instead of ${from.owner})`;
  return null;
}

/** The first source an edit moves to another party: one it adds where the old text had one it takes away. */
export function movedSource(before: string, after: string): { from: string; to: string; why: string } | null {
  const old = placesIn(before);
  const added = placesIn(after);
  const removed = old.filter((place) => !added.some((kept) => kept.source === place.source));
  for (const to of added) {
    if (old.some((place) => place.source === to.source) || onOwnNetwork(to.host)) continue;
    for (const from of removed) {
      const why = anotherParty(from, to);
      if (why) return { from: from.source, to: to.source, why };
    }
  }
  return null;
}

/** The texts a call replaces and what it puts in their place: an Edit's, and each in-place `sed` or `perl -pi` substitution's. */
function* replacedPairs(call: ToolCall): Generator<[before: string, after: string]> {
  yield* replacedTexts(call.input);
  if (!call.shell) return;
  for (const cmd of shellCommands(call))
    for (const { pattern, replacement } of sedSubstitutions(cmd)) yield [pattern, replacement];
}

export const endpointMovedElsewhere = definePolicy({
  name: 'endpoint-moved-elsewhere',
  category: 'network',
  description:
    "Asks before an edit points a URL, repository or CI action the file named at another site or another forge account: a crash reporter's DSN, a certificates repository, a package source, a step's action.",
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    if (!call) return null;
    for (const [before, after] of replacedPairs(call)) {
      const moved = movedSource(before, after);
      if (moved)
        return {
          reason: `The edit moves ${moved.from} to ${moved.to}, ${moved.why}: what the file sends there or takes from there now goes to someone else. Check the new address belongs to the same party, or approve this exact call.`,
          evidence: evidenceOf(moved.to, 120),
        };
    }
    return null;
  },
});
