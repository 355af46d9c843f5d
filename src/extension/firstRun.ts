import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { WardenController } from './controller';

// A first run that explains itself: when this workspace is one Claude Code
// uses (a .claude folder, or `claude` on the PATH) and it is not connected,
// one notification offers to connect, with "Don't ask again" for the workspace.

const DECLINED_KEY = 'agentWarden.firstRun.declined';

export function usesClaude(projectRoot: string, claudeVersion: string | null): boolean {
  return existsSync(join(projectRoot, '.claude')) || claudeVersion !== null;
}

export async function offerToConnect(w: WardenController): Promise<void> {
  const endpoint = w.endpoint;
  if (!endpoint || !vscode.workspace.isTrusted) return;
  if (w.context.workspaceState.get<boolean>(DECLINED_KEY)) return;
  if (w.guardStatus().guarded || w.hookUp.connectedScope() !== undefined) return;
  if (!usesClaude(endpoint.projectRoot, w.hookUp.version())) return;
  const choice = await vscode.window.showInformationMessage(
    'Agent Warden: Claude Code is used in this workspace but not connected to Warden, so its tool calls are not checked. Connect it? You see the settings change before it is written.',
    'Connect…',
    'Not now',
    "Don't ask again",
  );
  if (choice === 'Connect…') await vscode.commands.executeCommand('agentWarden.connectClaude');
  else if (choice === "Don't ask again") await w.context.workspaceState.update(DECLINED_KEY, true);
}
