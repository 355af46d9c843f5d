// Commands that set the environment of programs started elsewhere or later: an app platform's config
// vars (`heroku config:set`, `fly secrets set`, `dokku config:set`), a Kubernetes workload's
// (`kubectl set env`), a container's (`docker run -e`), and every service systemd starts from now on
// (`systemctl set-environment`). A variable there that loads code (`NODE_OPTIONS=--import=data:…`,
// `LD_PRELOAD=/tmp/x.so`) runs it in each of those programs, as it would in a command given it here;
// the command is read as the exports it amounts to, so the same checks judge it.
import type { ArgvView } from './options';
import { shellQuote } from './quote';

const ASSIGNMENT = /^([A-Za-z_]\w*)=(.*)$/s;

/** The `NAME=VALUE` operands after the subcommand's words, each a variable set. */
function assignmentsAfter(argv: readonly string[], from: number): [string, string][] {
  return argv.slice(from).flatMap((word) => {
    const match = ASSIGNMENT.exec(word);
    return match ? [[match[1]!, match[2]!] as [string, string]] : [];
  });
}

/** `-e NAME=VALUE`, `--env NAME=VALUE`, `--env=NAME=VALUE`: a container engine's run options. */
function engineAssignments(argv: readonly string[]): [string, string][] {
  const found: [string, string][] = [];
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i] ?? '';
    const value = word === '-e' || word === '--env' ? argv[++i] : word.startsWith('--env=') ? word.slice(6) : undefined;
    const match = value === undefined ? null : ASSIGNMENT.exec(value);
    if (match) found.push([match[1]!, match[2]!]);
  }
  return found;
}

/** The position after a CLI's subcommand words (`config:set`, `secrets set`), or -1 when it is another one. */
function afterWords(argv: readonly string[], words: readonly string[]): number {
  const positionals = argv
    .map((word, index) => ({ word, index }))
    .slice(1)
    .filter(({ word }) => !word.startsWith('-'));
  return words.every((word, i) => positionals[i]?.word === word)
    ? (positionals[words.length - 1]?.index ?? -1) + 1
    : -1;
}

const SUBCOMMANDS: Readonly<Record<string, readonly (readonly string[])[]>> = {
  heroku: [['config:set']],
  dokku: [['config:set']],
  fly: [['secrets', 'set']],
  flyctl: [['secrets', 'set']],
  railway: [['variables', 'set'], ['variables']],
  kubectl: [['set', 'env']],
  oc: [['set', 'env']],
  systemctl: [['set-environment']],
};

const ENGINES = new Set(['docker', 'podman', 'nerdctl']);

/** The variables a command sets for programs it does not itself start here, by name. */
function deployedAssignments(name: string, view: ArgvView): [string, string][] {
  const { argv } = view;
  if (ENGINES.has(name)) {
    const verb = argv.slice(1).find((word) => !word.startsWith('-'));
    return verb === 'run' || verb === 'create' ? engineAssignments(argv) : [];
  }
  const forms = Object.hasOwn(SUBCOMMANDS, name) ? SUBCOMMANDS[name]! : [];
  for (const words of forms) {
    const from = afterWords(argv, words);
    if (from > 0) {
      // railway's `variables --set NAME=VALUE` names each one with an option.
      const found = assignmentsAfter(argv, from);
      if (found.length > 0) return found;
      const set = argv.flatMap((word, i) => (argv[i - 1] === '--set' ? [word] : []));
      return assignmentsAfter(set, 0);
    }
  }
  return [];
}

/** Whether the program is one that sets variables for programs elsewhere: checked before its words are read. */
export function setsDeployedEnvironment(name: string): boolean {
  return ENGINES.has(name) || Object.hasOwn(SUBCOMMANDS, name);
}

/** The exports a command's deployed variables amount to, as shell text (`export NAME='VALUE'`), or undefined. */
export function deployedExports(name: string, view: ArgvView): string | undefined {
  const found = deployedAssignments(name, view);
  return found.length ? found.map(([key, value]) => `export ${key}=${shellQuote(value)}`).join('\n') : undefined;
}
