import { writtenTexts } from '../../../facts/compute';
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
  const current = currentText(call, file);
  if (current === null || !current.includes(before)) return null;
  return call.input.replace_all === true ? current.split(before).join(after) : current.replace(before, () => after);
}

/** The file as it is now, or null when it is missing, unreadable or too large. */
export function currentText(call: ToolCall, file: string): string | null {
  return call.io.readText(file, MAX_EDITED_BYTES);
}

/** The texts an edit tool replaces, old and new: Edit's pair (or its `old_str` form), or each of MultiEdit's. */
export function replacedTexts(input: Record<string, unknown>): [before: string, after: string][] {
  const edits = Array.isArray(input['edits']) ? (input['edits'] as unknown[]) : [input];
  return edits.flatMap((edit) => {
    const e = (edit ?? {}) as Record<string, unknown>;
    const before = e['old_string'] ?? e['old_str'];
    const after = e['new_string'] ?? e['new_str'];
    return typeof before === 'string' && typeof after === 'string' ? [[before, after] as [string, string]] : [];
  });
}

/**
 * Each text a call puts into a file (writtenTexts), with the text an edit replaced there, empty for
 * any other call: what the call adds is what `content` holds and `replaced` did not.
 */
export function writtenOverReplaced(call: ToolCall): { file: string; content: string; replaced: string }[] {
  const replaced = call.face.family === 'edit' ? replacedBefore(call.input) : '';
  return writtenTexts(call).map(({ file, content }) => ({ file, content, replaced }));
}

/** What the file held before the call where the call touches it: an edit's old texts, or the whole file a write replaces. */
export function textBefore(call: ToolCall, file: string): string {
  return call.face.family === 'edit' ? replacedBefore(call.input) : (currentText(call, file) ?? '');
}

/** Each file the call writes, with the lines it adds there (an edit's lines it did not already have). */
export function linesAdded(call: ToolCall): { file: string; lines: string[] }[] {
  return writtenOverReplaced(call).map(({ file, content, replaced }) => {
    const had = new Set(replaced.split('\n'));
    return { file, lines: content.split('\n').filter((line) => !had.has(line)) };
  });
}

/** What an edit tool replaces, its old texts joined (empty for any other call): what the file already had. */
export function replacedBefore(input: Record<string, unknown>): string {
  return replacedTexts(input)
    .map(([before]) => before)
    .join('\n');
}

/**
 * Where `after` holds one stretch inserted into `before`, which it keeps whole around it (characters of a
 * text, or lines): `after[start, end)`. Undefined when the change also removes or alters anything.
 */
export function insertedSpan<T>(before: ArrayLike<T>, after: ArrayLike<T>): { start: number; end: number } | undefined {
  if (after.length <= before.length) return undefined;
  let head = 0;
  while (head < before.length && before[head] === after[head]) head++;
  let tail = 0;
  while (tail < before.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail++;
  if (head + tail !== before.length) return undefined;
  return { start: head, end: after.length - tail };
}

/** The one stretch of text an edit inserts with the old text kept whole around it; undefined when it also removes. */
export function insertionOf(before: string, after: string): { at: number; text: string } | undefined {
  const span = insertedSpan(before, after);
  return span && { at: span.start, text: after.slice(span.start, span.end) };
}
