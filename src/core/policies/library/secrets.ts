import path from 'node:path';
import { z } from 'zod';
import type { SimpleCommand } from '../../shell';
import { definePolicy } from '../types';
import type { ToolCall } from '../types';
import {
  argsOf,
  commandsWithCwd,
  evidenceOf,
  parseFlags,
  redirectWrites,
  shellCommands,
  shellPath,
  reachedBy,
} from '../../facts/commands';
import { gitCommands } from '../../facts/git-invocation';
import { writtenTexts } from '../../facts/compute';
import { inlineCode, SENDERS } from '../../facts/programs';
import { secretReads } from './shared/secret-reads';
import { scanSecrets } from './shared/secret-scan';
import { replacedBefore, textBefore } from './shared/edited-file';
import { secretBasenameKind, secretFileKind } from '../../facts/sensitive-paths';
import { writeTargets } from '../../facts/targets';
import { browserScriptOf, sessionStoreRead } from '../../text/browser-scripts';

// What makes an AWS config file a credential file: keys, a session token, or a program that prints them.
const AWS_CREDENTIAL_LINE =
  /^[ \t]*(aws_secret_access_key|aws_session_token|aws_security_token|credential_process)[ \t]*=/m;

/**
 * `~/.aws/config` read as it is now, holding profiles, regions and SSO settings but no keys: reading it
 * shows which profiles exist, as `aws configure list-profiles` does. Unreadable, or holding keys, it
 * stays a credential file.
 */
function holdsProfilesOnly(call: ToolCall, read: { absolute?: string }): boolean {
  if (read.absolute !== path.posix.join(call.home, '.aws', 'config')) return false;
  const text = call.io.readText(read.absolute, 64 * 1024);
  return text !== null && !AWS_CREDENTIAL_LINE.test(text);
}

export const secretFileRead = definePolicy({
  name: 'secret-file-read',
  category: 'secrets',
  description:
    'Refuses reading .env files and credential stores (~/.ssh, ~/.aws, ~/.kube/config, *.pem, …) through file tools or the shell.',
  defaultEnabled: true,
  decision: 'deny',
  params: z.object({
    /** Paths or file names that may be read although they look like credentials (".env.test"). */
    allowPaths: z.array(z.string()).default([]),
  }),
  evaluate({ call, params }) {
    const reads = secretReads(call).filter(
      (r) =>
        !params.allowPaths.some((a) => r.path === a || r.path.endsWith(`/${a}`)) &&
        !(call && holdsProfilesOnly(call, r)),
    );
    const first = reads[0];
    if (!first) return null;
    return {
      reason: `Reads ${first.path} (${first.kind}) through ${first.source}: its values would enter the transcript and the model's context; use the variable names or a template file such as .env.example instead.`,
      evidence: reads.map((r) => r.path).join(', '),
    };
  },
});

/** An SSH public key's body (`ssh-ed25519 AAAA…`): meant to be shared, however random it looks. */
const SSH_PUBLIC_KEY =
  /\b(ssh-(?:ed25519|rsa|dss)|ecdsa-sha2-nistp\d+|sk-ssh-ed25519@openssh\.com)[ \t]+AAAA[A-Za-z0-9+/]+={0,3}/g;

function withoutPublicKeys(text: string): string {
  return text.replace(SSH_PUBLIC_KEY, '$1 public-key');
}

