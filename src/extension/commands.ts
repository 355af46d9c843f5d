import { writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { ClaudeScope } from '../core/install/claude';
import type { WardenController } from './controller';
import type { ConnectOptions } from './hookup';
import { connectCommandAgent } from './agentHookup';
import type { CommandAgent } from '../core/install/commandAgents';
import { toCsv, toJsonl } from './exportActivity';
import { isKeyedProvider, KEYED_PROVIDERS, type KeyedProvider } from './judgeKeys';
import type { PendingView } from '../protocol';

// Every palette command, under the "Agent Warden" category (see package.json).
// Commands take optional arguments so tests and keybindings can skip the prompts.

/** A modal showing the exact call, its digest and why it was asked; true only when the person approves. */
async function confirmApproval(p: PendingView): Promise<boolean> {
  const approve = 'Approve once';
  const answer = await vscode.window.showWarningMessage(
    `Approve this ${p.toolName} call for ${p.agent}?`,
    {
      modal: true,
      detail: `${JSON.stringify(p.toolInput, null, 2)}\n\nWhy Warden asked: ${p.reason}\nDigest: ${p.digest ?? '(not bindable)'}`,
    },
    approve,
  );
  return answer === approve;
}

export function registerCommands(w: WardenController): vscode.Disposable[] {
  const need = () => {
    const endpoint = w.endpoint;
    if (!endpoint) throw new Error('the Warden endpoint is not running; see the Agent Warden output');
    return endpoint;
  };
  const oldest = () => {
    const pending = need().broker.pending();
    return pending.sort((a, b) => a.createdAt.localeCompare(b.createdAt))[0];
  };
  const run = (id: string, fn: (...args: any[]) => unknown) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await fn(...args);
      } catch (err) {
        w.log.error(`${id}: ${(err as Error).message}`);
        void vscode.window.showErrorMessage(`Agent Warden: ${(err as Error).message}`);
        return undefined;
      }
    });

  return [
    run('agentWarden.connectClaude', async (opts?: ConnectOptions) => {
      const endpoint = need();
      const scope: ClaudeScope = opts?.scope ?? w.config.connectScope;
      const plan = await w.hookUp.connect(w.target(endpoint), { ...opts, scope });
      w.refresh();
      if (plan && !opts?.yes)
        void vscode.window.showInformationMessage(
          `Agent Warden: Claude Code is connected (${plan.path}).${plan.warnings.length ? ' See the output for warnings.' : ''}`,
        );
      return plan ? { path: plan.path, changed: plan.changed, warnings: plan.warnings } : undefined;
    }),
    run('agentWarden.connectAgent', async (opts?: { agent?: CommandAgent; yes?: boolean }) => {
      const endpoint = need();
      const plan = await connectCommandAgent({
        projectRoot: endpoint.projectRoot,
        extensionPath: w.extensionPath,
        approvalTimeoutSeconds: w.target(endpoint).approvalTimeoutSeconds,
        ...(opts?.agent ? { agent: opts.agent } : {}),
        ...(opts?.yes ? { yes: true } : {}),
      });
      w.refresh();
      return plan ? { path: plan.path, changed: plan.changed } : undefined;
    }),
    run('agentWarden.disconnectClaude', async (opts?: ConnectOptions) => {
      const plan = await w.hookUp.disconnect({ projectRoot: need().projectRoot }, opts ?? {});
      w.refresh();
      return plan ? { path: plan.path, changed: plan.changed } : undefined;
    }),
    run('agentWarden.showPanel', () => w.panel.reveal()),
    run('agentWarden.openPanelInEditor', () => void w.panel.openInEditor()),
    run('agentWarden.approveOldest', async () => {
      const p = oldest();
      if (!p) return void vscode.window.showInformationMessage('Agent Warden: no ask is pending.');
      // Any extension can run a command: the person sees the exact call and approves it in a modal.
      if (!(await confirmApproval(p))) return undefined;
      return w.answer(p, 'approve');
    }),
    run('agentWarden.refuseOldest', async () => {
      const p = oldest();
      if (!p) return void vscode.window.showInformationMessage('Agent Warden: no ask is pending.');
      return w.answer(p, 'refuse');
    }),
    run('agentWarden.pause', async (minutesArg?: number) => {
      let minutes = minutesArg;
      if (minutes === undefined) {
        const text = await vscode.window.showInputBox({
          title: 'Pause enforcement',
          prompt: 'Minutes during which calls are still evaluated and logged but answered as no objection',
          value: String(w.config.pauseMinutes),
          validateInput: (v) =>
            /^\d{1,4}$/.test(v.trim()) && Number(v) > 0 ? undefined : 'a whole number of minutes, 1 to 9999',
        });
        if (text === undefined) return;
        minutes = Number(text.trim());
      }
      if (!Number.isFinite(minutes) || minutes <= 0) throw new Error('the pause needs a positive number of minutes');
      // Pausing loosens every policy at once: a person confirms it, however the command was started.
      const pause = 'Pause enforcement';
      const sure = await vscode.window.showWarningMessage(
        `Pause Agent Warden for ${minutes} minute(s)?`,
        { modal: true, detail: 'Calls are still evaluated and logged, but answered as no objection until then.' },
        pause,
      );
      if (sure !== pause) return undefined;
      w.pause(minutes);
    }),
    run('agentWarden.resume', () => {
      need().evaluator.resume();
      w.log.info('enforcement resumed');
      w.refresh();
    }),
    run('agentWarden.openActivityLog', async () => {
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(w.paths.logFile));
      await vscode.window.showTextDocument(doc, { preview: true });
    }),
    run('agentWarden.exportActivity', async (target?: vscode.Uri | string, formatArg?: 'jsonl' | 'csv') => {
      let uri = typeof target === 'string' ? vscode.Uri.file(target) : target;
      let format = formatArg;
      if (!format) {
        const pick = await vscode.window.showQuickPick(
          [
            { label: 'JSONL', format: 'jsonl' as const, detail: 'every field of every record' },
            { label: 'CSV', format: 'csv' as const, detail: 'one row per call, for a spreadsheet' },
          ],
          { title: 'Export the activity as' },
        );
        if (!pick) return;
        format = pick.format;
      }
      uri ??= await vscode.window.showSaveDialog({
        filters: format === 'csv' ? { CSV: ['csv'] } : { JSONL: ['jsonl'] },
        title: 'Export the Warden activity',
      });
      if (!uri) return;
      const records = w.loggedRecords();
      writeFileSync(uri.fsPath, format === 'csv' ? toCsv(records) : toJsonl(records));
      w.log.info(`exported ${records.length} record(s) as ${format} to ${uri.fsPath}`);
      const exported = uri;
      void vscode.window
        .showInformationMessage(
          `Agent Warden: exported ${records.length} call${records.length === 1 ? '' : 's'} as ${format.toUpperCase()} to ${uri.fsPath}.`,
          'Open',
        )
        .then((choice) => (choice === 'Open' ? vscode.window.showTextDocument(exported) : undefined));
      return { count: records.length, path: uri.fsPath };
    }),
    run('agentWarden.copyDigest', async (digestArg?: string) => {
      let digest = digestArg;
      if (!digest) {
        const records = need().broker.records.recentDigests(50);
        const pick = await vscode.window.showQuickPick(
          records.map(({ summary, argsDigest }) => ({
            label: `${summary.toolName ?? summary.event} · ${summary.decision}`,
            description: summary.ts.slice(11, 19),
            detail: argsDigest,
            digest: argsDigest,
          })),
          { title: 'Copy the digest of a call', matchOnDetail: true },
        );
        if (!pick) return;
        digest = pick.digest;
      }
      await vscode.env.clipboard.writeText(digest);
      return digest;
    }),
    run('agentWarden.showOutput', () => w.log.show()),
    run('agentWarden.setJudgeApiKey', async (providerArg?: string, keyArg?: string) => {
      let provider: KeyedProvider | undefined;
      if (providerArg !== undefined) {
        if (!isKeyedProvider(providerArg))
          throw new Error(`"${providerArg}" takes no API key here; one of ${KEYED_PROVIDERS.join(', ')}`);
        provider = providerArg;
      } else {
        const pick = await vscode.window.showQuickPick(
          KEYED_PROVIDERS.map((p) => ({
            label: p,
            description: w.judgeKeys.has(p) ? 'a key is stored' : '',
            provider: p,
          })),
          { title: 'What this key is for: a judge provider (semantic.provider), or cloud (the org machine key)' },
        );
        if (!pick) return undefined;
        provider = pick.provider;
      }
      let key = keyArg;
      if (key === undefined) {
        key = await vscode.window.showInputBox({
          title: provider === 'cloud' ? 'Machine key for the org Cloud' : `API key for the ${provider} judge`,
          prompt: `Kept in the editor's secret storage and given to ${provider === 'cloud' ? 'the Cloud review through cloud.keyEnv' : 'the judge through semantic.apiKeyEnv'}. Leave empty to remove the stored key.`,
          password: true,
          ignoreFocusOut: true,
        });
        if (key === undefined) return undefined;
      }
      await w.judgeKeys.set(provider, key);
      const stored = w.judgeKeys.has(provider);
      w.log.info(`the ${provider} judge API key was ${stored ? 'stored' : 'removed'} (secret storage)`);
      if (keyArg === undefined)
        void vscode.window.showInformationMessage(
          `Agent Warden: the ${provider} judge API key was ${stored ? 'stored' : 'removed'}.`,
        );
      return { provider, stored };
    }),
  ];
}
