import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { CommandAgent } from './commandAgents';

// Which command-hook agents a person uses here: a CLI on PATH, or the agent's
// folder in the workspace. The Connect command offers exactly these.

const BINARIES: Record<CommandAgent, string[]> = {
  codex: ['codex'],
  gemini: ['gemini'],
  cursor: ['cursor-agent', 'cursor'],
  copilot: ['copilot'],
};

const WORKSPACE_MARKERS: Record<CommandAgent, string[]> = {
  codex: ['.codex'],
  gemini: ['.gemini'],
  cursor: ['.cursor'],
  copilot: [join('.github', 'hooks'), join('.github', 'copilot-instructions.md')],
};

/** The first executable `name` in the folders of `pathVar`, as the shell would find it. */
export function findOnPath(name: string, pathVar: string): string | undefined {
  for (const dir of pathVar.split(delimiter).filter(Boolean)) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

function onPath(name: string, pathVar: string): boolean {
  return findOnPath(name, pathVar) !== undefined;
}

export interface FoundAgent {
  agent: CommandAgent;
  /** Why it is offered: "on PATH" or the workspace folder that names it. */
  why: string;
}

export function detectCommandAgents(projectRoot: string, pathVar = process.env.PATH ?? ''): FoundAgent[] {
  const found: FoundAgent[] = [];
  for (const agent of Object.keys(BINARIES) as CommandAgent[]) {
    const binary = BINARIES[agent].find((b) => onPath(b, pathVar));
    if (binary) {
      found.push({ agent, why: `\`${binary}\` on PATH` });
      continue;
    }
    const marker = WORKSPACE_MARKERS[agent].find((m) => existsSync(join(projectRoot, m)));
    if (marker) found.push({ agent, why: `${marker} in the workspace` });
  }
  return found;
}
