// The project's own files destroyed beyond what git restores easily, or all at once: overwritten
// and removed (shred, dd over a file, mv to /dev/null), emptied (truncate, `: > file`, `sed -i d`,
// `perl -0pi -e 's/.*//s'`), deleted in bulk by a source filter (`find . -name '*.ts' -delete`,
// `rm src/**/*.py`, `git ls-files | xargs rm`, `rsync --delete` into the project), or the
// repository's internals overwritten. Deletes outside the project are recursive-delete-outside-project's.
import path from 'node:path';
import { z } from 'zod';
import type { SimpleCommand } from '../../shell';
import { relatePath, resolvePath } from '../../shell/paths';
import { definePolicy } from '../types';
import type { ToolCall } from '../types';
import {
  argsOf,
  commandsWithCwd,
  evidenceOf,
  loopEmptyings,
  optionValues,
  parseFlags,
  redirectWrites,
  shellCommands,
  upstreamStage,
} from '../../facts/commands';
import { resolveSystemPath } from '../../facts/system-paths';
import { writtenTexts } from '../../facts/compute';
import { secretBasenameKind } from '../../facts/sensitive-paths';
import { literalOutput } from '../../shell/literal-output';
import { trimEndChars } from '../../text/scan';
import { BINARY_DATA_EXTENSION, destructiveOverwrite } from './shared/overwritten-files';
import { PRODUCED } from '../../facts/produced-files';
import { gitInvocation } from '../../facts/git-invocation';

/** Source, manifest and data files: what a project is made of, as opposed to what it produces. */
const SOURCE_EXTENSION =
  /\.(py|pyi|js|jsx|ts|tsx|mjs|cjs|mts|cts|go|rs|java|kt|kts|scala|c|h|cc|cpp|hpp|cs|fs|rb|php|swift|m|mm|sh|bash|zsh|sql|vue|svelte|astro|html|css|scss|sass|less|ex|exs|erl|hs|clj|dart|lua|pl|pm|r|jl|json|ya?ml|toml|ini|lock|md|rst|tex|ipynb|proto|graphql|tf|db|sqlite3?|mdb|kdbx)$/i;
/**
 * Datasets and model weights: often kept out of git (DVC, an ignore rule, a bucket), so emptying one
 * in place is beyond any undo. Deleting them is left to the person's tools (outputs are rebuilt).
 */
const DATA_EXTENSION = new RegExp(`${BINARY_DATA_EXTENSION.source}|\\.(csv|tsv|jsonl)$`, 'i');
/** Files of the repository's own store: overwriting them corrupts it (hooks and config are other policies'). */
const GIT_STATE_FILES = new Set(['HEAD', 'ORIG_HEAD', 'index', 'packed-refs']);

/** A repository's own folder (`.git`, `sub/.git`, with or without a trailing slash). */
function isRepositoryFolder(word: string): boolean {
  return /(^|\/)\.git\/?$/.test(word);
}

/** A file of a repository's own store under some `.git/`: HEAD, the index, packed refs, objects, refs. */
function isGitInternal(file: string): boolean {
  const segments = file.split('/');
  for (let at = segments.indexOf('.git'); at >= 0; at = segments.indexOf('.git', at + 1)) {
    const next = segments[at + 1];
    if (next === undefined) return false;
    if (segments.length === at + 2 && GIT_STATE_FILES.has(next)) return true;
    if ((next === 'objects' || next === 'refs') && segments.length > at + 2) return true;
  }
  return false;
}
const IRREVERSIBLE = new Set(['shred', 'wipe', 'srm']);
const FIND_SOURCE_FILTER = /^-(name|iname|path|ipath|regex|iregex)$/;

interface Destroyed {
  what: string;
  evidence: string;
}

function inProject(call: ToolCall, raw: string, cwd: string): boolean {
  const { absolute } = resolveSystemPath(raw, { cwd, home: call.home });
  const relation = relatePath(absolute, call.projectRoot, call.home);
  return relation === 'inside-project' || relation === 'project-root';
}

/**
 * A glob whose fixed part is a folder the project produces (`coverage/*.json`, `dist/a*`): deleting
 * in it is housekeeping. A word with a `..` segment anywhere may climb out of it, so it does not count.
 */
function inProducedFolder(call: ToolCall, word: string, cwd: string): boolean {
  if (word.split('/').includes('..')) return false;
  const fixed = beforeGlob(word);
  const folder = fixed.endsWith('/') ? fixed : path.posix.dirname(fixed);
  const { absolute } = resolveSystemPath(folder || '.', { cwd, home: call.home });
  const relative = path.posix.relative(call.projectRoot, absolute);
  return relative !== '' && !relative.startsWith('..') && PRODUCED.test(`${relative}/`);
}

