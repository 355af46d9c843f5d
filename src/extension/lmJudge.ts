import { z } from 'zod';
import { REVIEWER_INSTRUCTIONS, reviewDocument } from '../core/semantic/judges/prompt';
import { JudgeError, type Judge, type JudgeReply, type JudgeRequest } from '../core/semantic/judges/types';

// The semantic tier's judge over VS Code's language-model API (vscode.lm): a
// user with a chat model in the editor needs no API key. The editor is reached
// through a small port (lmPort.ts binds it to vscode), so this file runs in
// plain Node tests too.

/** A chat model as the judge uses it: the fields of vscode.LanguageModelChat it needs. */
export interface ChatModelLike {
  readonly id: string;
  readonly name: string;
  readonly vendor: string;
  readonly family: string;
  /** Sends one user message; resolves to the streamed text, or rejects like vscode.lm does. */
  send(prompt: string, signal: AbortSignal): Promise<AsyncIterable<string>>;
}

export interface LanguageModelPort {
  /** vscode.lm.selectChatModels with an empty selector: every model the editor offers. */
  models(): Promise<ChatModelLike[]>;
}

/** What a vscode.LanguageModelError's `code` may be, and anything else that can reject. */
export interface LanguageModelFailure {
  code?: string;
  message?: string;
}

export const LM_JUDGE_NAME = 'vscode-lm';

/** The reply is at most this long; more is not an object of probabilities. */
const MAX_REPLY_CHARS = 64 * 1024;

/**
 * Picks the model `semantic.model` names: an id, a family or a name, optionally
 * prefixed with its vendor (`copilot/gpt-4o`). Without one, the first model.
 */
export function pickModel(models: readonly ChatModelLike[], wanted: string | undefined): ChatModelLike | undefined {
  if (!wanted) return models[0];
  const slash = wanted.indexOf('/');
  const vendor = slash > 0 ? wanted.slice(0, slash) : undefined;
  const rest = slash > 0 ? wanted.slice(slash + 1) : wanted;
  const candidates = vendor ? models.filter((m) => m.vendor === vendor) : models;
  return (
    candidates.find((m) => m.id === rest) ??
    candidates.find((m) => m.family === rest) ??
    candidates.find((m) => m.name === rest)
  );
}

export function lmPrompt(request: JudgeRequest): string {
  const ids = request.questions.map((q) => JSON.stringify(q.id)).join(', ');
  return [
    REVIEWER_INSTRUCTIONS,
    `Answer exactly these ids: ${ids}. No other keys, no comments, no code fence.`,
    '',
    reviewDocument(request),
  ].join('\n');
}

/** The JSON text of a reply: the whole text, or the body of a single code fence around it. */
function jsonText(text: string): string {
  const trimmed = text.trim();
  if (trimmed.length < 6 || !trimmed.startsWith('```') || !trimmed.endsWith('```')) return trimmed;
  const inner = trimmed.slice(3, -3);
  return (/^json/i.test(inner) ? inner.slice(4) : inner).trim();
}

/** Parses the model's text strictly: one JSON object, exactly the question ids, each a number in [0, 1]. */
export function parseProbabilities(text: string, questionIds: readonly string[]): Record<string, number> {
  if (text.length > MAX_REPLY_CHARS)
    throw new JudgeError(
      'malformed',
      `the language model's reply is ${text.length} characters long, not an object of probabilities`,
    );
  let json: unknown;
  try {
    json = JSON.parse(jsonText(text));
  } catch {
    throw new JudgeError('malformed', `the language model did not reply with JSON: "${text.trim().slice(0, 80)}"`);
  }
  const schema = z.object(Object.fromEntries(questionIds.map((id) => [id, z.number().min(0).max(1)]))).strict();
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data as Record<string, number>;
  const issue = parsed.error.issues[0];
  const where = issue?.path.map(String).join('.') || 'reply';
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new JudgeError('malformed', "the language model's reply is not a JSON object of probabilities");
  const value = issue?.path.length ? (json as Record<string, unknown>)[String(issue.path[0])] : undefined;
  if (issue?.code === 'invalid_type' && value === undefined)
    throw new JudgeError('missing-answer', `the language model gave no answer for question "${where}"`);
  if (issue?.code === 'too_big' || issue?.code === 'too_small')
    throw new JudgeError(
      'out-of-range',
      `the language model's answer for "${where}" is ${String(value)}, outside 0 to 1`,
    );
  if (issue?.code === 'unrecognized_keys')
    throw new JudgeError(
      'malformed',
      `the language model answered questions it was not asked: ${issue.keys.join(', ')}`,
    );
  throw new JudgeError(
    'malformed',
    `the language model's answer for "${where}" is not a probability (${issue?.message ?? 'invalid'})`,
  );
}

/** Maps a rejection from vscode.lm to the tier's failure kinds. */
export function judgeErrorFrom(err: unknown, signal: AbortSignal): JudgeError {
  if (err instanceof JudgeError) return err;
  if (signal.aborted) return new JudgeError('aborted', 'the language-model call was aborted');
  const failure = (err ?? {}) as LanguageModelFailure;
  const message = failure.message ?? String(err);
  switch (failure.code) {
    case 'NoPermissions':
      return new JudgeError(
        'no-transport',
        `the language model may not be used by Agent Warden: ${message}. Allow it in the editor's language-model access settings`,
      );
    case 'NotFound':
      return new JudgeError('no-transport', `the language model is gone: ${message}`);
    case 'Blocked':
      return new JudgeError('rate-limited', `the language model refused the request (quota or rate limit): ${message}`);
    default:
      return new JudgeError('network', `the language model failed: ${message}`);
  }
}

export class LanguageModelJudge implements Judge {
  readonly name = LM_JUDGE_NAME;

  constructor(
    private readonly port: LanguageModelPort,
    /** `semantic.model`: which chat model to use; the first one offered when unset. */
    private readonly wanted: string | undefined,
  ) {}

  async ask(request: JudgeRequest, signal: AbortSignal): Promise<JudgeReply> {
    try {
      const models = await this.port.models();
      if (signal.aborted) throw new JudgeError('aborted', 'the language-model call was aborted');
      const model = pickModel(models, this.wanted);
      if (!model) {
        const offered = models.map((m) => `${m.vendor}/${m.id}`).join(', ') || 'none';
        throw new JudgeError(
          'no-transport',
          this.wanted
            ? `no chat model matches semantic.model "${this.wanted}" (offered: ${offered})`
            : 'no chat model is available through vscode.lm: install or sign in to a chat model provider, or choose another semantic.provider',
        );
      }
      const stream = await model.send(lmPrompt(request), signal);
      let text = '';
      for await (const chunk of stream) {
        text += chunk;
        if (text.length > MAX_REPLY_CHARS) break;
        if (signal.aborted) throw new JudgeError('aborted', 'the language-model call was aborted');
      }
      const answers = parseProbabilities(
        text,
        request.questions.map((q) => q.id),
      );
      return { answers, model: `${model.vendor}/${model.id}` };
    } catch (err) {
      throw judgeErrorFrom(err, signal);
    }
  }
}
