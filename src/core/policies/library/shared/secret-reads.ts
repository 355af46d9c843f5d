import type { SimpleCommand } from '../../../shell';
import { isInside, resolvePath } from '../../../shell/paths';
import type { ToolCall } from '../../types';
import { credentialStoreUnder, globNamesSecrets, secretFileKind } from '../../../facts/sensitive-paths';
import { secretKindOf } from '../../../facts/sensitive';
import { readTargets } from '../../../facts/targets';
import {
  argsOf,
  commandsWithCwd,
  forLoops,
  optionValues,
  parseFlags,
  shellCommands,
  shellPath,
  upstreamStage,
} from '../../../facts/commands';
import { gitInvocation } from '../../../facts/git-invocation';
import { copierOperands } from '../../../facts/copiers';
import { trimEndChars } from '../../../text/scan';
import { linesPassedOn, listedPaths, negated } from '../../../facts/listings';
import { writtenTexts } from '../../../facts/compute';
import { isLocalHost } from './hosts';
import { isUnreadSource, secretsNamedInSource } from '../../../facts/unread-code-secrets';

export interface SecretRead {
  /** The path as written, or the pattern that names the files. */
  path: string;
  /** The file it resolves to, for a read of one named file. */
  absolute?: string;
  kind: string;
  /** The tool parameter or shell command that reads it. */
  source: string;
}

const FIND_READERS =
  /^(cat|head|tail|less|more|strings|base64|xxd|od|hexdump|grep|egrep|rg|cp|scp|tar|zip|gpg|openssl|curl)$/;

function readTargetsOfName(name: string): boolean {
  return FIND_READERS.test(name);
}

// What a content search is after when it hunts for credentials: key headers, token prefixes, secret words.
const SECRET_SEEKING =
  /private.{0,6}key|BEGIN\b|passw|secret|token|api.{0,6}key|access.{0,6}key|AKIA|gh[pousr]_|github_pat|\bsk[-_]|xox[abp]|AIza|credential|bearer|authoriz|aws_|\bhf_|glpat-/i;
/** A key file's header words, in the capitals the header writes them in (`-----BEGIN OPENSSH PRIVATE KEY-----`). */
const KEY_HEADER_WORD = /PRIVATE|OPENSSH/;

function seeksSecrets(pattern: string): boolean {
  return SECRET_SEEKING.test(pattern) || KEY_HEADER_WORD.test(pattern);
}
/** What a search that prints every line is judged as seeking. */
const ALL_LINES = 'every line (secrets too)';
const CONTENT_SEARCHERS = new Set(['grep', 'egrep', 'fgrep', 'zgrep', 'rg', 'ag', 'ack', 'git-grep']);
const TREE_COPIERS = new Set(['tar', 'zip', '7z', '7za', 'cp', 'rsync', 'scp']);

/**
 * A search pattern that narrows to no word (`.`, `^`, `''`, `[A-Za-z0-9_-]{43}`, `\S+`): it matches a
 * line of any secret file, a random token's as well as a key's. Literal text (three letters or digits
 * in a row, outside brackets and escapes) is what narrows a search to lines that hold it.
 */
function matchesAnyLine(pattern: string): boolean {
  let run = 0;
  for (let at = 0; at < pattern.length; at++) {
    const ch = pattern[at]!;
    // An escape, a bracket expression and a repeat count are not literal text (an unclosed one runs to the end).
    const closer = ch === '[' ? ']' : ch === '{' ? '}' : undefined;
    if (ch === '\\' || closer !== undefined) {
      run = 0;
      if (closer === undefined) at++;
      else {
        const closed = pattern.indexOf(closer, at + 1);
        at = closed === -1 ? pattern.length : closed;
      }
      continue;
    }
    run = /[A-Za-z0-9]/.test(ch) ? run + 1 : 0;
    if (run === 3) return false;
  }
  return true;
}

/** A search tool's pattern as judged: every line when it shows matching lines (Grep's content mode) of any pattern. */
function searchToolSeeks(input: Record<string, unknown>, pattern: string): string {
  return input['output_mode'] === 'content' && matchesAnyLine(pattern) ? ALL_LINES : pattern;
}

