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
