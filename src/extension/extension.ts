import * as vscode from 'vscode';
import { registerCommands } from './commands';
import { WardenController } from './controller';
import { createOutput } from './output';
import { offerToConnect } from './firstRun';
import { registerTestProbes } from './testProbes';

// Activation: one controller for this window, living as long as the extension.
// Deactivation disposes it: the endpoint stops, its record goes, and (with
// agentWarden.hooks.followEndpoint) its hook entries are removed.

/** What the extension exports, for the extension-host tests and other extensions. */
export interface WardenApi {
  endpointUrl(): string | undefined;
  hookToken(): string | undefined;
  workspaceRoot(): string | undefined;
  panelConnections(): number;
  /** Panels attached to the broker after their ready handshake (asks are held only while one is). */
  attachedPanels(): number;
  ready: Promise<void>;
}

let controller: WardenController | undefined;

export function activate(context: vscode.ExtensionContext): WardenApi {
  const log = createOutput();
  context.subscriptions.push(log);
  const w = new WardenController(context, log);
  controller = w;
  context.subscriptions.push(w, ...registerCommands(w), ...registerTestProbes());
  const ready = w.start();
  // Not awaited: the offer waits for the person, `ready` must not.
  void ready.then(() => offerToConnect(w));
  return {
    endpointUrl: () => w.endpoint?.url,
    hookToken: () => w.endpoint?.hookToken,
    workspaceRoot: () => w.workspaceRoot,
    panelConnections: () => w.panel.connectionCount,
    attachedPanels: () => (w.endpoint ? w.panel.attachedCount : 0),
    ready,
  };
}

export function deactivate(): void {
  controller?.dispose();
  controller = undefined;
}
