import { z } from 'zod';
import { argsOf, evidenceOf, parseFlags, shellCommands } from '../../facts/commands';
import { interpreterCode } from '../../facts/interpreter-code';
import { interpreterKind } from '../../facts/programs';
import type { SimpleCommand } from '../../shell';
import { definePolicy } from '../types';
import type { ToolCall } from '../types';

// A model hub's repositories are what customers and other teams pin: a repository deleted, its history
// squashed, a branch or tag removed, or one made public is gone or out for everyone, whether the Hugging
// Face CLI does it or the Python client (HfApi) does in a script.

const HF_CLI = new Set(['hf', 'huggingface-cli']);

/** `hf repo delete ID`, `hf repo branch delete ID B`, `hf repo tag delete ID T`, `huggingface-cli repo-files ID delete …`. */
function cliChange(cmd: SimpleCommand): string | undefined {
  if (!HF_CLI.has(cmd.name)) return undefined;
  const [group, verb, third, fourth] = parseFlags(argsOf(cmd), [], ['repo-type', 'token', 'revision']).positionals;
  if (group === 'repo' && verb === 'delete') return `${cmd.name} repo delete removes the repository and its history`;
  if (group === 'repo' && (verb === 'branch' || verb === 'tag') && third === 'delete')
    return `${cmd.name} repo ${verb} delete removes a ${verb} others may pin`;
  if (group === 'repo-files' && (third === 'delete' || fourth === 'delete'))
    return `${cmd.name} repo-files delete removes files from the repository`;
  return undefined;
}

// HfApi's calls that remove what others pin, and those that make a repository public.
const REMOVING_CALL = /\.(delete_repo|super_squash_history|delete_branch|delete_tag|delete_folder|delete_files?)\s*\(/;
const PUBLISHING_CALLS = ['update_repo_visibility', 'update_repo_settings'];
const UPLOADED = /\.(upload_folder|upload_file|upload_large_folder)\s*\(/;

interface HubChange {
  what: string;
  evidence: string;
  /** Made public rather than removed: copies, not loss, are what follows. */
  published?: true;
}

/** The argument text of each `.name(…)` call in the code, up to its first closing parenthesis. */
function callArguments(code: string, name: string): string[] {
  const found: string[] = [];
  const opening = `.${name}(`;
  for (let at = code.indexOf(opening); at !== -1; at = code.indexOf(opening, at + opening.length)) {
    const start = at + opening.length;
    const close = code.indexOf(')', start);
    found.push(code.slice(start, close === -1 ? start + 400 : Math.min(close, start + 400)));
  }
  return found;
}

/** What Python code using the Hub's client does to a repository that others depend on, if anything. */
function clientChange(code: string): HubChange | undefined {
  if (!/\bhuggingface_hub\b|\bHfApi\b/.test(code)) return undefined;
  const removing = REMOVING_CALL.exec(code);
  if (removing) return { what: `HfApi.${removing[1]} removes what others may pin on the Hub`, evidence: removing[0] };
  for (const name of PUBLISHING_CALLS)
    if (callArguments(code, name).some((args) => /\bprivate\s*=\s*False\b/.test(args)))
      return {
        what: `HfApi.${name} with private=False makes the repository public`,
        evidence: `.${name}(private=False)`,
      };
  // A repository is made public unless told otherwise; what is uploaded into it then is public too.
  const created = callArguments(code, 'create_repo').find((args) => !/\bprivate\s*=\s*True\b/.test(args));
  if (created !== undefined && UPLOADED.test(code))
    return {
      what: 'HfApi.create_repo without private=True makes a public repository, and the upload that follows goes there',
      evidence: `.create_repo(${created})`,
      published: true,
    };
  return undefined;
}

function hubChange(call: ToolCall): HubChange | undefined {
  const commands = shellCommands(call);
  for (const cmd of commands) {
    const what = cliChange(cmd);
    if (what) return { what, evidence: cmd.text };
  }
  if (!commands.some((cmd) => interpreterKind(cmd.name) === 'python')) return undefined;
  for (const source of interpreterCode(commands).sources) {
    if (source.language !== 'python') continue;
    const found = clientChange(source.code);
    if (found) return found;
  }
  return undefined;
}

export const modelHubChange = definePolicy({
  name: 'model-hub-change',
  category: 'infrastructure',
  description:
    'Asks before a model hub repository is deleted, its history squashed, a branch, tag or files removed, or it is made public, by the Hugging Face CLI or by HfApi in Python code.',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    if (!call?.shell) return null;
    const found = hubChange(call);
    if (!found) return null;
    const why = found.published
      ? 'anyone may copy what is public there, and copies outlive making it private again'
      : 'customers and other teams pin models there, and nothing on this machine brings them back';
    return {
      reason: `${found.what}: ${why}. A person decides.`,
      evidence: evidenceOf(found.evidence),
    };
  },
});
