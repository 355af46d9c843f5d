import { createHash } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import type { SimpleCommand } from '../../shell';
import { definePolicy } from '../types';
import { writtenTexts } from '../../facts/compute';
import type { ToolCall } from '../types';
import { argsOf, commandsWithCwd, evidenceOf, redirectWrites, shellCommands } from '../../facts/commands';
import { gitGlobalTakesValue, gitInvocation } from '../../facts/git-invocation';
import { hostAndPath, isOwnSource } from './shared/own-sources';
import { trimEndChars } from '../../text/scan';
import { relatePath, resolvePath, withForwardSlashes } from '../../shell/paths';
import { insertedSpan, replacedTexts } from './shared/edited-file';

// Git configuration is code: many keys name a program git runs (an ssh command, a pager, a
// filter, a credential helper, an alias starting with `!`), others send git elsewhere
// (include.path, url.*.insteadOf) or enable transports that run commands (protocol ext).
// Setting one with `git -c`, `git config`, GIT_CONFIG_* variables or an edit of the config file
// is running code later, often on the person's own next `git` command.

const CODE_KEYS: readonly RegExp[] = [
  /^core\.(sshcommand|pager|fsmonitor|editor|hookspath|askpass|gitproxy|worktree)$/,
  /^pager\.[^.]+$/,
  /^sequence\.editor$/,
  /^credential\.(.+\.)?helper$/,
  /^filter\.[^.]+\.(clean|smudge|process)$/,
  /^diff\.([^.]+\.)?(textconv|command|external)$/,
  /^diff\.external$/,
  /^merge\.[^.]+\.driver$/,
  /^(difftool|mergetool|man|browser)\.[^.]+\.(cmd|path)$/,
  /^web\.browser$/,
  /^gpg\.([^.]+\.)?program$/,
  /^include\.path$/,
  /^includeif\..+\.path$/,
  /^url\..+\.(insteadof|pushinsteadof)$/,
  /^protocol\.([^.]+\.)?allow$/,
  /^uploadpack\.packobjectshook$/,
  /^remote\.[^.]+\.(uploadpack|receivepack|proxy)$/,
  /^http\.proxy$/,
  /^interactive\.difffilter$/,
  /^sendemail\.(smtpserver|tocmd|cccmd|sendmailcmd)$/,
  // Hooks copied into every repository created or cloned; commands run by trailers and ref listings.
  /^init\.templatedir$/,
  /^trailer\.[^.]+\.(command|cmd)$/,
  /^core\.alternaterefscommand$/,
  // git-lfs runs a custom transfer agent's program for every LFS upload and download.
  /^lfs\.(customtransfer\.[^.]+\.(path|args)|standalonetransferagent)$/,
  // Trusting every repository's config (`safe.directory *`) lets any checkout's config run code.
  /^safe\.directory$/,
];

/** Keys whose value is the program git shows text or opens an editor with. */
const VIEWER_KEYS = /^(core\.(pager|editor)|pager\.[^.]+|sequence\.editor)$/;
/** A plain pager or editor with plain options (`less -R`, `code --wait`), or paging switched on or off. */
const PLAIN_VIEWER =
  /^\s*((cat|less|more|most|vi|vim|nvim|nano|emacs|code)(\s+-[-\w=]*)*|true|false|yes|no|on|off|[01])\s*$/i;

/**
 * Credential helpers git and its usual installs ship, or none (''): the cache with its timeout and the
 * system keychains. Not `store`: it writes every password and token in clear text to ~/.git-credentials
 * (or, with `--file`, anywhere), in place of the keychain that encrypted them.
 */
const BUILT_IN_HELPER =
  /^(cache(\s+--timeout=\d+)?|osxkeychain|wincred|libsecret|gnome-keyring|manager|manager-core)?$/;
/** The helper `gh auth setup-git` installs: the GitHub CLI hands git its own login. */
const GH_HELPER = /^!(?:\/[\w./-]*\/)?gh auth git-credential$/;

