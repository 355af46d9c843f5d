// Commands an operator runs as root only to look: the state of services, the journal, the firewall's
// rules, listening sockets, disk use, the security modules' status. They change nothing and print no
// file's contents, so running them through sudo needs no approval. A file read as root (`sudo cat`,
// `sudo grep`) is not among them, logs under /var/log aside: root reads every secret on the machine.
import type { SimpleCommand } from '../shell';
import { argsOf, optionValues, parseFlags } from './commands';
import { REQUEST_BODY_LONG, REQUEST_BODY_SHORT } from './programs';

const SYSTEMCTL_LOOKS = new Set([
  'status',
  'show',
  'cat',
  'list-units',
  'list-unit-files',
  'list-timers',
  'list-sockets',
  'list-dependencies',
  'list-jobs',
  'is-active',
  'is-enabled',
  'is-failed',
  'get-default',
]);

/** journalctl options that change the journal rather than read it. */
const JOURNAL_CHANGES = /^--(vacuum-|rotate|flush|sync|relinquish-var|smart-relinquish-var|setup-keys|update-catalog)/;

/** iptables options that change rules; the rest list or format them. */
const IPTABLES_CHANGES =
  /^-[AIDRFPXNEZ]|^--(append|insert|delete|replace|flush|policy|delete-chain|new-chain|rename-chain|zero)\b/;

const PROGRAMS_THAT_ONLY_LOOK = new Set([
  'ss',
  'netstat',
  'ps',
  'df',
  'free',
  'uptime',
  'du',
  'ls',
  'stat',
  'lsblk',
  'blkid',
  'aa-status',
  'apparmor_status',
  'sestatus',
  'getenforce',
  'iptables-save',
  'ip6tables-save',
  'dmesg',
  'id',
  'whoami',
  'lsof',
]);

const LOG_READERS = new Set(['cat', 'tail', 'head', 'less', 'grep', 'zcat', 'zgrep', 'wc']);

function systemctlLooks(args: readonly string[]): boolean {
  const verb = parseFlags(
    args,
    ['t', 'p', 'n', 'o', 'H', 'M', 's'],
    ['type', 'property', 'lines', 'output', 'host', 'machine', 'state', 'signal'],
  ).positionals[0];
  return verb !== undefined && SYSTEMCTL_LOOKS.has(verb);
}

function firewallLooks(name: string, args: readonly string[]): boolean {
  if (name === 'iptables' || name === 'ip6tables')
    return args.some((a) => /^-\w*[LS]|^--list/.test(a)) && !args.some((a) => IPTABLES_CHANGES.test(a));
  if (name === 'nft') return args.filter((a) => !a.startsWith('-'))[0] === 'list';
  if (name === 'ufw') return args[0] === 'status';
  if (name === 'firewall-cmd') return args.every((a) => /^--(list-|get-|query-|state|zone=)/.test(a));
  return false;
}

/** Only log files are read: every operand past the options lies under /var/log. */
function readsOnlyLogs(args: readonly string[]): boolean {
  const operands = args.filter((a) => !a.startsWith('-') && !/^\d+$/.test(a));
  const files = operands.filter((a) => a.startsWith('/'));
  return files.length > 0 && files.every((file) => file.startsWith('/var/log/') && !file.includes('..'));
}

/** Whether a command run as root only inspects the machine (see above). */
export function inspectsAsRoot(cmd: SimpleCommand): boolean {
  if (cmd.dynamicWords.length || cmd.redirects.some((r) => r.op.includes('>'))) return false;
  const args = argsOf(cmd);
  switch (cmd.name) {
    case 'journalctl':
      return !args.some((a) => JOURNAL_CHANGES.test(a));
    case 'systemctl':
      return systemctlLooks(args);
    case 'nginx':
      return args.length > 0 && args.every((a) => /^-[tTvV]+$/.test(a) || a === '-q');
    case 'auditctl':
      return args.length > 0 && args.every((a) => a === '-s' || a === '-l');
    case 'docker':
      return ['ps', 'logs', 'inspect', 'images', 'stats', 'top', 'info', 'version'].includes(args[0] ?? '');
    default:
      if (firewallLooks(cmd.name, args)) return true;
      if (LOG_READERS.has(cmd.name)) return readsOnlyLogs(args);
      return (
        PROGRAMS_THAT_ONLY_LOOK.has(cmd.name) &&
        !(cmd.name === 'dmesg' && args.some((a) => /^-\w*[cCD]|^--(clear|console-off)/.test(a)))
      );
  }
}

/** `sudo -l`, `sudo -v`, `sudo -k`: sudo asked about itself, which runs nothing. */
export function sudoAsksAboutItself(args: readonly string[]): boolean {
  let asks = false;
  for (let i = 0; i < args.length; i++) {
    const word = args[i] as string;
    if (/^-[lvkKVn]+$/.test(word) || /^--(list|validate|reset-timestamp|remove-timestamp|version)$/.test(word)) {
      asks ||= !/^-n+$/.test(word);
      continue;
    }
    // -n only refuses to prompt; -U names whose rights -l lists (sudo takes it with -l alone).
    if (word === '--non-interactive' || word.startsWith('--other-user=')) continue;
    if ((word === '-U' || word === '--other-user') && i + 1 < args.length) {
      i++;
      continue;
    }
    return false;
  }
  return asks;
}

/** Programs that only print what a container holds or sees: its files, names, network view and set variables. */
const POD_LOOKS = new Set([
  'cat',
  'head',
  'tail',
  'grep',
  'ls',
  'stat',
  'wc',
  'df',
  'du',
  'ps',
  'id',
  'whoami',
  'hostname',
  'date',
  'uptime',
  'nslookup',
  'dig',
  'host',
  'getent',
]);

/**
 * Whether a command run inside a container (`kubectl exec … --`) only looks: reads a file, lists, asks
 * DNS, prints named variables (never the whole environment, where a pod keeps its secrets), fetches a
 * page of its own (a GET to localhost), or is the shell that runs such commands. A file it reads is
 * judged on its own by the secret policies.
 */
export function inspectsInPod(cmd: SimpleCommand): boolean {
  if (cmd.dynamicWords.length || cmd.redirects.some((r) => r.op.includes('>'))) return false;
  const args = argsOf(cmd);
  if (POD_LOOKS.has(cmd.name) || inspectsAsRoot(cmd)) return true;
  if (cmd.name === 'printenv') return args.length > 0 && args.every((a) => /^\w+$/.test(a));
  if (cmd.name === 'sh' || cmd.name === 'bash' || cmd.name === 'ash') return args[0] === '-c';
  if (cmd.name === 'curl' || cmd.name === 'wget') return getsOwnPage(args);
  return false;
}

/** A curl or wget GET of the container's own localhost pages: no body, no other method, no other host. */
function getsOwnPage(args: readonly string[]): boolean {
  const urls = args.filter((a) => /^https?:\/\//.test(a));
  const sends =
    optionValues(args, [...REQUEST_BODY_SHORT, 'X'], [...REQUEST_BODY_LONG, 'request', 'form']).length > 0 ||
    args.some((a) => /^--(post|body|method)/.test(a));
  return urls.length > 0 && urls.every((u) => /^https?:\/\/(localhost|127\.0\.0\.1)(:\d+)?(\/|$)/.test(u)) && !sends;
}
