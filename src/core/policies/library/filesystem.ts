import { z } from 'zod';
import { isInside, resolvePath } from '../../shell/paths';
import { definePolicy } from '../types';
import type { ToolCall } from '../types';
import { argsOf, evidenceOf, parseFlags, shellCommands } from '../../facts/commands';
import { knownPasswordSet } from './shared/known-password';
import { inAllowedDirs, inUserCache } from '../../facts/temp-dirs';
import { writeTargets } from '../../facts/targets';
import { trimEndChars } from '../../text/scan';

export const writeOutsideProject = definePolicy({
  name: 'write-outside-project',
  category: 'filesystem',
  description:
    'Asks before writing, moving or deleting files outside the project (temp folders and listed paths excepted, and deleting what ~/.cache holds).',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({
    allowTempDirs: z.boolean().default(true),
    /** Extra folders the agent may write to ("~/.cache/my-tool"). */
    allowedPaths: z.array(z.string()).default([]),
  }),
  evaluate({ call, params }) {
    if (!call) return null;
    for (const target of writeTargets(call)) {
      if (target.relation === 'inside-project' || target.relation === 'project-root') continue;
      if (target.dynamic && !/^[~/]|^\$HOME/.test(target.raw)) continue;
      if (inAllowedDirs(target.absolute, params.allowedPaths, call.home, params.allowTempDirs)) continue;
      if (target.access === 'delete' && !target.dynamic && inUserCache(target.absolute, call.home)) continue;
      const verb = target.access === 'delete' ? 'Deletes' : 'Writes';
      return {
        reason: `${verb} ${target.absolute} (through ${target.source}), outside the project ${call.projectRoot}: changes there are not under version control; keep the change inside the project, or approve this exact path.`,
        evidence: evidenceOf(call.command ?? target.raw),
      };
    }
    return null;
  },
});

/** Files that run code at login, on a schedule or on every git operation, or that grant access. */
const HOME_PERSISTENCE = [
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.profile',
  '.zshrc',
  '.zprofile',
  '.zshenv',
  '.zlogin',
  '.kshrc',
  '.cshrc',
  '.tcshrc',
  '.config/fish/config.fish',
  '.config/fish/conf.d/',
  '.ssh/authorized_keys',
  '.ssh/authorized_keys2',
  '.ssh/rc',
  '.ssh/config',
  '.config/autostart/',
  '.config/systemd/user/',
  'Library/LaunchAgents/',
  '.xinitrc',
  '.xprofile',
  '.gitconfig',
  '.config/git/config',
  '.npmrc',
  '.pip/pip.conf',
  '.config/pip/pip.conf',
  '.pydistutils.cfg',
  '.inputrc',
  '.vimrc',
  '.local/bin/',
  // Version managers' shims stand in for every program they manage (`mix`, `node`), on the PATH of every shell.
  '.asdf/shims/',
  '.pyenv/shims/',
  '.rbenv/shims/',
  '.nodenv/shims/',
  '.goenv/shims/',
  '.local/share/mise/shims/',
  // direnv loads these in every shell that enters a folder with an .envrc.
  '.config/direnv/direnvrc',
  '.config/direnv/lib/',
  '.direnvrc',
];
const SYSTEM_PERSISTENCE = [
  '/etc/cron',
  '/etc/crontab',
  '/var/spool/cron',
  '/etc/systemd/',
  '/lib/systemd/',
  '/usr/lib/systemd/',
  '/etc/init.d/',
  '/etc/rc.local',
  '/etc/profile',
  '/etc/bash.bashrc',
  '/etc/zsh/',
  '/etc/environment',
  '/etc/ld.so.preload',
  '/etc/sudoers',
  '/etc/passwd',
  '/etc/shadow',
  '/etc/group',
  '/etc/hosts',
  '/etc/resolv.conf',
  '/etc/pam.d/',
  '/etc/ssh/',
  '/Library/LaunchAgents/',
  '/Library/LaunchDaemons/',
  '/usr/local/bin/',
  '/usr/bin/',
  '/bin/',
  '/sbin/',
  '/usr/sbin/',
];

function persistenceKind(abs: string, call: ToolCall): { kind: string; soft: boolean } | null {
  const path = abs.replace(/\\/g, '/');
  if (isInside(abs, call.home)) {
    const rel = path.slice(trimEndChars(call.home, '\\/').length + 1);
    for (const entry of HOME_PERSISTENCE) {
      if (entry.endsWith('/') ? rel.startsWith(entry) || rel === entry.slice(0, -1) : rel === entry)
        return { kind: `~/${entry}`, soft: false };
    }
  }
  for (const entry of SYSTEM_PERSISTENCE) {
    if (
      entry.endsWith('/')
        ? path.startsWith(entry) || path === entry.slice(0, -1)
        : path === entry || path.startsWith(`${entry}.`) || path.startsWith(`${entry}/`)
    )
      return { kind: entry, soft: false };
  }
  const gitHooks = resolvePath('.git/hooks', call.projectRoot, call.home);
  if (isInside(abs, gitHooks) && abs !== gitHooks) return { kind: '.git/hooks (runs on every commit)', soft: true };
  return null;
}

