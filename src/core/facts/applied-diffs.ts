// `git apply` and `patch` fed a unified diff in the command itself (a heredoc or a here-string): the
// files the diff names are written or deleted, and each gets the diff's context and added lines. An
// agent can put a file's new text there as well as in a Write, so it is read as such a write.
import type { SimpleCommand } from '../shell';
import { argsOf, optionValues } from './commands';
import { gitInvocation } from './git-invocation';
import { unifiedDiffFiles, type DiffFile } from './patch';

/** `git apply` options that only report on the patch, and `patch`'s dry run: nothing is written. */
const REPORTS_ONLY = /^--(check|stat|numstat|summary|dry-run)$/;

/** How many leading parts of each path the command strips (`-p1`, `-p 0`, `--strip=2`); undefined when not said. */
function stripCount(args: readonly string[]): number | undefined {
  const value = optionValues(args, ['p'], ['strip'])[0];
  const count = value === undefined ? NaN : Number(value);
  return Number.isInteger(count) && count >= 0 ? count : undefined;
}

function stripped(path: string, count: number | undefined): string {
  // Without -p, patch finds a git-style `a/` or `b/` path by its prefix; git apply strips one part.
  if (count === undefined) return /^[ab]\//.test(path) ? path.slice(2) : path;
  return path.split('/').slice(count).join('/');
}

/** The files a `git apply` or `patch` command changes with a diff it is handed in its own text. */
export function appliedDiffFiles(cmd: SimpleCommand): DiffFile[] {
  const git = gitInvocation(cmd);
  const args = git ? git.args : argsOf(cmd);
  if (git ? git.sub !== 'apply' : cmd.name !== 'patch') return [];
  if (args.some((a) => REPORTS_ONLY.test(a)) && !args.includes('--apply')) return [];
  const diff = cmd.redirects.find((r) => r.op === '<<' || r.op === '<<-' || r.op === '<<<')?.target;
  if (diff === undefined) return [];
  const strip = stripCount(args) ?? (git ? 1 : undefined);
  return unifiedDiffFiles(diff).map((file) => ({ ...file, path: stripped(file.path, strip) }));
}
