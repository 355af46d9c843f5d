import { gitInvocation } from './git-invocation';
import { appliedDiffFiles } from './applied-diffs';
import type { SimpleCommand } from '../shell';
import { trimEndChars } from '../text/scan';
import type { PathRelation } from '../shell/paths';
import type { ToolCall, TouchedPath } from './call';
import { isGlobWord } from './globs';
import {
  argsOf,
  commandsWithCwd,
  optionValues,
  parseFlags,
  redirectReads,
  redirectWrites,
  shellPath,
} from './commands';
import { serverFileReads } from './database-clients';
import { copierOperands, isRemoteSpec } from './copiers';
import { pythonModuleRun } from './programs';
import { own } from './own';
import { tableFiles } from './program-table';
import { findRoots, loopValues, wordListings, xargsListings, xargsReplacement } from './listings';
import { gitHistoryReads, inlineCodeOperands } from './derived-reads';

// The files a call reads or writes, whether a file tool names them or a shell
// command does. One place, so every path policy reads commands the same way.

export interface PathTarget {
  raw: string;
  absolute: string;
  relation: PathRelation;
  /** Where the file system says it leads (a symlink followed), when that differs. */
  real?: string;
  /** The word depends on run-time values ($VAR, $(…)); `absolute` is only its static reading. */
  dynamic: boolean;
  access: 'read' | 'write' | 'delete';
  /** The tool parameter or the shell command that names the path. */
  source: string;
  /** Named by a command that runs on another machine (`ssh host 'cat …'`): a path there, not here. */
  remote?: true;
}

/** Commands whose every positional argument is a file they print or copy. */
const PLAIN_READERS = new Set([
  'cat',
  'tac',
  'nl',
  'less',
  'more',
  'most',
  'bat',
  'batcat',
  'strings',
  'base32',
  'base64',
  'basenc',
  'xxd',
  'hexdump',
  'hd',
  'od',
  'head',
  'tail',
  'view',
  'sort',
  'uniq',
  'diff',
  'colordiff',
  'vimdiff',
  'paste',
  'fold',
  'fmt',
  'rev',
  'column',
  'expand',
  'iconv',
  'type',
  'get-content',
  'gc',
  'source',
  '.',
  'gpg',
  'openssl',
  'zcat',
  'bzcat',
  'xzcat',
  'zless',
  'zmore',
  'dos2unix',
  'unix2dos',
  'tr',
]);

/** Option letters/names that take a value, per reader, so the value is not read as a file. */
const READER_VALUES: Record<string, [string[], string[]]> = {
  head: [
    ['n', 'c'],
    ['lines', 'bytes'],
  ],
  tail: [
    ['n', 'c', 's'],
    ['lines', 'bytes', 'sleep-interval', 'pid'],
  ],
  base64: [['w'], ['wrap']],
  xxd: [
    ['l', 's', 'c', 'g', 'o', 'n'],
    ['len', 'seek', 'cols', 'groupsize', 'name'],
  ],
  od: [
    ['A', 'j', 'N', 't', 'w', 'S'],
    ['address-radix', 'skip-bytes', 'read-bytes', 'format', 'width', 'strings'],
  ],
  hexdump: [['n', 's', 'e', 'f'], []],
  sort: [
    ['k', 't', 'o', 'S', 'T'],
    ['key', 'field-separator', 'output', 'buffer-size', 'temporary-directory'],
  ],
  gpg: [
    ['o', 'r', 'u'],
    ['output', 'recipient', 'local-user', 'homedir'],
  ],
  tr: [[], []],
};

