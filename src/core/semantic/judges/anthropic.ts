// The Anthropic Messages API: the review document as the user turn, the answer read from the text
// block as a JSON object of probabilities.
import { z } from 'zod';
import { describeShapeError, JsonPoster } from './http';
import { judgeReplyFromText, REVIEWER_INSTRUCTIONS, reviewDocument } from './prompt';
import { JudgeError, type Judge, type JudgeReply, type JudgeRequest } from './types';

export const ANTHROPIC_DEFAULT_URL = 'https://api.anthropic.com/v1/messages';
export const ANTHROPIC_VERSION = '2023-06-01';

const replySchema = z.object({
  model: z.string().optional(),
  content: z.array(z.object({ type: z.string(), text: z.string().optional() })),
  usage: z.object({ input_tokens: z.number().optional(), output_tokens: z.number().optional() }).optional(),
});

export interface AnthropicOptions {
  url: string;
  model: string;
  apiKey: string;
  timeoutMs?: number;
}

export function anthropicBody(request: JudgeRequest, model: string): unknown {
  return {
    model,
    // One short JSON object: ids and two-decimal numbers.
    max_tokens: 64 + 24 * request.questions.length,
    temperature: 0,
    system: REVIEWER_INSTRUCTIONS,
    messages: [{ role: 'user', content: reviewDocument(request) }],
  };
}

export class AnthropicJudge implements Judge {
  readonly name = 'anthropic';
  private readonly poster: JsonPoster;

  constructor(private readonly options: AnthropicOptions) {
    this.poster = new JsonPoster(options.url, options.timeoutMs);
  }

  async ask(request: JudgeRequest, signal: AbortSignal): Promise<JudgeReply> {
    const headers = { 'x-api-key': this.options.apiKey, 'anthropic-version': ANTHROPIC_VERSION };
    const json = await this.poster.post(anthropicBody(request, this.options.model), headers, signal);
    const parsed = replySchema.safeParse(json);
    if (!parsed.success) throw new JudgeError('malformed', describeShapeError(parsed.error.issues));
    const text = parsed.data.content
      .filter((block) => block.type === 'text' && typeof block.text === 'string')
      .map((block) => block.text)
      .join('');
    const usage = parsed.data.usage;
    return judgeReplyFromText(
      text,
      parsed.data.model ?? this.options.model,
      usage && { inputTokens: usage.input_tokens, outputTokens: usage.output_tokens },
    );
  }

  close(): Promise<void> {
    return this.poster.close();
  }
}