export const secretWrittenToFile = definePolicy({
  name: 'secret-written-to-file',
  category: 'secrets',
  description: 'Refuses writing a real-looking secret (API key, token, private key, password URL) into a file.',
  defaultEnabled: true,
  decision: 'deny',
  params: z.object({
    /** Writing a secret into an environment file (.env, not .env.example) is where it belongs. */
    allowEnvFiles: z.boolean().default(true),
  }),
  evaluate({ call, params }) {
    if (!call) return null;
    const targets = writeTargets(call).filter((t) => t.access === 'write');
    if (!targets.length) return null;
    const intoEnvFile = (raw: string) =>
      secretBasenameKind(raw.replace(/\\/g, '/').split('/').pop() ?? '') === 'an environment file';
    if (params.allowEnvFiles && targets.every((t) => intoEnvFile(t.raw))) return null;
    const text = call.content ?? (call.shell ? (call.command ?? '') : '');
    const scan = scanSecrets(withoutPublicKeys(text), { realLooking: true });
    // An edit that keeps a secret the file already had (the line around it changed) writes nothing new.
    const replaced = replacedBefore(call.input);
    const fresh = scan.found.filter((f) => !replaced.includes(f.text));
    if (fresh.length === 0) return null;
    const where = targets[0]?.raw ?? 'a file';
    const labels = [...new Set(fresh.map((f) => f.label))].sort();
    return {
      reason: `Writes ${fresh.length} secret${fresh.length > 1 ? 's' : ''} (${labels.join(', ')}) into ${where}: files get committed and shared; read the value from an environment variable or a gitignored .env instead.`,
      evidence: evidenceOf(scan.redacted),
    };
  },
});

const EGRESS = new Set([
  ...SENDERS,
  'tftp',
  'iwr',
  'irm',
  'invoke-webrequest',
  'invoke-restmethod',
  'mail',
  'sendmail',
  'mutt',
  'aws',
  'gsutil',
]);

function dumpsEnvironment(cmd: SimpleCommand): boolean {
  const name = cmd.name.toLowerCase();
  const args = argsOf(cmd);
  if (name === 'env' || name === 'printenv')
    return cmd.argv.length === 1 || args.every((a) => a.startsWith('-')) || name === 'printenv';
  if (name === 'export' || name === 'declare' || name === 'typeset')
    return args.length === 0 || args.every((a) => /^-[px]+$/.test(a));
  if (name === 'set') return args.length === 0;
  if (name === 'compgen') return args.includes('-v') || args.includes('-e');
  if (['get-childitem', 'gci', 'dir', 'ls'].includes(name)) return args.some((a) => /^env:/i.test(a));
  if (['cat', 'strings', 'xargs', 'tr', 'base64'].includes(name))
    return args.some((a) => /^\/proc\/[^/]+\/environ$/.test(a));
  return false;
}