/** A relative path as seen from `folder` (git's -C), when one is given. */
function underFolder(path: string, folder: string | undefined): string {
  return folder === undefined || /^[/~]/.test(path) ? path : `${trimEndChars(folder, '/')}/${path}`;
}

/** Folders a command reads whole: a recursive content search's roots (with its pattern), an archive's or a recursive copy's sources. */
function treeReads(cmd: SimpleCommand): { roots: string[]; pattern?: string } | undefined {
  // `git grep` searches every file below its paths (its work tree when it names none), from -C's folder.
  const git = gitInvocation(cmd);
  const gitGrep = git?.sub === 'grep' ? git : undefined;
  const name = gitGrep ? 'git-grep' : cmd.name.toLowerCase();
  const args = gitGrep ? gitGrep.args : argsOf(cmd);
  if (CONTENT_SEARCHERS.has(name)) {
    const flags = parseFlags(
      args,
      ['e', 'f', 'A', 'B', 'C', 'm', 'g', 't', 'T', 'd'],
      ['regexp', 'file', 'glob', 'include', 'exclude'],
    );
    const recursive =
      name === 'rg' ||
      name === 'ag' ||
      name === 'ack' ||
      name === 'git-grep' ||
      flags.short.has('r') ||
      flags.short.has('R') ||
      flags.long.has('recursive');
    if (!recursive) return undefined;
    const explicit = optionValues(args, ['e'], ['regexp']);
    const pattern = explicit.length ? explicit.join(' ') : flags.positionals[0];
    const named = explicit.length ? flags.positionals : flags.positionals.slice(1);
    const roots = gitGrep ? (named.length ? named : ['.']).map((root) => underFolder(root, gitGrep.dir)) : named;
    // Lines that do not match (-v), or lines any pattern matches, are every line: the search seeks all
    // there is, secrets included. A search that prints only file names or counts shows no line.
    const namesOnly = ['l', 'L', 'c', 'q'].some((f) => flags.short.has(f)) || flags.long.has('files-with-matches');
    const inverted = flags.short.has('v') || flags.long.has('invert-match');
    const everyLine = !namesOnly && (inverted || (pattern !== undefined && matchesAnyLine(pattern)));
    return { roots, ...(pattern !== undefined ? { pattern: everyLine ? ALL_LINES : pattern } : {}) };
  }
  if (!TREE_COPIERS.has(name)) return undefined;
  // A copier's sources by its own options (`cp -ri ~/.ssh x`: -i asks before overwriting, it names no file).
  const copied = copierOperands(cmd);
  const flags = parseFlags(
    args,
    ['f', 'C', 'T', 'X', 'e', 'x', 'i', 't'],
    ['file', 'directory', 'exclude', 'files-from', 'rsh', 'target-directory'],
  );
  const copying =
    name === 'tar' || name === 'zip' || name === '7z' || name === '7za'
      ? true
      : flags.short.has('r') ||
        flags.short.has('R') ||
        flags.short.has('a') ||
        flags.long.has('recursive') ||
        flags.long.has('archive');
  if (!copying) return undefined;
  if (copied) return { roots: copied.sources };
  const words = flags.positionals.filter((w) => !/^[a-z]+$/.test(w) || w.includes('.'));
  return { roots: words };
}

