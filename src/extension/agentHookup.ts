import * as vscode from 'vscode';
import { join } from 'node:path';
import {
  applyCommandPlan,
  COMMAND_AGENTS,
  hasWardenHook,
  planCommandInstall,
  type CommandAgent,
  type CommandHookPlan,
} from '../core/install/commandAgents';
import { detectCommandAgents, findOnPath } from '../core/install/detectAgents';
import { bridgeCommandFor } from '../core/install/shellBridge';
import { adapterFor } from '../core/agents';

// Connecting the command-hook agents (Codex CLI, Gemini CLI, Cursor, Copilot
// CLI) in their user-level hook file: the bridge finds this window's endpoint
// through its authenticated record, so the entry does not follow the port.
// The exact change is confirmed in a modal before it is written.

export function displayName(agent: CommandAgent): string {
  return adapterFor(agent)?.displayName ?? agent;
}

/** The agents whose user or project hook file holds Warden's bridge. */
export function connectedCommandAgents(projectRoot: string): CommandAgent[] {
  return COMMAND_AGENTS.filter(
    (agent) => hasWardenHook(agent, 'user', { projectRoot }) || hasWardenHook(agent, 'project', { projectRoot }),
  );
}

/**
 * The Node the hook command runs. The extension host is not a plain Node, so it is the first node on
 * this PATH, named by its absolute path: a bare `node` would be looked up on the agent's PATH at every
 * call, where a program the agent wrote into an earlier folder (~/.local/bin) would stand in for it.
 */
function hookNode(): string {
  return findOnPath(process.platform === 'win32' ? 'node.exe' : 'node', process.env.PATH ?? '') ?? 'node';
}

export async function connectCommandAgent(opts: {
  projectRoot: string;
  extensionPath: string;
  approvalTimeoutSeconds: number;
  agent?: CommandAgent;
  yes?: boolean;
}): Promise<CommandHookPlan | undefined> {
  let agent = opts.agent;
  if (!agent) {
    const found = detectCommandAgents(opts.projectRoot);
    if (!found.length) {
      void vscode.window.showInformationMessage(
        'Agent Warden: no Codex CLI, Gemini CLI, Cursor agent or Copilot CLI was found on PATH or in this workspace.',
      );
      return undefined;
    }
    const pick = await vscode.window.showQuickPick(
      found.map((f) => ({ label: displayName(f.agent), description: f.why, agent: f.agent })),
      { title: 'Connect an agent to Agent Warden' },
    );
    if (!pick) return undefined;
    agent = pick.agent;
  }
  const plan = planCommandInstall({
    agent,
    scope: 'user',
    projectRoot: opts.projectRoot,
    env: process.env,
    bridgeCommand: bridgeCommandFor(join(opts.extensionPath, 'dist'), hookNode()),
    approvalTimeoutSeconds: opts.approvalTimeoutSeconds,
  });
  if (plan.changed && !opts.yes) {
    const verb = 'Write hook';
    const answer = await vscode.window.showInformationMessage(
      `Connect ${displayName(agent)}?`,
      { modal: true, detail: `This writes ${plan.path}:\n\n${plan.after ?? ''}\n${plan.warnings.join('\n')}` },
      verb,
    );
    if (answer !== verb) return undefined;
  }
  applyCommandPlan(plan);
  return plan;
}
