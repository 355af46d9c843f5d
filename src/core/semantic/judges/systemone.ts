// The systemone protocol: the envelope as `state`, each question as a `noul` (a probability that
// the true criterion holds), answered `{"answers":{id:{"noul":p}}}`.
import { z } from 'zod';
import { describeShapeError, JsonPoster } from './http';
import { JudgeError, type Judge, type JudgeReply, type JudgeRequest } from './types';

export const SYSTEMONE_DEFAULT_MODEL = 'jev-1.13.0';

const replySchema = z.object({
  model: z.string(),
  answers: z.record(z.string(), z.object({ noul: z.number() })),
  usage: z.object({ input_tokens: z.number().optional(), output_tokens: z.number().optional() }).optional(),
});

export interface SystemoneOptions {
  url: string;
  model?: string;
  apiKey?: string;
  timeoutMs?: number;
}

export function systemoneBody(request: JudgeRequest, model: string): unknown {
  return {
    model,
    state: request.envelope,
    questions: Object.fromEntries(
      request.questions.map((q) => [
        q.id,
        { type: 'noul', instructions: q.instructions, criteria: { true: q.criteria.true, false: q.criteria.false } },
      ]),
    ),
  };
}

export class SystemoneJudge implements Judge {
  readonly name = 'systemone';
  private readonly poster: JsonPoster;
  private readonly model: string;

  constructor(private readonly options: SystemoneOptions) {
    this.poster = new JsonPoster(options.url, options.timeoutMs);
    this.model = options.model ?? SYSTEMONE_DEFAULT_MODEL;
  }

  async ask(request: JudgeRequest, signal: AbortSignal): Promise<JudgeReply> {
    const headers: Record<string, string> = this.options.apiKey
      ? { authorization: `Bearer ${this.options.apiKey}` }
      : {};
    const json = await this.poster.post(systemoneBody(request, this.model), headers, signal);
    const parsed = replySchema.safeParse(json);
    if (!parsed.success) throw new JudgeError('malformed', describeShapeError(parsed.error.issues));
    const answers = Object.fromEntries(Object.entries(parsed.data.answers).map(([id, answer]) => [id, answer.noul]));
    const usage = parsed.data.usage;
    return {
      answers,
      model: parsed.data.model,
      ...(usage
        ? {
            usage: {
              ...(usage.input_tokens !== undefined ? { inputTokens: usage.input_tokens } : {}),
              ...(usage.output_tokens !== undefined ? { outputTokens: usage.output_tokens } : {}),
            },
          }
        : {}),
    };
  }

  close(): Promise<void> {
    return this.poster.close();
  }
}
