import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import * as vscode from 'vscode';

// Commands only the tests register: the code-server suite reads the extension host's memory after
// sending calls to the endpoint (the bench's heap-growth figure). Registered only when the test
// runner puts AGENT_WARDEN_TEST_PROBES=1 in the host's environment, so a person's editor never has them.

export const TEST_PROBES_ENV = 'AGENT_WARDEN_TEST_PROBES';
export const MEMORY_USAGE_COMMAND = 'agentWarden.test.memoryUsage';

/** A full collection first, so heap figures compare live objects rather than garbage not yet collected. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (() => void) | undefined;
  gc?.();
}

export function registerTestProbes(env: NodeJS.ProcessEnv = process.env): vscode.Disposable[] {
  if (env[TEST_PROBES_ENV] !== '1') return [];
  return [
    vscode.commands.registerCommand(MEMORY_USAGE_COMMAND, (opts?: { collect?: boolean }) => {
      if (opts?.collect) collectGarbage();
      return process.memoryUsage();
    }),
  ];
}
