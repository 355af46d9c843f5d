import { z } from 'zod';
import { definePolicy } from '../types';
import { argsOf, evidenceOf, shellCommands } from '../../facts/commands';
import { writtenTexts } from '../../facts/compute';
import type { PathFact } from '../../facts/types';
import type { ToolCall } from '../types';
import { isInside, withForwardSlashes } from '../../shell/paths';
import { afterEdit } from './shared/edited-file';
import { personStartedTasksOnly } from './shared/project-tasks';

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

/**
 * Workspace settings that only change how the editor shows and formats text: none of them names a
 * program, a path or a command. Anything else in a settings file (a tool's path, a terminal profile,
 * an interpreter, a task) can run code, and a settings file whose whole text is not known could hold it.
 */
const DISPLAY_SETTING =
  /^(editor|files|search|workbench|explorer|diffEditor|breadcrumbs|outline|problems|zenMode|scm)\.[\w.]+$/;
/** Words of a setting that names something to run, even within those families (workbench.externalBrowser). */
const NAMES_A_PROGRAM = /path|executable|command|browser|shell|args|env|program|script|tool|launch|task/i;
const LANGUAGE_BLOCK = /^\[[\w.-]+\]$/;
const WORKSPACE_SETTINGS = '.vscode/settings.json';

function onlyDisplaySettings(text: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return false;
  }
  const displayOnly = (value: unknown, nested: boolean): boolean =>
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.entries(value).every(([key, inner]) =>
      !nested && LANGUAGE_BLOCK.test(key)
        ? displayOnly(inner, true)
        : DISPLAY_SETTING.test(key) && !NAMES_A_PROGRAM.test(key),
    );
  return displayOnly(parsed, false);
}

/**
 * A workspace settings file a file tool leaves with display settings only: a Write's whole text, or
 * the file as an edit leaves it (an edit alone shows only a fragment).
 */
function displayOnlyWorkspaceSettings(call: ToolCall, fact: PathFact): boolean {
  if (call.command !== undefined) return false;
  if (withForwardSlashes(fact.absolute) !== `${withForwardSlashes(call.projectRoot)}/${WORKSPACE_SETTINGS}`)
    return false;
  if (call.face.family === 'edit') {
    const edited = afterEdit(call, fact.absolute);
    return edited !== null && onlyDisplaySettings(edited);
  }
  if (call.face.family !== 'write') return false;
  const written = writtenTexts(call).find((w) => w.file === withForwardSlashes(fact.absolute));
  return written !== undefined && onlyDisplaySettings(written.content);
}

function editorFile(fact: PathFact, projectRoot: string, home: string): string | null {
  // A Windows path (`C:\\repo\\.vscode\\settings.json`) is compared by its forward-slash spelling.
  const file = withForwardSlashes(fact.absolute);
  for (const base of [projectRoot, home])
    for (const rel of EDITOR_FILES) if (file === `${withForwardSlashes(base)}/${rel}`) return rel;
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
      if (which && !displayOnlyWorkspaceSettings(call, fact) && !personStartedTasksOnly(call, fact.absolute))
        return {
          reason: `Writes ${fact.raw} (${which}): editor settings, tasks and extensions can run code with the person's rights; a person decides.`,
          evidence: evidenceOf(call.command ?? fact.raw),
        };
    }
    return null;
  },
});