/**
 * A command that makes this machine a CI runner: jobs (and the secrets they are given) then come to it
 * from the CI service for as long as it runs: GitHub's runner `config.sh --url … --token …`, GitLab's
 * `gitlab-runner register`.
 */
function registersRunner(call: ToolCall): string | undefined {
  for (const cmd of shellCommands(call)) {
    const program = (cmd.argv[0] ?? '').split('/').pop() ?? '';
    const args = argsOf(cmd);
    const given = (name: string) => args.some((a) => a === `--${name}` || a.startsWith(`--${name}=`));
    if ((program === 'config.sh' || program === 'config.cmd') && given('url') && given('token')) return cmd.text;
    if (program === 'gitlab-runner' && args[0] === 'register') return cmd.text;
  }
  return undefined;
}

export const persistenceMechanisms = definePolicy({
  name: 'persistence-mechanisms',
  category: 'filesystem',
  description:
    'Refuses writing login scripts, authorized_keys, cron, systemd units, launch agents, /etc files and system binaries; asks for .git/hooks, registering a CI runner and a password set in a command.',
  defaultEnabled: true,
  decision: 'deny',
  params: z.object({}),
  evaluate({ call }) {
    if (!call) return null;
    const runner = registersRunner(call);
    if (runner !== undefined)
      return {
        decision: 'ask',
        reason: `Registers this machine as a CI runner: the CI service sends it jobs, and their secrets, from now on. Let the person register it.`,
        evidence: evidenceOf(runner),
      };
    const password = knownPasswordSet(call);
    if (password)
      return {
        decision: 'ask',
        reason: `Gives the account ${password.account} a password written into the command: whoever reads it logs in as ${password.account} from now on. Let the person set passwords.`,
        evidence: evidenceOf(password.text),
      };
    for (const target of writeTargets(call)) {
      const found = persistenceKind(target.absolute, call);
      if (!found) continue;
      return {
        decision: found.soft ? 'ask' : 'deny',
        reason: `Changes ${found.kind} (${target.raw}): that runs code or grants access long after this session; tell the person what to add and let them do it.`,
        evidence: evidenceOf(call.command ?? target.raw),
      };
    }
    return null;
  },
});

/** Parses sizes such as 10G, 512M, 1k, 1048576. */
function parseSize(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?)([kmgtpe]?)(i?b)?$/i.exec(text.trim());
  if (!m) return null;
  const power = ' kmgtpe'.indexOf((m[2] ?? '').toLowerCase() || ' ');
  return Number(m[1]) * 1024 ** Math.max(power, 0);
}

function shellWriteSize(call: ToolCall): { bytes: number; how: string } | null {
  for (const cmd of shellCommands(call)) {
    const args = argsOf(cmd);
    if (cmd.name === 'fallocate' || cmd.name === 'truncate' || cmd.name === 'mkfile') {
      const flag = cmd.name === 'fallocate' ? 'l' : 's';
      const values = [...args.keys()]
        .filter((i) => args[i] === `-${flag}` || args[i] === '--length' || args[i] === '--size')
        .map((i) => args[i + 1] ?? '');
      const inline = args.filter((a) => a.startsWith(`-${flag}`) && a.length > 2).map((a) => a.slice(2));
      const first = cmd.name === 'mkfile' ? parseFlags(args).positionals[0] : undefined;
      for (const v of [...values, ...inline, ...(first ? [first] : [])]) {
        const bytes = parseSize(v.replace(/^\+/, ''));
        if (bytes !== null) return { bytes, how: `${cmd.name} ${v}` };
      }
    }
    if (cmd.name === 'dd') {
      const bs = parseSize(args.find((a) => a.startsWith('bs='))?.slice(3) ?? '512');
      const count = Number(args.find((a) => a.startsWith('count='))?.slice(6));
      if (bs !== null && Number.isFinite(count)) return { bytes: bs * count, how: `dd bs×count` };
    }
  }
  return null;
}

export const largeFileWrite = definePolicy({
  name: 'large-file-write',
  category: 'packages-and-system',
  description:
    'Asks before writing a file larger than maxBytes (1 MiB by default), by a file tool or by fallocate/truncate/dd.',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({
    maxBytes: z
      .number()
      .int()
      .positive()
      .default(1024 * 1024),
  }),
  evaluate({ call, params }) {
    if (!call) return null;
    const faceBytes =
      call.face.family === 'write' || call.face.family === 'edit' ? Buffer.byteLength(call.content ?? '', 'utf8') : 0;
    const shell = call.shell ? shellWriteSize(call) : null;
    const bytes = Math.max(faceBytes, shell?.bytes ?? 0);
    if (bytes <= params.maxBytes) return null;
    const mib = (bytes / 1024 / 1024).toFixed(1);
    return {
      reason: `Writes about ${mib} MiB${shell && shell.bytes === bytes ? ` (${shell.how})` : ''}, over the ${(params.maxBytes / 1024 / 1024).toFixed(1)} MiB limit: large files bloat the repository or fill the disk; generate them at build time or keep them out of git.`,
      evidence: call.paths[0]?.raw ?? evidenceOf(call.command ?? ''),
    };
  },
});