// What a shortcut alias runs: work on this clone, never a push, a URL, or history thrown away by force.
const LOCAL_GIT_SUBCOMMANDS = new Set([
  'status',
  'log',
  'diff',
  'show',
  'commit',
  'add',
  'branch',
  'checkout',
  'switch',
  'stash',
  'fetch',
  'pull',
  'restore',
  'tag',
  'shortlog',
  'blame',
  'grep',
  'describe',
  'rev-parse',
  'ls-files',
]);
/** Shell syntax that would make an alias's line more than its own words: a second command, a substitution, a redirect. */
const SHELL_SYNTAX = /[$`;&|<>(){}\\!*?\n]/;

/**
 * A `!` alias whose line is one plain git command on this clone (`!git commit --amend --no-edit`): the
 * shell it starts runs git and nothing else, and nothing leaves. A push, a URL, a setting given with -c,
 * or any shell syntax makes it more: later runs of the alias are not read again.
 */
function isPlainGitLine(line: string): boolean {
  const words = line.trim().split(/\s+/);
  return (
    words[0] === 'git' &&
    LOCAL_GIT_SUBCOMMANDS.has(words[1] ?? '') &&
    !words.some((word) => word.includes('://') || word.includes('@')) &&
    !words.some(
      (word) =>
        SHELL_SYNTAX.test(word) || word === '-c' || word.startsWith('--config-env') || word.startsWith('--exec-path'),
    )
  );
}

// ssh settings that pick a key, a user, a port or host checking, and run nothing (ProxyCommand would).
const PLAIN_SSH_SETTINGS = new Set([
  'identitiesonly',
  'identityfile',
  'identityagent',
  'stricthostkeychecking',
  'userknownhostsfile',
  'port',
  'user',
  'connecttimeout',
  'batchmode',
  'serveraliveinterval',
  'addkeystoagent',
]);

/** `ssh -i ~/.ssh/team_key -o IdentitiesOnly=yes`: plain ssh, choosing a key or a port. */
function isPlainSsh(value: string): boolean {
  const words = value.trim().split(/\s+/);
  if (!/^(\/usr\/bin\/)?ssh$/.test(words[0] ?? '') || SHELL_SYNTAX.test(value)) return false;
  for (let at = 1; at < words.length; at++) {
    const word = words[at]!;
    if (word === '-i' || word === '-p' || word === '-l') at++;
    else if (word === '-o') {
      const setting = words[++at] ?? '';
      // Host keys unchecked, or checked against nothing: whoever sits between git and the server is the server.
      if (/^stricthostkeychecking=(no|off)$|^userknownhostsfile=\/dev\/null$/i.test(setting)) return false;
      if (!PLAIN_SSH_SETTINGS.has(setting.split('=')[0]!.toLowerCase())) return false;
    } else if (!/^-[46TvqCA]+$/.test(word)) return false;
  }
  return true;
}

const INSTEAD_OF = /^url\.(.+)\.(?:push)?insteadof$/;

/**
 * `url."ssh://git@h/".insteadOf "https://h/"`: the same host and path by another scheme, not a redirect
 * elsewhere. On a shared host the path is the owner (`github.com/acme/` to `github.com/someone-else/`).
 */
function sameHostRewrite(lowerKey: string, value: string): boolean {
  const base = INSTEAD_OF.exec(lowerKey)?.[1];
  const to = base === undefined ? undefined : hostAndPath(base);
  const from = hostAndPath(value.toLowerCase());
  const bare = (path: string) => trimEndChars(path, '/');
  return to !== undefined && from !== undefined && to.host === from.host && bare(to.path) === bare(from.path);
}

/**
 * `core.hooksPath` set, in this repository, to a folder of the project whose every file is committed and
 * unchanged (`.githooks`, `scripts/git-hooks`): the hooks are the repository's reviewed code, and a hook file
 * written there later is read when it is written. Each file's content is hashed here and compared with the
 * index's blob, so git runs no filter or monitor of the repository's own to answer; anything unknown asks.
 */
function committedHooksFolder(setting: ConfigSetting, call: ToolCall, cwd: string): boolean {
  const value = setting.value?.trim();
  if (setting.key.toLowerCase() !== 'core.hookspath' || setting.reach !== 'repository' || !value) return false;
  if (/^[/~$]|^[A-Za-z]:|(^|\/)\.\.(\/|$)/.test(value)) return false;
  const folder = resolvePath(value, cwd, call.home);
  if (relatePath(folder, call.projectRoot, call.home) !== 'inside-project') return false;
  const names = call.io.listDir(folder);
  const staged = call.io.git(['-c', 'core.fsmonitor=false', 'ls-files', '--stage', '--', folder], call.projectRoot);
  if (!names?.length || staged === null) return false;
  const blobs = new Map<string, string>();
  for (const line of staged.split('\n')) {
    const match = /^\d+ ([0-9a-f]{40}) 0\t(.+)$/.exec(line);
    if (match) blobs.set(path.posix.join(call.projectRoot, match[2]!), match[1]!);
  }
  return names.every((name) => {
    const file = path.posix.join(folder, name);
    const text = call.io.readText(file, MAX_HOOK_BYTES);
    return text !== null && blobs.get(file) === gitBlobHash(text);
  });
}

const MAX_HOOK_BYTES = 256 * 1024;

/** The id git gives a file's content (SHA-1 of `blob <size>\0<bytes>`). */
function gitBlobHash(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

function isCodeKey(key: string, value: string | undefined): boolean {
  const lower = key.toLowerCase();
  if (lower === 'core.sshcommand' && value !== undefined && isPlainSsh(value)) return false;
  if (VIEWER_KEYS.test(lower) && value !== undefined && PLAIN_VIEWER.test(value)) return false;
  if (
    /^credential\.(.+\.)?helper$/.test(lower) &&
    value !== undefined &&
    (BUILT_IN_HELPER.test(value.trim()) || GH_HELPER.test(value.trim()))
  )
    return false;
  // Husky's own folder: every file written there is read as a hook that runs later, when it is written.
  if (lower === 'core.hookspath' && value !== undefined && /^\.husky(\/_)?\/?$/.test(value.trim())) return false;
  // fsmonitor takes a boolean too: false turns it off, true is git's own built-in daemon.
  if (lower === 'core.fsmonitor' && value !== undefined && /^(true|false|yes|no|on|off|[01])$/i.test(value.trim()))
    return false;
  // Certificate checks off: whoever sits on the network path serves every fetch (and the build-time git
  // dependencies of pub, Cargo and Go) whatever it likes.
  if (/^http\.(.+\.)?sslverify$/.test(lower)) return value !== undefined && /^(false|no|off|0)$/i.test(value.trim());
  if (value !== undefined && sameHostRewrite(lower, value)) return false;
  // Fetches rewritten to the organisation's own mirror (`url."https://git.acme.internal/mirror/".insteadOf`).
  if (/^url\..+\.insteadof$/.test(lower) && isOwnSource(INSTEAD_OF.exec(lower)?.[1] ?? '', [])) return false;
  // `submodule.x.update = !cmd` runs cmd on every submodule update.
  if (/^submodule\..+\.update$/.test(lower)) return value === undefined || value.trimStart().startsWith('!');
  if (/^alias\.[^.]+$/.test(lower))
    return value === undefined || (value.trimStart().startsWith('!') && !isPlainGitLine(value.trimStart().slice(1)));
  return CODE_KEYS.some((pattern) => pattern.test(lower));
}

interface ConfigSetting {
  key: string;
  value?: string;
  /** Where it lasts: this command only, the repository, or every repository of the user or machine. */
  reach: 'command' | 'repository' | 'user' | 'system';
  text: string;
}

// `git -c key=value` and `git --config-env=key=ENV` before the subcommand.
function commandLineSettings(cmd: SimpleCommand): ConfigSetting[] {
  const args = argsOf(cmd);
  const found: ConfigSetting[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i] as string;
    let setting: string | undefined;
    if (word === '-c') setting = args[++i];
    else if (word.startsWith('-c') && word.length > 2) setting = word.slice(2);
    else if (word.startsWith('--config-env=')) setting = word.slice('--config-env='.length);
    else if (gitGlobalTakesValue(word)) i++;
    else if (!word.startsWith('-')) break;
    if (setting === undefined) continue;
    const eq = setting.indexOf('=');
    found.push({
      key: eq === -1 ? setting : setting.slice(0, eq),
      ...(eq === -1 ? {} : { value: setting.slice(eq + 1) }),
      reach: 'command',
      text: cmd.text,
    });
  }
  return found;
}

const CONFIG_VALUE_OPTIONS = new Set(['--file', '-f', '--blob', '--type', '--default', '--comment']);
const CONFIG_READ_ACTIONS = new Set([
  '--get',
  '--get-all',
  '--get-regexp',
  '--get-urlmatch',
  '-l',
  '--list',
  '--unset',
  '--unset-all',
  '--remove-section',
  '--rename-section',
  '--show-origin',
  '--show-scope',
  '-e',
  '--edit',
  '--get-color',
  '--get-colorbool',
]);

// `git config [scope] key value`, `git config set key value`, `git config --add key value`.
function configCommandSettings(cmd: SimpleCommand): ConfigSetting[] {
  const git = gitInvocation(cmd);
  if (git?.sub !== 'config') return [];
  const args = git.args;
  let reach: ConfigSetting['reach'] = 'repository';
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i] as string;
    if (word === '--global') reach = 'user';
    else if (word === '--system') reach = 'system';
    else if (CONFIG_READ_ACTIONS.has(word)) return [];
    else if (CONFIG_VALUE_OPTIONS.has(word)) i++;
    else if (!word.startsWith('-')) operands.push(word);
  }
  if (operands[0] === 'set' || operands[0] === 'add') operands.shift();
  else if (['get', 'list', 'unset', 'rename-section', 'remove-section', 'edit'].includes(operands[0] ?? '')) return [];
  const [key, value] = operands;
  if (key === undefined || value === undefined) return [];
  return [{ key, value, reach, text: cmd.text }];
}

/** `git clone --template=DIR`, `git init --template DIR`: the hooks of that folder are copied in, and run. */
function templateOptionSettings(cmd: SimpleCommand): ConfigSetting[] {
  const git = gitInvocation(cmd);
  if (git?.sub !== 'clone' && git?.sub !== 'init') return [];
  const at = git.args.findIndex((word) => word === '--template' || word.startsWith('--template='));
  if (at < 0) return [];
  const word = git.args[at] as string;
  const value = word === '--template' ? git.args[at + 1] : word.slice('--template='.length);
  return value ? [{ key: 'init.templateDir', value, reach: 'command', text: cmd.text }] : [];
}

// GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0=…, and GIT_CONFIG_PARAMETERS.
function environmentSettings(cmd: SimpleCommand): ConfigSetting[] {
  const found: ConfigSetting[] = [];
  for (const [name, key] of Object.entries(cmd.assignments)) {
    const index = /^GIT_CONFIG_KEY_(\d+)$/.exec(name)?.[1];
    if (index !== undefined)
      found.push({ key, value: cmd.assignments[`GIT_CONFIG_VALUE_${index}`] ?? '', reach: 'command', text: cmd.text });
  }
  // GIT_CONFIG_GLOBAL=/tmp/x git …: git reads its whole user or system configuration from another file.
  const exported = cmd.name === 'export' ? argsOf(cmd).map((a) => a.split('=')) : [];
  for (const [name, file] of [...Object.entries(cmd.assignments), ...exported])
    if (name !== undefined && /^GIT_CONFIG(_GLOBAL|_SYSTEM)?$/.test(name) && file && file !== '/dev/null')
      found.push({
        key: `${name} (the whole configuration, from ${file})`,
        value: file,
        reach: 'command',
        text: cmd.text,
      });
  const parameters = cmd.assignments.GIT_CONFIG_PARAMETERS;
  if (parameters !== undefined)
    for (const match of parameters.matchAll(/'([^'=]+)(?:=([^']*))?'/g))
      found.push({ key: match[1] as string, value: match[2] ?? '', reach: 'command', text: cmd.text });
  return found;
}

const CONFIG_FILE = /(^|\/)(\.git\/config|\.gitconfig|\.config\/git\/config|\.git\/config\.worktree)$/;

function configFileWrites(call: ToolCall): string[] {
  // Every write fact counts: redirects, tee, and in-place editors (sed -i, perl -pi) alike.
  const targets = [
    ...call.paths.filter((p) => p.access === 'write').map((p) => p.absolute),
    ...call.facts.writes.map((w) => w.absolute),
  ];
  for (const cmd of shellCommands(call)) {
    targets.push(...redirectWrites(cmd));
    if (cmd.name === 'tee') targets.push(...argsOf(cmd).filter((a) => !a.startsWith('-')));
  }
  // A Windows path (`C:\\…\\.git\\config`) is judged by its forward-slash spelling.
  return targets.filter((target) => CONFIG_FILE.test(withForwardSlashes(target)));
}

export const gitConfigRunsCode = definePolicy({
  name: 'git-config-runs-code',
  category: 'git',
  description:
    'Asks before setting a git key that runs a program or redirects git (core.sshCommand, pager, fsmonitor, hooksPath, helpers, ! aliases, filters, http.sslVerify off); denies it for --global and --system.',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    if (!call) return null;
    for (const { cmd, cwd } of commandsWithCwd(call)) {
      const settings = [
        ...(cmd.name === 'git'
          ? [...commandLineSettings(cmd), ...configCommandSettings(cmd), ...templateOptionSettings(cmd)]
          : []),
        ...environmentSettings(cmd),
      ];
      const setting = settings.find(
        (s) => s.key.startsWith('GIT_CONFIG') || (isCodeKey(s.key, s.value) && !committedHooksFolder(s, call, cwd)),
      );
      if (!setting) continue;
      const lasting = setting.reach === 'user' || setting.reach === 'system';
      return {
        reason: lasting
          ? `Sets ${setting.key} in the ${setting.reach} git configuration: git will run or follow it in every repository from now on. Change it by hand if you mean it.`
          : `Sets ${setting.key}, which makes git run a program or go elsewhere${setting.value ? ` (${evidenceOf(setting.value, 80)})` : ''}: approve this exact call if that is intended.`,
        evidence: evidenceOf(setting.text),
        ...(lasting ? { decision: 'deny' as const } : {}),
      };
    }
    const written = writtenTexts(call);
    const modules = submoduleCommand(written);
    if (modules) return modules;
    const driver = written
      .filter((w) => /(^|\/)(\.gitattributes|\.git\/info\/attributes)$/.test(w.file))
      .map((w) => ({ file: w.file, named: customDriver(w.content) }))
      .find((w) => w.named !== undefined);
    if (driver)
      return {
        reason: `Writes ${driver.file} naming the git driver ${driver.named}: git runs the command its config gives that driver on checkout, add or merge, and the attributes travel with the repository. Approve this exact call if that driver is the team's.`,
        evidence: evidenceOf(driver.named!),
      };
    const fragment = configFragmentCode(written);
    if (fragment)
      return {
        reason: `Writes ${fragment.file}, written as git config, with ${fragment.key} set: any repository that includes it (include.path, includeIf) runs that program. Approve this exact call if that is intended.`,
        evidence: evidenceOf(fragment.line),
      };
    const edited = configFileWrites(call)[0];
    if (edited && onlyPlainSettingsAdded(call)) return null;
    if (edited)
      return {
        reason: `Writes git's configuration file ${edited} directly, where keys can make git run programs; use \`git config\` for ordinary settings, or approve this exact call.`,
        evidence: evidenceOf(call.command ?? edited),
      };
    return null;
  },
});

