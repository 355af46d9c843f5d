import { resolvePath } from '../../../shell/paths';
import type { ToolCall } from '../../types';
import { globNamesSecrets, secretFileKind } from '../../../facts/sensitive-paths';
import { secretKindOf } from '../../../facts/sensitive';
import { readTargets } from '../../../facts/targets';
import { argsOf, commandsWithCwd, shellPath } from '../../../facts/commands';

export interface SecretRead {
  /** The path as written, or the pattern that names the files. */
  path: string;
  kind: string;
  /** The tool parameter or shell command that reads it. */
  source: string;
}

const FIND_READERS =
  /^(cat|head|tail|less|more|strings|base64|xxd|od|hexdump|grep|egrep|rg|cp|scp|tar|zip|gpg|openssl|curl)$/;

function readTargetsOfName(name: string): boolean {
  return FIND_READERS.test(name);
}

/** Glob and Grep parameters that select files by pattern. */
const PATTERN_PARAMS = ['glob', 'include', 'file_pattern'];

/** Every credential file the call would read (through a file tool or a shell command). */
export function secretReads(call: ToolCall | undefined): SecretRead[] {
  if (!call) return [];
  const found: SecretRead[] = [];
  for (const target of readTargets(call)) {
    // As the system resolves it: any account's home, a glob that could match, a symlink's real path.
    const kind = secretKindOf(target, call.home);
    if (kind) found.push({ path: target.raw, kind, source: target.source });
  }
  // `find ~ -name "*.key" -exec cat {} +`: what the reader gets is chosen by find.
  const placed = commandsWithCwd(call);
  for (const { cmd } of placed) {
    if (!cmd.via.includes('find-exec') || cmd.parent === undefined) continue;
    const find = placed[cmd.parent];
    if (!find || !readTargetsOfName(cmd.name)) continue;
    const args = argsOf(find.cmd);
    for (let i = 0; i < args.length; i++) {
      const word = args[i] ?? '';
      if (/^-i?(name|path|wholename)$/.test(word)) {
        const kind = globNamesSecrets(args[i + 1] ?? '');
        if (kind) found.push({ path: args[i + 1] ?? '', kind, source: `find -exec ${cmd.name}` });
      } else if (!word.startsWith('-') && i < args.findIndex((a) => a.startsWith('-'))) {
        const kind = secretFileKind(shellPath(word, find.cmd, find.cwd, call).absolute, call.home);
        if (kind) found.push({ path: word, kind, source: `find -exec ${cmd.name}` });
      }
    }
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
