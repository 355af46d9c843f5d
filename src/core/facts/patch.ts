// apply_patch envelopes carry their target files inside the patch text.

/** Files an apply_patch envelope touches: `*** Add File: p`, `*** Update File: p`, `*** Delete File: p`, `*** Move to: p`. */
export function patchPaths(text: string): { path: string; access: 'write' | 'delete' }[] {
  const found: { path: string; access: 'write' | 'delete' }[] = [];
  for (const match of text.matchAll(/^\*\*\* (Add File|Update File|Delete File|Move to): (.+)$/gm)) {
    const path = (match[2] ?? '').trim();
    if (path) found.push({ path, access: match[1] === 'Delete File' ? 'delete' : 'write' });
  }
  return found;
}

export interface PatchedText {
  path: string;
  /** An added file's whole text; for an update, the hunks' context and added lines (what that part of the file becomes). */
  text: string;
  added: boolean;
}

/** Whether text is an apply_patch envelope. */
export function isPatchEnvelope(text: string): boolean {
  return text.trimStart().startsWith('*** Begin Patch');
}

/** The text each added or updated file of an apply_patch envelope gets; deleted files carry none. */
export function patchedTexts(text: string): PatchedText[] {
  const found: PatchedText[] = [];
  let current: { path: string; added: boolean; lines: string[] } | undefined;
  const close = () => {
    if (current) found.push({ path: current.path, text: current.lines.join('\n'), added: current.added });
    current = undefined;
  };
  for (const line of text.split('\n')) {
    const header = /^\*\*\* (Add File|Update File|Delete File|Move to|End Patch)(?:: (.+))?$/.exec(line);
    if (header) {
      if (header[1] === 'Move to' && current) current.path = (header[2] ?? '').trim();
      else close();
      if (header[1] === 'Add File' || header[1] === 'Update File')
        current = { path: (header[2] ?? '').trim(), added: header[1] === 'Add File', lines: [] };
      continue;
    }
    if (!current || line.startsWith('@@') || line.startsWith('*** ')) continue;
    if (line.startsWith('+')) current.lines.push(line.slice(1));
    else if (!current.added && line.startsWith(' ')) current.lines.push(line.slice(1));
  }
  close();
  return found.filter((file) => file.path !== '');
}

export interface DiffFile {
  /** The path as the diff names it (`b/src/x.ts`), before any leading parts are stripped. */
  path: string;
  access: 'write' | 'delete';
  /** The hunks' context and added lines: what that part of the file becomes. */
  text: string;
}

/** Text after a `--- ` or `+++ ` header's marker, up to the tab some tools put before a timestamp. */
function headerPath(line: string): string {
  const rest = line.slice(4);
  const tab = rest.indexOf('\t');
  return (tab === -1 ? rest : rest.slice(0, tab)).trim();
}

/**
 * The files a unified diff (git's or diff -u's) changes. A `--- ` line counts as a header only when a
 * `+++ ` line follows it, so a removed line that itself starts with `-- ` stays a removed line.
 */
export function unifiedDiffFiles(text: string): DiffFile[] {
  const lines = text.split('\n');
  const found: DiffFile[] = [];
  let current: { file: DiffFile; lines: string[] } | undefined;
  const close = () => {
    if (current) found.push({ ...current.file, text: current.lines.join('\n') });
    current = undefined;
  };
  for (let at = 0; at < lines.length; at++) {
    const line = lines[at]!;
    const next = lines[at + 1];
    if (line.startsWith('--- ') && next?.startsWith('+++ ')) {
      close();
      const from = headerPath(line);
      const to = headerPath(next);
      current =
        to === '/dev/null'
          ? { file: { path: from, access: 'delete', text: '' }, lines: [] }
          : { file: { path: to, access: 'write', text: '' }, lines: [] };
      at++;
      continue;
    }
    if (!current || line.startsWith('@@') || line.startsWith('diff --git ')) continue;
    if (line.startsWith('+') || line.startsWith(' ')) current.lines.push(line.slice(1));
  }
  close();
  return found.filter((file) => file.path !== '' && file.path !== '/dev/null');
}
