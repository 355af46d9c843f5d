import * as vscode from 'vscode';
import {
  applyPlan,
  detectClaudeVersion,
  FAIL_CLOSED_SINCE,
  compareVersions,
  installedHookUrl,
  planInstall,
  planUninstall,
  settingsPath,
  type ClaudeScope,
  type InstallPlan,
} from '../core/install/claude';
import { Disposable } from './disposable';
import { addIgnores, maskToken, missingIgnores } from './connectSafety';

// Connecting Claude Code to this window's endpoint: the exact settings change
// is shown as a diff before anything is written. Hook entries follow the
// endpoint: rewritten when the port moved, removed when the extension stops.

const PREVIEW_SCHEME = 'agent-warden-preview';
const CONNECTED_KEY = 'agentWarden.connectedScope';

export interface HookTarget {
  url: string;
  token: string;
  projectRoot: string;
  approvalTimeoutSeconds: number;
}

export interface ConnectOptions {
  scope?: ClaudeScope;
  /** Skip the confirmation (the diff is still opened unless preview is false). */
  yes?: boolean;
  preview?: boolean;
}

export class HookUp extends Disposable {
  private readonly previews = new Map<string, string>();
  private claudeVersion: string | null | undefined;

  constructor(
    private readonly state: vscode.Memento,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this._register(
      vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, {
        provideTextDocumentContent: (uri) => this.previews.get(uri.toString()) ?? '',
      }),
    );
  }

  /** `claude --version`, asked once per session (it spawns a process). */
  version(): string | null {
    if (this.claudeVersion === undefined) this.claudeVersion = detectClaudeVersion();
    return this.claudeVersion;
  }

  failsClosed(): boolean | null {
    const version = this.version();
    return version === null ? null : compareVersions(version, FAIL_CLOSED_SINCE) >= 0;
  }

  connectedScope(): ClaudeScope | undefined {
    return this.state.get<ClaudeScope>(CONNECTED_KEY);
  }

  plan(target: HookTarget, scope: ClaudeScope): InstallPlan {
    return planInstall({
      scope,
      projectRoot: target.projectRoot,
      url: target.url,
      token: target.token,
      claudeVersion: this.version(),
      approvalTimeoutSeconds: target.approvalTimeoutSeconds,
      bridgeOffered: false,
    });
  }

  async connect(target: HookTarget, opts: ConnectOptions): Promise<InstallPlan | undefined> {
    const scope = opts.scope ?? 'local';
    const plan = this.plan(target, scope);
    const ignores = scope === 'user' ? [] : missingIgnores(target.projectRoot);
    const also = ignores.length ? ` and adds ${ignores.join(' and ')} to .gitignore (they hold your token)` : '';
    const masked = {
      ...plan,
      before: maskToken(plan.before, target.token),
      after: maskToken(plan.after, target.token),
    };
    if (!(await this.confirm(masked, `Connect Claude Code: ${relativeName(plan.path)}`, 'Write hooks', opts, also)))
      return undefined;
    applyPlan(plan);
    addIgnores(target.projectRoot, ignores);
    if (ignores.length) this.log.info(`added ${ignores.join(', ')} to ${target.projectRoot}/.gitignore`);
    await this.state.update(CONNECTED_KEY, scope);
    this.log.info(`connected Claude Code (${scope}): ${plan.path}${plan.changed ? '' : ' (already up to date)'}`);
    for (const warning of plan.warnings) this.log.warn(warning);
    return plan;
  }

  async disconnect(target: Pick<HookTarget, 'projectRoot'>, opts: ConnectOptions): Promise<InstallPlan | undefined> {
    const scope = opts.scope ?? this.connectedScope() ?? 'local';
    const plan = planUninstall(scope, target.projectRoot);
    if (!plan.changed) {
      await this.state.update(CONNECTED_KEY, undefined);
      return plan;
    }
    if (!(await this.confirm(plan, `Disconnect Claude Code: ${relativeName(plan.path)}`, 'Remove hooks', opts)))
      return undefined;
    applyPlan(plan);
    await this.state.update(CONNECTED_KEY, undefined);
    this.log.info(`disconnected Claude Code (${scope}): ${plan.path}`);
    return plan;
  }

  /**
   * After a (re)start: entries in the local settings that point at another
   * port are rewritten to this endpoint, and a remembered local connection is
   * put back if stopping removed it. No preview: the person consented when connecting.
   */
  follow(target: HookTarget, manageLifetime: boolean): InstallPlan | undefined {
    const path = settingsPath('local', target.projectRoot);
    const current = installedHookUrl(path);
    const remembered = this.connectedScope() === 'local' && manageLifetime;
    if (current === null && !remembered) return undefined;
    if (current === target.url) return undefined;
    const plan = this.plan(target, 'local');
    applyPlan(plan);
    this.log.info(
      current
        ? `hook entries pointed at ${current}; rewritten to ${target.url}`
        : `hook entries restored for ${target.url}`,
    );
    return plan;
  }

  /** On stop: no agent is left pointing at a dead port. Synchronous, as deactivate may not wait. */
  removeOnStop(projectRoot: string, url: string): void {
    const path = settingsPath('local', projectRoot);
    if (installedHookUrl(path) !== url) return;
    try {
      applyPlan(planUninstall('local', projectRoot));
    } catch (err) {
      this.log.error(`could not remove the hook entries from ${path}: ${(err as Error).message}`);
    }
  }

  private async confirm(
    plan: Pick<InstallPlan, 'changed' | 'path' | 'before' | 'after' | 'warnings'>,
    title: string,
    verb: string,
    opts: ConnectOptions,
    also = '',
  ): Promise<boolean> {
    if (!plan.changed) return true;
    if (opts.preview !== false) {
      const stamp = Date.now().toString(36);
      const before = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/before/${stamp}/${relativeName(plan.path)}` });
      const after = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/after/${stamp}/${relativeName(plan.path)}` });
      this.previews.set(before.toString(), plan.before ?? '');
      this.previews.set(after.toString(), plan.after);
      await vscode.commands.executeCommand('vscode.diff', before, after, `${title} (preview)`, { preview: true });
    }
    if (opts.yes) return true;
    // Not modal: the person must be able to scroll the whole diff before answering.
    const warnings = plan.warnings.length ? ` ${plan.warnings.join(' ')}` : '';
    const answer = await vscode.window.showInformationMessage(
      `${title}? This writes ${plan.path} as shown in the diff (the token is hidden there)${also}.${warnings}`,
      verb,
      'Cancel',
    );
    return answer === verb;
  }
}

function relativeName(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts.slice(-2).join('/');
}
