import * as vscode from 'vscode';
import { readLogFile } from '../core/activity/log';
import { installedHookUrl, settingsPath } from '../core/install/claude';
import { TOKEN_ENV } from '../core/install/claude';
import type { StatePaths } from '../core/state';
import { openState, type WardenState } from '../core/root/state';
import type {
  AnswerResult,
  ConnectedAgent,
  HostNotification,
  HostState,
  PanelCommand,
  PendingView,
  RequestHandlers,
  RequestResult,
  ResolutionView,
} from '../protocol';
import { RowStreamTally } from '../protocol/summary';
import { adapterFor } from '../core/agents';
import { verdictRecordSchema, type VerdictRecord } from '../core/verdict/record';
import { Config } from './config';
import { Disposable, DisposableScope, toDisposable } from './disposable';
import { Endpoint } from './endpoint';
import { HookUp } from './hookup';
import { isKeyedProvider, JudgeKeys } from './judgeKeys';
import { vscodeLanguageModels } from './lmPort';
import { createExtensionSemanticTier } from './semanticTier';
import { localConfigPath, setPolicyEnabled } from './localConfig';
import { randomBytes } from 'node:crypto';
import { ANSWER_COMMAND, AskNotifications } from './notifications';
import { vscodeNotificationPort } from './notificationPort';
import { recordsWithAnswers } from './exportActivity';
import { PanelHost } from './panel';
import { connectedCommandAgents, displayName } from './agentHookup';
import { StatusBar } from './statusBar';
import type { GuardStatus } from './statusWords';
import { LooseningPrompts } from './looseningPrompts';

// The extension's state for this window: the endpoint (restarted when trust
// or the port setting changes), the panel, the status bar, the hook entries.

export class WardenController extends Disposable {
  readonly config = new Config();
  readonly state: WardenState;
  readonly paths: StatePaths;
  readonly hookUp: HookUp;
  readonly panel: PanelHost;
  /** API keys of the HTTP judges, from SecretStorage. */
  readonly judgeKeys: JudgeKeys;
  private keysLoaded: Promise<void> | undefined;
  private readonly statusBar: StatusBar;
  /** The notifications of asks the editor holds: each closes when its ask is settled anywhere. */
  private readonly notifications: AskNotifications;
  readonly loosening: LooseningPrompts;
  private current: Endpoint | undefined;
  private endpointScope: DisposableScope | undefined;
  private starting: Promise<void> | undefined;

