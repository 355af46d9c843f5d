// Did the human name every target of the call? Only then may their request clear or soften a
// policy the judge fired. The rule, deliberately strict:
// - a target counts as named when the human's text holds it as a whole word: as the call wrote it,
//   as its absolute path, relative to the project root or the cwd, or in its `~/` form;
// - a path's bare base name (`build`, `app.log`) counts only for a path inside the project: there the
//   human's "delete the build folder" plainly means it, while a `build` in the home folder or
//   elsewhere on the system must be named by its path;
// - a URL counts as named by the URL itself or by its host;
// - comparisons ignore case (people type `readme` for README.md's name) and trailing slashes;
// - a call with no targets names nothing that could be missed, so it passes (the task probes and
//   the other conditions still have to agree).
import path from 'node:path';
import type { CallTarget } from './targets';

export interface NamingContext {
  projectRoot: string;
  cwd: string;
  home: string;
}

export interface NamingResult {
  named: boolean;
  /** The targets the human did not name, as the call wrote them. */
  unnamed: string[];
}

const WORD_CHAR = /[A-Za-z0-9_\-/\\$~]/;

/** Whether `needle` occurs in `haystack` with no word character glued to either side. */
export function containsWhole(haystack: string, needle: string): boolean {
  return containsWholeLower(haystack.toLowerCase(), needle.toLowerCase());
}

/** containsWhole for text and name already lowercased. */
export function containsWholeLower(text: string, want: string): boolean {
  if (want === '') return false;
  for (let at = text.indexOf(want); at >= 0; at = text.indexOf(want, at + 1)) {
    const before = at > 0 ? text[at - 1] : undefined;
    const after = text[at + want.length];
    const next = text[at + want.length + 1];
    const cleanBefore = before === undefined || !(WORD_CHAR.test(before) || before === '.');
    // A sentence may end right after the name ("remove build."), and a folder may carry its slash
    // ("dist/"), but `build.sh` and `build/cache` are other names.
    const endsName = next === undefined || !(WORD_CHAR.test(next) || next === '.');
    const cleanAfter =
      after === undefined ||
      (!WORD_CHAR.test(after) && after !== '.') ||
      ((after === '.' || after === '/') && endsName);
    if (cleanBefore && cleanAfter) return true;
  }
  return false;
}

function stripSlashes(p: string): string {
  let end = p.length;
  while (end > 1 && (p[end - 1] === '/' || p[end - 1] === '\\')) end--;
  return p.slice(0, end);
}

function relativeIfInside(absolute: string, base: string): string | undefined {
  const rel = path.posix.relative(base, absolute);
  if (rel === '' || rel.startsWith('..') || path.posix.isAbsolute(rel)) return undefined;
  return rel;
}

/** The ways a human could name this target. */
export function namesFor(target: CallTarget, ctx: NamingContext): string[] {
  const names = new Set<string>();
  const add = (name: string | undefined): void => {
    if (!name) return;
    const clean = stripSlashes(name.replace(/^\.\/(?=.)/, ''));
    if (clean !== '' && clean !== '.' && clean !== '..') names.add(clean);
  };
  add(target.text);
  if (target.kind === 'path' && target.absolute) {
    add(target.absolute);
    add(relativeIfInside(target.absolute, ctx.projectRoot));
    add(relativeIfInside(target.absolute, ctx.cwd));
    const inHome = relativeIfInside(target.absolute, ctx.home);
    if (inHome) add(`~/${inHome}`);
    if (target.relation === 'inside-project' || target.relation === 'project-root')
      add(path.posix.basename(stripSlashes(target.absolute)));
  }
  if (target.kind === 'url') {
    try {
      add(new URL(target.text).hostname);
    } catch {
      /* not a URL after all: its text is the only name */
    }
  }
  return [...names];
}

/** Past this many targets nobody named them all; the check stops rather than grow with the call. */
export const MAX_NAMED_TARGETS = 256;

export function checkNaming(targets: CallTarget[], userSaid: readonly string[], ctx: NamingContext): NamingResult {
  if (targets.length > MAX_NAMED_TARGETS) return { named: false, unnamed: [`${targets.length} targets`] };
  const turns = userSaid.map((turn) => turn.toLowerCase());
  const unnamed: string[] = [];
  for (const target of targets) {
    const names = namesFor(target, ctx).map((name) => name.toLowerCase());
    if (!names.some((name) => turns.some((turn) => containsWholeLower(turn, name)))) unnamed.push(target.text);
  }
  return { named: unnamed.length === 0, unnamed };
}
