import * as vscode from 'vscode';
import { JudgeError } from '../core/semantic/judges/types';
import type { ChatModelLike, LanguageModelPort } from './lmJudge';

// Binds the language-model judge to the editor: vscode.lm.selectChatModels and
// LanguageModelChat.sendRequest, with the tier's AbortSignal as a cancellation token.

const JUSTIFICATION =
  'Agent Warden asks the model to judge a tool call that your coding agent is about to run (the semantic tier; secrets are redacted first).';

function chatModel(model: vscode.LanguageModelChat): ChatModelLike {
  return {
    id: model.id,
    name: model.name,
    vendor: model.vendor,
    family: model.family,
    async send(prompt: string, signal: AbortSignal): Promise<AsyncIterable<string>> {
      const cancellation = new vscode.CancellationTokenSource();
      const cancel = () => cancellation.cancel();
      signal.addEventListener('abort', cancel, { once: true });
      try {
        const response = await model.sendRequest(
          [vscode.LanguageModelChatMessage.User(prompt)],
          { justification: JUSTIFICATION },
          cancellation.token,
        );
        return (async function* () {
          try {
            yield* response.text;
          } finally {
            signal.removeEventListener('abort', cancel);
            cancellation.dispose();
          }
        })();
      } catch (err) {
        signal.removeEventListener('abort', cancel);
        cancellation.dispose();
        throw err;
      }
    },
  };
}

export function vscodeLanguageModels(): LanguageModelPort {
  return {
    async models(): Promise<ChatModelLike[]> {
      // Older hosts and some remote set-ups have no language-model API at all.
      if (typeof vscode.lm?.selectChatModels !== 'function')
        throw new JudgeError(
          'no-transport',
          'this editor has no language-model API (vscode.lm); choose another semantic.provider',
        );
      const models = await vscode.lm.selectChatModels();
      return models.map(chatModel);
    },
  };
}