/** Recursive reads of a folder outside the project that holds credential stores (the home folder, ~/.config, /etc). */
function credentialTreeReads(call: ToolCall): SecretRead[] {
  const found: SecretRead[] = [];
  const judge = (root: string, absolute: string, source: string, pattern: string | undefined) => {
    if (isInside(absolute, call.projectRoot)) return;
    if (pattern !== undefined && pattern !== ALL_LINES && !seeksSecrets(pattern)) return;
    const store = credentialStoreUnder(absolute, call.home);
    if (store) found.push({ path: root, kind: `a folder holding ${store}`, source });
  };
  for (const { cmd, cwd } of commandsWithCwd(call)) {
    const tree = treeReads(cmd);
    for (const root of tree?.roots ?? []) {
      const place = shellPath(root, cmd, cwd, call);
      if (!place.dynamic)
        judge(root, place.absolute, cmd.name, tree?.pattern ?? (CONTENT_SEARCHERS.has(cmd.name) ? '' : undefined));
    }
  }
  // A content search tool's folder, by its face's parameter (Grep's path, Gemini's dir_path); a file-name
  // search (Glob) only lists names.
  const target = call.face.pathTarget;
  const param = target
    ? [target.param, ...(target.aliases ?? [])].find((p) => typeof call.input[p] === 'string')
    : undefined;
  const path = param !== undefined ? call.input[param] : undefined;
  const pattern = call.input.pattern;
  if (
    call.face.family === 'search' &&
    target?.access !== 'list' &&
    typeof path === 'string' &&
    typeof pattern === 'string'
  )
    judge(path, resolvePath(path, call.cwd, call.home), param ?? 'path', searchToolSeeks(call.input, pattern));
  return found;
}

/** `docker cp app:/run/secrets/db .`, `kubectl cp ns/pod:/var/run/secrets/…/token .`: a container's credential copied out. */
function containerSecretCopies(call: ToolCall): SecretRead[] {
  const found: SecretRead[] = [];
  for (const cmd of shellCommands(call)) {
    const args = argsOf(cmd);
    if (!['docker', 'podman', 'nerdctl', 'kubectl'].includes(cmd.name) || args[0] !== 'cp') continue;
    const source = parseFlags(args.slice(1), ['c', 'n'], ['container', 'namespace']).positionals[0] ?? '';
    const path = /^[\w./-]+:(\/.*)$/.exec(source)?.[1];
    const kind = path ? secretFileKind(path, '/root') : null;
    if (kind) found.push({ path: source, kind: `${kind} inside a container`, source: `${cmd.name} cp` });
  }
  return found;
}

/**
 * `for f in ~/.aws/credentials …; do cat "$f"; done`: each loop variable with the words the shell gives
 * it (a word known only at run time is left out), from the loops of the call's commands.
 */
function loopWords(commands: readonly SimpleCommand[]): Map<string, string[]> {
  return new Map(forLoops(commands).map((loop) => [loop.variable, loop.values.filter((w) => w !== '')]));
}

/** The find whose output a reader gets: `find … -exec cat {} +`, or `find … | xargs cat`. */
function finderOf(
  placed: ReturnType<typeof commandsWithCwd>,
  cmd: SimpleCommand,
): ReturnType<typeof commandsWithCwd>[number] | undefined {
  if (cmd.parent === undefined) return undefined;
  const parent = placed[cmd.parent];
  if (cmd.via.includes('find-exec')) return parent?.cmd.name === 'find' ? parent : undefined;
  if (cmd.via[cmd.via.length - 1] !== 'xargs' || parent?.cmd.name !== 'xargs') return undefined;
  const feeder = upstreamStage(
    placed.map((p) => p.cmd),
    parent.cmd,
  );
  return feeder?.name === 'find' ? placed.find((p) => p.cmd === feeder) : undefined;
}

/** The options by which find narrows what it prints to names a pattern picks (judged by their pattern above). */
const FIND_NAME_TESTS = /^-i?(name|path|wholename|regex)$/;

/**
 * The folders a lister prints every file below (`find ~ -type f`, `rg --files ~`, `fd -H . ~`), or []
 * for a lister that narrows by name or does not descend.
 */