  constructor(
    readonly context: vscode.ExtensionContext,
    readonly log: vscode.LogOutputChannel,
  ) {
    super((m) => log.warn(m));
    this.state = openState();
    this.paths = this.state.paths;
    this.loosening = new LooseningPrompts(() => this.state.confirmations(), log);
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
    this.notifications = new AskNotifications(vscodeNotificationPort(), {
      answer: (pending, decision) => this.answer(pending, decision),
      settled: (id) => this.settled.get(id),
      nonce: () => randomBytes(18).toString('base64url'),
    });
    this._register(toDisposable(() => this.notifications.closeAll()));
    this._register(
      vscode.commands.registerCommand(ANSWER_COMMAND, (args: unknown) => this.notifications.followLink(args)),
    );
    this.panel = this._register(
      new PanelHost({
        extensionUri: context.extensionUri,
        endpoint: () => this.current,
        hostState: () => this.hostState(),
        maxRows: () => this.config.panelMaxRows,
        log,
        onCommand: (c) => this.panelCommand(c),
        handlers: () => this.panelHandlers(),
        // An ask that came while the card was on screen gets its notification once the panel is hidden.
        onHidden: () => this.offerWaitingAsks(),
      }),
    );
    this._register(toDisposable(() => this.endpointScope?.dispose()));
    this._register(toDisposable(() => clearTimeout(this.refreshTimer)));
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
          state: this.state,
          workspaceRoot: this.workspaceRoot,
          trusted: vscode.workspace.isTrusted,
          configuredPort: this.config.port,
          log: this.log,
          semanticTier: (allowlistKey) =>
            createExtensionSemanticTier({ languageModels: vscodeLanguageModels(), keys: this.judgeKeys, allowlistKey }),
          semanticEnv: this.judgeKeys.env,
          onHeldChanges: (held) => this.loosening.held(held),
        }),
      );
      if (scope.isDisposed) return;
      this.current = endpoint;
      // The hook token reaches agents started in the integrated terminal.
      this.context.environmentVariableCollection.replace(TOKEN_ENV, endpoint.hookToken);
      this.context.environmentVariableCollection.description = 'Agent Warden: the hook token for agents started here';
      this.tally = new RowStreamTally();
      scope.add(toDisposable(endpoint.broker.onChange((n) => this.onBrokerChange(n))));
      // The asks go with the endpoint that held them, and so do their notifications.
      scope.add(toDisposable(() => this.notifications.closeAll()));
      // The editor itself holds asks while it offers them (notifications on): one place answers,
      // and only at the deadline does an ask go to the agent's own prompt.
      if (this.config.notifyOnAsk) scope.add(toDisposable(endpoint.broker.attachPanel()));
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

  /** Recent resolutions, so a notification clicked after the fact says what happened. */
  private readonly settled = new Map<string, ResolutionView>();

  /** Calls and denials since this endpoint started, counted one row at a time (never by rescanning the records). */
  private tally = new RowStreamTally();

  private onBrokerChange(n: HostNotification): void {
    if (n.type === 'rows') {
      for (const row of n.rows) this.tally.take(row);
      if (n.rows.some((r) => r.outcome === 'deny' || r.outcome === 'refused'))
        void vscode.commands.executeCommand('setContext', 'agentWarden.sawDeny', true);
      return this.refreshSoon();
    }
    this.refresh();
    if (n.type === 'resolved') {
      this.settled.set(n.resolution.id, n.resolution);
      if (this.settled.size > 200) this.settled.delete(this.settled.keys().next().value!);
      this.notifications.settle(n.resolution.id);
    }
    if (n.type !== 'pending') return;
    const pending = n.pending;
    this.log.info(`ask pending: ${pending.toolName} (${pending.id}) ${pending.reason}`);
    // The card is in front of the person already: the notification would only repeat it.
    if (!this.config.notifyOnAsk || this.panel.visible) {
      this.log.info(
        `ask ${pending.id}: no notification (${this.panel.visible ? 'the panel is on screen' : 'notifications are off'})`,
      );
      return;
    }
    this.log.info(`ask ${pending.id}: offered in a notification`);
    this.notifications.offer(pending);
  }

  private offerWaitingAsks(): void {
    if (!this.config.notifyOnAsk) return;
    const waiting = this.current?.broker.pending() ?? [];
    if (waiting.length) this.log.info(`the panel is hidden: ${waiting.length} waiting ask(s) offered in notifications`);
    for (const pending of waiting) this.notifications.offer(pending);
  }

  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  private connectedContext: boolean | undefined;
  /** A burst of rows refreshes the status bar and the panels' state once, not per call. */
  private refreshSoon(): void {
    this.refreshTimer ??= setTimeout(() => {
      this.refreshTimer = undefined;
      if (!this.isDisposed) this.refresh();
    }, 100);
  }

  answer(p: PendingView, decision: 'approve' | 'refuse', by = 'vscode-notification'): Promise<AnswerResult> {
    const endpoint = this.current;
    if (!endpoint) return Promise.resolve({ kind: 'not-pending', message: 'the Warden endpoint is not running' });
    if (!p.digest) return Promise.resolve({ kind: 'not-bindable', message: p.notBindable ?? 'no digest to bind' });
    return endpoint.broker.answer(p.id, { decision, scope: 'once', digest: p.digest }, by);
  }

  /** What the panel may ask of this host, one handler per request. */
  private panelHandlers(): RequestHandlers {
    const need = () => {
      const endpoint = this.current;
      if (!endpoint) throw new Error('the Warden endpoint is not running; see the Agent Warden output');
      return endpoint;
    };
    return {
      approve: async ({ approvalId, answer }) => need().broker.answer(approvalId, answer, 'vscode-panel'),
      refuse: async ({ approvalId, digest, message }) =>
        need().broker.answer(
          approvalId,
          { decision: 'refuse', scope: 'once', digest, ...(message ? { message } : {}) },
          'vscode-panel',
        ),
      rescreenEdit: ({ approvalId, editedInput }) => this.rescreen(approvalId, editedInput),
      detail: async ({ recordId }) => need().broker.records.detail(recordId),
      reveal: async ({ recordId, source, spanIndex }) => {
        const result = need().reveal.reveal(recordId, source, spanIndex);
        // Which marker, never the value: the output channel is a log.
        if (result.available)
          this.log.info(`revealed the original behind a ${source} marker of call ${recordId} in the panel`);
        return result;
      },
      markerInfo: async ({ recordId, source, spanIndex }) => need().reveal.markerInfo(recordId, source, spanIndex),
    };
  }

  get extensionPath(): string {
    return this.context.extensionUri.fsPath;
  }

  guardStatus(): GuardStatus {
    const endpoint = this.current;
    // Counted as the agent saw them: tool calls only, and a call is denied when it was in the end.
    const { calls, denies } = this.tally.tally.total;
    const base = {
      pending: endpoint?.broker.pending().length ?? 0,
      calls,
      denies,
      paused: endpoint?.evaluator.isPaused() ?? false,
      agents: [] as ConnectedAgent[],
    };
    if (!endpoint) return { ...base, guarded: false, detail: 'the endpoint is not running' };
    const urls = (['local', 'project'] as const).map((s) => installedHookUrl(settingsPath(s, endpoint.projectRoot)));
    const bridged = connectedCommandAgents(endpoint.projectRoot).map((agent) => ({
      agent,
      name: displayName(agent),
      how: 'command hook through the bridge',
    }));
    const others = bridged.map((a) => a.name);
    const claudeHere = urls.some((u) => u === endpoint.url);
    base.agents = [
      ...(claudeHere
        ? [
            {
              agent: 'claude',
              name: adapterFor('claude')?.displayName ?? 'claude',
              how: `http hook to ${endpoint.url}`,
            },
          ]
        : []),
      ...bridged,
    ];
    if (!claudeHere) {
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
      canConnect: true,
      connectedAgents: status.agents,
      licences: (endpoint?.broker.ledger.standingLicences() ?? []).map((l) => ({
        id: l.id,
        sessionId: l.sessionId,
        toolName: l.toolName,
        digest: l.digest,
        grantedBy: l.grantedBy,
        grantedAt: l.grantedAt,
      })),
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
    const status = this.guardStatus();
    this.statusBar.update(status);
    // The walkthrough ticks "Connect" only once the hooks really point here.
    if (status.guarded !== this.connectedContext) {
      this.connectedContext = status.guarded;
      void vscode.commands.executeCommand('setContext', 'agentWarden.connected', status.guarded);
    }
    this.panel.setPendingBadge(status.pending);
    this.panel.broadcastState();
  }

  /** Records from the activity log (all of them, redacted as stored), each with how its ask ended. */
  loggedRecords(): VerdictRecord[] {
    const { entries, warnings } = readLogFile(this.paths.logFile);
    for (const w of warnings) this.log.warn(w);
    return recordsWithAnswers(entries, (entry) => {
      const parsed = verdictRecordSchema.safeParse(entry);
      return parsed.success ? parsed.data : null;
    });
  }

  private async panelCommand(command: Exclude<PanelCommand, { type: 'ready' }>): Promise<string | void> {
    switch (command.type) {
      case 'copyDigest':
        await vscode.env.clipboard.writeText(command.digest);
        return 'Digest copied.';
      case 'togglePolicy': {
        const endpoint = this.current;
        if (!endpoint) throw new Error('the endpoint is not running');
        const path = localConfigPath(endpoint.projectRoot);
        setPolicyEnabled(path, command.policy, command.enabled);
        // The switch was flipped in the panel, the editor's own UI: the person confirmed this change.
        this.loosening.confirmWritten(path);
        this.log.info(`policy ${command.policy} ${command.enabled ? 'enabled' : 'disabled'} in ${path}`);
        this.refresh();
        return `${command.policy} ${command.enabled ? 'on' : 'off'} (written to .agent-warden/config.local.json)`;
      }
      case 'notSecret': {
        const endpoint = this.current;
        if (!endpoint) throw new Error('the endpoint is not running');
        const result = endpoint.reveal.notSecret(command.recordId, command.source, command.spanIndex);
        this.loosening.confirmWritten(result.path);
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
        return;
      case 'connect':
        await vscode.commands.executeCommand('agentWarden.connectClaude');
        return;
      case 'revokeLicence':
        return this.revokeLicence(command.licenceId);
    }
  }

  private revokeLicence(licenceId: string): string {
    const endpoint = this.current;
    if (!endpoint) throw new Error('the endpoint is not running');
    const revoked = endpoint.broker.ledger.revokeLicence(licenceId);
    this.log.info(`session licence ${licenceId} ${revoked ? 'revoked' : 'was already gone'}`);
    this.refresh();
    return revoked ? 'Licence revoked: the same call will be asked again.' : 'That licence was already gone.';
  }

  private async rescreen(
    approvalId: string,
    editedInput: Record<string, unknown>,
  ): Promise<RequestResult<'rescreenEdit'>> {
    const endpoint = this.current;
    if (!endpoint) throw new Error('the endpoint is not running');
    return endpoint.broker.rescreen(approvalId, editedInput);
  }
}
