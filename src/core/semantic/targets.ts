// What a call acts on: the paths, URLs and refs it names. The envelope lists them as facts for the
// judge, and decide checks that the human named every one before their request may clear a policy.
import type { SimpleCommand } from '../shell';
import { relatePath, resolvePath, type PathRelation } from '../shell/paths';
import { argsOf, commandsWithCwd, parseFlags, redirectReads, redirectWrites } from '../facts/commands';
import { readTargets, writeTargets } from '../facts/targets';
import { DELETERS, FILE_OPERAND_PROGRAMS } from '../facts/targets';
import { SHELLS, inlineCode, interpreterKind } from '../facts/programs';
import { patchPaths } from '../facts/patch';
import type { ToolCall, TouchedPath } from '../policies/types';

export type TargetKind = 'path' | 'url' | 'ref' | 'word';

export interface CallTarget {
  /** As the call wrote it. */
  text: string;
  kind: TargetKind;
  absolute?: string;
  relation?: PathRelation;
  access?: TouchedPath['access'];
  /** The shell command or tool parameter that named it. */
  source: string;
}

export interface TargetScan {
  targets: CallTarget[];
  /** False when some target could not be read from the call (parse errors, run-time words, unknown tools). */
  complete: boolean;
  /** Why the scan is incomplete, one phrase each. */
  gaps: string[];
}

/** Commands whose first operand is a mode or an owner, the rest files. */
const MODE_FIRST_COMMANDS = new Set(['chmod', 'chown', 'chgrp']);
/** git subcommands whose operands are refs, remotes or paths. */
const GIT_OPERAND_SUBCOMMANDS = new Set([
  'push',
  'reset',
  'rebase',
  'branch',
  'checkout',
  'switch',
  'tag',
  'merge',
  'cherry-pick',
  'revert',
  'pull',
  'fetch',
  'rm',
  'restore',
  'clean',
  'filter-branch',
  'update-ref',
]);
/** Beyond this many words a command's operands are not checked one by one, and the scan says so. */
export const MAX_SCANNED_WORDS = 4096;
const DEVICE_PATHS = /^\/dev\/(null|stdin|stdout|stderr|tty|zero|fd\/\d+)$/;
const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\/\S+$/i;
const REMOTE_SPEC = /^[^/\s]+:/;

export function isPathLike(word: string): boolean {
  if (word === '' || word.startsWith('-') || URL_LIKE.test(word)) return false;
  if (/^(?:\/|~|\.\.?(?:\/|$)|\$HOME\b|\$\{HOME\})/.test(word)) return true;
  if (word.includes('/')) return true;
  // `notes.txt`, `*.log`: a name with an extension that has a letter in it (not `1.2.3`).
  return /^[^\s=]+\.(?=[A-Za-z0-9]{1,10}$)[0-9]*[A-Za-z][A-Za-z0-9]*$/.test(word);
}

function pathTarget(
  text: string,
  cwd: string,
  call: ToolCall,
  source: string,
  access?: TouchedPath['access'],
): CallTarget {
  const absolute = resolvePath(text, cwd, call.home);
  const target: CallTarget = {
    text,
    kind: 'path',
    absolute,
    relation: relatePath(absolute, call.projectRoot, call.home),
    source,
  };
  if (access) target.access = access;
  return target;
}

/** Shells, interpreters and eval: programs whose words after the code are arguments of that code. */
function runsInlineCode(cmd: SimpleCommand): boolean {
  return cmd.name === 'eval' || SHELLS.has(cmd.name) || interpreterKind(cmd.name) !== null;
}

/** The operands of a command, without the code given inline to `-c` / `-e`. */
function operandsOf(cmd: SimpleCommand): string[] {
  const args = argsOf(cmd);
  if (!runsInlineCode(cmd) || (cmd.name !== 'eval' && inlineCode(cmd) === undefined))
    return parseFlags(args).positionals;
  if (cmd.name === 'eval') return [];
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i] ?? '';
    if (/^-[a-zA-Z]*[ce]$/.test(word)) {
      // Everything after the inline code is $0, $1…: arguments of that code, not files.
      return kept;
    }
    if (!word.startsWith('-')) kept.push(word);
  }
  return kept;
}

function commandTargets(cmd: SimpleCommand, cwd: string, call: ToolCall): CallTarget[] {
  const targets: CallTarget[] = [];
  const source = cmd.name;
  const operands = operandsOf(cmd).filter((word) => word !== '{}');
  const deleting = DELETERS.has(cmd.name);
  const fileOperands = FILE_OPERAND_PROGRAMS.has(cmd.name)
    ? operands
    : MODE_FIRST_COMMANDS.has(cmd.name)
      ? operands.slice(1)
      : [];
  const gitOperands = cmd.name === 'git' && GIT_OPERAND_SUBCOMMANDS.has(operands[0] ?? '') ? operands.slice(1) : [];
  for (const word of operands) {
    if (URL_LIKE.test(word)) targets.push({ text: word, kind: 'url', source });
    else if (fileOperands.includes(word)) {
      if (REMOTE_SPEC.test(word) && !isPathLike(word.split(':')[0] ?? ''))
        targets.push({ text: word, kind: 'word', source });
      else targets.push(pathTarget(word, cwd, call, source, deleting ? 'delete' : undefined));
    } else if (gitOperands.includes(word)) {
      targets.push(isPathLike(word) ? pathTarget(word, cwd, call, source) : { text: word, kind: 'ref', source });
    } else if (isPathLike(word)) targets.push(pathTarget(word, cwd, call, source));
  }
  for (const word of argsOf(cmd)) {
    // `--output=/tmp/x`, `of=/dev/sda` (dd): a value that names a file.
    const eq = word.indexOf('=');
    if (eq > 0 && /^(?:--?)?[A-Za-z][\w-]*$/.test(word.slice(0, eq)) && isPathLike(word.slice(eq + 1))) {
      targets.push(pathTarget(word.slice(eq + 1), cwd, call, source));
    }
  }
  for (const file of redirectWrites(cmd)) targets.push(pathTarget(file, cwd, call, `${source} >`, 'write'));
  for (const file of redirectReads(cmd)) targets.push(pathTarget(file, cwd, call, `${source} <`, 'read'));
  return targets.filter((t) => !(t.kind === 'path' && t.absolute && DEVICE_PATHS.test(t.absolute)));
}

