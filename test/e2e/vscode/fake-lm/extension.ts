import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';

// A test-only extension, loaded beside Agent Warden in the code-server run: it
// contributes the language-model vendor "agent-warden-test" (its package.json
// is written by run.test.ts) and registers a provider whose one model answers
// every question of Warden's judge with a fixed probability. No model runs
// offline, so this is the model the vscode-lm judge talks to. Each prompt is
// appended to .e2e/lm-prompts.jsonl in the workspace for the suite to read.

export const VENDOR = 'agent-warden-test';
export const MODEL_ID = 'fixed-judge';
export const FIXED_PROBABILITY = 0.04;

// The provider API is newer than the @types/vscode this repo builds with (1.90).
interface ChatInformation {
  id: string;
  name: string;
  family: string;
  version: string;
  maxInputTokens: number;
  maxOutputTokens: number;
  capabilities: Record<string, unknown>;
}

interface RequestMessage {
  content: ReadonlyArray<unknown>;
}

interface ChatProvider {
  provideLanguageModelChatInformation(options: unknown, token: vscode.CancellationToken): ChatInformation[];
  provideLanguageModelChatResponse(
    model: ChatInformation,
    messages: readonly RequestMessage[],
    options: unknown,
    progress: vscode.Progress<unknown>,
    token: vscode.CancellationToken,
  ): Promise<void>;
  provideTokenCount(
    model: ChatInformation,
    text: string | RequestMessage,
    token: vscode.CancellationToken,
  ): Promise<number>;
}

interface LmWithProviders {
  registerLanguageModelChatProvider(vendor: string, provider: ChatProvider): vscode.Disposable;
}

interface TextPartConstructor {
  new (value: string): unknown;
}

function textOf(message: RequestMessage | string): string {
  if (typeof message === 'string') return message;
  return message.content
    .map((part) =>
      typeof part === 'object' && part !== null && 'value' in part && typeof part.value === 'string' ? part.value : '',
    )
    .join('');
}

/** The question ids in Warden's review document (the prompt's last line). */
function questionIds(prompt: string): string[] {
  try {
    const document = JSON.parse(prompt.slice(prompt.lastIndexOf('\n') + 1)) as { questions?: Record<string, unknown> };
    return Object.keys(document.questions ?? {});
  } catch {
    return [];
  }
}

function record(prompt: string): void {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (!folder) return;
  mkdirSync(join(folder, '.e2e'), { recursive: true });
  appendFileSync(join(folder, '.e2e', 'lm-prompts.jsonl'), JSON.stringify({ prompt }) + '\n');
}

export function activate(context: vscode.ExtensionContext): void {
  const lm = vscode.lm as unknown as LmWithProviders;
  const TextPart = (vscode as unknown as { LanguageModelTextPart: TextPartConstructor }).LanguageModelTextPart;
  const provider: ChatProvider = {
    provideLanguageModelChatInformation: () => [
      {
        id: MODEL_ID,
        name: 'Fixed judge (test)',
        family: 'fixed',
        version: '1',
        maxInputTokens: 200_000,
        maxOutputTokens: 1_000,
        capabilities: {},
      },
    ],
    async provideLanguageModelChatResponse(_model, messages, _options, progress) {
      const prompt = messages.map(textOf).join('\n');
      record(prompt);
      const answer = Object.fromEntries(questionIds(prompt).map((id) => [id, FIXED_PROBABILITY]));
      // Two parts, so the judge has to put a streamed reply together.
      const text = JSON.stringify(answer);
      const half = Math.floor(text.length / 2);
      progress.report(new TextPart(text.slice(0, half)));
      progress.report(new TextPart(text.slice(half)));
    },
    provideTokenCount: async (_model, text) => Math.ceil(textOf(text).length / 4),
  };
  context.subscriptions.push(lm.registerLanguageModelChatProvider(VENDOR, provider));
}

export function deactivate(): void {}
