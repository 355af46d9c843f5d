// The shell command analyzer: what every deterministic policy uses to read a shell tool call.
export { initShellParser } from './parser';
export { analyzeShell } from './analyze';
export type { ForLoop, RunTimeOrigin, ShellAnalysis, SimpleCommand, Via } from './types';
