import * as vscode from 'vscode';
import { Disposable } from './disposable';

// One status bar item: is this workspace guarded, and how many asks, calls and denies.

export interface GuardStatus {
  guarded: boolean;
  detail: string;
  pending: number;
  calls: number;
  denies: number;
  paused: boolean;
}

export function statusText(s: GuardStatus): string {
  const icon = !s.guarded ? '$(shield)' : s.paused ? '$(debug-pause)' : '$(shield)';
  const head = s.guarded ? (s.paused ? 'Warden paused' : 'Warden') : 'Warden off';
  const pending = s.pending > 0 ? ` $(bell-dot) ${s.pending}` : '';
  return `${icon} ${head}${pending} · ${s.calls} calls · ${s.denies} denied`;
}

export class StatusBar extends Disposable {
  private readonly item: vscode.StatusBarItem;

  constructor(showCommand: string) {
    super();
    this.item = this._register(
      vscode.window.createStatusBarItem('agentWarden.status', vscode.StatusBarAlignment.Left, 50),
    );
    this.item.name = 'Agent Warden';
    this.item.command = showCommand;
    this.item.show();
  }

  update(s: GuardStatus): void {
    this.item.text = statusText(s);
    this.item.tooltip = `${s.guarded ? 'Guarded' : 'Not guarded'}: ${s.detail}\n${s.pending} pending ask(s), ${s.calls} call(s), ${s.denies} denied. Click to open the panel.`;
    this.item.backgroundColor =
      s.pending > 0
        ? new vscode.ThemeColor('statusBarItem.warningBackground')
        : !s.guarded
          ? new vscode.ThemeColor('statusBarItem.errorBackground')
          : undefined;
  }
}