function wholeTreeListing(cmd: SimpleCommand): string[] {
  const args = argsOf(cmd);
  if (cmd.name === 'find' || cmd.name === 'gfind' || cmd.name === 'bfs') {
    if (args.some((a, k) => FIND_NAME_TESTS.test(a) && !negated(args, k))) return [];
    const roots: string[] = [];
    for (const word of args) {
      if (word.startsWith('-') || word === '(' || word === '!') break;
      roots.push(word);
    }
    return roots.length ? roots : ['.'];
  }
  if (cmd.name === 'rg' && args.includes('--files')) return listedPaths(cmd);
  if (cmd.name === 'fd' || cmd.name === 'fdfind') {
    // fd leaves hidden files out (the credential stores are hidden) unless told to show them.
    const flags = parseFlags(args, ['e', 't', 'E', 'd', 'x', 'X', 'j', 'c', 'S'], ['extension', 'type', 'exclude']);
    const hidden =
      flags.short.has('H') || flags.short.has('u') || flags.long.has('hidden') || flags.long.has('unrestricted');
    const [pattern, ...roots] = flags.positionals;
    const anyName = pattern === undefined || pattern === '' || pattern === '.' || pattern === '^';
    return hidden && anyName ? (roots.length ? roots : ['.']) : [];
  }
  return [];
}

/**
 * The listers whose output `placed[at]`'s words are: the find of `find … -exec cat {} +`, the stage
 * before an xargs that runs it, and the commands of a `$(…)`, loop or `read` its words come from.
 */
function listersFeeding(placed: ReturnType<typeof commandsWithCwd>, at: number): ReturnType<typeof commandsWithCwd> {
  const { cmd } = placed[at]!;
  const commands = placed.map((p) => p.cmd);
  const feeding: ReturnType<typeof commandsWithCwd> = [];
  const parent = cmd.parent === undefined ? undefined : placed[cmd.parent];
  if (cmd.via.includes('find-exec') && parent) feeding.push(parent);
  if (cmd.via[cmd.via.length - 1] === 'xargs' && parent?.cmd.name === 'xargs') {
    const feeder = upstreamStage(commands, parent.cmd);
    const stage = feeder ? placed.find((p) => p.cmd === feeder) : undefined;
    // A lister a wrapper runs (`nice find …`) is the stage's own command, one level down.
    if (stage) feeding.push(stage, ...placed.filter((p) => p.cmd.parent === stage.index));
  }
  for (const origin of Object.values(cmd.origins ?? {})) {
    if (origin.kind !== 'output') continue;
    const sources = origin.commands.flatMap((i) => placed[i] ?? []);
    const sourceCommands = sources.map((p) => p.cmd);
    feeding.push(...sources.filter((p) => linesPassedOn(p.cmd, sourceCommands)));
  }
  return feeding;
}

/**
 * `find ~ -type f | xargs cat`, `cat $(find ~ -type f)`, `find ~ -type f -exec cat {} +`: a reader
 * handed every file below a folder outside the project that holds credential stores reads them too.
 */
function listedTreeReads(call: ToolCall): SecretRead[] {
  const found: SecretRead[] = [];
  const placed = commandsWithCwd(call);
  for (const [at, { cmd }] of placed.entries()) {
    if (!readTargetsOfName(cmd.name)) continue;
    for (const lister of listersFeeding(placed, at)) {
      for (const root of wholeTreeListing(lister.cmd)) {
        const place = shellPath(root, lister.cmd, lister.cwd, call);
        if (place.dynamic || isInside(place.absolute, call.projectRoot)) continue;
        const store = credentialStoreUnder(place.absolute, call.home);
        if (store)
          found.push({
            path: root,
            kind: `every file below a folder holding ${store}`,
            source: `${lister.cmd.name} feeding ${cmd.name}`,
          });
      }
    }
  }
  return found;
}

/** Glob and Grep parameters that select files by pattern. */
const PATTERN_PARAMS = ['glob', 'include', 'file_pattern'];

/** A grep pattern whose matches hold only name characters (`^[A-Z_]+=`): with -o, it prints names alone. */
const NAME_PATTERN = /^\^?(?:\[[A-Za-z0-9_-]+\][+*?]?|[A-Za-z_][+*?]?)+=?$/;
/** sed's `s/=.*` + `//`: every line cut at its first `=`. */
const NAME_CUT_SCRIPT = /^s(.)=\.\*\$?\1\1[gp]*$/;

