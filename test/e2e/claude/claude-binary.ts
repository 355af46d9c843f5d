// Where the pinned Claude Code CLIs live: the tools folder that .ci/install-tools.sh fills.
import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';
import { toolsFolder } from '../../builders/process';

export const claudeVersions = ['2.1.197', '2.1.332'] as const;
export type ClaudeVersion = (typeof claudeVersions)[number];

/** The CLI's path; throws (never skips) when the tools were not installed. */
export function claudeBinary(version: ClaudeVersion): string {
  const binary = join(toolsFolder(), `claude-${version}`, 'node_modules', '.bin', 'claude');
  try {
    accessSync(binary, constants.X_OK);
  } catch {
    throw new Error(
      `Claude Code ${version} is not installed at ${binary}. Run .ci/install-tools.sh ` +
        '(set AGENT_WARDEN_TOOLS to use another tools folder) before the end-to-end tests.',
    );
  }
  return binary;
}