const PATTERN_FIRST: Record<string, [string[], string[]]> = {
  grep: [
    ['e', 'f', 'A', 'B', 'C', 'm', 'd', 'D'],
    [
      'regexp',
      'file',
      'after-context',
      'before-context',
      'context',
      'max-count',
      'include',
      'exclude',
      'exclude-dir',
      'label',
    ],
  ],
  egrep: [
    ['e', 'f', 'A', 'B', 'C', 'm'],
    ['regexp', 'file', 'include', 'exclude'],
  ],
  fgrep: [
    ['e', 'f', 'A', 'B', 'C', 'm'],
    ['regexp', 'file', 'include', 'exclude'],
  ],
  zgrep: [
    ['e', 'f', 'A', 'B', 'C', 'm'],
    ['regexp', 'file'],
  ],
  rg: [
    ['e', 'f', 'g', 't', 'T', 'A', 'B', 'C', 'm', 'j', 'M'],
    [
      'regexp',
      'file',
      'glob',
      'type',
      'type-not',
      'max-count',
      'threads',
      'max-columns',
      'context',
      'after-context',
      'before-context',
    ],
  ],
  ag: [
    ['A', 'B', 'C', 'G', 'm'],
    ['file-search-regex', 'ignore'],
  ],
  ack: [['A', 'B', 'C', 'm'], ['type']],
  awk: [
    ['F', 'v', 'f'],
    ['field-separator', 'assign', 'file'],
  ],
  gawk: [
    ['F', 'v', 'f'],
    ['field-separator', 'assign', 'file'],
  ],
  sed: [
    ['e', 'f', 'l'],
    ['expression', 'file', 'line-length'],
  ],
  jq: [['L'], ['arg', 'argjson', 'slurpfile', 'rawfile', 'indent']],
  yq: [[], []],
};

const ARCHIVERS = new Set(['tar', 'zip', '7z', '7za', 'gzip', 'bzip2', 'xz', 'zstd']);
const CHMOD_TAKING_MODE = /^-[rwxXst]+$/;
const WRITERS = new Set(['tee', 'touch', 'mkdir', 'truncate', 'chmod', 'chown', 'chgrp', 'setfacl', 'mkfifo', 'mknod']);
export const DELETERS: ReadonlySet<string> = new Set([
  'rm',
  'unlink',
  'rmdir',
  'shred',
  'srm',
  'wipe',
  'trash',
  'trash-put',
]);
/** Programs whose every operand (after any mode or owner) names a file: the judge lists them as paths. */
export const FILE_OPERAND_PROGRAMS: ReadonlySet<string> = new Set([
  ...DELETERS,
  ...['mv', 'cp', 'ln', 'install', 'rsync', 'scp'],
  ...['touch', 'mkdir', 'tee', 'truncate'],
  ...['cat', 'tac', 'head', 'tail', 'less', 'more', 'source', '.'],
  ...['wc', 'stat', 'file', 'ls', 'du'],
]);

// Subcommands that print only public material whatever they read: a certificate's fields, a
// revocation list, a verification result, a signing request (a key given to sign stays inside).
const OPENSSL_PUBLIC_OUTPUT = new Set(['x509', 'crl', 'verify', 'req']);

/** `openssl pkcs12 -in id.p12 -nokeys`: the bundle's certificates, never its private key. */
function printsCertificatesOnly(args: readonly string[]): boolean {
  return args[0] === 'pkcs12' && args.includes('-nokeys') && !args.includes('-export');
}