/** What the judge cannot see of a shell call: the facts' unread list, and operands another program supplies. */
function shellGaps(call: ToolCall): string[] {
  if (!call.shell) return ['the command could not be parsed'];
  const gaps = call.facts.unread.map((u) => u.detail);
  const shell = call.shell;
  if (shell.commands.some((cmd) => cmd.dynamicWords.length > 0)) gaps.push('some words are known only at run time');
  if (
    shell.commands.some((cmd) =>
      cmd.redirects.some((r) => /[$`]/.test(r.target) && !['<<', '<<-', '<<<'].includes(r.op)),
    )
  ) {
    gaps.push('a redirection target is known only at run time');
  }
  if (shell.commands.some((cmd) => cmd.via.includes('xargs') || cmd.via.includes('find-exec')))
    gaps.push('some operands come from another program');
  return gaps;
}

function nonShellTargets(call: ToolCall): TargetScan {
  const targets: CallTarget[] = call.paths.map((p) => ({
    text: p.raw,
    kind: 'path',
    absolute: p.absolute,
    relation: p.relation,
    access: p.access,
    source: p.source,
  }));
  const gaps: string[] = call.facts.unread.map((u) => u.detail);
  if (call.url !== undefined) targets.push({ text: call.url, kind: 'url', source: call.face.urlParam ?? 'url' });
  const family = call.face.family;
  if (call.face.pathTarget && call.paths.length === 0)
    gaps.push(`the ${call.face.pathTarget.param} parameter is missing`);
  if (!call.face.pathTarget && ['read', 'write', 'edit', 'search'].includes(family)) {
    // Tools that carry their files inside a patch or a list (apply_patch, read_many_files).
    for (const file of patchPaths(call.content ?? ''))
      targets.push(pathTarget(file.path, call.cwd, call, 'patch', file.access));
    const listed = call.input.paths;
    if (Array.isArray(listed))
      for (const p of listed) if (typeof p === 'string') targets.push(pathTarget(p, call.cwd, call, 'paths'));
    if (targets.length === 0) gaps.push(`${call.toolName} names its files in a way Warden cannot read`);
  }
  if (family === 'other' && !call.face.builtIn)
    gaps.push(`${call.toolName} is a tool without a face: its targets cannot be read`);
  return { targets, complete: gaps.length === 0, gaps };
}

const ACCESS_RANK: Record<string, number> = { '': 0, read: 1, execute: 2, write: 3, delete: 4 };

/** One entry per target; a path named twice keeps its strongest access (delete > write > read). */
function dedupe(targets: CallTarget[]): CallTarget[] {
  const byKey = new Map<string, CallTarget>();
  for (const target of targets) {
    const key = `${target.kind}\u0000${target.absolute ?? target.text}`;
    const seen = byKey.get(key);
    if (!seen) byKey.set(key, target);
    else if ((ACCESS_RANK[target.access ?? ''] ?? 0) > (ACCESS_RANK[seen.access ?? ''] ?? 0))
      byKey.set(key, { ...seen, access: target.access! });
  }
  return [...byKey.values()];
}

/** The files the deterministic policies see the call read and write, so both tiers agree on them. */
function policyPathTargets(call: ToolCall): CallTarget[] {
  return [...readTargets(call), ...writeTargets(call)].map((p) => ({
    text: p.raw,
    kind: 'path',
    absolute: p.absolute,
    relation: p.relation,
    access: p.access,
    source: p.source,
  }));
}

export function scanTargets(call: ToolCall): TargetScan {
  if (call.face.family !== 'shell') {
    const scan = nonShellTargets(call);
    return { ...scan, targets: dedupe(scan.targets) };
  }
  const targets: CallTarget[] = [];
  const gaps = shellGaps(call);
  let words = 0;
  for (const { cmd, cwd } of commandsWithCwd(call)) {
    words += cmd.argv.length;
    if (words > MAX_SCANNED_WORDS) {
      gaps.push(`the command has more than ${MAX_SCANNED_WORDS} words; not every operand was checked`);
      break;
    }
    if (cmd.name === 'cd' || cmd.name === 'pushd' || cmd.name === 'popd') continue;
    targets.push(...commandTargets(cmd, cwd, call));
  }
  if (words <= MAX_SCANNED_WORDS) targets.push(...policyPathTargets(call));
  return { targets: dedupe(targets), complete: gaps.length === 0, gaps };
}