/** The files a reader of the call prints names from, and the options that say so, or undefined for a whole read. */
function nameOnlyFiles(cmd: SimpleCommand): string[] | undefined {
  const args = argsOf(cmd);
  if (cmd.name === 'cut') {
    const names =
      optionValues(args, ['d'], ['delimiter']).join() === '=' && optionValues(args, ['f'], ['fields']).join() === '1';
    return names ? parseFlags(args, ['d', 'f', 'c', 'b'], ['delimiter', 'fields']).positionals : undefined;
  }
  if (cmd.name === 'grep' || cmd.name === 'egrep') {
    const flags = parseFlags(args, ['e', 'f', 'm', 'A', 'B', 'C'], ['regexp', 'file', 'max-count']);
    const given = optionValues(args, ['e'], ['regexp']);
    const patterns = given.length ? given : flags.positionals.slice(0, 1);
    const onlyMatching = flags.short.has('o') || args.includes('--only-matching');
    if (!onlyMatching || !patterns.length || !patterns.every((p) => NAME_PATTERN.test(p))) return undefined;
    return given.length ? flags.positionals : flags.positionals.slice(1);
  }
  if (cmd.name === 'sed') {
    const flags = parseFlags(args, ['e'], ['expression']);
    const scripts = optionValues(args, ['e'], ['expression']);
    const all = scripts.length ? scripts : flags.positionals.slice(0, 1);
    if (flags.short.has('i') || !all.length || !all.every((s) => NAME_CUT_SCRIPT.test(s))) return undefined;
    return scripts.length ? flags.positionals : flags.positionals.slice(1);
  }
  return undefined;
}

/**
 * `cut -d= -f1 .env`, `grep -o '^[A-Z_]+=' .env`, sed cutting each line at its `=`: files read only to print each
 * line's name, never its value (and that no other such reader of the call reads whole).
 */
function namesOnlyReads(call: ToolCall): Set<string> {
  const namesOnly = new Set<string>();
  const whole = new Set<string>();
  for (const { cmd, cwd } of commandsWithCwd(call)) {
    if (!NAME_READERS.has(cmd.name)) continue;
    const names = nameOnlyFiles(cmd);
    const files = names ?? parseFlags(argsOf(cmd), [], []).positionals;
    for (const file of files) (names ? namesOnly : whole).add(shellPath(file, cmd, cwd, call).absolute);
  }
  for (const file of whole) namesOnly.delete(file);
  return namesOnly;
}
const NAME_READERS = new Set(['cut', 'grep', 'egrep', 'sed']);

/** Source in a language no reader follows, written now to run later, that names a credential store. */
function unreadCodeSecrets(call: ToolCall): SecretRead[] {
  return writtenTexts(call).flatMap(({ file, content }) =>
    isUnreadSource(file)
      ? secretsNamedInSource(content, call.home).map((named) => ({
          path: named.literal,
          kind: named.kind,
          source: `code written to ${file}, which runs when the project builds or tests it`,
        }))
      : [],
  );
}

/** Where a file path may start inside a URL's path: an account's home, root's, or /etc. */
const PATH_STARTS = ['/home/', '/Users/', '/root/', '/etc/'];

/** The file path inside a URL's path (`/api/file/home/dev/.ssh/id_ed25519`: /home/dev/.ssh/id_ed25519), if any. */
function pathInUrl(pathname: string): string | undefined {
  const starts = PATH_STARTS.map((s) => pathname.indexOf(s)).filter((at) => at >= 0);
  return starts.length ? pathname.slice(Math.min(...starts)) : undefined;
}

/**
 * `curl http://127.0.0.1:63342/api/file/home/dev/.ssh/id_ed25519`: a local server (an IDE's, a dev
 * server's) asked for a file by its path hands over what it reads, around the file tools.
 */
