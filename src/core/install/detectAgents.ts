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

function onPath(name: string, pathVar: string): boolean {
  for (const dir of pathVar.split(delimiter).filter(Boolean)) {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return true;
    } catch {
      // not in this folder
    }
  }
  return false;
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
