import { createSemanticTier, type SemanticTierHandle } from '../core/review/tier';
import { defaultJudgeFactory, type JudgeFactory } from '../core/semantic/judges/factory';
import type { SemanticRun, SemanticStartInput } from '../core/review/tier';
import type { JudgeKeys } from './judgeKeys';
import { LanguageModelJudge, type LanguageModelPort } from './lmJudge';

// The extension's semantic tier: the core's tier with one more judge, the
// editor's language model (`semantic.provider: "vscode-lm"`), and the HTTP
// judges' API keys from SecretStorage placed in the tier's environment.

export interface ExtensionTierOptions {
  languageModels: LanguageModelPort;
  keys: JudgeKeys;
  /** The redaction allow-list key (the state folder's log key), as the evaluator uses. */
  allowlistKey: Buffer;
}

export function extensionJudgeFactory(languageModels: LanguageModelPort): JudgeFactory {
  return (config, context) =>
    config.provider === 'vscode-lm'
      ? new LanguageModelJudge(languageModels, config.model)
      : defaultJudgeFactory(config, context);
}

export function createExtensionSemanticTier(opts: ExtensionTierOptions): SemanticTierHandle {
  const tier = createSemanticTier({
    judgeFactory: extensionJudgeFactory(opts.languageModels),
    env: opts.keys.env,
    allowlistKey: opts.allowlistKey,
  });
  return {
    // Keys are put in place per call; whether the tier runs depends on the modes alone.
    isOn: (config) => tier.isOn(config),
    start(input: SemanticStartInput): SemanticRun | undefined {
      const semantic = opts.keys.prepare(input.config.semantic);
      const cloud = opts.keys.prepareCloud(input.config.cloud);
      const config =
        semantic === input.config.semantic && cloud === input.config.cloud
          ? input.config
          : { ...input.config, semantic, cloud };
      return tier.start({ ...input, config });
    },
    close: () => tier.close(),
  };
}
