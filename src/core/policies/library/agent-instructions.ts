import { z } from 'zod';
import type { SimpleCommand } from '../../shell';
import { isInside, withForwardSlashes } from '../../shell/paths';
import { definePolicy, type ToolCall } from '../types';
import { argsOf, evidenceOf, shellCommands } from '../../facts/commands';
import { writeTargets } from '../../facts/targets';
import { writtenTexts } from '../../facts/compute';
import { personStartedTasksOnly } from './shared/project-tasks';
import { STANDING_APPROVAL, subAgentBriefClaim } from './shared/sub-agent-briefs';
import { isAgentMemoryTool } from '../../config/tool-names';
import { isPlainInstruction } from './shared/plain-instructions';
import { replacedBefore } from './shared/edited-file';

// What an agent reads as instructions or runs on its own: slash commands, sub-agents, skills,
// memory files (CLAUDE.md, AGENTS.md), editor tasks that run when a folder opens, direnv's
// .envrc. The settings files themselves are agent-config-tampering's; these do not switch a
// guard off, but they tell the next session (or the editor) what to do without the person.

// The prose ones: instructions the agent reads, as against tasks and .envrc, which the editor and the shell run.
const INSTRUCTION_PATHS: readonly [RegExp, string, 'prose'?][] = [
  [/(^|\/)\.claude\/(commands|agents|skills|output-styles)\//, 'Claude Code commands, agents or skills', 'prose'],
  [/(^|\/)(CLAUDE|CLAUDE\.local|AGENTS|GEMINI)\.md$/, 'agent memory and instructions', 'prose'],
  [/(^|\/)\.github\/(copilot-instructions\.md|instructions\/|prompts\/|agents\/)/, 'Copilot instructions', 'prose'],
  [/(^|\/)\.cursor\/rules\/|(^|\/)\.cursorrules$/, 'Cursor rules', 'prose'],
  [/(^|\/)\.clinerules(\/|$)/, 'Cline rules', 'prose'],
  [/(^|\/)\.windsurfrules$|(^|\/)\.windsurf\/rules\//, 'Windsurf rules', 'prose'],
  [/(^|\/)\.roorules(-[\w-]+)?$|(^|\/)\.roo\/rules(-[\w-]+)?\//, 'Roo Code rules', 'prose'],
  [/(^|\/)\.codex\/(prompts|agents)\//, 'Codex prompts', 'prose'],
  [/(^|\/)\.junie\/guidelines\.md$|(^|\/)\.aiassistant\/rules\//, 'JetBrains AI (Junie) guidelines', 'prose'],
  [/(^|\/)\.amazonq\/rules\//, 'Amazon Q rules', 'prose'],
  [/(^|\/)\.continue\/rules\//, 'Continue rules', 'prose'],
  [/(^|\/)\.gemini\/(commands|extensions)\//, 'Gemini CLI commands', 'prose'],
  [/(^|\/)\.vscode\/tasks\.json$/, 'VS Code tasks (they can run when the folder opens)'],
  [/(^|\/)\.envrc$/, "direnv's .envrc (it runs when a shell enters the folder)"],
];

// direnv's own setup words: load an env file, extend PATH, pick a layout, watch a file.
const DIRENV_SETUP =
  /^(dotenv|dotenv_if_exists|source_env|source_env_if_exists|source_up|source_up_if_exists|PATH_add|path_add|MANPATH_add|layout|use|watch_file|watch_dir|strict_env|unstrict_env|env_vars_required)\b/;
/** What would make an .envrc line run more than its own words say: a substitution, a second command, a redirect. */
const BEYOND_WORDS = /\$\(|[`;&|<>]/;
/** Names that speak of a guard, a sandbox or approvals: an export of one may switch it off. */
const GUARD_WORDS = /guard|warden|sandbox|approv|permission|bypass|yolo|hook|skip|disable/i;

/**
 * An .envrc of direnv's setup words and plain exports alone (`dotenv_if_exists .env.local`,
 * `PATH_add node_modules/.bin`, `export VIRTUAL_ENV="$PWD/.venv"`): it sets the folder's environment and
 * runs nothing of its own. The person still runs `direnv allow` on it (asked below).
 */
function isPlainEnvrc(content: string): boolean {
  return content.split('\n').every((raw) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return true;
    if (BEYOND_WORDS.test(line) || GUARD_WORDS.test(line)) return false;
    const words = line.split(/\s+/);
    // Files it loads stay in the project: relative paths that do not climb out.
    if (DIRENV_SETUP.test(line)) return words.slice(1).every((word) => !/^["']?([/~]|\$HOME|\$\{HOME)|\.\./.test(word));
    return /^export\s+[A-Za-z_]\w*=/.test(line);
  });
}

function instructionEntry(path: string): (typeof INSTRUCTION_PATHS)[number] | undefined {
  const normalized = path.replace(/\\/g, '/');
  return INSTRUCTION_PATHS.find(([pattern]) => pattern.test(normalized));
}

function instructionKind(path: string): string | undefined {
  return instructionEntry(path)?.[1];
}

/** A file read as text (a skill's folder may hold scripts too, which are not). */
function isProseFile(path: string): boolean {
  const normalized = path.replace(/\\/g, '/');
  return (
    /\.(md|mdc|markdown|txt)$/i.test(normalized) ||
    /(^|\/)\.(cursorrules|clinerules|windsurfrules|roorules[\w-]*)$/.test(normalized)
  );
}

// git checkout REF -- PATHS and git restore --source REF PATHS bring files from another ref.
function restoredFromRef(cmd: SimpleCommand): string[] {
  if (cmd.name !== 'git') return [];
  const args = argsOf(cmd);
  const sub = args.findIndex((a) => a === 'checkout' || a === 'restore');
  if (sub === -1) return [];
  const rest = args.slice(sub + 1);
  const dashes = rest.indexOf('--');
  if (args[sub] === 'checkout') return dashes > 0 ? rest.slice(dashes + 1) : [];
  // Only the paths are judged below, so the ref given to --source among the words does no harm.
  const hasSource = rest.some((a) => a === '-s' || a.startsWith('--source'));
  return hasSource ? rest.filter((a) => !a.startsWith('-')) : [];
}

const AGENT_FOLDERS = /(^|\/)\.(claude|codex|gemini|cursor|github|vscode)\/?$/;

// An agent's memory server keeps what later sessions read as fact. A note there that the person approved
// something for good, or waived being asked, is an approval nobody gave here: Warden's approvals are for one
// call, given by the person.
const MEMORY_TOOL = /^(create_entities|add_observations|(store|save|add|create|write)_memor(y|ies)|remember)$/i;

function writesMemory(toolName: string): boolean {
  if (isAgentMemoryTool(toolName)) return true;
  const [prefix, server, tool] = toolName.split('__');
  if (prefix !== 'mcp' || !tool) return false;
  return (
    MEMORY_TOOL.test(tool) ||
    (/memory/i.test(server ?? '') && /create|add|store|save|write|update|remember|set|upsert|insert/i.test(tool))
  );
}
// A note that the guard's refusals are mistakes, or how to get past them, is the same waiver in other words.
const GUARD_EVASION =
  /\b(guard|warden|hook|polic(y|ies))\b[^.\n]{0,60}\b(false positives?|(are|is) (wrong|mistaken|a mistake))|\b(retry|rerun|re-run|route|get|work) (it |them |blocked \w+ )?(around|through|past)\b[^.\n]{0,40}\b(guard|warden|hook|block|den(y|ied|ial))|\b(retry|rerun|re-run)\b[^.\n]{0,30}\bblocked\b/i;

/** The text of a memory write that claims the person approved something for good, if any. */
function standingApprovalNote(call: ToolCall): string | undefined {
  if (!writesMemory(call.toolName)) return undefined;
  const text = JSON.stringify(call.input);
  return STANDING_APPROVAL.exec(text)?.[0] ?? GUARD_EVASION.exec(text)?.[0];
}

export const agentInstructionsChange = definePolicy({
  name: 'agent-instructions-change',
  category: 'agent-integrity',
  description:
    'Asks before writing what agents follow unattended: commands, sub-agents, skills, CLAUDE.md, AGENTS.md, rules files (plain guidance passes), tasks.json, .envrc, a memory note of a standing approval, a sub-agent brief against the guard.',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    if (!call) return null;
    const claim = standingApprovalNote(call);
    if (claim)
      return {
        reason: `Stores in the agent's memory that something is approved for good ("${claim}"): later sessions would act on it without asking. Only the person can approve, one call at a time; show them this note.`,
        evidence: evidenceOf(JSON.stringify(call.input)),
      };
    const brief = subAgentBriefClaim(call);
    if (brief)
      return {
        reason: `Hands a sub-agent a brief that ${brief.what} ("${evidenceOf(brief.words, 80)}"): it would act on that without asking. Show the person this brief.`,
        evidence: evidenceOf(brief.words),
      };
    for (const target of writeTargets(call)) {
      if (!isInside(target.absolute, call.projectRoot) && !isInside(target.absolute, call.home)) continue;
      const entry = instructionEntry(target.absolute);
      if (!entry) continue;
      const [, kind, prose] = entry;
      const written = writtenTexts(call).find((w) => w.file === withForwardSlashes(target.absolute));
      // Style notes, build and test routines, a read-only reviewer: the calls they lead to come through here.
      if (
        prose &&
        written &&
        isProseFile(target.absolute) &&
        isPlainInstruction(written.content, replacedBefore(call.input))
      )
        continue;
      if (
        /(^|\/)\.envrc$/.test(target.absolute) &&
        written &&
        call.face.family !== 'edit' &&
        isPlainEnvrc(written.content)
      )
        continue;
      if (personStartedTasksOnly(call, target.absolute)) continue;
      return {
        reason: `Writes ${target.raw} (${kind}): the next agent session or the editor follows it without asking; show the person the change and let them approve it.`,
        evidence: evidenceOf(call.command ?? target.raw),
      };
    }
    for (const cmd of shellCommands(call)) {
      const restored = restoredFromRef(cmd).find(
        (p) => instructionKind(p) || AGENT_FOLDERS.test(p) || /settings/.test(p),
      );
      if (restored)
        return {
          reason: `Brings ${restored} from another git ref: agent configuration or instructions that nobody reviewed in this checkout; approve this exact call if it is intended.`,
          evidence: evidenceOf(cmd.text),
        };
      if (cmd.name === 'direnv' && argsOf(cmd)[0] === 'allow')
        return {
          reason:
            "direnv allow trusts the folder's .envrc, which then runs in every shell that enters it; the person should read it and allow it.",
          evidence: evidenceOf(cmd.text),
        };
    }
    return null;
  },
});
