import { z } from 'zod';
import { definePolicy } from '../types';
import { argsOf, evidenceOf, shellCommands } from '../../facts/commands';
import type { PathFact } from '../../facts/types';
import { isInside } from '../../shell/paths';

// The editor is part of the agent's configuration: an extension installed, or a
// workspace or user setting that runs code (tasks, launch configs, terminal and
// tool paths), runs with the person's rights inside the editor that hosts Warden.
// A person answers for these.

const EDITORS = new Set(['code', 'code-insiders', 'code-server', 'codium', 'cursor', 'windsurf']);
const INSTALL_FLAGS = /^--(install-extension|uninstall-extension|enable-proposed-api)(=|$)/;

/** Files (relative to the project or the home folder) whose settings can run code in the editor. */
const EDITOR_FILES = ['.vscode/settings.json', '.vscode/tasks.json', '.vscode/launch.json', '.vscode/extensions.json'];
const USER_DIRS = [
  '.config/Code/User',
  '.config/Code - Insiders/User',
  '.config/VSCodium/User',
  '.config/Cursor/User',
  '.local/share/code-server/User',
  'Library/Application Support/Code/User',
  '.vscode/extensions',
  '.vscode-server/extensions',
  '.vscode-server/data/Machine',
  '.cursor/extensions',
];

function editorFile(fact: PathFact, projectRoot: string, home: string): string | null {
  for (const base of [projectRoot, home])
    for (const rel of EDITOR_FILES) if (fact.absolute === `${base}/${rel}`) return rel;
  for (const rel of USER_DIRS) if (isInside(fact.absolute, `${home}/${rel}`)) return `~/${rel}`;
  return null;
}

export const editorCodeConfig = definePolicy({
  name: 'editor-code-config',
  category: 'agent-integrity',
  description:
    'Asks before installing or removing editor extensions (code --install-extension …) and before writing editor settings that can run code (.vscode/settings.json, tasks.json, launch.json, the user settings and extensions folders).',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    if (!call) return null;
    for (const cmd of shellCommands(call)) {
      if (!EDITORS.has(cmd.name.toLowerCase())) continue;
      const flag = argsOf(cmd).find((a) => INSTALL_FLAGS.test(a));
      if (flag)
        return {
          reason: `Changes the editor's extensions (${cmd.name} ${flag.split('=')[0]}): an extension runs code inside the editor that hosts Warden; a person decides.`,
          evidence: evidenceOf(cmd.text),
        };
    }
    for (const fact of [...call.facts.writes, ...call.facts.deletes]) {
      const which = editorFile(fact, call.projectRoot, call.home);
      if (which)
        return {
          reason: `Writes ${fact.raw} (${which}): editor settings, tasks and extensions can run code with the person's rights; a person decides.`,
          evidence: evidenceOf(call.command ?? fact.raw),
        };
    }
    return null;
  },
});
