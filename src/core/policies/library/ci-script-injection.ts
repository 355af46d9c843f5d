import { z } from 'zod';
import { definePolicy } from '../types';
import { evidenceOf } from '../../facts/commands';
import { workflowTexts } from './ci-workflows';

// GitHub writes an expression's value into a step's script before the shell (or github-script's
// JavaScript) reads it, so `run: echo "${{ github.event.comment.body }}"` runs whatever anyone who can
// comment writes after a `"`, a `$(` or a newline, with the job's secrets and token. Passing the text
// through `env:` and reading `"$BODY"` is the safe form, and is not asked about.

/** Event fields anyone who opens an issue or pull request, comments or pushes a branch chooses. */
const UNTRUSTED =
  /\bgithub\.(?:head_ref\b|event\.(?:issue\.(?:title|body)|pull_request\.(?:title|body|head\.(?:ref|label|repo\.default_branch))|comment\.body|review\.body|review_comment\.body|discussion\.(?:title|body)|pages(?:\[\d+\]|\.\*)\.page_name|(?:commits(?:\[\d+\]|\.\*)|head_commit|workflow_run\.head_commit)\.(?:message|author\.(?:email|name))|workflow_run\.head_branch)\b)/;
/** A step's script: a shell step's `run:`, or github-script's `script:`. */
const SCRIPT_KEY = /^(?:-\s+)?(run|script)\s*:(.*)$/;

/** Each `${{ … }}` of a line, its inside. */
function expressionsIn(line: string): string[] {
  const found: string[] = [];
  for (let at = line.indexOf('${{'); at >= 0; at = line.indexOf('${{', at + 3)) {
    const end = line.indexOf('}}', at + 3);
    if (end < 0) break;
    found.push(line.slice(at + 3, end));
  }
  return found;
}

// A step whose whole script is an input (`run: ${{ inputs.cmd }}`, `run: eval "${{ github.event.inputs.cmd }}"`):
// the workflow runs whatever its caller types, with the job's secrets, token and cloud identity.
const INPUT_AS_SCRIPT =
  /^(?:(?:eval|bash\s+-c|sh\s+-c)\s+)?["']?\$\{\{\s*(?:github\.event\.)?inputs\.([\w-]+)\s*\}\}["']?$/;

/** The first untrusted field a workflow interpolates into a step's script, with its line. */
export function untrustedInScript(text: string): { field: string; line: string } | undefined {
  return scriptFinding(text, (script) => {
    for (const expression of expressionsIn(script)) {
      const field = UNTRUSTED.exec(expression)?.[0];
      if (field) return field;
    }
    return undefined;
  });
}

/** The input a step runs as its whole script, with its line. */
export function inputRunAsScript(text: string): { field: string; line: string } | undefined {
  return scriptFinding(text, (script) => INPUT_AS_SCRIPT.exec(script.trim())?.[1]);
}

/** The first script line of a workflow's steps for which `judge` names something, with that line. */
function scriptFinding(
  text: string,
  judge: (script: string) => string | undefined,
): { field: string; line: string } | undefined {
  let blockIndent = -1;
  for (const line of text.split('\n')) {
    const indent = line.length - line.trimStart().length;
    const trimmed = line.trim();
    const inBlock = blockIndent >= 0 && (trimmed === '' || indent > blockIndent);
    let script: string | undefined = inBlock ? trimmed : undefined;
    if (!inBlock) {
      blockIndent = -1;
      const key = SCRIPT_KEY.exec(trimmed);
      if (key) {
        const value = (key[2] ?? '').trim();
        if (/^[|>][-+0-9]*\s*(?:#.*)?$/.test(value)) blockIndent = indent;
        else script = value;
      }
    }
    if (script === undefined) continue;
    const field = judge(script);
    if (field) return { field, line: trimmed };
  }
  return undefined;
}

export const ciUntrustedTextInScript = definePolicy({
  name: 'ci-untrusted-text-in-script',
  category: 'dangerous-commands',
  description:
    "Asks before writing a CI workflow that puts text anyone can choose (an issue's or pull request's title or body, a comment, a branch name) into a step's script with ${{ }}, or runs an input as a step's whole script.",
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    if (!call) return null;
    for (const { file, text } of workflowTexts(call)) {
      const hit = untrustedInScript(text);
      if (hit)
        return {
          reason: `Writes ${file}, whose step script takes ${hit.field} straight in with \${{ }}: GitHub pastes that text into the script before it runs, so whoever writes it (a quote, a $( or a newline) runs commands with the job's secrets and token. Pass it through env: and read the variable, or a person decides.`,
          evidence: evidenceOf(hit.line, 160),
        };
      const input = inputRunAsScript(text);
      if (input)
        return {
          reason: `Writes ${file}, whose step runs the input ${input.field} as its whole script: whoever starts the workflow runs any command they type, with the job's secrets, token and cloud identity, a standing way in. Run named scripts, or a person decides.`,
          evidence: evidenceOf(input.line, 160),
        };
    }
    return null;
  },
});
