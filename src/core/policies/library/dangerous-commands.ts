import { ROOT_WRAPPERS } from '../../shell/cli-options';
import { z } from 'zod';
import type { SimpleCommand } from '../../shell';
import { resolvePath, relatePath } from '../../shell/paths';
import { xargsArgFile } from '../../shell/wrappers';
import { definePolicy } from '../types';
import type { ToolCall } from '../types';
import {
  argsOf,
  commandsWithCwd,
  evidenceOf,
  loopEmptyings,
  parseFlags,
  shellCommands,
  upstreamStage,
} from '../../facts/commands';
import { inAllowedDirs, inUserCache, touchesHome } from '../../facts/temp-dirs';
import { matchesAny } from './shared/patterns';
import { inlineCode } from '../../facts/programs';
import { inspectsAsRoot, sudoAsksAboutItself } from '../../facts/root-inspection';

// Recursive deletes and privilege escalation: the two commands whose damage
// is largest and least reversible.

const deleteParams = z.object({
  /** Folders outside the project where recursive deletes are fine (besides the temp folders). */
  allowedPaths: z.array(z.string()).default([]),
  allowTempDirs: z.boolean().default(true),
});
type DeleteParams = z.infer<typeof deleteParams>;

interface DeleteTarget {
  word: string;
  cwd: string;
  /** Deletion only of what matches a filter (find -name …): less sweeping than rm -r. */
  filtered: boolean;
  /** In a file written now and run later: a run-time target is judged when it runs. */
  later?: boolean;
}

// `-type f` alone is no filter: it still matches every file.
const FIND_FILTERS =
  /^-(name|iname|path|ipath|regex|iregex|mtime|mmin|atime|amin|ctime|newer|size|user|group|perm|empty)$/;
// Programs that destroy what they are given as surely as rm -r: overwrite-and-remove, truncate.
const DESTROYERS = new Set(['shred', 'wipe', 'srm']);
// A last path component that matches every entry of its folder: `*`, `.*`, `.[!.]*`, `..?*`.
const EVERY_ENTRY = /^(\*|\.\*|\.\[!\.\]\*|\.\[\^\.\]\*|\.\.\?\*|\{\*,\.\*\}|\{\.\*,\*\})$/;

function findStartPaths(cmd: SimpleCommand): { paths: string[]; filtered: boolean; deletes: boolean } {
  const args = argsOf(cmd);
  const paths: string[] = [];
  let i = 0;
  while (i < args.length && /^-[HLP]$/.test(args[i] ?? '')) i++;
  for (; i < args.length; i++) {
    const word = args[i] ?? '';
    if (word.startsWith('-') || word === '(' || word === '!') break;
    paths.push(word);
  }
  const rest = args.slice(i);
  return {
    paths: paths.length ? paths : ['.'],
    filtered: rest.some((w) => FIND_FILTERS.test(w)),
    deletes: rest.includes('-delete'),
  };
}

