import { join } from 'node:path';
import { z } from 'zod';
import type { SimpleCommand } from '../../shell';
import { isInside, resolvePath } from '../../shell/paths';
import { definePolicy } from '../types';
import type { IoFacts } from '../../facts/io';
import type { ToolCall } from '../types';
import { argsOf, commandsWithCwd, evidenceOf, shellCommands } from '../../facts/commands';
import { agentConfigKind, isWardenProjectConfig } from './shared/agent-paths';
import { replacedTexts } from './shared/edited-file';
import { onlyTightensClaudeSettings } from './shared/settings-tightening';
import { readTargets, writeTargets, type PathTarget } from '../../facts/targets';
import { own } from '../../facts/own';
import { followedBy } from '../../text/scan';
import { isPatchEnvelope } from '../../facts/patch';
import { gitInvocation } from '../../facts/git-invocation';

// Warden guards itself: what an agent may not do to the guard, whatever the
// configuration says. Each rule names what was seen and why it is refused.

/** How Warden's hook entries show in an agent's settings: its name, its token variable, or its loopback hook URL. */
const WARDEN_MARK =
  /agent-warden|agent_warden|https?:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d+\/hooks\/(claude|codex|gemini|cursor|copilot)\b/i;

function mentionsWarden(io: IoFacts, path: string): boolean {
  return WARDEN_MARK.test(io.readText(path, 1_000_000) ?? '');
}

/** Pids of running endpoints, from the records in the state folder. */
function wardenPids(io: IoFacts, stateDir: string): Set<string> {
  const pids = new Set<string>();
  const folder = join(stateDir, 'endpoints');
  for (const name of io.listDir(folder) ?? []) {
    if (!name.endsWith('.json')) continue;
    try {
      const pid = (JSON.parse(io.readText(join(folder, name), 64 * 1024) ?? 'null') as { pid?: unknown } | null)?.pid;
      if (typeof pid === 'number') pids.add(String(pid));
    } catch {
      /* a record being rewritten: the next call sees it */
    }
  }
  return pids;
}

/** Words in a shell command that name the state folder, however they are written. */
function shellTouchesStateDir(call: ToolCall, stateDir: string): string | null {
  for (const { cmd, cwd } of commandsWithCwd(call)) {
    const words = [...cmd.argv, ...cmd.redirects.filter((r) => !r.op.startsWith('<<')).map((r) => r.target)];
    for (const word of words) {
      if (/AGENT_WARDEN_HOME/.test(word)) return word;
      if (word === '' || /^-/.test(word) || !/[/\\~.]/.test(word)) continue;
      const candidate = word.includes('=') && !word.startsWith('/') ? word.slice(word.indexOf('=') + 1) : word;
      if (isInside(resolvePath(candidate, cwd, call.home), stateDir)) return word;
    }
    for (const value of Object.values(cmd.assignments))
      if (isInside(resolvePath(value, cwd, call.home), stateDir)) return value;
  }
  return null;
}

const KILLERS = new Set(['kill', 'pkill', 'killall', 'taskkill', 'stop-process', 'skill', 'xkill']);

function killsWarden(call: ToolCall, stateDir: string): string | null {
  let pids: Set<string> | undefined;
  for (const cmd of shellCommands(call)) {
    const name = cmd.name.toLowerCase();
    if (!KILLERS.has(name)) continue;
    const args = argsOf(cmd);
    const joined = args.join(' ');
    if (WARDEN_MARK.test(joined) || followedBy(joined, /cli\.js\b/, /\bserve\b/)) return `${name} ${joined}`;
    if (
      (name === 'pkill' || name === 'killall' || name === 'taskkill') &&
      args.some((a) => /^(node|node\.exe|nodejs)$/i.test(a))
    )
      return `${name} ${joined} (also ends Warden's server)`;
    pids ??= wardenPids(call.io, stateDir);
    const known = pids;
    const pid = args.find((a) => known.has(a));
    if (pid) return `${name} ${pid} (Warden's own process)`;
  }
  return null;
}

