import * as vscode from 'vscode';
import type { AnswerResult, PendingView, ResolutionView } from '../protocol';
import { summarizeArgs } from '../server/rowSummary';
import { revealHidden } from '../protocol/text';

// A notification for each new ask, with Approve and Refuse. The summary shows
// hidden characters as tokens; the approval binds the digest of the arguments
// shown. VS Code cannot close a notification from code, so one answered
// elsewhere says so when clicked, instead of an error.

export function askMessage(p: PendingView): string {
  const summary = revealHidden(summarizeArgs(p.toolName, p.toolInput))
    .map((piece) => piece.text)
    .join('');
  return `Agent Warden: ${p.agent} wants to run ${p.toolName}: ${summary} (${p.reason})`;
}

/** What became of an ask, in words, for a notification clicked after it was settled. */
export function settledMessage(resolution: ResolutionView | undefined): string {
  if (!resolution) return 'Agent Warden: that ask is no longer pending.';
  const by =
    resolution.answeredBy === 'vscode-panel'
      ? ' in the panel'
      : resolution.answeredBy === 'web-panel'
        ? ' in the web panel'
        : resolution.answeredBy
          ? ` by ${resolution.answeredBy}`
          : '';
  switch (resolution.state) {
    case 'approved':
      return `Agent Warden: that ask was already approved${by}.`;
    case 'refused':
      return `Agent Warden: that ask was already refused${by}.`;
    case 'expired':
      return "Agent Warden: that ask expired and went to the agent's own prompt.";
    case 'withdrawn':
      return 'Agent Warden: that ask was withdrawn (the agent stopped waiting).';
  }
}

export async function notifyAsk(
  p: PendingView,
  answer: (decision: 'approve' | 'refuse') => Promise<AnswerResult>,
  showPanel: () => Promise<void>,
  settled: () => ResolutionView | undefined,
): Promise<void> {
  const buttons = p.digest ? ['Approve', 'Refuse', 'Show'] : ['Show'];
  const choice = await vscode.window.showWarningMessage(askMessage(p), ...buttons);
  if (choice === 'Show') return showPanel();
  if (choice !== 'Approve' && choice !== 'Refuse') return;
  const already = settled();
  if (already) return void vscode.window.showInformationMessage(settledMessage(already));
  const result = await answer(choice === 'Approve' ? 'approve' : 'refuse');
  if (result.kind === 'ok') return;
  void vscode.window.showWarningMessage(
    result.kind === 'not-pending' ? settledMessage(settled()) : `Agent Warden: ${result.message}`,
  );
}
