import * as vscode from 'vscode';
import { Disposable } from './disposable';
import { statusText, statusTooltip, type GuardStatus } from './statusWords';

// One status bar item: is this workspace guarded, by which agents, and how many asks, calls and denies
// (its words in statusWords.ts).

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
    this.item.tooltip = statusTooltip(s);
    this.item.backgroundColor =
      s.pending > 0
        ? new vscode.ThemeColor('statusBarItem.warningBackground')
        : !s.guarded
          ? new vscode.ThemeColor('statusBarItem.errorBackground')
          : undefined;
  }
}