const SERVICE_MANAGERS = new Set([
  'systemctl',
  'service',
  'launchctl',
  'sc',
  'sc.exe',
  'rc-service',
  'sv',
  'supervisorctl',
]);
const SERVICE_STOPS = /^(stop|disable|mask|kill|unload|bootout|remove|delete|down|reset-failed)$/;
// Programs that take a file's power to run away: chmod -x, chattr, mv, rm, truncate, ln over it.
const PROGRAM_BREAKERS = new Set(['chmod', 'chattr', 'mv', 'rm', 'unlink', 'truncate', 'ln', 'shred']);

function uninstallsWarden(call: ToolCall): string | null {
  for (const cmd of shellCommands(call)) {
    const words = cmd.argv.join(' ');
    if (SERVICE_MANAGERS.has(cmd.name) && cmd.argv.some((a) => SERVICE_STOPS.test(a)) && WARDEN_MARK.test(words))
      return words;
    // `chmod -x "$(command -v agent-warden)"`: the substitution is run-time, its text names Warden.
    if (PROGRAM_BREAKERS.has(cmd.name) && WARDEN_MARK.test(cmd.text)) return cmd.text;
    if (/(^|[\s/])agent-warden(\s|$)/.test(words) && /\buninstall\b/.test(words)) return words;
    if (
      (cmd.name === 'code' || cmd.name === 'code-server' || cmd.name === 'cursor') &&
      /--uninstall-extension\s+\S*agent-warden/.test(words)
    )
      return words;
    if (
      ['npm', 'pnpm', 'yarn'].includes(cmd.name) &&
      followedBy(words, /\b(?:uninstall|remove|rm|un)\b/, /\bagent-warden\b/)
    )
      return words;
  }
  return null;
}

// Warden's program as installed: npm's node_modules/agent-warden, or an editor's
// extensions/<publisher>.agent-warden-<version>. The agents' hook commands run files in it.
const INSTALLED_COPY =
  /[\\/](?:node_modules[\\/]agent-warden|extensions[\\/]agent-warden\.agent-warden-[^\\/]+)(?=[\\/]|$)/i;
// A run-time path (`$(npm root -g)/agent-warden/dist/hook.js`) is judged by its words: a folder named so.
const NAMED_COPY = /(?:^|[\\/])agent-warden(?:\.agent-warden-[^\\/]*)?[\\/]/i;
// Commands that take a folder away from what it holds, or its power to run: applied to a folder above
// Warden's program, they take Warden's program with it.
const FOLDER_BREAKERS = new Set(['chmod', 'chown', 'chgrp', 'chattr', 'setfacl']);

function inWardenProgram(path: string, programDir: string | undefined): boolean {
  return (programDir !== undefined && isInside(path, programDir)) || INSTALLED_COPY.test(path);
}

/** A write, delete or permission change that reaches the program the agents' hook commands run. */
function programFinding(call: ToolCall, programDir: string | undefined): string | null {
  for (const target of writeTargets(call)) {
    const paths = target.real ? [target.absolute, target.real] : [target.absolute];
    if (paths.some((path) => inWardenProgram(path, programDir)) || (target.dynamic && NAMED_COPY.test(target.raw)))
      return `changes Warden's own program (${target.raw}), which the agents' hook commands run`;
    const above =
      programDir !== undefined &&
      isInside(programDir, target.absolute) &&
      (target.access === 'delete' || FOLDER_BREAKERS.has(target.source));
    if (above)
      return `${target.access === 'delete' ? 'removes' : 'changes'} ${target.raw}, which holds Warden's own program`;
  }
  return null;
}