// Keys of those sections that send nothing anywhere and run nothing: a remote's that only tidy what fetch
// keeps, a branch's way of pulling and its description.
const PLAIN_ROUTING_KEYS = new Map([
  ['remote', new Set(['prune', 'prunetags', 'tagopt', 'skipdefaultupdate', 'skipfetchall'])],
  ['branch', new Set(['rebase', 'description'])],
]);

// Sections whose keys send git elsewhere or bring in more configuration, whatever the key: left to the person.
const ROUTING_SECTIONS = new Set([
  'remote',
  'url',
  'submodule',
  'branch',
  'include',
  'includeif',
  'credential',
  'http',
]);

/**
 * An edit of a git config file that only adds lines, each a section header, a comment or a plain key
 * (`[pull]` `rebase = true`): every added key has a known section, none runs a program or routes git.
 */
function onlyPlainSettingsAdded(call: ToolCall): boolean {
  if (call.face.family !== 'edit') return false;
  const pairs = replacedTexts(call.input);
  return (
    pairs.length > 0 &&
    pairs.every(([before, after]) => {
      const inserted = linesInserted(before, after);
      if (inserted === undefined) return false;
      let section = lastSection(inserted.above);
      for (const line of inserted.lines) {
        const trimmed = line.trim();
        if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith(';')) continue;
        const header = SECTION_LINE.exec(line);
        if (header) {
          section = header[2] === undefined ? header[1] : `${header[1]}.${header[2]}`;
          continue;
        }
        const entry = KEY_LINE.exec(trimmed);
        const top = section?.split('.')[0]?.toLowerCase();
        if (!entry || section === undefined) return false;
        if (ROUTING_SECTIONS.has(top ?? '') && !PLAIN_ROUTING_KEYS.get(top ?? '')?.has(entry[1]!.toLowerCase()))
          return false;
        if (isCodeKey(`${section}.${entry[1]}`, entry[2]?.trim().replace(/^"(.*)"$/, '$1'))) return false;
      }
      return true;
    })
  );
}