const CODE_TREE_DELETE =
  /\b(rmtree|rmSync|rimraf(?:\.sync)?|rm_rf|rm_r|remove_dir_all|removeSync|emptyDirSync|RemoveAll)\s*\(\s*['"`]([^'"`]+)['"`]/g;

function isRecursiveRemove(cmd: SimpleCommand): boolean {
  const name = cmd.name.toLowerCase();
  const args = argsOf(cmd);
  if (DESTROYERS.has(name)) return true;
  if (name === 'truncate') return true;
  if (name === 'rm') {
    const flags = parseFlags(args);
    return flags.short.has('r') || flags.short.has('R') || flags.long.has('recursive');
  }
  if (['remove-item', 'ri', 'del', 'erase', 'rd', 'rmdir'].includes(name)) {
    return args.some((a) => /^-recurse$/i.test(a) || /^\/s$/i.test(a));
  }
  return false;
}

function removedWords(cmd: SimpleCommand): string[] {
  if (cmd.name === 'rm') return parseFlags(argsOf(cmd)).positionals.map(folderOfEveryEntry);
  if (DESTROYERS.has(cmd.name)) return parseFlags(argsOf(cmd), ['n', 's'], ['iterations', 'size']).positionals;
  if (cmd.name === 'truncate') return parseFlags(argsOf(cmd), ['s', 'r'], ['size', 'reference']).positionals;
  return argsOf(cmd).filter((a) => !a.startsWith('-') && !/^\/[sSqQ]$/.test(a));
}

/** `dir/*` (every entry of dir) deletes as much as `dir` itself. */
function folderOfEveryEntry(word: string): string {
  const slash = word.lastIndexOf('/');
  const last = word.slice(slash + 1);
  if (!EVERY_ENTRY.test(last)) return word;
  return slash <= 0 ? (slash === 0 ? '/' : '.') : word.slice(0, slash);
}

/** The file xargs reads its words from instead of a pipe: `-a FILE`, `--arg-file=FILE`, `< FILE`. */
function xargsInputFile(xargs: SimpleCommand): { name: string; text?: string } | undefined {
  const named = xargsArgFile(xargs.argv);
  if (named && 'glued' in named) return { name: named.glued };
  if (named) {
    const text = xargs.fileTexts?.[named.index];
    return { name: xargs.argv[named.index]!, ...(text !== undefined ? { text } : {}) };
  }
  const redirect = xargs.redirects.find((r) => r.op === '<' && (r.fd === undefined || r.fd === 0));
  if (!redirect) return undefined;
  return { name: redirect.target, ...(redirect.fileText !== undefined ? { text: redirect.fileText } : {}) };
}

/** The words `echo a b | xargs rm -rf` hands on, or a run-time stand-in when the feeder is not literal. */
function xargsInput(commands: SimpleCommand[], xargs: SimpleCommand): string[] {
  const file = xargsInputFile(xargs);
  if (file) return file.text === undefined ? [`$(cat ${file.name})`] : file.text.split(/\s+/).filter(Boolean);
  const feeder = upstreamStage(commands, xargs);
  if (!feeder || feeder.name === 'find') return [];
  if ((feeder.name === 'echo' || feeder.name === 'printf') && feeder.dynamicWords.length === 0)
    return argsOf(feeder)
      .filter((w) => !/^-[neE]+$/.test(w))
      .flatMap((w) => w.replace(/\\n/g, '\n').split(/\s+/))
      .filter((w) => w !== '' && !w.includes('%'));
  // Whatever another program prints (git ls-files, a list file) is known only when it runs.
  return [`$(${feeder.name} output)`];
}

/** `for f in $(find …); do : > "$f"; done`: a truncating redirect of each file a computed list names. */
function loopTruncations(call: ToolCall): DeleteTarget[] {
  return loopEmptyings(shellCommands(call))
    .filter(({ loop }) => loop.words.some((w) => /[$`]/.test(w)))
    .map(({ loop }) => ({ word: `$${loop.variable}`, cwd: call.cwd, filtered: false }));
}

function deleteTargets(call: ToolCall): DeleteTarget[] {
  const commands = shellCommands(call);
  const targets: DeleteTarget[] = [];
  for (const { cmd, cwd } of commandsWithCwd(call)) {
    const start = targets.length;
    if (isRecursiveRemove(cmd)) {
      const words = removedWords(cmd);
      const parent = cmd.parent !== undefined ? commands[cmd.parent] : undefined;
      const fromFind = parent?.name === 'find' && cmd.via.includes('find-exec');
      for (const word of words) {
        if (word === '{}' && fromFind && parent) {
          const found = findStartPaths(parent);
          targets.push(...found.paths.map((p) => ({ word: p, cwd, filtered: found.filtered })));
        } else targets.push({ word, cwd, filtered: false });
      }
      // `find ~ | xargs rm -rf`: the paths come from the command feeding xargs.
      if (words.length === 0 && cmd.via.includes('xargs') && parent)
        targets.push(...xargsInput(commands, parent).map((word) => ({ word, cwd, filtered: false })));
      if (words.length === 0 && cmd.via.includes('xargs')) {
        for (const upstream of commands) {
          if (
            upstream.name !== 'find' ||
            !parent ||
            upstream.pipeline.id !== parent.pipeline.id ||
            upstream.pipeline.index >= parent.pipeline.index
          )
            continue;
          const found = findStartPaths(upstream);
          targets.push(...found.paths.map((p) => ({ word: p, cwd, filtered: found.filtered })));
        }
      }
    } else if (cmd.name === 'mv' && parseFlags(argsOf(cmd), ['t', 'S']).positionals.slice(-1)[0] === '/dev/null') {
      // `mv X /dev/null` throws X away.
      targets.push(
        ...parseFlags(argsOf(cmd), ['t', 'S'])
          .positionals.slice(0, -1)
          .map((word) => ({ word, cwd, filtered: false })),
      );
    } else if (cmd.name === 'find') {
      const found = findStartPaths(cmd);
      if (found.deletes) targets.push(...found.paths.map((p) => ({ word: p, cwd, filtered: found.filtered })));
    } else {
      const code = inlineCode(cmd);
      // shutil.rmtree('/x'), fs.rmSync('/x', { recursive: true }), FileUtils.rm_rf('/x') in a one-liner.
      if (code)
        for (const m of code.matchAll(CODE_TREE_DELETE)) targets.push({ word: m[2] ?? '', cwd, filtered: false });
    }
    if (call.runsLater !== undefined || cmd.via.includes('write-time'))
      for (const target of targets.slice(start)) target.later = true;
  }
  targets.push(...loopTruncations(call));
  return targets;
}

type Judgement = { decision: 'deny' | 'ask'; what: string; target: string } | null;

function judgeDelete(t: DeleteTarget, call: ToolCall, params: DeleteParams): Judgement {
  const dynamicAt = t.word.search(/[$`]/);
  if (dynamicAt !== -1 && t.later) return null;
  const staticPart = dynamicAt === -1 ? t.word : t.word.slice(0, dynamicAt);
  if (dynamicAt !== -1 && !staticPart.includes('/')) {
    return { decision: 'ask', what: 'a path only known when the command runs', target: t.word };
  }
  const probe = dynamicAt === -1 ? staticPart : `${staticPart}x`;
  const absolute = resolvePath(probe, t.cwd, call.home);
  const relation = relatePath(absolute, call.projectRoot, call.home);
  if (absolute === '/' || /^[A-Za-z]:\\?$/.test(absolute))
    return { decision: 'deny', what: 'the whole file system', target: t.word };
  if (relation === 'project-root')
    return t.filtered ? null : { decision: 'deny', what: 'the whole project', target: t.word };
  if (relation === 'inside-project') {
    const gitDir = resolvePath('.git', call.projectRoot, call.home);
    if (absolute === gitDir) return { decision: 'deny', what: "the repository's history (.git)", target: t.word };
    return null;
  }
  // `rm -rf /tmp/$X` or `/tmp/*` could name the home when the home lies in /tmp.
  const openAt = t.word.search(/[$`*?[]/);
  const openDir = openAt === -1 ? '' : t.word.slice(0, t.word.lastIndexOf('/', openAt) + 1);
  const couldReachHome = openAt !== -1 && touchesHome(resolvePath(openDir, t.cwd, call.home), call.home);
  if (!couldReachHome && inAllowedDirs(absolute, params.allowedPaths, call.home, params.allowTempDirs)) return null;
  if (dynamicAt === -1 && inUserCache(absolute, call.home)) return null;
  const where =
    relation === 'home'
      ? 'your whole home folder'
      : relation === 'outside-project-in-home'
        ? `${absolute}, outside the project`
        : `${absolute}, a system path`;
  const decision = dynamicAt !== -1 || t.filtered ? 'ask' : 'deny';
  return { decision, what: where, target: t.word };
}

export const recursiveDeleteOutsideProject = definePolicy({
  name: 'recursive-delete-outside-project',
  category: 'dangerous-commands',
  description:
    'Refuses recursive or irreversible deletes (rm -r, shred, truncate, mv to /dev/null, find -delete, rmtree) of the project, its .git or anything outside it (temp folders and what ~/.cache holds excepted); asks for run-time targets.',
  defaultEnabled: true,
  decision: 'deny',
  params: deleteParams,
  evaluate({ call, params }) {
    if (!call?.shell) return null;
    let softest: Judgement = null;
    for (const target of deleteTargets(call)) {
      const judged = judgeDelete(target, call, params);
      if (judged?.decision === 'deny') {
        return {
          reason: `Recursive delete of ${judged.what} (${judged.target}): this cannot be undone; delete only paths inside the project, or ask the person to do it.`,
          evidence: evidenceOf(call.command ?? ''),
        };
      }
      softest = softest ?? judged;
    }
    if (!softest) return null;
    return {
      decision: 'ask',
      reason: `Recursive delete of ${softest.what} (${softest.target}): a person should confirm what it resolves to before it runs.`,
      evidence: evidenceOf(call.command ?? ''),
    };
  },
});

const PRIVILEGE = new Set([...ROOT_WRAPPERS, 'su']);
const SUDO_VALUE_FLAGS = ['u', 'g', 'C', 'D', 'h', 'p', 'r', 't', 'U', 'T', 'c'];

// Ways to root or host-level rights that are not a sudo: file capabilities, a system service
// started on the spot, another process's namespaces (pid 1's are the host's), a capability shell.
function raisedPrivilege(cmd: SimpleCommand): string | undefined {
  const args = argsOf(cmd);
  if (cmd.name === 'setcap') return 'grants file capabilities (root powers for that program)';
  if (cmd.name === 'systemd-run' && !args.includes('--user')) return 'starts a system service (as root)';
  if (cmd.name === 'nsenter' && args.some((a) => /^(-t|--target)/.test(a) || /^-\w*t/.test(a)))
    return "enters another process's namespaces (pid 1's are the host's)";
  if (cmd.name === 'capsh') return 'runs a shell with chosen capabilities';
  if (cmd.name === 'machinectl' && ['shell', 'login'].includes(args[0] ?? '')) return 'opens a shell in a machine';
  return undefined;
}

interface Escalation {
  wrapper: string;
  inner: string;
  /** How a command that is not a root wrapper raises privileges. */
  raised?: string;
}

function escalations(call: ToolCall): Escalation[] {
  const commands = shellCommands(call);
  const found: Escalation[] = [];
  for (const [index, cmd] of commands.entries()) {
    const raised = raisedPrivilege(cmd);
    if (raised) {
      found.push({ wrapper: cmd.name, inner: cmd.argv.join(' '), raised });
      continue;
    }
    const wrapper = cmd.wrappers.find((w) => PRIVILEGE.has(w));
    if (wrapper && inspectsAsRoot(cmd)) continue;
    if (wrapper) {
      found.push({ wrapper, inner: cmd.argv.join(' ') });
      continue;
    }
    if (!PRIVILEGE.has(cmd.name) || sudoAsksAboutItself(argsOf(cmd))) continue;
    // The analyzer unwraps `sudo CMD` into a nested command; that one is judged instead. A root
    // shell fed on stdin (`echo x | sudo -i`) is read as a script, not a wrapper: still root.
    if (commands.some((other) => other.parent === index && other.wrappers.some((w) => PRIVILEGE.has(w)))) continue;
    const rest = parseFlags(argsOf(cmd), SUDO_VALUE_FLAGS, ['user', 'group', 'host', 'prompt', 'command']).positionals;
    found.push({ wrapper: cmd.name, inner: rest.join(' ') || `${cmd.name} (an interactive root shell)` });
  }
  return found;
}

export const sudo = definePolicy({
  name: 'sudo',
  category: 'dangerous-commands',
  description:
    'Asks before a command runs as root (sudo, doas, su, pkexec, run0) or raises privileges another way (setcap, systemd-run, nsenter, capsh); root commands that only look (systemctl status, journalctl, iptables -L) pass.',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({
    /** Commands that may run with sudo without a question, as prefixes or globs ("apt-get update"). */
    allowCommands: z.array(z.string()).default([]),
  }),
  evaluate({ call, params }) {
    if (!call?.shell) return null;
    const found = escalations(call).find((e) => !matchesAny(e.inner, params.allowCommands));
    if (!found) return null;
    const what = found.raised
      ? `"${evidenceOf(found.inner, 80)}" ${found.raised}`
      : `${found.wrapper} runs "${evidenceOf(found.inner, 80)}" as root`;
    return {
      reason: `${what}, outside every project boundary; run it yourself, or approve this exact command.`,
      evidence: evidenceOf(call.command ?? ''),
    };
  },
});
