import * as vscode from 'vscode';

/** The extension's log: an output channel with levels (the Output view's "Agent Warden"). */
export function createOutput(): vscode.LogOutputChannel {
  return vscode.window.createOutputChannel('Agent Warden', { log: true });
}
