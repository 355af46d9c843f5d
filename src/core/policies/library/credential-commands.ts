import { z } from 'zod';
import type { SimpleCommand } from '../../shell';
import { classifySecretName } from '../../redaction/secret-names';
import { definePolicy } from '../types';
import { argsOf, downstreamOf, evidenceOf, shellCommands } from '../../facts/commands';

// Commands whose output is a credential: CLIs that print tokens and passwords, password
// managers, git's credential helpers, and secret-named environment variables echoed out. What a
// command prints lands in the transcript and goes to the model, the same argument the .env
// policy makes for files.

interface CredentialCommand {
  /** The program. */
  name: string;
  /** The words after it, as a prefix of its non-option arguments (lower case). */
  words: readonly string[];
  /** Options of which at least one must be present, when the subcommand alone is not enough. */
  anyOption?: readonly RegExp[];
  what: string;
}

const CREDENTIAL_COMMANDS: readonly CredentialCommand[] = [
  { name: 'gh', words: ['auth', 'token'], what: "GitHub CLI's token" },
  { name: 'gh', words: ['auth', 'status'], anyOption: [/^--show-token$/, /^-\w*t$/], what: "GitHub CLI's token" },
  { name: 'aws', words: ['configure', 'get'], what: 'an AWS configuration value (keys included)' },
  { name: 'aws', words: ['configure', 'export-credentials'], what: 'AWS credentials' },
  { name: 'aws', words: ['ecr', 'get-login-password'], what: 'an ECR registry password' },
  { name: 'aws', words: ['codeartifact', 'get-authorization-token'], what: 'a CodeArtifact token' },
  { name: 'aws', words: ['sts', 'get-session-token'], what: 'temporary AWS credentials' },
  { name: 'aws', words: ['sts', 'assume-role'], what: 'temporary AWS credentials' },
  { name: 'gcloud', words: ['auth', 'print-access-token'], what: 'a Google Cloud access token' },
  { name: 'gcloud', words: ['auth', 'print-identity-token'], what: 'a Google Cloud identity token' },
  { name: 'gcloud', words: ['auth', 'application-default', 'print-access-token'], what: 'a Google Cloud token' },
  { name: 'gcloud', words: ['config', 'config-helper'], what: 'Google Cloud credentials' },
  { name: 'az', words: ['account', 'get-access-token'], what: 'an Azure access token' },
  { name: 'kubectl', words: ['config', 'view'], anyOption: [/^--raw$/, /^--flatten$/], what: 'kubeconfig credentials' },
  { name: 'vault', words: ['kv', 'get'], what: 'a Vault secret' },
  { name: 'vault', words: ['read'], what: 'a Vault secret' },
  { name: 'vault', words: ['print', 'token'], what: 'the Vault token' },
  { name: 'pass', words: ['show'], what: 'a password from pass' },
  { name: 'gopass', words: ['show'], what: 'a password from gopass' },
  { name: 'op', words: ['read'], what: 'a 1Password secret' },
  { name: 'op', words: ['item', 'get'], what: 'a 1Password item' },
  { name: 'bw', words: ['get'], what: 'a Bitwarden secret' },
  { name: 'bw', words: ['list', 'items'], what: 'Bitwarden items' },
  { name: 'lpass', words: ['show'], what: 'a LastPass secret' },
  { name: 'keepassxc-cli', words: ['show'], what: 'a KeePassXC entry' },
  { name: 'secret-tool', words: ['lookup'], what: 'a keyring secret' },
  { name: 'security', words: ['find-generic-password'], what: 'a keychain password' },
  { name: 'security', words: ['find-internet-password'], what: 'a keychain password' },
  { name: 'git', words: ['credential', 'fill'], what: 'git credentials' },
  { name: 'git', words: ['credential-store', 'get'], what: 'git credentials' },
  { name: 'git', words: ['credential-cache', 'get'], what: 'git credentials' },
  { name: 'heroku', words: ['auth:token'], what: 'the Heroku token' },
  { name: 'doctl', words: ['auth', 'token'], what: 'the DigitalOcean token' },
];

const KUBECTL_SECRET_OUTPUT = /^(-o|--output)(=|$)|^-o\w/;

function operands(cmd: SimpleCommand): string[] {
  // Global options with values (aws --profile p, kubectl -n ns) may stand anywhere; skipping every
  // word after an option would lose subcommands, so only words that are not options count.
  return argsOf(cmd)
    .filter((a) => !a.startsWith('-'))
    .map((a) => a.toLowerCase());
}

// The subcommand words in order, from the first operand (values of options like --profile may sit between).
function startsWithInOrder(words: readonly string[], wanted: readonly string[]): boolean {
  if (words[0] !== wanted[0]) return false;
  let at = 0;
  for (const word of wanted) {
    const found = words.indexOf(word, at);
    if (found === -1) return false;
    at = found + 1;
  }
  return true;
}

