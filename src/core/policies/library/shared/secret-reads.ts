import { resolvePath } from '../../../shell/paths';
import type { ToolCall } from '../../types';
import { globNamesSecrets, secretFileKind } from './sensitive-paths';
import { readTargets } from './targets';

export interface SecretRead {
  /** The path as written, or the pattern that names the files. */
  path: string;
  kind: string;
  /** The tool parameter or shell command that reads it. */
  source: string;
}

/** Glob and Grep parameters that select files by pattern. */
const PATTERN_PARAMS = ['glob', 'include', 'file_pattern'];

/** Every credential file the call would read (through a file tool or a shell command). */
export function secretReads(call: ToolCall | undefined): SecretRead[] {
  if (!call) return [];
  const found: SecretRead[] = [];
  for (const target of readTargets(call)) {
    const kind = secretFileKind(target.absolute, call.home);
    if (kind) found.push({ path: target.raw, kind, source: target.source });
  }
  if (call.face.family === 'search') {
    for (const param of PATTERN_PARAMS) {
      const pattern = call.input[param];
      if (typeof pattern !== 'string') continue;
      const kind = globNamesSecrets(pattern);
      // A file-name search (Glob) only lists names; a content search (Grep) reads them.
      if (kind) found.push({ path: pattern, kind, source: param });
    }
    const pattern = call.input.pattern;
    if (typeof pattern === 'string' && /^(~|\/|\$HOME|[A-Za-z]:[\\/])/.test(pattern)) {
      const staticDir = pattern.split(/[*?[{]/)[0] ?? '';
      const kind = staticDir ? secretFileKind(resolvePath(staticDir, call.cwd, call.home), call.home) : null;
      if (kind) found.push({ path: pattern, kind, source: 'pattern' });
    }
  }
  return found;
}