/** A word naming source files in bulk: a glob over a source extension or `**`, or every tracked file. */
function bulkSourceWord(word: string): boolean {
  if (/\$\(\s*git\s+ls-files|`\s*git\s+ls-files/.test(word)) return true;
  if (/^["']?(?:\$\(|`)\s*find\s/.test(word)) return findListsSources(word);
  if (!/[*?[]/.test(word)) return false;
  return word.includes('**') || SOURCE_EXTENSION.test(trimEndChars(word, '*?'));
}

/** `$(find src -type f)`: every file under a folder, or those whose -name pattern is a source extension. */
function findListsSources(word: string): boolean {
  const names = [...word.matchAll(/-i?name\s+["']?([^"'\s)]+)/g)].map((m) => m[1] ?? '');
  return names.length === 0 || names.some((name) => SOURCE_EXTENSION.test(trimEndChars(name, '*?')));
}

/** A file of what the project is made of or works on: its sources, or its data and weights. */
function isProjectContent(word: string): boolean {
  return (SOURCE_EXTENSION.test(word) || DATA_EXTENSION.test(word)) && !PRODUCED.test(word);
}

// `sed -i d`, `sed -i '1,$d'`, perl -0pi with a substitution of everything: an in-place edit that leaves the files empty.
function emptiesInPlace(cmd: SimpleCommand, args: readonly string[]): string[] | null {
  if (cmd.name === 'sed') {
    if (!args.some((a) => /^-[a-zA-Z]*i/.test(a) || a.startsWith('--in-place'))) return null;
    const scripts = optionValues(args, ['e'], ['expression']);
    const flags = parseFlags(args, ['e', 'f'], ['expression', 'file']);
    const [first, ...files] = flags.positionals;
    const script = scripts[0] ?? first ?? '';
    const operands = scripts.length ? flags.positionals : files;
    return /^(1,\$)?d$|^,?\$?d$/.test(script.replace(/\s+/g, '')) ? operands : null;
  }
  if (cmd.name === 'perl' && args.some((a) => /^-\w*i/.test(a))) {
    const code = optionValues(args, ['e', 'E'], [])[0] ?? '';
    if (!/^(s\/\.\*\/\/s?g?|\$_[ \t]*=[ \t]*(''|""|undef))[ \t]*;?$/.test(code.trim())) return null;
    return parseFlags(args, ['e', 'E'], []).positionals;
  }
  return null;
}

/** Files a command empties: truncate -s 0, dd over a file, a bare or no-op truncating redirect. */
function emptied(cmd: SimpleCommand, args: readonly string[]): string[] {
  if (cmd.name === 'truncate') {
    const size = optionValues(args, ['s'], ['size'])[0];
    return size !== undefined && /^0+[KMG]?$/i.test(size)
      ? parseFlags(args, ['s', 'r'], ['size', 'reference']).positionals
      : [];
  }
  if (cmd.name === 'dd') {
    const of = args.find((a) => a.startsWith('of='))?.slice(3);
    const from = args.find((a) => a.startsWith('if='))?.slice(3) ?? '';
    return of && !of.startsWith('/dev/') && /^\/dev\/(zero|u?random|null)$/.test(from) ? [of] : [];
  }
  // `cp /dev/null f`, `tee f < /dev/null`: the file is left empty.
  if (cmd.name === 'cp' && args[0] === '/dev/null') return parseFlags(args).positionals.slice(1);
  if (cmd.name === 'tee' && cmd.redirects.some((r) => r.op === '<' && r.target === '/dev/null'))
    return parseFlags(args).positionals;
  // `: > f`, `true > f`, `cat /dev/null > f`, `echo -n > f`, `> f`: the file is left empty.
  const noOutput =
    cmd.name === ':' ||
    cmd.name === 'true' ||
    cmd.name === '' ||
    (cmd.name === 'cat' && args.length === 1 && args[0] === '/dev/null') ||
    literalOutput(cmd.name, { argv: cmd.argv, dynamic: new Set(cmd.dynamicWords) }, undefined) === '';
  return noOutput ? redirectWrites(cmd).filter((t) => cmd.redirects.some((r) => r.op === '>' && r.target === t)) : [];
}

function destroyedByCommand(
  call: ToolCall,
  cmd: SimpleCommand,
  cwd: string,
  commands: SimpleCommand[],
): Destroyed | null {
  const args = argsOf(cmd);
  const here = (w: string) => inProject(call, w, cwd);
  const evidence = evidenceOf(cmd.text);
  if (IRREVERSIBLE.has(cmd.name)) {
    const files = parseFlags(args, ['n', 's'], ['iterations', 'size']).positionals.filter(here);
    if (files.length)
      return { what: `${cmd.name} overwrites ${files.join(' ')} before removing it, beyond any undo`, evidence };
  }
  if (cmd.name === 'mv' && parseFlags(args, ['t', 'S']).positionals.slice(-1)[0] === '/dev/null') {
    const moved = parseFlags(args, ['t', 'S']).positionals.slice(0, -1).filter(here);
    if (moved.length) return { what: `mv to /dev/null throws ${moved.join(' ')} away`, evidence };
  }
  if (cmd.name === 'mv') {
    const sources = parseFlags(args, ['t', 'S'], ['target-directory', 'suffix']).positionals.slice(0, -1);
    const repository = sources.find((w) => isRepositoryFolder(w) && here(w));
    if (repository)
      return { what: `mv takes ${repository} away: the repository's history and unpushed work go with it`, evidence };
  }
  const empties = emptiesInPlace(cmd, args);
  if (empties?.some(here) || empties?.some(bulkSourceWord))
    return { what: `${cmd.name} empties ${empties.join(' ')} in place`, evidence };
  const truncated = emptied(cmd, args).filter((f) => here(f) && (isProjectContent(f) || bulkSourceWord(f)));
  if (truncated.length)
    return { what: `${cmd.name === 'dd' ? 'dd overwrites' : 'empties'} ${truncated.join(' ')}`, evidence };
  if (cmd.name === 'rm' || IRREVERSIBLE.has(cmd.name) || cmd.name === 'truncate') {
    const bulk = parseFlags(args, ['n', 's'], ['iterations', 'size']).positionals.filter(
      (w) => bulkSourceWord(w) && here(beforeGlob(w) || '.') && !inProducedFolder(call, w, cwd),
    );
    if (bulk.length)
      return { what: `${cmd.name} of ${bulk.join(' ')} deletes the project's source files in bulk`, evidence };
    // `git ls-files | xargs rm`: every tracked file.
    const parent = cmd.parent !== undefined ? commands[cmd.parent] : undefined;
    if (cmd.via.includes('xargs') && parent) {
      const feeder = upstreamStage(commands, parent);
      if (feeder && gitInvocation(feeder)?.sub === 'ls-files')
        return {
          what: `${cmd.name} of every file git tracks`,
          evidence: evidenceOf(`${feeder.text} | ${parent.text}`),
        };
    }
  }
  if (cmd.name === 'find') {
    const filters = args.flatMap((a, i) => (FIND_SOURCE_FILTER.test(a) ? [args[i + 1] ?? ''] : []));
    const destroys =
      args.includes('-delete') ||
      commands.some(
        (c) =>
          c.parent !== undefined &&
          commands[c.parent] === cmd &&
          c.via.includes('find-exec') &&
          (c.name === 'rm' ||
            IRREVERSIBLE.has(c.name) ||
            c.name === 'truncate' ||
            emptied(c, argsOf(c)).length > 0 ||
            /:\s*>|>\s*"?\$1/.test(c.text)),
      );
    const sourceFilter = filters.find((f) => SOURCE_EXTENSION.test(trimEndChars(f, '*?')) && !PRODUCED.test(f));
    const starts = parseFlags(args)
      .positionals.filter((w) => !w.startsWith('-'))
      .slice(0, 1);
    if (destroys && sourceFilter && here(starts[0] ?? '.'))
      return { what: `find destroys every ${sourceFilter} file under ${starts[0] ?? '.'}`, evidence };
    // Emptying or shredding every file of a folder (not deleting it, which git shows): with no filter,
    // or of the project's datasets and weights by their extension.
    const empties = commands.some(
      (c) =>
        c.parent !== undefined &&
        commands[c.parent] === cmd &&
        c.via.includes('find-exec') &&
        (IRREVERSIBLE.has(c.name) || c.name === 'truncate' || /:\s*>|>\s*"?\$1/.test(c.text)),
    );
    const start = starts[0] ?? '.';
    const dataFilter = filters.find((f) => DATA_EXTENSION.test(trimEndChars(f, '*?')));
    if (empties && (!filters.length || dataFilter) && here(start) && !PRODUCED.test(start))
      return {
        what: `find empties or shreds every ${dataFilter ? `${dataFilter} ` : ''}file under ${start}`,
        evidence,
      };
  }
  if (cmd.name === 'rsync' && (args.some((a) => a.startsWith('--delete')) || args.includes('--del'))) {
    const operands = parseFlags(
      args,
      ['e', 'f'],
      ['rsh', 'filter', 'exclude', 'include', 'exclude-from', 'include-from'],
    ).positionals;
    const destination = operands.at(-1);
    if (destination && operands.length >= 2 && !destination.includes(':')) {
      const { absolute } = resolveSystemPath(destination, { cwd, home: call.home });
      const relation = relatePath(absolute, call.projectRoot, call.home);
      if (relation === 'project-root' || relation === 'home' || absolute === '/')
        return { what: `rsync --delete removes whatever in ${destination} the source lacks`, evidence };
    }
  }
  return null;
}

/** `for f in src/*.py; do : > "$f"; done`: a loop over source files in bulk that empties each. */
function loopEmptiesSources(commands: readonly SimpleCommand[]): string | null {
  const found = loopEmptyings(commands).find(({ loop }) => loop.words.some(bulkSourceWord));
  return found ? found.loop.words.join(' ') : null;
}

const ENV_LINE = /^[ \t]*(?:export[ \t]+)?([A-Za-z_][\w.]*)[ \t]*=[ \t]*(.*)$/gm;

/** An env file's names and values; a quoted empty value is empty. */
function envValues(text: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const [, name, value] of text.matchAll(ENV_LINE)) values.set(name!, value!.trim().replace(/^(["'])\1$/, ''));
  return values;
}

/**
 * A whole-file write over an env file that holds values the new text drops: `.env.local` keeps keys
 * that exist nowhere else on the machine, and no undo brings them back. Only names reach the reason.
 */
function envValuesDropped(call: ToolCall): Destroyed | null {
  if (call.face.family !== 'write' || call.content === undefined) return null;
  const target = call.paths.find((p) => p.access === 'write');
  if (!target || secretBasenameKind(path.posix.basename(target.absolute)) !== 'an environment file') return null;
  const before = call.io.readText(target.absolute, 64 * 1024);
  if (before === null) return null;
  const after = envValues(call.content);
  const lost = [...envValues(before)].filter(([name, value]) => value !== '' && !after.get(name)).map(([name]) => name);
  if (!lost.length) return null;
  return {
    what: `the write replaces ${target.absolute} and drops the values of ${lost.slice(0, 5).join(', ')}${lost.length > 5 ? ` and ${lost.length - 5} more` : ''}, kept nowhere else`,
    evidence: target.raw,
  };
}

/** Kinds of key material that exist in one copy: a signing or private key lost cannot be made again. */
const KEY_KINDS = new Set([
  'a private key',
  'a PKCS#12 key store',
  'a Java key store',
  'a key store',
  'a PuTTY private key',
  'a PKCS#8 private key',
  'an SSH private key',
]);
const BINARY_KEY_STORE = /\.(jks|keystore|p12|pfx)$/i;

function keyKindOf(file: string): string | null {
  const kind = secretBasenameKind(path.posix.basename(file));
  return kind && KEY_KINDS.has(kind) ? kind : null;
}

/**
 * A key store or private key of the project deleted, or replaced by text: an app's upload keystore or
 * a signing key is kept out of git, so no checkout brings it back. Temp copies and build output are not keys kept.
 */
function keyMaterialDestroyed(call: ToolCall): Destroyed | null {
  const kept = (target: { absolute: string; relation: string; glob?: boolean; dynamic?: boolean }) =>
    (target.relation === 'inside-project' || target.relation === 'project-root') &&
    !target.glob &&
    !target.dynamic &&
    !PRODUCED.test(target.absolute);
  for (const target of call.facts.deletes) {
    const kind = kept(target) ? keyKindOf(target.absolute) : null;
    if (kind) return { what: `deletes ${target.absolute}, ${kind} that no checkout brings back`, evidence: target.raw };
  }
  if (call.face.family !== 'write' || call.content === undefined) return null;
  const target = call.paths.find((p) => p.access === 'write');
  const kind = target && kept(target) ? keyKindOf(target.absolute) : null;
  if (!target || !kind) return null;
  // Emptied outright, or a binary key store written over with text (only where one was there to lose).
  const emptied = call.content.trim() === '';
  if (!emptied && !(BINARY_KEY_STORE.test(target.absolute) && call.io.exists(target.absolute))) return null;
  return { what: `the write replaces ${target.absolute}, ${kind}, with text`, evidence: target.raw };
}

// Rails keeps its secrets encrypted in credentials.yml.enc (per environment under config/credentials/),
// readable only with the matching key. Only `rails credentials:edit` writes either in step with the other.
const RAILS_CREDENTIALS_FILE = /(^|\/)config\/(master\.key|credentials\.yml\.enc|credentials\/[\w-]+\.(key|yml\.enc))$/;

/** A whole-file write over a Rails app's credentials key or encrypted credentials: what the other holds is lost. */
function railsCredentialsReplaced(call: ToolCall): Destroyed | null {
  if (call.face.family !== 'write' || call.content === undefined) return null;
  const target = call.paths.find((p) => p.access === 'write' && RAILS_CREDENTIALS_FILE.test(p.absolute));
  if (!target) return null;
  const key = target.absolute.endsWith('.key');
  return {
    what: `the write replaces ${target.absolute}, ${key ? 'the key that decrypts the app’s credentials: what they hold can never be read again' : 'the app’s encrypted credentials: every secret in them is lost'} (only \`rails credentials:edit\` changes it safely)`,
    evidence: target.raw,
  };
}

function destroyed(call: ToolCall): Destroyed | null {
  const dropped =
    envValuesDropped(call) ??
    keyMaterialDestroyed(call) ??
    railsCredentialsReplaced(call) ??
    destructiveOverwrite(call);
  if (dropped) return dropped;
  const commands = shellCommands(call);
  const looped = loopEmptiesSources(call.shell?.commands ?? []);
  if (looped) return { what: `a loop empties every file of ${looped}`, evidence: evidenceOf(call.command ?? '') };
  for (const { cmd, cwd } of commandsWithCwd(call)) {
    const found = destroyedByCommand(call, cmd, cwd, commands);
    if (found) return found;
  }
  for (const { file, content } of writtenTexts(call))
    if (isGitInternal(file) && !/^ref: refs\/heads\/[\w./-]+\s*$/.test(content))
      return { what: `overwriting ${file} corrupts the repository`, evidence: evidenceOf(content) };
  for (const target of [...call.paths, ...call.facts.writes])
    if (target.access === 'write' && isGitInternal(target.absolute) && call.content === undefined)
      return { what: `writing ${target.absolute} corrupts the repository`, evidence: target.raw };
  // A file tool that deletes: a folder-like path (no extension) inside the project goes with all it holds.
  const verb = call.toolName.replace(/^mcp__.*?__/, '');
  // A file tool that moves (an MCP filesystem server's move_file): its source names no path face reads.
  if (call.command === undefined && /move|rename/i.test(verb))
    for (const [key, value] of Object.entries(call.input)) {
      if (typeof value !== 'string' || !/source|src|from|old/i.test(key) || !isRepositoryFolder(value)) continue;
      const absolute = resolvePath(value, call.cwd, call.home);
      if (['inside-project', 'project-root'].includes(relatePath(absolute, call.projectRoot, call.home)))
        return {
          what: `${call.toolName} takes ${absolute} away: the repository's history and unpushed work go with it`,
          evidence: value,
        };
    }
  if (call.command === undefined && /delete|remove|(^|_)rm(_|$)|unlink/i.test(verb))
    for (const target of call.paths)
      if (
        (target.relation === 'inside-project' || target.relation === 'project-root') &&
        !path.posix.extname(target.absolute) &&
        !PRODUCED.test(target.absolute)
      )
        return {
          what: `${call.toolName} deletes ${target.absolute}, a folder with everything in it`,
          evidence: target.raw,
        };
  return null;
}

export const projectFilesDestroyed = definePolicy({
  name: 'project-files-destroyed',
  category: 'dangerous-commands',
  description:
    "Asks before destroying files beyond an easy undo: shred, emptying, bulk deletes by a source filter, rsync --delete into the project, overwriting .git's store, an env file's values, a key store, Terraform state, a backup, or gutting a file.",
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    if (!call) return null;
    const found = destroyed(call);
    if (!found) return null;
    return {
      reason: `Destroys project files (${found.what}): work not yet committed is lost and git cannot bring back what it never saw; delete or empty only the files you mean, by name, or ask the person to.`,
      evidence: found.evidence,
    };
  },
});

/** A word up to its first glob character. */
function beforeGlob(word: string): string {
  const cut = word.search(/[*?[]/);
  return cut === -1 ? word : word.slice(0, cut);
}
