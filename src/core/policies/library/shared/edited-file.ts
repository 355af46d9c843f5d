import type { ToolCall } from '../../types';

const MAX_EDITED_BYTES = 256 * 1024;

/**
 * The whole file an edit tool leaves behind: the file as it is now, with the edit applied; null when
 * that is unknown (not an edit, the file unreadable or too large, or the old text not in it).
 */
export function afterEdit(call: ToolCall, file: string): string | null {
  const before = call.input.old_string ?? call.input.old_str;
  const after = call.input.new_string ?? call.input.new_str;
  if (typeof before !== 'string' || typeof after !== 'string' || before === '') return null;
  const current = call.io.readText(file, MAX_EDITED_BYTES);
  if (current === null || !current.includes(before)) return null;
  return call.input.replace_all === true ? current.split(before).join(after) : current.replace(before, () => after);
}
