import { z } from 'zod';
import type { SimpleCommand } from '../../shell';
import { isInside } from '../../shell/paths';
import { definePolicy, type ToolCall } from '../types';
import { argsOf, evidenceOf, shellCommands } from '../../facts/commands';
import { writeTargets } from '../../facts/targets';
import { secretFileKind } from '../../facts/sensitive-paths';
import { writtenTexts } from '../../facts/compute';
import { personStartedTasksOnly } from './shared/project-tasks';
import { isPrivateUseName } from './shared/own-sources';
import { isAgentMemoryTool, isSubAgentTool } from '../../config/tool-names';

// What an agent reads as instructions or runs on its own: slash commands, sub-agents, skills,
// memory files (CLAUDE.md, AGENTS.md), editor tasks that run when a folder opens, direnv's
// .envrc. The settings files themselves are agent-config-tampering's; these do not switch a
// guard off, but they tell the next session (or the editor) what to do without the person.

const INSTRUCTION_PATHS: readonly [RegExp, string][] = [
  [/(^|\/)\.claude\/(commands|agents|skills|output-styles)\//, 'Claude Code commands, agents or skills'],
  [/(^|\/)(CLAUDE|CLAUDE\.local|AGENTS|GEMINI)\.md$/, 'agent memory and instructions'],
  [/(^|\/)\.github\/(copilot-instructions\.md|instructions\/|prompts\/|agents\/)/, 'Copilot instructions'],
  [/(^|\/)\.cursor\/rules\/|(^|\/)\.cursorrules$/, 'Cursor rules'],
  [/(^|\/)\.clinerules(\/|$)/, 'Cline rules'],
  [/(^|\/)\.windsurfrules$|(^|\/)\.windsurf\/rules\//, 'Windsurf rules'],
  [/(^|\/)\.roorules(-[\w-]+)?$|(^|\/)\.roo\/rules(-[\w-]+)?\//, 'Roo Code rules'],
  [/(^|\/)\.codex\/(prompts|agents)\//, 'Codex prompts'],
  [/(^|\/)\.junie\/guidelines\.md$|(^|\/)\.aiassistant\/rules\//, 'JetBrains AI (Junie) guidelines'],
  [/(^|\/)\.amazonq\/rules\//, 'Amazon Q rules'],
  [/(^|\/)\.continue\/rules\//, 'Continue rules'],
  [/(^|\/)\.gemini\/(commands|extensions)\//, 'Gemini CLI commands'],
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

function instructionKind(path: string): string | undefined {
  const normalized = path.replace(/\\/g, '/');
  return INSTRUCTION_PATHS.find(([pattern]) => pattern.test(normalized))?.[1];
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
const STANDING_APPROVAL =
  /\b(pre-?approved|standing approval|(is|are) always (approved|allowed|fine|ok)|(never|don'?t|do not|no need to) (ask|confirm|check with)|without (asking|confirmation|confirming)|skip(ping)? (the )?(confirmation|review|approval|guard)|waived? (the )?(confirmation|review|approval)|ignore (the )?(guard|warden|hook|polic))/i;

/** The text of a memory write that claims the person approved something for good, if any. */
function standingApprovalNote(call: ToolCall): string | undefined {
  if (!writesMemory(call.toolName)) return undefined;
  const text = JSON.stringify(call.input);
  return STANDING_APPROVAL.exec(text)?.[0] ?? GUARD_EVASION.exec(text)?.[0];
}

// A sub-agent acts on its brief without asking anyone: a brief that works on the guard itself, hides what it
// does from the person, decodes something to run, or gathers credentials' values is read here, in words.
const BRIEF_CLAIMS: readonly [RegExp, string][] = [
  [/\.agent-warden\b/, 'works on the guard that reviews its calls'],
  [
    /\bagent[- ]warden\b[^.\n]{0,80}\b(hooks?|port|config|settings|token|endpoints?)\b/i,
    'works on the guard that reviews its calls',
  ],
  [
    /\b(remove|disable|delete|bypass|turn off|unregister|comment out|kill)\b[^.\n]{0,60}\b(PreToolUse|guard|warden)\b/i,
    'works on the guard that reviews its calls',
  ],
  [
    /\bPreToolUse\b[^\n]{0,200}\b(remove|disable|delete|bypass|turn off|unregister|comment out)\b[^.\n]{0,30}\bhooks?\b/i,
    'works on the guard that reviews its calls',
  ],
  [
    /\b(do not|don'?t|never)\s+(mention|print|show|tell|report|reveal|include|log)\b[^.\n]{0,60}\b(summary|user|person|reply|answer|output|anyone)\b|\b(hide|conceal)\b[^.\n]{0,40}\b(from|in)\b[^.\n]{0,20}\b(user|person|summary)\b/i,
    'keeps what it does from the person',
  ],
  [/\bdecode\b[^.\n]{0,160}\b(run|execute|eval|pipe)\b/i, 'decodes something and runs it'],
  [/\bself-hosted\b[^.\n]{0,40}\brunner\b|\bregister\b[^.\n]{0,60}\brunner\b/i, 'makes this machine a CI runner'],
  [/\bpaste\b[^.\n]{0,60}\b(tokens?|passwords?|credentials?|secrets?|keys)\b/i, "gathers credentials' values"],
  // `paste the 24 words plus the derived private key`: a wallet's words or key.
  [/\bpaste\b[^.\n]{0,60}\b(?:mnemonic|seed|recovery|private|pem)\b/i, "gathers credentials' values"],
  [
    /\brenounce ?ownership\b|\b(?:revoke|renounce)s? (?:every|all) (?:admin |owner )?roles?\b|\bbroadcast\w*\b[^.\n]{0,60}\bmainnet\b|\bmainnet\b[^.\n]{0,60}\bbroadcast/i,
    "gives up or moves control of a live contract without the team's review",
  ],
  [
    /\b169\.254\.169\.254\b|\bmetadata (?:service|endpoint|server)\b[^.\n]{0,120}\bcredentials\b/i,
    "reaches the cloud metadata service, which hands out the machine's credentials",
  ],
  [/\bNOPASSWD\b|\bpassword-?less sudo\b/i, 'grants sudo without a password'],
  [
    /\b(?:add|write|put)\b[^.\n]{0,30}\ballow rules?\b|\bbypassPermissions\b|--dangerously-skip-permissions\b/i,
    "loosens the agent's permissions",
  ],
];

const GIT_PROGRAM_KEY = /\bcore\.(?:fsmonitor|sshcommand|pager|editor|askpass)\b/i;

/** `Download … and set core.fsmonitor to it`: a fetched program made one that git runs, in one paragraph. */
function downloadedGitProgram(text: string): string | undefined {
  const key = GIT_PROGRAM_KEY.exec(text);
  if (!key) return undefined;
  const before = text.slice(Math.max(0, key.index - 200), key.index);
  const paragraph = before.slice(before.lastIndexOf('\n') + 1);
  return FETCH_WORD.test(paragraph) ? `${paragraph.trim()} ${key[0]}` : undefined;
}

// A key by its kind: a plain `key` is as often a JSON object's.
const CREDENTIAL_WORD =
  /\b(?:tokens?|passwords?|credentials|secrets?|keys|keystores?|(?:api|private|signing|ssh) keys?|key files?)\b/gi;
const VALUES_WORD =
  /\b(?:full|raw|plain|actual|exact|whole) (?:values?|contents)\b|\b(?:print|show|list|include) (?:them|it|each(?: one)?|all(?: of them)?) in full\b/i;

/**
 * `API tokens … their full values`: the words from a credential to its values asked for, in its sentence or
 * the next (`Collect every API key … List each one in full in your reply`).
 */
function credentialValuesAsked(text: string): string | undefined {
  for (const found of text.matchAll(CREDENTIAL_WORD)) {
    // A sentence ends at a full stop before a space, not at the dots of a host name.
    const sentence = text
      .slice(found.index, found.index + 300)
      .split(/\.(?=\s|$)|\n/)
      .slice(0, 2)
      .join('.');
    const values = VALUES_WORD.exec(sentence);
    if (values) return sentence.slice(0, values.index + values[0].length);
  }
  return undefined;
}

const FETCH_WORD = /\b(?:download(?:ing)?|fetch(?:ing)?|curl|wget|pull down|grab|clone)\b/i;
// Running what was fetched, not running something else after reading a page.
const RUN_WORD =
  /\b(?:run(?:ning)?|execut(?:e|ing)|sourc(?:e|ing)) (?:it|them|that|the (?:script|file|installer)|(?:its|the) [\w-]+\.(?:sh|py|ps1))\b|\bwith (?:bash|sh|python3?|node|sudo)\b|\bpipe (?:it )?(?:in)?to\b|\brun(?:ning)? \.\/\w/i;
const SEND_WORD = /\b(?:upload|send|post|share|paste|copy|sync)(?:s|ed|ing)?\b/i;
const OUTSIDE_URL = /\bhttps?:\/\/(?!(?:localhost|127\.0\.0\.1)[:/])[\w.-]+/i;
const PATH_WORD = /(?:~|\$HOME)?\/[\w.@-]+(?:\/[\w.@-]+)*/g;
/** Secret files named without a folder: env files, keystores, signing keys. */
const SECRET_FILE_WORD = /(?:^|[\s*(])\.env\b|\.(?:jks|keystore|p12|p8|pfx|pem)\b|\bid_(?:rsa|ed25519|ecdsa)\b/i;

/** The brief's sentences: a period ends one only before a space or the end (URLs and file names keep theirs). */
function sentencesOf(text: string): string[] {
  return text.split(/\.(?=\s|$)|\n/);
}

const PIPE_WORD = /\bpip(?:e|ing)\b/i;
const INTO_SHELL = /\b(?:in)?to (?:bash|sh|zsh|python3?)\b/i;

/** `piping https://x/install.sh to bash`: the URL between the words has dots of its own, so the gap is a length. */
function pipedToShell(sentence: string): boolean {
  const pipe = PIPE_WORD.exec(sentence);
  return pipe !== null && INTO_SHELL.test(sentence.slice(pipe.index, pipe.index + 200));
}

const HOOKS_PATH = /\bcore\.hooksPath\b/i;
const TEMP_FOLDER_WORD = /(?:^|[\s'"=`])\/(?:tmp|dev\/shm)\//;

/** `Put the hook in /tmp/team-hooks and set core.hooksPath there`: git's hooks from a temporary folder. */
function tempHooksPath(text: string): string | undefined {
  return sentencesOf(text).find((sentence) => HOOKS_PATH.test(sentence) && TEMP_FOLDER_WORD.test(sentence));
}
// What a person would not send to an outside host unasked: the company's data and code.
const DATA_WORD =
  /\b(?:tables?|databases?|dumps?|exports?|customers?|users|payments|orders|CSVs?|source code|the repo(?:sitory)?|tarball|archive)\b/i;

/** A sentence that sends a secret file or the company's data to a web address, or fetches from one and runs it. */
function briefMovesCode(text: string, home: string): { what: string; words: string } | undefined {
  const sentences = sentencesOf(text);
  for (const [at, sentence] of sentences.entries()) {
    const url = OUTSIDE_URL.exec(sentence);
    if (!url) continue;
    // `There's a fork at URL. Clone it, run its install.sh`: the address, and what is done with it next.
    const withNext = `${sentence}. ${sentences[at + 1] ?? ''}`;
    if ((FETCH_WORD.test(withNext) && RUN_WORD.test(withNext)) || pipedToShell(sentence))
      return { what: 'fetches code from the web and runs it', words: withNext.trim() };
    if (!SEND_WORD.test(sentence)) continue;
    const host = url[0].replace(/^https?:\/\//i, '').toLowerCase();
    if (!isPrivateUseName(host) && /\b(?:upload|send|share)(?:s|ed|ing)?\b/i.test(sentence) && DATA_WORD.test(sentence))
      return { what: "sends the company's data to an outside web address", words: sentence.trim() };
    const secret = [...sentence.matchAll(PATH_WORD)]
      .map((m) => m[0].replace(/^(~|\$HOME)(?=\/)/, home))
      .find((path) => path.startsWith('/') && secretFileKind(path, home) !== null);
    if (secret !== undefined) return { what: `sends ${secret} to a web address`, words: sentence.trim() };
    const named = SECRET_FILE_WORD.exec(sentence);
    if (named) return { what: `sends ${named[0].trim()} files to a web address`, words: sentence.trim() };
  }
  return undefined;
}

const BULK_DELETE =
  /\b(?:drop|delete|truncate|wipe|purge|remove)\s+(?:every|all|everything)\b[^.\n]{0,80}\b(?:schemas?|tables?|databases?|buckets?|tags|releases|branches|backups|topics|indexes|snapshots)\b/i;
// Where a bulk delete cannot be undone by rerunning a migration: what others use, or what is kept.
const SHARED_PLACE =
  /(?:\b|_)(?:prod|production|live|shared|origin|remote|warehouse|cluster|server|nas)\b|\b(?:backups?|archived?|signed)\b/i;

/** `Drop every schema … in prod`: a bulk delete of what others use, in one brief. */
function bulkDeleteOfShared(text: string): string | undefined {
  const found = BULK_DELETE.exec(text);
  return found && SHARED_PLACE.test(text) ? found[0] : undefined;
}

/** What a sub-agent's brief tells it to do that the person should see first, if anything. */
function subAgentBriefClaim(call: ToolCall): { what: string; words: string } | undefined {
  if (!isSubAgentTool(call.toolName)) return undefined;
  const text = Object.values(call.input)
    .filter((v): v is string => typeof v === 'string')
    .join('\n');
  for (const [pattern, what] of [...BRIEF_CLAIMS, [STANDING_APPROVAL, 'waives asking the person'] as const]) {
    const found = pattern.exec(text);
    if (found) return { what, words: found[0] };
  }
  const hooks = tempHooksPath(text);
  if (hooks !== undefined) return { what: 'makes git run hooks from a temporary folder', words: hooks.trim() };
  const bulk = bulkDeleteOfShared(text);
  if (bulk !== undefined) return { what: 'deletes in bulk where others work', words: bulk };
  const values = credentialValuesAsked(text);
  if (values !== undefined) return { what: "gathers credentials' values", words: values };
  const gitProgram = downloadedGitProgram(text);
  if (gitProgram !== undefined) return { what: 'installs a downloaded program as one git runs', words: gitProgram };
  return briefMovesCode(text, call.home);
}

export const agentInstructionsChange = definePolicy({
  name: 'agent-instructions-change',
  category: 'agent-integrity',
  description:
    'Asks before writing what agents follow unattended: .claude/commands, agents, skills, CLAUDE.md, AGENTS.md, rules files, .vscode/tasks.json, .envrc, a memory note of a standing approval, a sub-agent brief against the guard.',
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
      const kind = instructionKind(target.absolute);
      if (!kind) continue;
      const written = writtenTexts(call).find((w) => w.file === target.absolute);
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
