// "Could this path land in that folder?": for guards of one folder (Warden's state folder), asked
// of paths that may be globs, hold run-time words, or pass through symlinks.
import { isInside } from '../shell/paths';
import { isGlobWord, prefixCouldMatch, segmentsOf } from './globs';
import type { IoFacts } from './io';
import { resolveSystemPath, type PathPlace } from './system-paths';

export type Landing = 'no' | 'maybe' | 'yes';

export interface LandingOptions {
  /** The operation works on whole trees (rm -r, chmod -R, cp -r): naming a parent of the folder counts. */
  recursive?: boolean;
  /** Followed to find where an existing path really leads. */
  io?: IoFacts;
}

const RUN_TIME = /\$|`/;
const PROCESS_SUBSTITUTION = /^[<>]\(/;

function literalLanding(absolute: string, dir: string, recursive: boolean): Landing {
  if (isInside(absolute, dir)) return 'yes';
  return recursive && isInside(dir, absolute) ? 'yes' : 'no';
}

function globLanding(absolute: string, dir: string, recursive: boolean): Landing {
  const glob = segmentsOf(absolute);
  const target = segmentsOf(dir);
  if (!prefixCouldMatch(glob, target)) return 'no';
  if (glob.length >= target.length || glob.includes('**')) return 'maybe';
  return recursive ? 'maybe' : 'no';
}

/**
 * Whether `word` (as written in the call, resolved from `place`) could name `dir` or something in
 * it. 'maybe' when only run time can tell: a glob that could match, a word with `$`, `~-`.
 */
export function couldLandIn(word: string, dir: string, place: PathPlace, opts: LandingOptions = {}): Landing {
  // `<(…)` and `>(…)` name a pipe to a command, which is judged as a command of its own.
  if (PROCESS_SUBSTITUTION.test(word)) return 'no';
  const recursive = opts.recursive ?? false;
  const dynamicAt = word.search(RUN_TIME);
  if (dynamicAt !== -1) {
    const staticPart = word.slice(0, dynamicAt);
    const base = staticPart.slice(0, staticPart.lastIndexOf('/') + 1);
    // `$X/…` and `~-`: anywhere. `/tmp/$X`: only below /tmp.
    if (!base || !(base.startsWith('/') || base.startsWith('~'))) return 'maybe';
    const prefix = resolveSystemPath(base, place);
    if (!prefix.resolved) return 'maybe';
    return isInside(dir, prefix.absolute) || isInside(prefix.absolute, dir) ? 'maybe' : 'no';
  }
  const resolved = resolveSystemPath(word, place);
  if (!resolved.resolved) return 'maybe';
  const lexical = isGlobWord(resolved.absolute)
    ? globLanding(resolved.absolute, dir, recursive)
    : literalLanding(resolved.absolute, dir, recursive);
  if (lexical === 'yes' || isGlobWord(resolved.absolute) || !opts.io) return lexical;
  const real = opts.io.realpath(resolved.absolute);
  const realDir = opts.io.realpath(dir) ?? dir;
  if (real && literalLanding(real, realDir, recursive) === 'yes') return 'yes';
  return realDir !== dir && literalLanding(resolved.absolute, realDir, recursive) === 'yes' ? 'yes' : lexical;
}
