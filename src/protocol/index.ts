// The protocol shared by the panel UI and its hosts: types and pure helpers
// only (no zod, no Node, no vscode), so the webview may import it.
export * from './records';
export * from './rows';
export * from './messages';
export * from './text';
export * from './summary';