/**
 * The whole lines an edit inserts, with the old lines above them; undefined when it also changes or removes
 * any. Whole lines, not characters: a character-level match can place a new `[section]` header mid-line.
 */
function linesInserted(before: string, after: string): { above: string[]; lines: string[] } | undefined {
  const is = after.split('\n');
  const span = insertedSpan(before.split('\n'), is);
  return span && { above: is.slice(0, span.start), lines: is.slice(span.start, span.end) };
}

/** The section the last header of config lines opens, or undefined when there is none. */
function lastSection(lines: readonly string[]): string | undefined {
  let section: string | undefined;
  for (const line of lines) {
    const header = SECTION_LINE.exec(line);
    if (header) section = header[2] === undefined ? header[1] : `${header[1]}.${header[2]}`;
  }
  return section;
}

const DOCUMENT = /\.(md|mdx|markdown|rst|adoc|txt|html?)$/i;
const SECTION_LINE = /^[ \t]*\[([A-Za-z][\w.-]*)(?:[ \t]+"([^"\n]*)")?\][ \t]*$/;
const KEY_LINE = /^([A-Za-z][\w-]*)\s*(?:=(.*))?$/;

/** The first key of a written git config (a file for include.path, whatever its name) that makes git run a program. */
function configFragmentCode(written: { file: string; content: string }[]) {
  for (const { file, content } of written) {
    // Any file can be a git config for include.path to pull in (`.gitconfig.shared`, `tools/git/shared.inc`);
    // a document only shows one.
    if (CONFIG_FILE.test(file) || DOCUMENT.test(file)) continue;
    let section: string | undefined;
    for (const line of content.split('\n')) {
      const header = SECTION_LINE.exec(line);
      if (header) {
        section = header[2] === undefined ? header[1] : `${header[1]}.${header[2]}`;
        continue;
      }
      const entry = section === undefined ? null : KEY_LINE.exec(line.trim());
      if (entry && isCodeKey(`${section}.${entry[1]}`, entry[2]?.trim().replace(/^"(.*)"$/, '$1')))
        return { file, key: `${section}.${entry[1]}`, line };
    }
  }
  return undefined;
}

