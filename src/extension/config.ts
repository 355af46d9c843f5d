import * as vscode from 'vscode';

// The extension's own settings (agentWarden.*), with typed getters. Policies
// stay in the Warden config files; these cover only the extension's behaviour.

export type ConnectScope = 'local' | 'project' | 'user';

export class Config {
  static readonly section = 'agentWarden';

  private get raw(): vscode.WorkspaceConfiguration {
    return vscode.workspace.getConfiguration(Config.section);
  }

  /** 0: a stable port derived from the workspace path. */
  get port(): number {
    const value = this.raw.get<number>('port', 0);
    return Number.isInteger(value) && value >= 0 && value <= 65535 ? value : 0;
  }

  get notifyOnAsk(): boolean {
    return this.raw.get<boolean>('notifications.onAsk', true);
  }

  get panelMaxRows(): number {
    const value = this.raw.get<number>('panel.maxRows', 10_000);
    return Number.isInteger(value) && value >= 100 ? Math.min(value, 100_000) : 10_000;
  }

  get connectScope(): ConnectScope {
    const value = this.raw.get<string>('connect.scope', 'local');
    return value === 'project' || value === 'user' ? value : 'local';
  }

  /** Remove the hook entries when the extension stops (disable, uninstall, window close) and put them back on start. */
  get manageHookLifetime(): boolean {
    return this.raw.get<boolean>('hooks.followEndpoint', true);
  }

  get pauseMinutes(): number {
    const value = this.raw.get<number>('pause.defaultMinutes', 15);
    return Number.isFinite(value) && value > 0 ? value : 15;
  }

  affects(event: vscode.ConfigurationChangeEvent, key: string): boolean {
    return event.affectsConfiguration(`${Config.section}.${key}`);
  }
}
