// OpenAI-compatible chat completions (OpenAI, OpenRouter, Ollama, vLLM, LM Studio): the review
// document as the user message, and a JSON schema that asks for one probability per question.
import { z } from 'zod';
import { describeShapeError, JsonPoster } from './http';
import { judgeReplyFromText, REVIEWER_INSTRUCTIONS, reviewDocument } from './prompt';
import { JudgeError, type Judge, type JudgeReply, type JudgeRequest } from './types';

export const OPENAI_DEFAULT_URL = 'https://api.openai.com/v1/chat/completions';

const replySchema = z.object({
  model: z.string().optional(),
  choices: z
    .array(
      z.object({
        message: z.object({ content: z.string().nullable().optional(), refusal: z.string().nullable().optional() }),
      }),
    )
    .min(1),
  usage: z.object({ prompt_tokens: z.number().optional(), completion_tokens: z.number().optional() }).optional(),
});

export interface OpenAiOptions {
  url: string;
  model: string;
  apiKey?: string;
  timeoutMs?: number;
}

/**
 * Numeric bounds are left out of the schema: several compatible servers reject them in strict
 * mode; the range is stated in each description and checked on arrival.
 */
export function openAiBody(request: JudgeRequest, model: string): unknown {
  const ids = request.questions.map((q) => q.id);
  return {
    model,
    temperature: 0,
    messages: [
      { role: 'system', content: REVIEWER_INSTRUCTIONS },
      { role: 'user', content: reviewDocument(request) },
    ],
    response_format: {
      type: 'json_schema',
      json_schema: {
        name: 'probabilities',
        strict: true,
        schema: {
          type: 'object',
          properties: Object.fromEntries(
            ids.map((id) => [id, { type: 'number', description: `probability (0 to 1) for question ${id}` }]),
          ),
          required: ids,
          additionalProperties: false,
        },
      },
    },
  };
}

export class OpenAiJudge implements Judge {
  readonly name = 'openai';
  private readonly poster: JsonPoster;

  constructor(private readonly options: OpenAiOptions) {
    this.poster = new JsonPoster(options.url, options.timeoutMs);
  }

  async ask(request: JudgeRequest, signal: AbortSignal): Promise<JudgeReply> {
    const headers: Record<string, string> = this.options.apiKey
      ? { authorization: `Bearer ${this.options.apiKey}` }
      : {};
    const json = await this.poster.post(openAiBody(request, this.options.model), headers, signal);
    const parsed = replySchema.safeParse(json);
    if (!parsed.success) throw new JudgeError('malformed', describeShapeError(parsed.error.issues));
    const message = parsed.data.choices[0]!.message;
    if (message.refusal)
      throw new JudgeError('malformed', `the judge refused to answer: ${message.refusal.slice(0, 200)}`);
    const usage = parsed.data.usage;
    return judgeReplyFromText(
      message.content ?? '',
      parsed.data.model ?? this.options.model,
      usage && { inputTokens: usage.prompt_tokens, outputTokens: usage.completion_tokens },
    );
  }

  close(): Promise<void> {
    return this.poster.close();
  }
}
