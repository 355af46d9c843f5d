import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// Connect's care for the token. The files Connect and the panel write hold this user's hook token and local
// choices: a project's .gitignore should keep them out of `git add -A`.

export const LOCAL_FILES = ['.claude/settings.local.json', '.agent-warden/config.local.json'] as const;

/** The local files a project's .gitignore does not list yet (by exact line); none when it is not a git project. */
export function missingIgnores(projectRoot: string): string[] {
  if (!existsSync(join(projectRoot, '.git'))) return [];
  const path = join(projectRoot, '.gitignore');
  const lines = existsSync(path)
    ? readFileSync(path, 'utf8')
        .split(/\r?\n/)
        .map((l) => l.trim().replace(/^\//, ''))
    : [];
  return LOCAL_FILES.filter((file) => !lines.includes(file));
}

/** Appends the missing lines, keeping the file's own content and line endings. */
export function addIgnores(projectRoot: string, files: string[]): void {
  if (files.length === 0) return;
  const path = join(projectRoot, '.gitignore');
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const head = text === '' || text.endsWith('\n') ? text : text + eol;
  writeFileSync(path, `${head}# Agent Warden: this user's hook token and local settings${eol}${files.join(eol)}${eol}`);
}

/** The Connect preview never shows the bearer token: anyone looking over a shoulder sees only that one is there. */
export function maskToken(text: string | null, token: string): string {
  if (text === null) return '';
  return token.length >= 8 ? text.split(token).join('•••••• (the hook token, hidden)') : text;
}
