// Cloud CLIs that run a command on another machine: `gcloud compute ssh VM --command CMD`, `az vm
// run-command invoke --scripts CMD`, `aws ssm send-command --parameters commands=[…]`, and ssh's own
// `-o RemoteCommand=CMD`, `heroku run CMD`, `fly ssh console -C CMD`. Each command is a remote hop, judged as ssh's remote command is.
import type { ArgvView } from './options';
import { shellQuote } from './quote';
import { AWS_VALUE_OPTIONS } from './cli-options';

/** A command run on another machine (script-hops' ScriptHop, via ssh). */
interface RemoteHop {
  kind: 'script';
  via: 'ssh';
  wrapper: string;
  script: string;
}

/** The value of `--name VALUE` or `--name=VALUE` among the words, when it is written out. */
function longValue(view: ArgvView, name: string): string | undefined {
  const { argv } = view;
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i] ?? '';
    if (word.startsWith(`${name}=`)) return view.dynamic.has(i) ? undefined : word.slice(name.length + 1);
    if (word === name) return view.dynamic.has(i + 1) ? undefined : argv[i + 1];
  }
  return undefined;
}

/** The words after `--name` up to the next option (`--scripts 'a' 'b'`). */
function longValues(view: ArgvView, name: string): string[] {
  const { argv } = view;
  const at = argv.indexOf(name);
  if (at < 0) {
    const inline = longValue(view, name);
    return inline === undefined ? [] : [inline];
  }
  const values: string[] = [];
  for (let i = at + 1; i < argv.length && !(argv[i] ?? '').startsWith('--'); i++)
    if (!view.dynamic.has(i)) values.push(argv[i] ?? '');
  return values;
}

const remote = (script: string, wrapper: string): RemoteHop => ({ kind: 'script', via: 'ssh', wrapper, script });

/**
 * Whether the positional words begin with `path`: options are skipped by their `--name=value` form or a
 * lone flag, and aws's global options with their values (`aws --profile prod ssm send-command`).
 */
function startsWithWords(view: ArgvView, path: readonly string[]): boolean {
  const words: string[] = [];
  const args = view.argv.slice(1);
  for (let at = 0; at < args.length; at++) {
    const word = args[at]!;
    if (!word.startsWith('-')) words.push(word);
    else if (view.argv[0] === 'aws' && AWS_VALUE_OPTIONS.has(word)) at++;
  }
  return path.every((word, i) => words[i] === word);
}

/**
 * SSM's `commands` parameter, written as the CLI's shorthand (`commands=["a","b"]`, `commands=a,b`) or
 * as JSON (`{"commands":["a"]}`): the lines each instance runs.
 */
function ssmCommands(parameters: string): string[] {
  const text = parameters.trim();
  if (text.startsWith('{')) {
    try {
      const parsed = JSON.parse(text) as Record<string, unknown>;
      const commands = parsed['commands'];
      return Array.isArray(commands) ? commands.filter((c): c is string => typeof c === 'string') : [];
    } catch {
      return [];
    }
  }
  const at = text.indexOf('commands=');
  if (at < 0) return [];
  const rest = text.slice(at + 'commands='.length).trim();
  if (rest.startsWith('[')) {
    try {
      const list = JSON.parse(rest) as unknown;
      return Array.isArray(list) ? list.filter((c): c is string => typeof c === 'string') : [];
    } catch {
      return [rest.slice(1, rest.lastIndexOf(']'))];
    }
  }
  return [rest];
}

// heroku run's own options that take a value; everything else up to `--` is the command.
const HEROKU_RUN_VALUES = new Set(['-a', '--app', '-r', '--remote', '-s', '--size', '-e', '--env', '--type']);

/** `heroku run CMD… -a APP` (and run:detached): the command, run in a one-off dyno of the app. */
function herokuRunCommand(view: ArgvView): string | undefined {
  const { argv } = view;
  const at = argv.findIndex((w, i) => i > 0 && !w.startsWith('-'));
  if (at < 0 || !/^run(:detached|:inside)?$/.test(argv[at] ?? '')) return undefined;
  const words: string[] = [];
  for (let i = at + 1; i < argv.length; i++) {
    const word = argv[i] ?? '';
    if (word === '--') {
      words.push(...argv.slice(i + 1));
      break;
    }
    if (HEROKU_RUN_VALUES.has(word)) i++;
    else if (!/^--?[a-z][\w-]*(=.*)?$/i.test(word) || words.length > 0) {
      if (view.dynamic.has(i)) return undefined;
      words.push(word);
    }
  }
  return words.length === 1 ? words[0] : words.length ? words.map(shellQuote).join(' ') : undefined;
}

/** `fly ssh console -C CMD` (`--command`), `fly machine exec ID CMD`: a command run on one of the app's machines. */
function flyCommand(view: ArgvView): string | undefined {
  if (startsWithWords(view, ['ssh', 'console'])) {
    const { argv } = view;
    const at = argv.indexOf('-C');
    if (at > 0) return view.dynamic.has(at + 1) ? undefined : argv[at + 1];
    return longValue(view, '--command');
  }
  if (startsWithWords(view, ['machine', 'exec']) || startsWithWords(view, ['machines', 'exec'])) {
    const last = view.argv.length - 1;
    const command = view.argv[last];
    return last > 3 && command !== undefined && !command.startsWith('-') && !view.dynamic.has(last)
      ? command
      : undefined;
  }
  return undefined;
}

export function remoteHops(name: string, view: ArgvView): RemoteHop[] {
  if (name === 'fly' || name === 'flyctl') {
    const command = flyCommand(view);
    return command ? [remote(command, `${name} ssh console`)] : [];
  }
  if (name === 'heroku') {
    const command = herokuRunCommand(view);
    return command ? [remote(command, 'heroku run')] : [];
  }
  if (name === 'gcloud' && startsWithWords(view, ['compute', 'ssh'])) {
    const command = longValue(view, '--command');
    return command ? [remote(command, 'gcloud compute ssh')] : [];
  }
  if (name === 'az' && startsWithWords(view, ['vm', 'run-command'])) {
    const scripts = longValues(view, '--scripts');
    return scripts.length ? [remote(scripts.join('\n'), 'az vm run-command')] : [];
  }
  if (name === 'aws' && startsWithWords(view, ['ssm', 'send-command'])) {
    const commands = ssmCommands(longValue(view, '--parameters') ?? '');
    return commands.length ? [remote(commands.join('\n'), 'aws ssm send-command')] : [];
  }
  return [];
}

/** ssh's `-o RemoteCommand=CMD` (or `-oRemoteCommand CMD`): the command run on the host when none follows it. */
export function sshRemoteCommandOption(options: readonly string[]): string | undefined {
  for (let i = 0; i < options.length; i++) {
    const word = options[i] ?? '';
    const setting = word === '-o' ? (options[i + 1] ?? '') : word.startsWith('-o') ? word.slice(2) : '';
    const match = /^[ \t]*remotecommand[ \t]*[= ][ \t]*(.+)$/is.exec(setting);
    if (match?.[1]) return match[1];
  }
  return undefined;
}
