// Reads the end of Claude Code's JSONL transcript: the human's last turns and the agent's last
// text message. The file is read backwards in fixed chunks up to a byte budget, so a 100 MB
// transcript costs what a small one does.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { z } from 'zod';

export interface TranscriptTail {
  /** The human's last turns, oldest first. */
  userTurns: string[];
  agentLastMessage: string | null;
  /** Bytes read from the file (the cost the caps bound). */
  bytesRead: number;
  /** The budget ran out inside a line, which may have been a human turn. */
  budgetExhausted: boolean;
}

export interface TranscriptReadOptions {
  maxTurns?: number;
  chunkBytes?: number;
  /** Total bytes read at most, whatever the file's size. */
  maxBytes?: number;
}

export const DEFAULT_CHUNK_BYTES = 64 * 1024;
// Tool results (a file read, a long build log) can be large, and the human's last turn may lie
// behind several of them; 2 MiB covers a long agentic stretch and reads in a few milliseconds.
export const DEFAULT_MAX_TRANSCRIPT_BYTES = 2 * 1024 * 1024;

const EMPTY: TranscriptTail = { userTurns: [], agentLastMessage: null, bytesRead: 0, budgetExhausted: false };

const contentBlock = z.object({ type: z.string(), text: z.string().optional() });
const lineSchema = z.object({
  type: z.string(),
  isMeta: z.boolean().optional(),
  isSidechain: z.boolean().optional(),
  isCompactSummary: z.boolean().optional(),
  isVisibleInTranscriptOnly: z.boolean().optional(),
  message: z
    .object({
      id: z.string().optional(),
      content: z.union([z.string(), z.array(contentBlock)]),
    })
    .optional(),
});
type TranscriptLine = z.infer<typeof lineSchema>;

// Cheap pre-filters on the raw bytes: Claude Code writes compact JSON, and most lines (tool
// results, queue operations, summaries) need no parsing at all.
const USER_MARK = Buffer.from('"type":"user"');
const ASSISTANT_MARK = Buffer.from('"type":"assistant"');
const TEXT_MARK = Buffer.from('"type":"text"');
const TOOL_RESULT_MARK = Buffer.from('"type":"tool_result"');
const SIDECHAIN_MARK = Buffer.from('"isSidechain":true');

function parseLine(bytes: Buffer): TranscriptLine | undefined {
  try {
    const parsed = lineSchema.safeParse(JSON.parse(bytes.toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function isAside(line: TranscriptLine): boolean {
  return (
    line.isMeta === true ||
    line.isSidechain === true ||
    line.isCompactSummary === true ||
    line.isVisibleInTranscriptOnly === true
  );
}

/** The text of a human turn; undefined for tool results and everything else. */
function humanText(line: TranscriptLine): string | undefined {
  if (line.type !== 'user' || isAside(line) || !line.message) return undefined;
  const content = line.message.content;
  if (typeof content === 'string') return content.trim() === '' ? undefined : content;
  if (content.some((block) => block.type === 'tool_result')) return undefined;
  const text = content
    .filter((block) => block.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text)
    .join('\n');
  return text.trim() === '' ? undefined : text;
}

function assistantText(line: TranscriptLine): { id: string | undefined; text: string } | undefined {
  if (line.type !== 'assistant' || isAside(line) || !line.message || typeof line.message.content === 'string')
    return undefined;
  const text = line.message.content
    .filter((block) => block.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text)
    .join('\n');
  return text.trim() === '' ? undefined : { id: line.message.id, text };
}

/** Collects, from the last line backwards, what the envelope needs; says when it has enough. */
class TailCollector {
  readonly turns: string[] = [];
  private agentParts: string[] = [];
  private agentId: string | undefined;
  private agentDone = false;

  constructor(private readonly maxTurns: number) {}

  /** The last turns are in and the agent's message is complete (it may lie before those turns). */
  get done(): boolean {
    return this.turns.length >= this.maxTurns && this.agentDone;
  }

  get agentMessage(): string | null {
    return this.agentParts.length ? this.agentParts.join('\n') : null;
  }

  take(bytes: Buffer): void {
    const isUser = bytes.includes(USER_MARK);
    const isAssistant = !isUser && bytes.includes(ASSISTANT_MARK);
    if (!isUser && !isAssistant) return;
    if (bytes.includes(SIDECHAIN_MARK)) return;
    if (isUser && bytes.includes(TOOL_RESULT_MARK)) {
      // A tool result (often large) is never a human turn; it only closes the agent's message.
      if (this.agentParts.length) this.agentDone = true;
      return;
    }
    if (isAssistant && (this.agentDone || !bytes.includes(TEXT_MARK))) return;
    const line = parseLine(bytes);
    if (!line || isAside(line)) return;
    if (line.type === 'user') {
      // Any user line (a human turn or a tool result) closes the agent's message that followed it.
      if (this.agentParts.length) this.agentDone = true;
      const text = humanText(line);
      if (text !== undefined && this.turns.length < this.maxTurns) this.turns.unshift(text);
      return;
    }
    const said = assistantText(line);
    if (!said || this.agentDone) return;
    // Assistant messages come one content block per line; earlier blocks of the same message join it.
    if (this.agentParts.length && said.id !== this.agentId) {
      this.agentDone = true;
      return;
    }
    this.agentId = said.id;
    this.agentParts.unshift(said.text);
  }
}

/**
 * Reads the transcript from its end. A missing or unreadable file gives no turns, never an error:
 * the judge then simply has no human request to weigh.
 */
export function readTranscriptTail(path: string | undefined, options: TranscriptReadOptions = {}): TranscriptTail {
  if (!path) return EMPTY;
  const chunkBytes = Math.max(1024, options.chunkBytes ?? DEFAULT_CHUNK_BYTES);
  const maxBytes = Math.max(chunkBytes, options.maxBytes ?? DEFAULT_MAX_TRANSCRIPT_BYTES);
  const collector = new TailCollector(options.maxTurns ?? 3);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return EMPTY;
  }
  let bytesRead = 0;
  let budgetExhausted = false;
  try {
    const size = fstatSync(fd).size;
    let position = size;
    // The bytes of the line being assembled, later pieces first.
    let pending: Buffer[] = [];
    const buffer = Buffer.allocUnsafe(chunkBytes);
    while (position > 0 && !collector.done) {
      if (bytesRead >= maxBytes) {
        budgetExhausted = pending.some((piece) => piece.length > 0);
        break;
      }
      const length = Math.min(chunkBytes, position, maxBytes - bytesRead);
      position -= length;
      const got = readSync(fd, buffer, 0, length, position);
      if (got !== length) break;
      bytesRead += got;
      let end = length;
      for (let i = length - 1; i >= 0 && !collector.done; i--) {
        if (buffer[i] !== 0x0a) continue;
        const line = Buffer.concat([buffer.subarray(i + 1, end), ...pending]);
        pending = [];
        if (line.length > 0) collector.take(line);
        end = i;
      }
      if (!collector.done) pending.unshift(Buffer.from(buffer.subarray(0, end)));
    }
    if (position === 0 && !collector.done && pending.length) collector.take(Buffer.concat(pending));
  } catch {
    return { ...EMPTY, bytesRead };
  } finally {
    closeSync(fd);
  }
  return { userTurns: collector.turns, agentLastMessage: collector.agentMessage, bytesRead, budgetExhausted };
}
