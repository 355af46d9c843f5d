// `ansible HOSTS -m shell -a 'CMD'`: an ad-hoc Ansible command runs CMD on every host it names, as root
// with -b. Its shell, command and raw modules take a command line; the service and file modules are
// read as the commands they amount to (`state=stopped` is `systemctl stop`, `state=absent` is `rm -r`).
import type { ArgvView } from './options';
import type { ScriptHop } from './script-hops';
import { shellQuote } from './quote';

export const COMMAND_MODULES = new Set(['shell', 'command', 'raw']);
export const SERVICE_MODULES = new Set(['service', 'systemd', 'systemd_service', 'sysvinit']);

/** Options of `ansible` that take a value (besides -m and -a, read apart). */
const VALUED = new Set(['-i', '-u', '-e', '-f', '-l', '-t', '-T', '-B', '-P', '-M', '-c', '-U']);

/** A module's name without its collection (`ansible.builtin.shell` is `shell`). */
export function bareModule(name: string): string {
  return name.replace(/^(ansible\.(builtin|legacy|posix)|community\.general)\./, '');
}

/** `name=auditd state=stopped enabled=no`: key=value pairs, split on blanks outside quotes; a value may be quoted. */
export function moduleArgs(text: string): Record<string, string> {
  const pairs: Record<string, string> = {};
  for (const word of wordsOutsideQuotes(text)) {
    const eq = word.indexOf('=');
    if (eq <= 0 || !/^[\w-]+$/.test(word.slice(0, eq))) continue;
    pairs[word.slice(0, eq)] = word.slice(eq + 1).replace(/^(["'])(.*)\1$/s, '$2');
  }
  return pairs;
}

function wordsOutsideQuotes(text: string): string[] {
  const words: string[] = [];
  let quote = '';
  let current = '';
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === ' ' || ch === '\t' || ch === '\n') {
      if (current) words.push(current);
      current = '';
      continue;
    }
    current += ch;
  }
  return current ? [...words, current] : words;
}

const NO = /^(no|false|off|0)$/i;
const YES = /^(yes|true|on|1)$/i;

/** What a service module's arguments amount to, as systemctl commands. */
export function serviceScript(args: Record<string, string>): string | undefined {
  const name = args['name'];
  if (!name) return undefined;
  const lines: string[] = [];
  const verb = { stopped: 'stop', restarted: 'restart', reloaded: 'reload', started: 'start' }[args['state'] ?? ''];
  if (verb) lines.push(`systemctl ${verb} ${shellQuote(name)}`);
  if (args['enabled'] !== undefined && NO.test(args['enabled'])) lines.push(`systemctl disable ${shellQuote(name)}`);
  if (args['masked'] !== undefined && YES.test(args['masked'])) lines.push(`systemctl mask ${shellQuote(name)}`);
  return lines.length ? lines.join('; ') : undefined;
}

/** The file module removing a path (`path=/x state=absent`) is a recursive delete. */
export function fileScript(args: Record<string, string>): string | undefined {
  const path = args['path'] ?? args['dest'] ?? args['name'];
  return path && args['state'] === 'absent' ? `rm -rf ${shellQuote(path)}` : undefined;
}

function homeOf(user: string): string {
  return user === 'root' ? '/root' : `/home/${user}`;
}

/**
 * What a module's arguments amount to as shell commands, for the modules whose effect a command states
 * plainly: services, removed files, files read back (slurp, fetch), keys authorized, lines and files
 * written, downloads, users made. Other modules stand for no command.
 */
export function moduleScript(module: string, args: Record<string, string>): string | undefined {
  const path = args['path'] ?? args['dest'] ?? args['name'];
  switch (module) {
    case 'file':
      return fileScript(args);
    case 'slurp':
    case 'fetch':
      return args['src'] ? `cat ${shellQuote(args['src'])}` : undefined;
    case 'authorized_key': {
      const user = args['user'];
      const key = args['key'];
      if (!user || !key) return undefined;
      const keys = `${homeOf(user)}/.ssh/authorized_keys`;
      return /^https?:\/\//.test(key)
        ? `curl -fsS ${shellQuote(key)} >> ${shellQuote(keys)}`
        : `printf '%s\\n' ${shellQuote(key)} >> ${shellQuote(keys)}`;
    }
    case 'lineinfile':
    case 'blockinfile': {
      const line = args['line'] ?? args['block'];
      return path && line !== undefined ? `printf '%s\\n' ${shellQuote(line)} >> ${shellQuote(path)}` : undefined;
    }
    // A file copied or rendered from the project is a deploy; text written out is read for what it says.
    case 'copy':
      return args['dest'] && args['content'] !== undefined
        ? `printf '%s' ${shellQuote(args['content'])} > ${shellQuote(args['dest'])}`
        : undefined;
    case 'get_url':
      return args['url'] && args['dest']
        ? `curl -fsSL -o ${shellQuote(args['dest'])} ${shellQuote(args['url'])}`
        : undefined;
    case 'user':
      if (!args['name'] || args['state'] === 'absent') return undefined;
      return `useradd -m${args['groups'] ? ` -G ${shellQuote(args['groups'])}` : ''} ${shellQuote(args['name'])}`;
    default:
      return SERVICE_MODULES.has(module) ? serviceScript(args) : undefined;
  }
}

/** What `ansible … -m MODULE -a ARGS` runs on its hosts, as a script to read, when the module is one of the above. */
export function ansibleHops(view: ArgvView): ScriptHop[] {
  let module = 'command';
  let args: string | undefined;
  let become = false;
  const { argv } = view;
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i] ?? '';
    const [flag, inline] = word.startsWith('--') ? word.split(/=(.*)/s) : [word.slice(0, 2), word.slice(2)];
    const value = () => (inline ? inline : view.dynamic.has(i + 1) ? undefined : argv[++i]);
    if (flag === '-m' || flag === '--module-name') module = value() ?? '';
    else if (flag === '-a' || flag === '--args') args = value();
    else if (word === '--become' || (/^-[a-zA-Z]+$/.test(word) && word.includes('b'))) become = true;
    else if (VALUED.has(word)) i++;
  }
  if (args === undefined) return [];
  const bare = bareModule(module);
  const script = COMMAND_MODULES.has(bare) ? args : moduleScript(bare, moduleArgs(args));
  if (script === undefined) return [];
  return [{ kind: 'script', via: 'ssh', script, ...(become ? { wrapper: 'sudo' } : {}) }];
}
