import { isInside } from '../../../shell/paths';
import { trimEndChars } from '../../../text/scan';
import { isGlobWord, segmentMatcher, segmentsOf } from '../../../facts/globs';

// Files that configure a coding agent's hooks, permissions or tool servers.
// An agent that rewrites them can switch its own guard off.

/** Relative to the project root or the home folder; a trailing slash covers the folder. */
const AGENT_CONFIG: [string, string][] = [
  ['.claude/settings.json', 'Claude Code settings'],
  ['.claude/settings.local.json', 'Claude Code settings'],
  ['.claude/hooks/', 'Claude Code hooks'],
  ['.claude.json', 'Claude Code settings'],
  ['.mcp.json', 'MCP server config'],
  ['.codex/hooks.json', 'Codex hooks'],
  ['.codex/config.toml', 'Codex config'],
  ['.gemini/settings.json', 'Gemini CLI settings'],
  ['.cursor/hooks.json', 'Cursor hooks'],
  ['.cursor/hooks/', 'Cursor hooks'],
  ['.cursor/mcp.json', 'Cursor MCP config'],
  ['.cursor/cli.json', 'Cursor permissions'],
  ['.cursor/cli-config.json', 'Cursor permissions'],
  ['.github/hooks/', 'Copilot CLI hooks'],
  ['.copilot/hooks/', 'Copilot CLI hooks'],
  ['.copilot/config.json', 'Copilot CLI config'],
  ['.copilot/mcp-config.json', 'Copilot CLI MCP config'],
  ['.vscode/mcp.json', 'VS Code MCP config'],
  ['.aider.conf.yml', 'Aider settings'],
];

function relativeUnder(abs: string, base: string): string | null {
  if (!isInside(abs, base)) return null;
  const a = abs.replace(/\\/g, '/');
  const b = trimEndChars(base.replace(/\\/g, '/'), '/');
  const rel = a.length === b.length ? '' : a.slice(b.length + 1);
  // Windows paths compare without case, like the file system does.
  return /^[a-z]:\//i.test(a) ? rel.toLowerCase() : rel;
}

function matchAgentConfig(rel: string): string | null {
  for (const [entry, kind] of AGENT_CONFIG) {
    if (entry.endsWith('/') ? rel === entry.slice(0, -1) || rel.startsWith(entry) : rel === entry) return kind;
  }
  return isGlobWord(rel) ? globAgentConfig(rel) : null;
}

/** A glob segment matches a literal one as the shell does: a leading dot only by a leading dot. */
function segmentCouldMatch(glob: string, literal: string): boolean {
  if (literal.startsWith('.') && !glob.startsWith('.')) return false;
  return glob === '**' || segmentMatcher(glob)(literal);
}

/** `sed -i … .claude/*.json`, `.cursor/**`: the agent configuration a glob could name. */
function globAgentConfig(rel: string): string | null {
  const glob = segmentsOf(rel);
  const deep = glob.indexOf('**');
  for (const [entry, kind] of AGENT_CONFIG) {
    const literal = segmentsOf(entry);
    if (deep !== -1) {
      // `**` matches whatever follows: the segments before it must fit the entry's first ones.
      const head = glob.slice(0, deep);
      if (head.length <= literal.length && head.every((s, i) => segmentCouldMatch(s, literal[i] ?? ''))) return kind;
      continue;
    }
    // A folder entry also covers every path under it.
    if (entry.endsWith('/') ? glob.length < literal.length : glob.length !== literal.length) continue;
    if (literal.every((l, i) => segmentCouldMatch(glob[i] ?? '', l))) return kind;
  }
  return null;
}

/** What agent configuration an absolute path is (in the project or the home folder), or null. */
export function agentConfigKind(abs: string, projectRoot: string, home: string): string | null {
  for (const base of [projectRoot, home]) {
    const rel = relativeUnder(abs, base);
    if (rel === null || rel === '') continue;
    const kind = matchAgentConfig(rel);
    if (kind) return kind;
  }
  return null;
}

/** Warden's own configuration in a project. */
export function isWardenProjectConfig(abs: string, projectRoot: string): boolean {
  const rel = relativeUnder(abs, projectRoot);
  return rel !== null && (rel === '.agent-warden' || rel.startsWith('.agent-warden/'));
}
