import * as vscode from 'vscode';
import { readLogFile } from '../core/activity/log';
import { installedHookUrl, settingsPath } from '../core/install/claude';
import { TOKEN_ENV } from '../core/install/claude';
import { stateDir, statePaths, type StatePaths } from '../core/state';
import { type HostState, type IpcCommand, type IpcResponses, type PendingView } from '../shared/protocol';
import { verdictRecordSchema, type VerdictRecord } from '../core/verdict/record';
import { argsDigest, checkBindable } from '../core/approvals';
import { Config } from './config';
import { Disposable, DisposableScope, toDisposable } from './disposable';
import { Endpoint } from './endpoint';
import { HookUp } from './hookup';
import { isKeyedProvider, JudgeKeys } from './judgeKeys';
import { vscodeLanguageModels } from './lmPort';
import { createExtensionSemanticTier } from './semanticTier';
import { localConfigPath, setPolicyEnabled } from './localConfig';
import { notifyAsk } from './notifications';
import { PanelHost } from './panel';
import { connectedCommandAgents, displayName } from './agentHookup';
import { StatusBar, type GuardStatus } from './statusBar';

// The extension's state for this window: the endpoint (restarted when trust
// or the port setting changes), the panel, the status bar, the hook entries.

export class WardenController extends Disposable {
  readonly config = new Config();
  readonly paths: StatePaths;
  readonly hookUp: HookUp;
  readonly panel: PanelHost;
  /** API keys of the HTTP judges, from SecretStorage. */
  readonly judgeKeys: JudgeKeys;
  private keysLoaded: Promise<void> | undefined;
  private readonly statusBar: StatusBar;
  private current: Endpoint | undefined;
  private endpointScope: DisposableScope | undefined;
  private starting: Promise<void> | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    readonly log: vscode.LogOutputChannel,
  ) {
    super((m) => log.warn(m));
    this.paths = statePaths(stateDir());
    this.hookUp = this._register(new HookUp(context.workspaceState, log));
    this.judgeKeys = new JudgeKeys(context.secrets);
    this._register(
      context.secrets.onDidChange((e) => {
        if (isKeyedProvider(e.key))
          void this.judgeKeys
            .reload(e.key)
            .catch((err: Error) => log.warn(`could not read the ${e.key} judge key: ${err.message}`));
      }),
    );
    this.statusBar = this._register(new StatusBar('agentWarden.showPanel'));
    this.panel = this._register(
      new PanelHost({
        extensionUri: context.extensionUri,
        endpoint: () => this.current,
        hostState: () => this.hostState(),
        maxRows: () => this.config.panelMaxRows,
        log,
        onCommand: (c) => this.panelCommand(c),
        rescreen: (p) => this.rescreen(p.approvalId, p.editedInput),
      }),
    );
    this._register(toDisposable(() => this.endpointScope?.dispose()));
    this._register(vscode.workspace.onDidGrantWorkspaceTrust(() => void this.restart('workspace trust was granted')));
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (this.config.affects(e, 'port')) void this.restart('agentWarden.port changed');
      }),
    );
  }

  get endpoint(): Endpoint | undefined {
    return this.current;
  }

  get workspaceRoot(): string | undefined {
    return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  }

  start(): Promise<void> {
    this.starting ??= this.startEndpoint().finally(() => (this.starting = undefined));
    return this.starting;
  }

  async restart(why: string): Promise<void> {
    this.log.info(`restarting the endpoint: ${why}`);
    await this.starting;
    this.endpointScope?.dispose();
    this.current = undefined;
    await this.start();
  }

  private async startEndpoint(): Promise<void> {
    const scope = new DisposableScope('endpoint', (m) => this.log.warn(m));
    this.endpointScope = scope;
    try {
      this.keysLoaded ??= this.judgeKeys
        .load()
        .catch((err: Error) =>
          this.log.warn(`could not read the judge API keys from the secret storage: ${err.message}`),
        );
      await this.keysLoaded;
      const endpoint = scope.add(
        await Endpoint.start({
          paths: this.paths,
          workspaceRoot: this.workspaceRoot,
          trusted: vscode.workspace.isTrusted,
          configuredPort: this.config.port,
          log: this.log,
          semanticTier: (allowlistKey) =>
            createExtensionSemanticTier({ languageModels: vscodeLanguageModels(), keys: this.judgeKeys, allowlistKey }),
          semanticEnv: this.judgeKeys.env,
        }),
      );
      if (scope.isDisposed) return;
      this.current = endpoint;
      // The hook token reaches agents started in the integrated terminal.
      this.context.environmentVariableCollection.replace(TOKEN_ENV, endpoint.hookToken);
      this.context.environmentVariableCollection.description = 'Agent Warden: the hook token for agents started here';
      scope.add(
        toDisposable(
          endpoint.broker.onChange((n) => this.onBrokerChange(n.type, n.type === 'pending' ? n.pending : undefined)),
        ),
      );
      scope.add(toDisposable(() => this.hookUp.removeOnStop(endpoint.projectRoot, endpoint.url)));
      this.hookUp.follow(this.target(endpoint), this.config.manageHookLifetime);
      this.panel.endpointChanged();
      this.refresh();
    } catch (err) {
      this.log.error((err as Error).message);
      void vscode.window.showErrorMessage(`Agent Warden: ${(err as Error).message}. See the Agent Warden output.`);
      this.refresh();
    }
  }

  target(endpoint: Endpoint) {
    return {
      url: endpoint.url,
      token: endpoint.hookToken,
      projectRoot: endpoint.projectRoot,
      approvalTimeoutSeconds: endpoint.evaluator.configFor(endpoint.projectRoot).approvalsTimeoutSeconds,
    };
  }

  private onBrokerChange(type: string, pending: PendingView | undefined): void {
    this.refresh();
    if (type === 'pending' && pending) {
      this.log.info(`ask pending: ${pending.toolName} (${pending.id}) ${pending.reason}`);
      if (this.config.notifyOnAsk) {
        void notifyAsk(
          pending,
          (decision) => this.answer(pending, decision),
          () => this.panel.reveal(),
        );
      }
    }
  }

  answer(p: PendingView, decision: 'approve' | 'refuse'): Promise<{ status: number; body: unknown }> {
    const endpoint = this.current;
    if (!endpoint || !p.digest) return Promise.resolve({ status: 404, body: null });
    return endpoint.broker.answer(p.id, { decision, scope: 'once', digest: p.digest }, 'vscode-notification');
  }

  get extensionPath(): string {
    return this.context.extensionUri.fsPath;
  }

  guardStatus(): GuardStatus {
    const endpoint = this.current;
    const records = endpoint?.broker.records.all() ?? [];
    let denies = 0;
    for (const r of records) if (r.decision === 'deny') denies++;
    const base = {
      pending: endpoint?.broker.pending().length ?? 0,
      calls: records.length,
      denies,
      paused: endpoint?.evaluator.isPaused() ?? false,
    };
    if (!endpoint) return { ...base, guarded: false, detail: 'the endpoint is not running' };
    const urls = (['local', 'project'] as const).map((s) => installedHookUrl(settingsPath(s, endpoint.projectRoot)));
    const others = connectedCommandAgents(endpoint.projectRoot).map(displayName);
    if (!urls.some((u) => u === endpoint.url)) {
      const stale = urls.find((u) => u !== null);
      if (others.length && !stale)
        return { ...base, guarded: true, detail: `connected: ${others.join(', ')} (through the command bridge)` };
      return {
        ...base,
        guarded: false,
        detail: stale
          ? `the hooks point at ${stale}, not this endpoint (${endpoint.url})`
          : 'Claude Code is not connected: run "Agent Warden: Connect Claude Code"',
      };
    }
    const closed = this.hookUp.failsClosed();
    const failure =
      closed === null
        ? 'Claude Code version unknown (may fail open)'
        : closed
          ? 'Claude Code fails closed'
          : `Claude Code ${this.hookUp.version()} fails OPEN if Warden is down`;
    const agents = others.length ? `; also connected: ${others.join(', ')}` : '';
    return { ...base, guarded: true, detail: `hooks point at ${endpoint.url}; ${failure}${agents}` };
  }

  hostState(): HostState {
    const endpoint = this.current;
    const status = this.guardStatus();
    let policies: HostState['policies'] = [];
    try {
      policies = endpoint?.policies() ?? [];
    } catch (err) {
      this.log.warn(`could not list the policies: ${(err as Error).message}`);
    }
    const pausedUntil = endpoint?.evaluator.isPaused() ? this.pausedUntil : null;
    return {
      host: 'vscode',
      guarded: status.guarded,
      guardDetail: status.detail,
      endpointUrl: endpoint?.url ?? null,
      pausedUntil,
      policies,
    };
  }

  private pausedUntil: string | null = null;

  pause(minutes: number): void {
    const endpoint = this.current;
    if (!endpoint) throw new Error('the endpoint is not running');
    endpoint.evaluator.pause(minutes);
    const until = new Date(Date.now() + minutes * 60_000);
    this.pausedUntil = until.toISOString();
    endpoint.activityLog.append({
      type: 'pause',
      ts: new Date().toISOString(),
      minutes,
      until: this.pausedUntil,
      by: 'vscode',
    });
    this.log.warn(`enforcement paused for ${minutes} minute(s), until ${until.toLocaleTimeString()}`);
    const timer = setTimeout(() => {
      this.pausedUntil = null;
      this.refresh();
    }, minutes * 60_000);
    this.endpointScope?.add(toDisposable(() => clearTimeout(timer)));
    this.refresh();
  }

  refresh(): void {
    this.statusBar.update(this.guardStatus());
    this.panel.broadcastState();
  }

  /** Records from the activity log (all of them, redacted as stored). */
  loggedRecords(): VerdictRecord[] {
    const { entries, warnings } = readLogFile(this.paths.logFile);
    for (const w of warnings) this.log.warn(w);
    const records: VerdictRecord[] = [];
    for (const entry of entries) {
      if (entry.type !== 'record') continue;
      const parsed = verdictRecordSchema.safeParse(entry);
      if (parsed.success) records.push(parsed.data);
    }
    return records;
  }

  private async panelCommand(command: Exclude<IpcCommand, { type: 'ready' }>): Promise<string | void> {
    switch (command.type) {
      case 'copyDigest':
        await vscode.env.clipboard.writeText(command.digest);
        return 'Digest copied.';
      case 'togglePolicy': {
        const endpoint = this.current;
        if (!endpoint) throw new Error('the endpoint is not running');
        const path = localConfigPath(endpoint.projectRoot);
        setPolicyEnabled(path, command.policy, command.enabled);
        this.log.info(`policy ${command.policy} ${command.enabled ? 'enabled' : 'disabled'} in ${path}`);
        this.refresh();
        return `${command.policy} ${command.enabled ? 'on' : 'off'} (written to .agent-warden/config.local.json)`;
      }
      case 'notSecret': {
        const endpoint = this.current;
        if (!endpoint) throw new Error('the endpoint is not running');
        const result = endpoint.reveal.notSecret(command.recordId, command.source, command.spanIndex);
        this.log.info(
          `"not a secret": a keyed hash of a ${result.label} value (${result.valueLength} characters) ${result.added ? 'added to' : 'was already in'} redaction.allowlist in ${result.path}`,
        );
        const untrusted = vscode.workspace.isTrusted
          ? ''
          : ' This workspace is not trusted, so its local config cannot relax redaction until it is.';
        return `${result.added ? 'Added' : 'Already listed:'} a keyed hash of this ${result.label} value (never the value) in .agent-warden/config.local.json; the detectors skip it from the next call on.${untrusted}`;
      }
      case 'openLog':
        await vscode.commands.executeCommand('agentWarden.openActivityLog');
    }
  }

  private async rescreen(
    approvalId: string,
    editedInput: Record<string, unknown>,
  ): Promise<IpcResponses['rescreenEdit']> {
    const endpoint = this.current;
    if (!endpoint) throw new Error('the endpoint is not running');
    const pending = endpoint.broker.pending().find((p) => p.id === approvalId);
    if (!pending) throw new Error('this ask is no longer pending');
    const screened = await endpoint.evaluator.screen({
      agent: (pending.agent as 'claude') ?? 'claude',
      event: 'PreToolUse',
      rawEventName: 'PreToolUse',
      sessionId: pending.sessionId,
      cwd: endpoint.projectRoot,
      toolName: pending.toolName,
      toolInput: editedInput,
      raw: {},
    });
    const digest = checkBindable(editedInput).ok ? argsDigest(pending.toolName, editedInput) : null;
    return { decision: screened.decision, reason: screened.reason, digest };
  }
}
