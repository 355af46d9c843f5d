// User-written patterns: a plain prefix ("kubectl get") or a glob ("kubectl * get *", "release*").

function globToRegExp(glob: string): RegExp {
  let source = '';
  for (const ch of glob) {
    if (ch === '*') source += '.*';
    else if (ch === '?') source += '.';
    else source += ch.replace(/[\\^$.|+()[\]{}]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 's');
}

/** A glob matches the whole text; a plain pattern matches as a prefix ending at a word boundary. */
export function matchesPattern(text: string, pattern: string): boolean {
  const trimmed = pattern.trim();
  if (trimmed === '') return false;
  if (/[*?]/.test(trimmed)) return globToRegExp(trimmed).test(text);
  return text === trimmed || text.startsWith(`${trimmed} `);
}

export function matchesAny(text: string, patterns: readonly string[]): boolean {
  return patterns.some((p) => matchesPattern(text, p));
}

/** Branch names: a glob matches the whole name, otherwise the names must be equal. */
export function branchMatches(branch: string, patterns: readonly string[]): string | undefined {
  return patterns.find((p) => (/[*?]/.test(p) ? globToRegExp(p).test(branch) : p === branch));
}
