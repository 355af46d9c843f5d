import { z } from 'zod';
import { definePolicy } from '../types';
import type { ToolCall } from '../types';
import { evidenceOf } from '../../facts/commands';
import { writtenTexts } from '../../facts/compute';
import { afterEdit, replacedTexts } from './shared/edited-file';
import { ACTIONS_WORKFLOW } from '../../facts/written-runs';
import { beforeHashComment } from '../../text/scan';
import { isOwnSource } from './shared/own-sources';

// A workflow that a pull request triggers with the base repository's rights (pull_request_target, or
// workflow_run after one) and then checks out the pull request's own head runs whoever opened it's
// code with the repository's secrets and a write token: any outsider's PR then runs in CI with them.
// The steps can look harmless (npm install, make test): the code they run is the PR's. A person
// decides whether the workflow should trust pull requests.

const PRIVILEGED_TRIGGER = /\b(pull_request_target|workflow_run)\b/;
/** Expressions naming the pull request's own commit or branch rather than the base repository's. */
const PULL_REQUEST_HEAD =
  /github\.event\.pull_request\.head\.(sha|ref)|github\.head_ref|github\.event\.workflow_run\.head_(sha|branch)|refs\/pull\//;
/** A step that runs code from the checkout: a shell step, or an action from the checked-out tree. */
const RUNS_CHECKOUT = /^(run\s*:|uses\s*:\s*["']?\.\/)/;

/** The workflow's lines without comments, each without its indentation and list dash. */
function workflowLines(text: string): string[] {
  return text.split('\n').map((line) => {
    const trimmed = line.trim();
    return trimmed.startsWith('#') ? '' : beforeHashComment(trimmed).replace(/^-\s*/, '');
  });
}

interface WorkflowText {
  file: string;
  text: string;
  /** False when only an edit's own text is known: the file it changes could not be read. */
  whole: boolean;
}

/** GitLab's pipeline files, whose `include:` can name a template anywhere on the web. */
const GITLAB_PIPELINE = /(^|\/)(\.gitlab-ci\.ya?ml|\.gitlab\/[^/]+\.ya?ml)$/;
/** An action's own metadata: its composite steps run in every workflow that uses it, with that workflow's context. */
const ACTION_METADATA = /(^|\/)action\.ya?ml$/;
const isPipelineFile = (file: string) =>
  ACTIONS_WORKFLOW.test(file) || GITLAB_PIPELINE.test(file) || ACTION_METADATA.test(file);

/** A pipeline file's text as the call leaves it: a Write's whole text, an edit applied to the file, or the edit's own text. */
export function workflowTexts(call: ToolCall): WorkflowText[] {
  if (call.face.family === 'edit') {
    const file = call.paths.find((p) => p.access === 'write')?.absolute;
    if (!file || !isPipelineFile(file)) return [];
    const edited = afterEdit(call, file);
    return [{ file, text: edited ?? call.content ?? '', whole: edited !== null }];
  }
  return writtenTexts(call)
    .filter((w) => isPipelineFile(w.file))
    .map((w) => ({ file: w.file, text: w.content, whole: true }));
}

/** The privileged trigger an edit brings in that the text it replaces did not have. */
function triggerBroughtIn(call: ToolCall): string | undefined {
  const added = (text: string) =>
    workflowLines(text)
      .map((l) => PRIVILEGED_TRIGGER.exec(l)?.[1])
      .find(Boolean);
  return replacedTexts(call.input)
    .map(([before, after]) => (added(before) ? undefined : added(after)))
    .find(Boolean);
}

export const ciRunsPullRequestCode = definePolicy({
  name: 'ci-runs-pull-request-code',
  category: 'dangerous-commands',
  description:
    "Asks before writing a CI workflow that a pull request triggers with the repository's secrets (pull_request_target, workflow_run) and that checks out the pull request's own code, or switching an unreadable one to such a trigger.",
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    if (!call) return null;
    for (const { file, text, whole } of workflowTexts(call)) {
      const brought = whole ? undefined : triggerBroughtIn(call);
      if (brought)
        return {
          reason: `Switches ${file} to ${brought}, which runs with the repository's secrets and write token; Warden cannot read the rest of the workflow to see whether it then checks out and runs the pull request's own code. A person decides.`,
          evidence: evidenceOf(brought),
        };
      const lines = workflowLines(text);
      const trigger = lines.map((l) => PRIVILEGED_TRIGGER.exec(l)?.[1]).find(Boolean);
      const head = lines.map((l) => PULL_REQUEST_HEAD.exec(l)?.[0]).find(Boolean);
      if (trigger && head && lines.some((l) => RUNS_CHECKOUT.test(l)))
        return {
          reason: `Writes ${file}, a workflow that ${trigger} starts with the repository's secrets and write token, and that checks out and runs the pull request's own code (${head}): whoever opens a pull request runs code with them. A person decides.`,
          evidence: evidenceOf(head),
        };
    }
    return null;
  },
});

/** `uses: owner/repo[/path]@ref`, the ref kept apart. */
const USES_ACTION = /^uses\s*:\s*["']?([\w.-]+)\/([\w./-]+?)(?:@([\w./-]+))?["']?\s*$/;
/** A release tag (v4, v4.1.1, 2.0) or a full commit: the refs a workflow pins an action to. */
const PINNED_REF = /^(v?\d[\w.-]*|[0-9a-f]{40})$/;
/** GitHub's own actions, which a workflow trusts like the runner itself. */
const PLATFORM_OWNERS = new Set(['actions', 'github']);

/** The first line of a workflow the call writes in which `judge` finds something. */
function firstWorkflowLine<T>(
  call: ToolCall,
  judge: (line: string) => T | undefined,
): { file: string; line: string; found: T } | undefined {
  for (const { file, text } of workflowTexts(call))
    for (const line of workflowLines(text)) {
      const found = judge(line);
      if (found !== undefined) return { file, line, found };
    }
  return undefined;
}

/** A step's action of another owner at a branch or at no ref. */
function movingAction(line: string): { owner: string; action: string; ref: string | undefined } | undefined {
  const uses = USES_ACTION.exec(line);
  if (!uses || PLATFORM_OWNERS.has(uses[1] ?? '') || uses[1]?.startsWith('.')) return undefined;
  const ref = uses[3];
  if (ref !== undefined && PINNED_REF.test(ref)) return undefined;
  return { owner: uses[1] ?? '', action: uses[2] ?? '', ref };
}

/** GitLab's `remote: https://…` include (or `include: https://…`): a template fetched each run. */
const REMOTE_INCLUDE = /^(?:remote|include)\s*:\s*["']?(https?:\/\/[^\s"']+)["']?\s*$/;

function remoteTemplate(line: string): string | undefined {
  const url = REMOTE_INCLUDE.exec(line)?.[1];
  return url !== undefined && !isOwnSource(url, []) ? url : undefined;
}

export const ciActionOnMovingRef = definePolicy({
  name: 'ci-action-on-moving-ref',
  category: 'dangerous-commands',
  description:
    "Asks before writing a CI workflow step that uses another owner's action at a branch (or no ref), or a GitLab include of a template from a URL: what is served there next runs with the pipeline's secrets.",
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    const remote = call && firstWorkflowLine(call, remoteTemplate);
    if (remote)
      return {
        reason: `Writes ${remote.file}, which includes a pipeline template from ${remote.found}: whatever is served there on each run becomes the pipeline's jobs, with its variables and tokens. Keep the template in a project of the organisation, pinned to a ref, or a person decides.`,
        evidence: evidenceOf(remote.line),
      };
    const hit = call && firstWorkflowLine(call, movingAction);
    if (!hit) return null;
    const { owner, action, ref } = hit.found;
    return {
      reason: `Writes ${hit.file}, whose step uses ${owner}/${action} at ${ref === undefined ? 'no ref' : `the branch ${ref}`}: whatever its owner pushes there next runs with the workflow's secrets and token. Pin it to a release tag or a commit, or a person decides.`,
      evidence: evidenceOf(hit.line),
    };
  },
});

/** Every secret of the repository at once: `${{ toJSON(secrets) }}` (GitHub's expressions ignore case). */
const ALL_SECRETS = /\$\{\{\s*tojson\(\s*secrets\s*\)\s*\}\}/i;

export const ciExpandsAllSecrets = definePolicy({
  name: 'ci-expands-all-secrets',
  category: 'secrets',
  description:
    "Asks before writing a CI workflow that expands every repository secret at once (toJSON(secrets)) into a step, a file or an artifact, where the log's masking no longer covers them.",
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    const hit = call && firstWorkflowLine(call, (line) => (ALL_SECRETS.test(line) ? true : undefined));
    if (!hit) return null;
    return {
      reason: `Writes ${hit.file}, which expands every repository secret at once (toJSON(secrets)): a step can then write them to a file, an artifact or a request, and the log's masking does not cover what is derived from them. Name the secrets a step needs, or a person decides.`,
      evidence: evidenceOf(hit.line),
    };
  },
});