function readerFiles(cmd: SimpleCommand): string[] {
  const args = argsOf(cmd);
  const name = cmd.name.toLowerCase();
  if (PLAIN_READERS.has(name)) {
    if (name === 'openssl')
      return OPENSSL_PUBLIC_OUTPUT.has(args[0] ?? '') || printsCertificatesOnly(args)
        ? []
        : optionValues(args, [], []).concat(singleDashValues(args, ['in', 'inkey', 'key', 'passin']));
    if (name === 'source' || name === '.') return args.slice(0, 1);
    const [vs, vl] = own(READER_VALUES, name) ?? [[], []];
    const words = parseFlags(args, vs, vl).positionals;
    return name === 'tr' ? [] : words;
  }
  const patternFirst = own(PATTERN_FIRST, name);
  if (patternFirst) {
    const [vs, vl] = patternFirst;
    const flags = parseFlags(args, vs, vl);
    const explicitPattern =
      flags.short.has('e') ||
      flags.short.has('f') ||
      flags.long.has('regexp') ||
      flags.long.has('file') ||
      flags.long.has('expression');
    const files = explicitPattern ? flags.positionals : flags.positionals.slice(1);
    const scriptFiles = name === 'awk' || name === 'gawk' || name === 'sed' ? optionValues(args, ['f'], ['file']) : [];
    return [...files, ...scriptFiles];
  }
  const serverReads = serverFileReads(cmd);
  if (serverReads.length) return serverReads;
  const copied = copierOperands(cmd);
  if (copied) return copied.sources.filter((s) => !isRemoteSpec(s));
  if (ARCHIVERS.has(name)) {
    const flags = parseFlags(args, ['f', 'C', 'T', 'X'], ['file', 'directory', 'files-from', 'exclude']);
    const members = flags.positionals.filter(
      (p) => !(/^[a-zA-Z]+$/.test(p) && /[cxtru]/.test(p)) || p.includes('.') || p.includes('/'),
    );
    // `tar -C ~ -cz .ssh` packs ~/.ssh: a creating tar reads its operands from the -C folder.
    const from = name === 'tar' ? optionValues(args, ['C'], ['directory'])[0] : undefined;
    const creates = args.some((a) => !a.startsWith('--') && /^-?[a-zA-Z]+$/.test(a) && a.includes('c'));
    if (from === undefined || !creates) return members;
    return members.map((p) => (/^[/~]/.test(p) ? p : `${trimEndChars(from, '/')}/${p}`));
  }
  if (name === 'curl' || name === 'http' || name === 'https') {
    const files: string[] = [];
    for (const value of optionValues(
      args,
      ['d', 'F', 'T', 'K'],
      ['data', 'data-binary', 'data-raw', 'data-urlencode', 'form', 'upload-file', 'json', 'config'],
    )) {
      const at = value.indexOf('@');
      if (value.startsWith('@')) files.push(value.slice(1));
      else if (at > 0 && /^[\w-]+=?@/.test(value)) files.push(value.slice(at + 1).split(';')[0] ?? '');
      else if (optionValues(args, ['T'], ['upload-file']).includes(value)) files.push(value);
    }
    return files.filter((f) => f !== '' && f !== '-');
  }
  if (name === 'wget') return optionValues(args, [], ['post-file', 'body-file']);
  return [...tableFiles(cmd, 'read'), ...inlineCodeOperands(cmd), ...gitHistoryReads(cmd)];
}

function singleDashValues(args: readonly string[], names: readonly string[]): string[] {
  const values: string[] = [];
  for (let i = 0; i < args.length - 1; i++) if (names.some((n) => args[i] === `-${n}`)) values.push(args[i + 1] ?? '');
  return values;
}

/** `git mv SRC… DEST` moves like mv; `git rm` deletes (from the index alone with --cached). */
function gitTreeChanges(cmd: SimpleCommand): { path: string; access: 'write' | 'delete' }[] {
  const git = gitInvocation(cmd);
  if (git?.sub !== 'mv' && git?.sub !== 'rm') return [];
  if (git.sub === 'rm' && git.args.includes('--cached')) return [];
  const words = parseFlags(git.args, [], ['pathspec-from-file']).positionals;
  const inDir = (path: string) => (git.dir !== undefined && !/^[/~]/.test(path) ? `${git.dir}/${path}` : path);
  if (git.sub === 'rm') return words.map((path) => ({ path: inDir(path), access: 'delete' as const }));
  if (words.length < 2) return [];
  return [
    ...words.slice(0, -1).map((path) => ({ path: inDir(path), access: 'delete' as const })),
    { path: inDir(words[words.length - 1]!), access: 'write' as const },
  ];
}