// The Node.js the agents' hook commands name by its absolute path (install and Connect write it so,
// often a version manager's copy the user can write): replaced, removed or stripped of its execute
// bit, it takes the bridge down, and an agent whose hook fails runs the call anyway. Warden cannot
// tell which Node a hook names from inside a call, so every Node.js executable outside the project
// is kept; a project's own `bin/node` wrapper is its business.
const NODE_EXECUTABLE = /[\\/]bin[\\/]node(?:js)?(?:\.exe)?$/i;
// `cp other "$(which node)"`: a Node.js named only at run time.
const NODE_LOOKUP = /(?:\$\(|`)\s*(?:which|command\s+-v|type\s+-[pP]|readlink\s+-f\s+\$\(which)\s+node(?:js)?\b/;

function outsideProject(target: PathTarget): boolean {
  return target.relation !== 'inside-project' && target.relation !== 'project-root';
}

/** A write, delete or permission change that reaches a Node.js executable a hook command may name. */
function hookNodeFinding(call: ToolCall): string | null {
  for (const target of writeTargets(call)) {
    const found = target.dynamic && NODE_LOOKUP.test(target.raw);
    if (!found && !outsideProject(target)) continue;
    const paths = target.real ? [target.absolute, target.real] : [target.absolute];
    if (found || paths.some((path) => NODE_EXECUTABLE.test(path)))
      return `changes ${target.raw}, a Node.js the agents' hook commands may run Warden's bridge with`;
    if (target.access !== 'delete' && !FOLDER_BREAKERS.has(target.source)) continue;
    const holds = [`${target.absolute}/node`, `${target.absolute}/bin/node`].find((path) => call.io.exists(path));
    if (holds !== undefined)
      return `${target.access === 'delete' ? 'removes' : 'changes'} ${target.raw}, which holds ${holds}, a Node.js the agents' hook commands may run Warden's bridge with`;
  }
  return null;
}

function selfProtectionFinding(call: ToolCall, stateDir: string, programDir: string | undefined): string | null {
  const state = resolvePath(stateDir, '/', call.home);
  for (const target of [...readTargets(call), ...writeTargets(call)]) {
    if (isInside(target.absolute, state))
      return `${target.access === 'read' ? 'reads' : 'changes'} Warden's state folder (${target.raw}), which holds its tokens and its log`;
  }
  for (const p of call.paths) if (isInside(p.absolute, state)) return `touches Warden's state folder (${p.raw})`;
  const program = programFinding(call, programDir) ?? hookNodeFinding(call);
  if (program) return program;
  if (call.shell) {
    const word = shellTouchesStateDir(call, state);
    if (word) return `names Warden's state folder (${word}), which holds its tokens and its log`;
  }
  for (const target of writeTargets(call)) {
    if (isWardenProjectConfig(target.absolute, call.projectRoot))
      return `changes Warden's project config (${target.raw})`;
    if (agentConfigKind(target.absolute, call.projectRoot, call.home) && mentionsWarden(call.io, target.absolute))
      return `changes ${target.raw}, which holds Warden's hook entries`;
  }
  const oldText =
    typeof call.input.old_string === 'string'
      ? call.input.old_string
      : typeof call.input.old_str === 'string'
        ? call.input.old_str
        : '';
  if (WARDEN_MARK.test(oldText) && call.paths.some((p) => agentConfigKind(p.absolute, call.projectRoot, call.home)))
    return "edits Warden's hook entries out of an agent's settings";
  if (call.shell) {
    const killed = killsWarden(call, state);
    if (killed) return `stops Warden (${killed})`;
    const removed = uninstallsWarden(call);
    if (removed) return `removes Warden (${removed})`;
  }
  return null;
}

export const wardenSelfProtection = definePolicy({
  name: 'warden-self-protection',
  category: 'agent-integrity',
  description:
    "Always on: the agent may not read Warden's state folder, edit its config, hook entries or program files, stop its processes, or delete its log.",
  defaultEnabled: true,
  alwaysOn: true,
  decision: 'deny',
  params: z.object({}),
  evaluate({ call, stateDir, programDir }) {
    if (!call) return null;
    const finding = selfProtectionFinding(call, stateDir, programDir);
    if (!finding) return null;
    return {
      reason: `This call ${finding}; an agent may never change or read its own guard. If Warden is in the way, tell the person why.`,
      evidence: evidenceOf(call.command ?? call.paths[0]?.raw ?? call.toolName),
    };
  },
});

const AGENT_CLIS = new Set([
  'claude',
  'codex',
  'gemini',
  'cursor-agent',
  'copilot',
  'qwen',
  'opencode',
  'amp',
  'goose',
  'aider',
]);
// Subcommands through which an agent CLI changes its own settings: MCP servers, plugins and
// extensions (code it will run), permissions, hooks, config keys.
const AGENT_CONFIG_SUBCOMMANDS: Record<string, RegExp> = {
  mcp: /^(add|add-json|add-from-claude-desktop|install|import|remove|enable)$/,
  config: /^(set|add|remove|unset)$/,
  plugin: /^(install|add|enable|marketplace)$/,
  plugins: /^(install|add|enable|marketplace)$/,
  extensions: /^(install|link|enable|update)$/,
  extension: /^(install|link|enable|update)$/,
  permissions: /./,
  hooks: /./,
};