/** `permissions: write-all`, for the whole workflow or one job (the value may be quoted). */
const WRITE_ALL = /^\s*permissions\s*:\s*(['"]?)write-all\1\s*(?:#.*)?$/;

export const ciTokenWriteAll = definePolicy({
  name: 'ci-token-write-all',
  category: 'dangerous-commands',
  description:
    "Asks before writing a CI workflow that gives its token write access to everything (permissions: write-all): every step, each action's code included, can then push, release and change the repository's settings.",
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    const hit = call && firstWorkflowLine(call, (line) => (WRITE_ALL.test(line) ? true : undefined));
    if (!hit) return null;
    return {
      reason: `Writes ${hit.file}, which gives the workflow's token write access to everything (permissions: write-all): any step or action it runs can push, publish releases and change settings. Grant the few scopes a job needs, or a person decides.`,
      evidence: evidenceOf(hit.line),
    };
  },
});

// GitHub masks a secret's exact value in the log, and nothing derived from it: the secret base64-encoded,
// reversed or hex-dumped prints whole, and one written to a file leaves the run in the artifact that uploads
// it. A secret decoded into a file (`base64 -d > key.jks`) or piped into the program that uses it stays out
// of the log.
const SECRET_EXPRESSION = /\$\{\{\s*secrets\.[\w-]+\s*\}\}/i;
const ENV_FROM_SECRET = /^([A-Za-z_]\w*)\s*:\s*["']?\$\{\{\s*secrets\.[\w-]+\s*\}\}/i;
/** A pipeline stage that only re-encodes what it reads, to the log when it is the last one. */
const RE_ENCODING_STAGE = /^(base64(?![^|]*\s(-d|--decode|-D)\b)|xxd|od|hexdump|rev|fold|tr)\b/;
/** `… ${{ secrets.X }} … > FILE`: the file a step writes a secret into (no pipe between them). */
function secretFileOf(line: string): string | undefined {
  const secret = SECRET_EXPRESSION.exec(line);
  if (!secret) return undefined;
  const rest = line.slice(secret.index + secret[0].length);
  const redirect = rest.indexOf('>');
  const pipe = rest.indexOf('|');
  if (redirect < 0 || (pipe >= 0 && pipe < redirect)) return undefined;
  return /^>?\s*["']?([\w./-]+)/.exec(rest.slice(redirect + 1))?.[1];
}

/** The line of a workflow text that prints a secret past the log's masking or ships it in an artifact, if any. */
function unmaskedSecretLine(text: string): string | undefined {
  const lines = workflowLines(text);
  const bound = lines.map((line) => ENV_FROM_SECRET.exec(line)?.[1]).filter((name) => name !== undefined);
  const namesSecret = (stage: string) =>
    SECRET_EXPRESSION.test(stage) || bound.some((name) => stage.includes(`$${name}`) || stage.includes(`\${${name}}`));
  for (const line of lines) {
    const stages = line
      .replace(/^run\s*:\s*/, '')
      .split('|')
      .map((stage) => stage.trim());
    const from = stages.findIndex(namesSecret);
    const after = from < 0 ? [] : stages.slice(from + 1);
    if (after.length > 0 && after.every((stage) => RE_ENCODING_STAGE.test(stage) && !stage.includes('>'))) return line;
    const file = secretFileOf(line);
    const shipped =
      file !== undefined &&
      lines.some((other) => (/^path\s*:/.test(other) && other.includes(file)) || other.includes(`cat ${file}`));
    if (shipped) return line;
  }
  return undefined;
}

export const ciSecretUnmasked = definePolicy({
  name: 'ci-secret-unmasked',
  category: 'secrets',
  description:
    "Asks before writing a CI workflow step that prints a secret re-encoded (base64, rev, xxd), past the log's masking, or writes it to a file the workflow prints or uploads as an artifact.",
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    if (!call) return null;
    for (const { file, text } of workflowTexts(call)) {
      const line = ACTIONS_WORKFLOW.test(file) ? unmaskedSecretLine(text) : undefined;
      if (line !== undefined)
        return {
          reason: `Writes ${file}, whose step \`${evidenceOf(line, 100)}\` puts a secret where the log's masking does not reach (re-encoded in the log, or in a file that is printed or uploaded). Use the secret where it is needed without printing it, or a person decides.`,
          evidence: evidenceOf(line),
        };
    }
    return null;
  },
});
