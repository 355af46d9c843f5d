// The one interface every judge implements: the HTTP clients here, and judges that hosts bring
// (the VS Code language-model judge lives in the extension and implements this from outside).
import type { Envelope } from '../../verdict/record';
import type { Question } from '../questions';

export interface JudgeRequest {
  envelope: Envelope;
  questions: Question[];
}

export interface JudgeUsage {
  inputTokens?: number;
  outputTokens?: number;
}

export interface JudgeReply {
  /** A probability per question id. The tier checks that every id is answered within [0, 1]. */
  answers: Record<string, number>;
  model: string;
  usage?: JudgeUsage;
}

export interface Judge {
  /** Names the judge in records and messages, e.g. `systemone` or `vscode-lm`. */
  readonly name: string;
  /** Must stop work and reject when `signal` aborts. */
  ask(request: JudgeRequest, signal: AbortSignal): Promise<JudgeReply>;
  /** Releases pooled connections. */
  close?(): Promise<void>;
}

/** Why a judge could not answer; each becomes `semantic.status = "degraded"` with its message. */
export type JudgeFailure =
  | 'no-transport'
  | 'timeout'
  | 'aborted'
  | 'network'
  | 'http'
  | 'malformed'
  | 'missing-answer'
  | 'out-of-range'
  | 'rate-limited';

export class JudgeError extends Error {
  constructor(
    readonly failure: JudgeFailure,
    message: string,
  ) {
    super(message);
    this.name = 'JudgeError';
  }
}

/** Checks a reply against the questions asked: every id answered with a probability. */
export function checkAnswers(questions: readonly Question[], answers: Record<string, unknown>): Record<string, number> {
  const checked: Record<string, number> = {};
  for (const question of questions) {
    const value = answers[question.id];
    if (value === undefined || value === null)
      throw new JudgeError('missing-answer', `the judge gave no answer for question "${question.id}"`);
    if (typeof value !== 'number' || !Number.isFinite(value))
      throw new JudgeError('malformed', `the judge's answer for "${question.id}" is not a number`);
    if (value < 0 || value > 1)
      throw new JudgeError('out-of-range', `the judge's answer for "${question.id}" is ${value}, outside 0 to 1`);
    checked[question.id] = value;
  }
  return checked;
}