/** Filter and merge drivers every repository may name: Git LFS's, and merge's own. */
const BUILT_IN_DRIVERS = new Set(['lfs', 'text', 'binary', 'union']);

/**
 * The first `filter=` or `merge=` an attributes file gives a driver git does not have built in: a filter
 * runs on every checkout and add, a merge driver on every merge. A diff driver runs only when a person asks
 * for a diff, and nbdime and the like install theirs, so it is left alone.
 */
function customDriver(content: string): string | undefined {
  for (const line of content.split('\n')) {
    if (line.trimStart().startsWith('#')) continue;
    for (const word of line.split(/[ \t]+/)) {
      const eq = word.indexOf('=');
      if (eq < 0) continue;
      const kind = word.slice(0, eq);
      const name = word.slice(eq + 1);
      if ((kind === 'filter' || kind === 'merge') && name && !BUILT_IN_DRIVERS.has(name)) return word;
    }
  }
  return undefined;
}

/**
 * `.gitmodules` is read from the repository itself: `update = !cmd` runs cmd on `git submodule update`,
 * and a URL of the ext:: or fd:: transport runs its command when the submodule is fetched.
 */
function submoduleCommand(written: { file: string; content: string }[]) {
  for (const { file, content } of written) {
    if (!/(^|\/)\.gitmodules$/.test(file)) continue;
    const update = /^[ \t]*update[ \t]*=[ \t]*!.*$/m.exec(content);
    if (update)
      return {
        reason: `Writes ${file} with a submodule update command (update = !…): \`git submodule update\` runs it, here and in every clone. Approve this exact call if that is intended.`,
        evidence: evidenceOf(update[0]),
      };
    const transport = /^[ \t]*url[ \t]*=[ \t]*(?:ext|fd)::.*$/m.exec(content);
    if (transport)
      return {
        reason: `Writes ${file} with a submodule URL of git's ext:: transport, which runs its command when the submodule is fetched, here and in every clone. Use an https or ssh URL.`,
        evidence: evidenceOf(transport[0]),
        decision: 'deny' as const,
      };
  }
  return undefined;
}
