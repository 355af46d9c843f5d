import { vscodeTasks } from '../../../facts/vscode-tasks';
import { writtenTexts } from '../../../facts/compute';
import type { ToolCall } from '../../types';
import { afterEdit } from './edited-file';

/**
 * The project's .vscode/tasks.json as a file tool leaves it (a Write's whole text, or the file with an
 * Edit applied) holds tasks the person starts, and nothing runs by itself: no task runs when the folder
 * opens, no task sets its own shell or environment, and each says what it runs. Its command lines are
 * judged by every policy as written runs (facts/written-runs); a file known only in part is not this.
 */
export function personStartedTasksOnly(call: ToolCall, file: string): boolean {
  if (call.command !== undefined || file !== `${call.projectRoot}/.vscode/tasks.json`) return false;
  const text =
    call.face.family === 'edit'
      ? afterEdit(call, file)
      : call.face.family === 'write'
        ? (writtenTexts(call).find((w) => w.file === file)?.content ?? null)
        : null;
  if (text === null) return false;
  const tasks = vscodeTasks(text);
  return tasks !== null && !tasks.runsOnOpen && !tasks.runsMore;
}