/** `claude mcp add …`, `claude config add allowedTools …`, `gemini extensions install …`, run directly or through npx. */
/**
 * `git update-index --skip-worktree .claude/settings.json` (or --assume-unchanged): git stops showing
 * changes to that file, so a later edit of the agent's settings no longer appears in status or diff.
 */
function hiddenAgentConfig(call: ToolCall): { text: string; kind: string } | undefined {
  for (const { cmd, cwd } of commandsWithCwd(call)) {
    const git = gitInvocation(cmd);
    if (git?.sub !== 'update-index' || !git.args.some((a) => a === '--skip-worktree' || a === '--assume-unchanged'))
      continue;
    for (const operand of git.args.filter((a) => !a.startsWith('-'))) {
      const kind = agentConfigKind(resolvePath(operand, cwd, call.home), call.projectRoot, call.home);
      if (kind) return { text: cmd.text, kind };
    }
  }
  return undefined;
}

function agentSelfConfiguration(call: ToolCall): SimpleCommand | undefined {
  return shellCommands(call).find((cmd) => {
    const agent = agentRunBy(cmd);
    if (!agent || !AGENT_CLIS.has(agent.name)) return false;
    const [sub, action] = agent.args.filter((a) => !a.startsWith('-'));
    const pattern = sub !== undefined ? own(AGENT_CONFIG_SUBCOMMANDS, sub) : undefined;
    return pattern !== undefined && pattern.test(action ?? '');
  });
}