// Interpreter code that serialises the whole environment (not one named variable) and sends it.
const WHOLE_ENV_IN_CODE =
  /process\.env(?!\s*(\.|\[|\?\.))|os\.environ(?!\s*(\[|\.get|\.setdefault))|\bENV\.(to_h|to_a|inspect)\b|\$_ENV(?!\s*\[)|getenv\(\s*\)|%ENV(?!\s*\{)|\bos\.Environ\(\s*\)/;
// HTTP clients by name: Python's requests, httpx, aiohttp and urllib3, Node's http modules and fetch
// libraries, Ruby's Net::HTTP, PHP's curl, Go's net/http.
const NETWORK_IN_CODE =
  /\b(fetch|axios|got|ky|superagent|undici|https?\.request|urlopen|requests\.(post|get|put|patch|request|Session)|httpx|aiohttp|urllib3|Net::HTTP|Faraday|HTTParty|curl_exec|XMLHttpRequest|socket|http\.(Post|PostForm|NewRequest)|http\.DefaultClient)\b|\brequire\(\s*['"](node:)?(https?|net|dgram)['"]\s*\)/;

function envDumpEgress(call: ToolCall): string | null {
  const commands = shellCommands(call);
  for (const cmd of commands) {
    const code = inlineCode(cmd);
    if (code !== undefined && WHOLE_ENV_IN_CODE.test(code) && NETWORK_IN_CODE.test(code))
      return `${cmd.name} code that sends the whole environment`;
  }
  const withCwd = commandsWithCwd(call);
  const dumpFiles = new Set<string>();
  for (const { cmd, cwd, index } of withCwd) {
    if (!dumpsEnvironment(cmd)) continue;
    const place = (c: SimpleCommand) =>
      (c.parent !== undefined && c.via[c.via.length - 1] === 'wrapper' ? (commands[c.parent] ?? c) : c).pipeline;
    const here = place(cmd);
    const downstream = commands.find(
      (other) => EGRESS.has(other.name.toLowerCase()) && place(other).id === here.id && place(other).index > here.index,
    );
    if (downstream) return `${cmd.name} piped into ${downstream.name}`;
    const { via, from: parent } = reachedBy(commands, cmd);
    if (
      parent &&
      EGRESS.has(parent.name.toLowerCase()) &&
      ['command-substitution', 'process-substitution'].includes(via ?? '')
    ) {
      return `${cmd.name} output substituted into ${parent.name}`;
    }
    for (const file of redirectWrites(cmd)) dumpFiles.add(shellPath(file, cmd, cwd, call).absolute);
    // A later command in the same text that sends that file.
    for (const later of withCwd.slice(index + 1)) {
      if (!EGRESS.has(later.cmd.name.toLowerCase())) continue;
      const mentions = argsOf(later.cmd).some((a) => {
        const path = a.replace(/^[\w-]*=?@/, '').replace(/^@/, '');
        return dumpFiles.has(shellPath(path, later.cmd, later.cwd, call).absolute);
      });
      if (mentions) return `${cmd.name} saved to a file that ${later.cmd.name} then sends`;
    }
  }
  return null;
}

export const envDumpToNetwork = definePolicy({
  name: 'env-dump-to-network',
  category: 'secrets',
  description:
    'Refuses sending the environment (env, printenv, set, /proc/*/environ) to the network, piped, substituted or through a file.',
  defaultEnabled: true,
  decision: 'deny',
  params: z.object({}),
  evaluate({ call }) {
    if (!call?.shell) return null;
    const how = envDumpEgress(call);
    if (!how) return null;
    return {
      reason: `Sends the environment off this machine (${how}): it holds API keys and tokens; send only the named, non-secret variables you need.`,
      evidence: evidenceOf(call.command ?? ''),
    };
  },
});

/** The files a command's standard output goes to (`> f`, `>> f`, `&> f`; stderr's own redirects are not). */
function stdoutFiles(cmd: SimpleCommand): string[] {
  return cmd.redirects
    .filter((r) => ['>', '>>', '>|', '&>', '&>>'].includes(r.op) && (r.fd === undefined || r.fd === 1))
    .map((r) => r.target)
    .filter((target) => !/^\/dev\/(null|stdout|stderr|tty)$/.test(target));
}

/** Where a whole-environment dump is saved: its own redirect, or a later stage's (`env | sort > f`, `| tee f`). */
function envDumpFile(call: ToolCall): string | undefined {
  const commands = shellCommands(call);
  for (const cmd of commands) {
    if (!dumpsEnvironment(cmd) || (cmd.name === 'printenv' && argsOf(cmd).some((a) => !a.startsWith('-')))) continue;
    const downstream = commands.filter(
      (other) => other.pipeline.id === cmd.pipeline.id && other.pipeline.index >= cmd.pipeline.index,
    );
    for (const stage of downstream) {
      const file =
        stdoutFiles(stage)[0] ?? (stage.name === 'tee' ? parseFlags(argsOf(stage)).positionals[0] : undefined);
      if (file !== undefined) return file;
    }
  }
  return undefined;
}

export const envDumpToFile = definePolicy({
  name: 'env-dump-to-file',
  category: 'secrets',
  description:
    'Asks before the whole environment (env, printenv, export -p, /proc/*/environ) is saved to a file, where its tokens stay on disk for any later call or program.',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    if (!call?.shell) return null;
    const file = envDumpFile(call);
    if (file === undefined) return null;
    return {
      reason: `Saves the whole environment to ${file}: it holds API keys and tokens, which would then sit in a file that later calls and other programs can read. Save only the named, non-secret variables you need.`,
      evidence: evidenceOf(call.command ?? ''),
    };
  },
});

export const secretInCommandLine = definePolicy({
  name: 'secret-in-command-line',
  category: 'secrets',
  description:
    'Warns when a shell command carries a literal secret, which then sits in shell history, logs and the transcript.',
  defaultEnabled: true,
  decision: 'instruct',
  params: z.object({}),
  evaluate({ call }) {
    if (!call?.shell || !call.command) return null;
    const scan = scanSecrets(call.command);
    if (scan.count === 0) return null;
    return {
      reason: `The command line holds ${scan.count} literal secret${scan.count > 1 ? 's' : ''} (${scan.labels.join(', ')}): refer to it through an environment variable ("$NAME") and never repeat its value.`,
      evidence: evidenceOf(scan.redacted),
    };
  },
});

export const gitAddSecretFiles = definePolicy({
  name: 'git-add-secret-files',
  category: 'secrets',
  description: 'Refuses staging credential files (.env, id_rsa, *.pem, …) with git add.',
  defaultEnabled: true,
  decision: 'deny',
  params: z.object({}),
  evaluate({ call }) {
    if (!call?.shell) return null;
    const withCwd = commandsWithCwd(call);
    for (const { cmd, git } of gitCommands(shellCommands(call))) {
      if (git.sub !== 'add' && git.sub !== 'stage') continue;
      const cwd = withCwd.find((c) => c.cmd === cmd)?.cwd ?? call.cwd;
      for (const word of parseFlags(git.args, [], ['chmod', 'pathspec-from-file']).positionals) {
        const kind =
          secretFileKind(shellPath(word, cmd, cwd, call).absolute, call.home) ??
          (/[*?]/.test(word) ? null : secretBasenameKind(word));
        if (kind) {
          return {
            reason: `git add ${word} stages ${kind}: once committed it stays in the history for anyone with the repository; add it to .gitignore and commit a template instead.`,
            evidence: evidenceOf(cmd.text),
          };
        }
      }
    }
    return null;
  },
});

export const browserSessionRead = definePolicy({
  name: 'browser-session-read',
  category: 'secrets',
  description:
    "Asks before a browser-automation tool's page script reads the page's cookies or web storage: the logged-in session's tokens.",
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    const page = call ? browserScriptOf(call.toolName, call.input) : undefined;
    const store = page ? sessionStoreRead(page.script) : undefined;
    if (!page || !store) return null;
    return {
      reason: `The page script reads ${store}: the browser's logged-in session (its cookies and tokens) would reach the agent. Approve this exact call if the page is one you test and its session is a throwaway.`,
      evidence: evidenceOf(page.script),
    };
  },
});

/** The credential kind a .gitignore pattern names (`key.properties`, `*.jks`, `/.env`, a name under any folder), or null. */
function ignoredSecretKind(pattern: string): string | null {
  const name = pattern
    .replace(/^!/, '')
    .replace(/^(\*\*\/|\/)+/, '')
    .replace(/\/$/, '');
  if (name === '' || name.startsWith('#') || name.includes('/')) return null;
  return secretBasenameKind(name.replace(/\*/g, 'x'));
}

export const secretIgnoreRemoved = definePolicy({
  name: 'secret-ignore-removed',
  category: 'secrets',
  description:
    'Asks before a .gitignore edit stops ignoring credential files (.env, key.properties, *.jks, *.pem): the next `git add -A` stages them, and a commit keeps them in the history.',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    if (!call) return null;
    for (const { file, content } of writtenTexts(call)) {
      if (path.basename(file) !== '.gitignore') continue;
      const after = new Set(content.split('\n').map((line) => line.trim()));
      const before = textBefore(call, file)
        .split('\n')
        .map((line) => line.trim());
      const dropped = before.find((line) => !after.has(line) && !line.startsWith('!') && ignoredSecretKind(line));
      const unignored = [...after].find(
        (line) => line.startsWith('!') && !before.includes(line) && ignoredSecretKind(line),
      );
      const line = dropped ?? unignored;
      if (line !== undefined)
        return {
          reason: `${file} no longer ignores ${line.replace(/^!/, '')} (${ignoredSecretKind(line)}): the next \`git add -A\` stages it and a commit keeps it in the history. Keep the pattern, or approve this exact call.`,
          evidence: evidenceOf(line),
        };
    }
    return null;
  },
});