function localServerFileReads(call: ToolCall): SecretRead[] {
  const urls = [
    ...shellCommands(call).flatMap((cmd) => argsOf(cmd).filter((w) => /^https?:\/\//i.test(w))),
    ...(typeof call.url === 'string' ? [call.url] : []),
  ];
  const found: SecretRead[] = [];
  for (const url of urls) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      continue;
    }
    if (!isLocalHost(parsed.hostname)) continue;
    const path = pathInUrl(decodeURIComponentSafe(parsed.pathname));
    const kind = path ? secretFileKind(path, call.home) : null;
    if (path && kind) found.push({ path: url, absolute: path, kind, source: `a local server asked for ${path}` });
  }
  return found;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Every credential file the call would read (through a file tool or a shell command). */
export function secretReads(call: ToolCall | undefined): SecretRead[] {
  if (!call) return [];
  const found: SecretRead[] = [];
  const loops = loopWords(shellCommands(call));
  const namesOnly = namesOnlyReads(call);
  for (const target of readTargets(call)) {
    if (NAME_READERS.has(target.source) && namesOnly.has(target.absolute)) continue;
    // As the system resolves it: any account's home, a glob that could match, a symlink's real path.
    const kind = secretKindOf(target, call.home);
    if (kind) found.push({ path: target.raw, absolute: target.absolute, kind, source: target.source });
    // A loop variable read by a reader: each literal word the loop gives it, with what follows the
    // variable (`for p in /proc/[0-9]*; do tr … < "$p/environ"`).
    // (A redirect's target keeps its `$f` as written, not marked dynamic.)
    const looped = /^"?\$\{?([A-Za-z_]\w*)\}?(\/[\w./-]*)?"?$/.exec(target.raw);
    const variable = looped?.[1];
    for (const word of (variable && loops.get(variable)) || []) {
      const path = `${word}${looped?.[2] ?? ''}`;
      const absolute = resolvePath(path, call.cwd, call.home);
      const kind =
        secretFileKind(absolute, call.home) ?? secretKindOf({ absolute }, call.home) ?? globNamesSecrets(path);
      if (kind) found.push({ path, kind, source: `${target.source} in a loop over ${variable}` });
    }
  }
  // `find ~ -name "*.key" -exec cat {} +`, `find … | xargs cat`: what the reader gets is chosen by find.
  const placed = commandsWithCwd(call);
  for (const { cmd } of placed) {
    const find = finderOf(placed, cmd);
    if (!find || !readTargetsOfName(cmd.name)) continue;
    const args = argsOf(find.cmd);
    for (let i = 0; i < args.length; i++) {
      const word = args[i] ?? '';
      if (/^-i?(name|path|wholename)$/.test(word)) {
        const kind = globNamesSecrets(args[i + 1] ?? '');
        if (kind) found.push({ path: args[i + 1] ?? '', kind, source: `find -exec ${cmd.name}` });
      } else if (!word.startsWith('-') && i < args.findIndex((a) => a.startsWith('-'))) {
        const kind = secretFileKind(shellPath(word, find.cmd, find.cwd, call).absolute, call.home);
        if (kind) found.push({ path: word, kind, source: `find -exec ${cmd.name}` });
      }
    }
  }
  found.push(...credentialTreeReads(call), ...listedTreeReads(call), ...containerSecretCopies(call));
  found.push(...unreadCodeSecrets(call), ...localServerFileReads(call));
  if (call.face.family === 'search') {
    for (const param of PATTERN_PARAMS) {
      const pattern = call.input[param];
      if (typeof pattern !== 'string') continue;
      const kind = globNamesSecrets(pattern);
      // A file-name search (Glob) only lists names; a content search (Grep) reads them.
      if (kind) found.push({ path: pattern, kind, source: param });
    }
    const pattern = call.input.pattern;
    if (typeof pattern === 'string' && /^(~|\/|\$HOME|[A-Za-z]:[\\/])/.test(pattern)) {
      const staticDir = pattern.split(/[*?[{]/)[0] ?? '';
      const kind = staticDir ? secretFileKind(resolvePath(staticDir, call.cwd, call.home), call.home) : null;
      if (kind) found.push({ path: pattern, kind, source: 'pattern' });
    }
  }
  return found;
}