// Settings that choose the model and how the agent shows things: they neither add tools, hooks or
// permissions nor send anything elsewhere (a provider or an endpoint would, and is not among them).
const MODEL_OR_DISPLAY_SETTING =
  /^["']?(model|model_reasoning_effort|model_reasoning_summary|model_verbosity|theme|hideTips|hideBanner)["']?[ \t]*[:=][ \t]*("[\w.:/ -]*"|'[\w.:/ -]*'|[\w.-]+)[ \t]*,?$/;
const STRUCTURE_ONLY = /^[{}[\],]*$/;

/** The lines an edit adds or removes: each replacement's lines the other side lacks, or a patch's +/- lines. */
function changedLines(call: ToolCall): string[] | undefined {
  const patch = Object.values(call.input).find((v): v is string => typeof v === 'string' && isPatchEnvelope(v));
  if (patch !== undefined)
    return patch
      .split('\n')
      .filter((line) => /^[+-]/.test(line) && !/^(\+\+\+|---)/.test(line))
      .map((line) => line.slice(1).trim());
  if (call.face.family !== 'edit') return undefined;
  const pairs = replacedTexts(call.input);
  if (!pairs.length) return undefined;
  return pairs.flatMap(([before, after]) => {
    const lines = (text: string) => new Set(text.split('\n').map((line) => line.trim()));
    const was = lines(before);
    const is = lines(after);
    return [...[...is].filter((line) => !was.has(line)), ...[...was].filter((line) => !is.has(line))];
  });
}

/** An edit that only sets the model, its reasoning effort or a display setting (`model_reasoning_effort = "high"`). */
function onlyModelOrDisplaySettings(call: ToolCall): boolean {
  const lines = changedLines(call)?.filter((line) => line !== '' && !STRUCTURE_ONLY.test(line));
  return lines !== undefined && lines.length > 0 && lines.every((line) => MODEL_OR_DISPLAY_SETTING.test(line));
}

export const agentConfigTampering = definePolicy({
  name: 'agent-config-tampering',
  category: 'agent-integrity',
  description:
    "Refuses writing agents' hook, permission and MCP settings (.claude/settings*.json, .codex/hooks.json, .mcp.json…) or changing them through the CLI (claude mcp add); a Claude settings change that only forbids more passes.",
  defaultEnabled: true,
  decision: 'deny',
  params: z.object({}),
  evaluate({ call }) {
    if (!call) return null;
    const configures = agentSelfConfiguration(call);
    if (configures)
      return {
        reason: `Runs ${evidenceOf(configures.text, 80)}, which changes an agent's own settings (MCP servers, plugins, permissions, hooks): an agent that adds tools or permissions to itself can switch its guards off; tell the person the exact change and let them make it.`,
        evidence: evidenceOf(configures.text),
      };
    const hidden = hiddenAgentConfig(call);
    if (hidden)
      return {
        reason: `Runs ${evidenceOf(hidden.text, 80)}, which hides later changes to ${hidden.kind} from git status and diff: an edit of the agent's own settings would then go unseen in review. Tell the person, and let them decide.`,
        evidence: evidenceOf(hidden.text),
      };
    const settingsOnly = onlyModelOrDisplaySettings(call);
    for (const target of writeTargets(call)) {
      const kind = agentConfigKind(target.absolute, call.projectRoot, call.home);
      if (!kind || settingsOnly || onlyTightensClaudeSettings(call, target.absolute)) continue;
      return {
        reason: `Writes ${target.raw} (${kind}): an agent that edits its own hooks or permissions can switch its guards off; tell the person the exact change and let them make it.`,
        evidence: evidenceOf(call.command ?? target.raw),
      };
    }
    return null;
  },
});

const BYPASS_FLAGS: Record<string, RegExp> = {
  claude:
    /^--dangerously-skip-permissions$|^--permission-mode(=bypassPermissions)?$|^bypassPermissions$|^--allow-dangerously-skip-permissions$/,
  codex: /^--dangerously-bypass-approvals-and-sandbox$|^--yolo$/,
  gemini: /^--yolo$|^-y$|^--approval-mode(=yolo)?$|^yolo$/,
  'cursor-agent': /^--force$|^-f$|^--yolo$/,
  copilot: /^--allow-all-tools$|^--allow-all$|^--yolo$|^--allow-all-paths$/,
  aider: /^--yes-always$/,
};

// Agent CLIs as package runners start them: npx @anthropic-ai/claude-code, bunx @openai/codex.
const AGENT_PACKAGES: Record<string, string> = {
  '@anthropic-ai/claude-code': 'claude',
  '@openai/codex': 'codex',
  '@google/gemini-cli': 'gemini',
  '@github/copilot': 'copilot',
};
const PACKAGE_RUNNERS = new Set(['npx', 'bunx', 'pnpx']);

function agentRunBy(cmd: SimpleCommand): { name: string; args: readonly string[] } | undefined {
  const args = argsOf(cmd);
  const viaDlx = (cmd.name === 'pnpm' || cmd.name === 'yarn') && args[0] === 'dlx';
  if (!PACKAGE_RUNNERS.has(cmd.name) && !viaDlx) return { name: cmd.name, args };
  const at = args.findIndex((a, i) => (!viaDlx || i > 0) && !a.startsWith('-'));
  const spec = withoutVersion(args[at] ?? '');
  const name = own(AGENT_PACKAGES, spec);
  return name ? { name, args: args.slice(at + 1) } : undefined;
}

export const nestedAgentPermissionBypass = definePolicy({
  name: 'nested-agent-permission-bypass',
  category: 'agent-integrity',
  description:
    'Refuses starting another coding agent with its permission checks off (claude --dangerously-skip-permissions, codex --yolo, gemini --yolo, …).',
  defaultEnabled: true,
  decision: 'deny',
  params: z.object({}),
  evaluate({ call }) {
    if (!call?.shell) return null;
    for (const cmd of shellCommands(call)) {
      const agent = agentRunBy(cmd);
      const pattern = agent ? own(BYPASS_FLAGS, agent.name) : undefined;
      if (!agent || !pattern) continue;
      const args = agent.args;
      const flagged = args.filter((a) => pattern.test(a));
      // `--permission-mode` and `--approval-mode` only bypass with the yolo/bypass value.
      const real = flagged.filter(
        (a) =>
          !/^--(permission|approval)-mode$|^(bypassPermissions|yolo)$/.test(a) ||
          args.includes('bypassPermissions') ||
          args.includes('yolo'),
      );
      if (!real.length) continue;
      return {
        reason: `Starts ${cmd.name} with ${real.join(' ')}: a nested agent without permission checks escapes this session's guard; run it without that flag.`,
        evidence: evidenceOf(cmd.text),
      };
    }
    return null;
  },
});

/** A package spec without its `@version` (a leading `@` is the scope's, not a version's). */
function withoutVersion(spec: string): string {
  const at = spec.indexOf('@', Math.max(spec.lastIndexOf('/') + 1, 1));
  return at < 0 ? spec : spec.slice(0, at);
}
