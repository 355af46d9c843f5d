// The Anthropic Messages wire format as far as the fake model needs it: the
// request it reads, and the streamed or whole assistant message it writes.
import { z } from 'zod';

const contentBlockSchema = z.looseObject({ type: z.string() });

const messageSchema = z.looseObject({
  role: z.string(),
  content: z.union([z.string(), z.array(contentBlockSchema)]),
});

export const messagesRequestSchema = z.looseObject({
  model: z.string().optional(),
  stream: z.boolean().optional(),
  messages: z.array(messageSchema).default([]),
  tools: z.array(z.looseObject({ name: z.string().optional() })).optional(),
});
export type MessagesRequest = z.infer<typeof messagesRequestSchema>;

const toolResultBlockSchema = z.looseObject({
  type: z.literal('tool_result'),
  tool_use_id: z.string(),
  is_error: z.boolean().optional(),
  content: z.union([z.string(), z.array(z.looseObject({ type: z.string(), text: z.string().optional() }))]).optional(),
});

/** One tool result the CLI sent back to the model, its content flattened to text. */
export interface ToolResult {
  toolUseId: string;
  isError: boolean;
  text: string;
}

export function toolResultsOf(request: MessagesRequest): ToolResult[] {
  const results: ToolResult[] = [];
  for (const message of request.messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) {
      const parsed = toolResultBlockSchema.safeParse(block);
      if (!parsed.success) continue;
      const content = parsed.data.content;
      const text = typeof content === 'string' ? content : (content ?? []).map((part) => part.text ?? '').join('\n');
      results.push({ toolUseId: parsed.data.tool_use_id, isError: parsed.data.is_error === true, text });
    }
  }
  return results;
}

export type AssistantBlock =
  { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

export type StopReason = 'end_turn' | 'tool_use';

export interface AssistantMessage {
  id: string;
  model: string;
  blocks: AssistantBlock[];
  stopReason: StopReason;
}

const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

/** The message as a non-streaming reply body. */
export function wholeMessageBody(message: AssistantMessage): Record<string, unknown> {
  return {
    id: message.id,
    type: 'message',
    role: 'assistant',
    model: message.model,
    content: message.blocks,
    stop_reason: message.stopReason,
    stop_sequence: null,
    usage,
  };
}

/** The message as server-sent events, each already framed as `event: T\ndata: JSON\n\n`. */
export function streamedMessageEvents(message: AssistantMessage): string[] {
  const events: Array<Record<string, unknown> & { type: string }> = [
    {
      type: 'message_start',
      message: { ...wholeMessageBody(message), content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } },
    },
  ];
  message.blocks.forEach((block, index) => {
    if (block.type === 'text') {
      events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } });
    } else {
      events.push({
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
      });
      events.push({
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
      });
    }
    events.push({ type: 'content_block_stop', index });
  });
  events.push({
    type: 'message_delta',
    delta: { stop_reason: message.stopReason, stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  events.push({ type: 'message_stop' });
  return events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
}