function writerFiles(cmd: SimpleCommand): { path: string; access: 'write' | 'delete' }[] {
  const args = argsOf(cmd);
  const name = cmd.name.toLowerCase();
  const out: { path: string; access: 'write' | 'delete' }[] = redirectWrites(cmd).map((path) => ({
    path,
    access: 'write' as const,
  }));
  if (name === 'git') out.push(...gitTreeChanges(cmd));
  out.push(...condaPrefixRemoved(name, args).map((path) => ({ path, access: 'delete' as const })));
  out.push(...pytestBaseTemp(cmd, args).map((path) => ({ path, access: 'delete' as const })));
  out.push(...appliedDiffFiles(cmd).map(({ path, access }) => ({ path, access })));
  const copied = copierOperands(cmd);
  if (copied) {
    const { sources, destination } = copied;
    if (sources.length > 0 && destination !== undefined) {
      if (!isRemoteSpec(destination)) out.push({ path: destination, access: 'write' as const });
      if (name === 'mv') out.push(...sources.map((path) => ({ path, access: 'delete' as const })));
    }
  } else if (WRITERS.has(name)) {
    const valueShort = name === 'truncate' ? ['s', 'r'] : name === 'mkdir' ? ['m'] : [];
    const valueLong = name === 'truncate' ? ['size', 'reference'] : name === 'mkdir' ? ['mode'] : ['reference'];
    // `chmod -x f`, `chmod -rw f`: a symbolic mode that takes permissions away starts with a dash.
    const modeWords = name === 'chmod' ? args.map((a) => (CHMOD_TAKING_MODE.test(a) ? `mode:${a}` : a)) : args;
    let words = parseFlags(modeWords, valueShort, valueLong).positionals;
    // chmod 755 file, chown user:group file, setfacl -m spec file: the first word is not a path.
    if (['chmod', 'chown', 'chgrp'].includes(name) && !args.some((a) => a.startsWith('--reference')))
      words = words.slice(1);
    if (name === 'setfacl') words = parseFlags(args, ['m', 'x', 'M', 'X'], ['modify', 'remove', 'set']).positionals;
    out.push(...words.map((path) => ({ path, access: 'write' as const })));
  } else if (DELETERS.has(name)) {
    out.push(
      ...parseFlags(args, ['n', 's', 'u'], ['iterations', 'size']).positionals.map((path) => ({
        path,
        access: 'delete' as const,
      })),
    );
  } else if (name === 'sed' || name === 'perl') {
    const flags = parseFlags(args, name === 'sed' ? ['e', 'f', 'l'] : ['e', 'E', 'M', 'm', 'I'], [
      'expression',
      'file',
    ]);
    if (flags.short.has('i') || flags.long.has('in-place') || args.some((a) => /^-i\S|^-\w*i$|^-p?i/.test(a))) {
      const explicit =
        flags.short.has('e') ||
        flags.short.has('f') ||
        flags.long.has('expression') ||
        (name === 'perl' && flags.short.has('e'));
      const files = explicit ? flags.positionals : flags.positionals.slice(1);
      out.push(...files.map((path) => ({ path, access: 'write' as const })));
    }
  } else if (name === 'dd') {
    for (const a of args) if (a.startsWith('of=')) out.push({ path: a.slice(3), access: 'write' });
  } else if (name === 'curl') {
    out.push(...optionValues(args, ['o'], ['output']).map((path) => ({ path, access: 'write' as const })));
  } else if (name === 'wget') {
    out.push(
      ...optionValues(args, ['O', 'P'], ['output-document', 'directory-prefix'])
        .filter((p) => p !== '-')
        .map((path) => ({ path, access: 'write' as const })),
    );
  } else if (ARCHIVERS.has(name) || name === 'unzip') {
    out.push(
      ...optionValues(args, name === 'unzip' ? ['d'] : ['C'], ['directory']).map((path) => ({
        path,
        access: 'write' as const,
      })),
    );
  } else {
    out.push(...tableFiles(cmd, 'write').map((path) => ({ path, access: 'write' as const })));
  }
  return out;
}

// Streams and terminals, and the serial ports a board is talked to over (ttyUSB, ttyACM, ttyS, ttyAMA):
// bytes written there are sent, not kept in a file.
const DEVICE_SINKS = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+|pts\/\d+|tty(USB|ACM|S|AMA)\d+)$/;

/** A path a file tool (or interpreter code) names, with its real path when a symlink leads elsewhere. */
function faceTarget(call: ToolCall, p: TouchedPath): Omit<PathTarget, 'access'> {
  const real = isGlobWord(p.absolute) || p.dynamic ? null : (call.io?.realpath(p.absolute) ?? null);
  return {
    raw: p.raw,
    absolute: p.absolute,
    ...(real ? { real } : {}),
    relation: p.relation,
    dynamic: p.dynamic === true,
    source: p.source,
  };
}

/**
 * The paths a word the command is given stands for. `find ROOTS … -exec sed -i … {} +`: the `{}` is
 * files under find's starting points. A run-time word that is what a lister printed (`cat $(ls
 * ~/.ssh/id_*)`, `while read f; …; done < <(find ~/.aws)`, `xargs -I{} cat {}`) is also what that
 * lister lists, and a loop variable is also each word of its loop. (A variable a branch may have set
 * is read by the command's variants, one for each value: shell/alternatives.ts.)
 */
