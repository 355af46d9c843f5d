import * as vscode from 'vscode';
import { summarizeArgs } from '../../media/src/format';
import { revealHidden } from '../../media/src/visible';
import type { PendingView } from '../shared/protocol';

// A notification for each new ask, with Approve and Refuse. The summary shows
// hidden characters as tokens; the approval binds the digest of the arguments shown.

export function askMessage(p: PendingView): string {
  const summary = revealHidden(summarizeArgs(p.toolName, p.toolInput))
    .map((piece) => piece.text)
    .join('');
  return `Agent Warden: ${p.agent} wants to run ${p.toolName}: ${summary} (${p.reason})`;
}

export async function notifyAsk(
  p: PendingView,
  answer: (decision: 'approve' | 'refuse') => Promise<{ status: number; body: unknown }>,
  showPanel: () => Promise<void>,
): Promise<void> {
  const buttons = p.digest ? ['Approve', 'Refuse', 'Show'] : ['Show'];
  const choice = await vscode.window.showWarningMessage(askMessage(p), ...buttons);
  if (choice === 'Show') return showPanel();
  if (choice !== 'Approve' && choice !== 'Refuse') return;
  const result = await answer(choice === 'Approve' ? 'approve' : 'refuse');
  if (result.status !== 200)
    void vscode.window.showWarningMessage(
      `Agent Warden: that ask was already answered, expired or withdrawn (${result.status}).`,
    );
}