function credentialPrinted(cmd: SimpleCommand): string | undefined {
  const words = operands(cmd);
  const args = argsOf(cmd);
  for (const entry of CREDENTIAL_COMMANDS) {
    if (entry.name !== cmd.name) continue;
    if (!startsWithInOrder(words, entry.words)) continue;
    if (entry.anyOption && !args.some((a) => entry.anyOption?.some((pattern) => pattern.test(a)))) continue;
    return entry.what;
  }
  if (
    cmd.name === 'pass' &&
    words.length === 1 &&
    !['ls', 'list', 'init', 'git', 'grep', 'find'].includes(words[0] ?? '')
  )
    return 'a password from pass';
  if (cmd.name === 'kubectl' && words[0] === 'get' && /^secrets?$|^secret\//.test(words[1] ?? '')) {
    if (args.some((a) => KUBECTL_SECRET_OUTPUT.test(a))) return 'Kubernetes secrets';
  }
  return undefined;
}

const PRINTERS = new Set(['echo', 'printf', 'print']);
const VARIABLE_REFERENCE = /\$\{?([A-Za-z_][A-Za-z0-9_]*)/g;

function stdoutRedirected(cmd: SimpleCommand): boolean {
  return cmd.redirects.some((r) => (r.op.startsWith('>') || r.op === '&>') && (r.fd === undefined || r.fd === 1));
}

function secretVariablePrinted(cmd: SimpleCommand): string | undefined {
  if (stdoutRedirected(cmd)) return undefined;
  if (cmd.name === 'printenv') return argsOf(cmd).find((a) => !a.startsWith('-') && classifySecretName(a) !== null);
  if (!PRINTERS.has(cmd.name)) return undefined;
  for (const match of cmd.text.matchAll(VARIABLE_REFERENCE)) {
    const name = match[1] as string;
    if (classifySecretName(name) !== null) return name;
  }
  return undefined;
}

const SECRET_WORDS = /key|token|secret|pass|pwd|auth|cred|session|cookie/i;

function environmentDump(cmd: SimpleCommand, commands: SimpleCommand[]): 'filtered-secrets' | 'all' | undefined {
  const args = argsOf(cmd);
  const dumps =
    ((cmd.name === 'env' || cmd.name === 'printenv') && args.every((a) => a.startsWith('-'))) ||
    (cmd.name === 'export' && args.length === 1 && args[0] === '-p') ||
    (cmd.name === 'declare' && args.length === 1 && /^-[px]$/.test(args[0] ?? '')) ||
    (cmd.name === 'set' && args.length === 0);
  if (!dumps || stdoutRedirected(cmd)) return undefined;
  const downstream = downstreamOf(commands, cmd);
  if (downstream.length === 0) return 'all';
  const filter = downstream[0];
  if (filter && ['grep', 'rg', 'egrep', 'awk', 'sed'].includes(filter.name))
    return argsOf(filter).some((a) => SECRET_WORDS.test(a)) ? 'filtered-secrets' : undefined;
  return ['sort', 'cat', 'less', 'more', 'head', 'tail', 'tee'].includes(filter?.name ?? '') ? 'all' : undefined;
}

export const credentialPrintingCommands = definePolicy({
  name: 'credential-printing-commands',
  category: 'secrets',
  description:
    'Denies commands that print credentials into the session (token CLIs, kubectl secrets, password managers, git credential fill, secret-named variables); asks before an environment dump.',
  defaultEnabled: true,
  decision: 'deny',
  params: z.object({}),
  evaluate({ call }) {
    const commands = shellCommands(call);
    for (const cmd of commands) {
      const what = credentialPrinted(cmd);
      if (what)
        return {
          reason: `Prints ${what}: whatever a command prints goes into the transcript and to the model. Let the tool that needs the credential read it itself (most CLIs do), or run this yourself.`,
          evidence: evidenceOf(cmd.text),
        };
      const variable = secretVariablePrinted(cmd);
      if (variable)
        return {
          reason: `Prints the secret-named variable ${variable} into the transcript; pass it to the program that needs it instead of printing it.`,
          evidence: evidenceOf(cmd.text),
        };
      const dump = environmentDump(cmd, commands);
      if (dump)
        return {
          reason:
            dump === 'filtered-secrets'
              ? 'Lists the environment filtered for secret-looking names: their values would go into the transcript.'
              : "Prints the whole environment, secrets included, into the transcript; print the one variable you need if it isn't secret.",
          evidence: evidenceOf(cmd.text),
          ...(dump === 'all' ? { decision: 'ask' as const } : {}),
        };
    }
    return null;
  },
});