function placeholderRoots(raw: string, cmd: SimpleCommand, call: ToolCall): string[] {
  const commands = call.shell?.commands ?? [];
  if (raw === '{}' && cmd.via.includes('find-exec') && cmd.parent !== undefined) {
    const find = commands[cmd.parent];
    if (find?.name === 'find') return findRoots(find);
  }
  const replaced = xargsReplacement(cmd, commands);
  const listed = [
    ...wordListings(raw, cmd, commands),
    ...loopValues(raw, cmd),
    ...(replaced && raw.includes(replaced) ? xargsListings(cmd, commands).map((p) => raw.replaceAll(replaced, p)) : []),
  ];
  return listed.length ? [raw, ...listed] : [raw];
}

/** `pytest --basetemp=DIR` (also `python -m pytest`): pytest empties DIR at the start of every run. */
function pytestBaseTemp(cmd: SimpleCommand, args: readonly string[]): string[] {
  const module = pythonModuleRun(cmd)?.module === 'pytest';
  if (cmd.name !== 'pytest' && cmd.name !== 'py.test' && !module) return [];
  return optionValues(args, [], ['basetemp']);
}

/** `conda env remove -p PATH`, `conda remove --all -p PATH`: the environment's folder is deleted. */
function condaPrefixRemoved(name: string, args: readonly string[]): string[] {
  if (name !== 'conda' && name !== 'mamba' && name !== 'micromamba') return [];
  const removes = (args[0] === 'env' && args[1] === 'remove') || (args[0] === 'remove' && args.includes('--all'));
  return removes ? optionValues(args, ['p'], ['prefix']) : [];
}

const FED_DELETERS = new Set(['rm', 'unlink', 'shred']);

/** `find ROOTS … | xargs rm`, `ls ~/.ssh/id_* | xargs cat`: the files are what the stage before xargs lists. */
function fedByLister(cmd: SimpleCommand, call: ToolCall, programs: ReadonlySet<string>): string[] {
  return programs.has(cmd.name) ? xargsListings(cmd, call.shell?.commands ?? []) : [];
}

const readCache = new WeakMap<ToolCall, PathTarget[]>();
const writeCache = new WeakMap<ToolCall, PathTarget[]>();

/** Every path the call reads, through its face or its shell commands. */
export function readTargets(call: ToolCall | undefined): PathTarget[] {
  if (!call) return [];
  const cached = readCache.get(call);
  if (cached) return cached;
  const out: PathTarget[] = call.paths
    .filter((p) => p.access === 'read')
    .map((p) => ({ ...faceTarget(call, p), access: 'read' }));
  for (const { cmd, cwd } of commandsWithCwd(call)) {
    const files = readerFiles(cmd);
    const given = files.length ? files : fedByLister(cmd, call, PLAIN_READERS);
    for (const raw of [...given, ...redirectReads(cmd)].flatMap((r) => placeholderRoots(r, cmd, call))) {
      if (raw === '' || raw === '-') continue;
      const remote = cmd.via.includes('ssh') ? { remote: true as const } : {};
      out.push({ ...shellPath(raw, cmd, cwd, call), access: 'read', source: cmd.name, ...remote });
    }
  }
  readCache.set(call, out);
  return out;
}

/** Every path the call writes or deletes, through its face or its shell commands. */
export function writeTargets(call: ToolCall | undefined): PathTarget[] {
  if (!call) return [];
  const cached = writeCache.get(call);
  if (cached) return cached;
  const out: PathTarget[] = call.paths
    .filter((p) => p.access === 'write' || p.access === 'delete')
    .map((p) => ({ ...faceTarget(call, p), access: p.access === 'delete' ? 'delete' : 'write' }));
  for (const { cmd, cwd } of commandsWithCwd(call)) {
    // What a file written now will write or delete at a path known only when it runs is judged
    // then: the run reads the session's writes again.
    const later = call.runsLater !== undefined || cmd.via.includes('write-time');
    const given = writerFiles(cmd).flatMap(({ path, access }) =>
      placeholderRoots(path, cmd, call).map((root) => ({ path: root, access })),
    );
    const written = given.length
      ? given
      : fedByLister(cmd, call, FED_DELETERS).map((root) => ({ path: root, access: 'delete' as const }));
    for (const { path, access } of written) {
      if (path === '' || DEVICE_SINKS.test(path)) continue;
      const target = shellPath(path, cmd, cwd, call);
      if (later && target.dynamic) continue;
      out.push({ ...target, access, source: cmd.name });
    }
  }
  writeCache.set(call, out);
  return out;
}
