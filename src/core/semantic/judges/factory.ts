// Builds the judge that `semantic.*` configures. Hosts may bring their own factory (the extension's
// vscode-lm judge); a factory throws JudgeError('no-transport') when it cannot build one.
import { createHash } from 'node:crypto';
import type { ResolvedConfig } from '../../config/load';
import { AnthropicJudge, ANTHROPIC_DEFAULT_URL } from './anthropic';
import { OpenAiJudge, OPENAI_DEFAULT_URL } from './openai';
import { SystemoneJudge, SYSTEMONE_DEFAULT_MODEL } from './systemone';
import { JudgeError, type Judge } from './types';

export type SemanticConfig = ResolvedConfig['semantic'];

export interface JudgeContext {
  /** Where `semantic.apiKeyEnv` is looked up. */
  env: Record<string, string | undefined>;
}

export type JudgeFactory = (config: SemanticConfig, context: JudgeContext) => Judge;

export function apiKeyFrom(config: SemanticConfig, env: Record<string, string | undefined>): string | undefined {
  if (!config.apiKeyEnv) return undefined;
  const key = env[config.apiKeyEnv];
  if (!key)
    throw new JudgeError(
      'no-transport',
      `the environment variable ${config.apiKeyEnv} named by semantic.apiKeyEnv is not set`,
    );
  return key;
}

export const defaultJudgeFactory: JudgeFactory = (config, context) => {
  const provider = config.provider ?? 'systemone';
  const timeoutMs = config.timeoutMs;
  switch (provider) {
    case 'systemone': {
      if (!config.url) throw new JudgeError('no-transport', 'no judge transport: semantic.url is not set');
      const apiKey = apiKeyFrom(config, context.env);
      return new SystemoneJudge({
        url: config.url,
        model: config.model ?? SYSTEMONE_DEFAULT_MODEL,
        ...(apiKey ? { apiKey } : {}),
        ...(timeoutMs ? { timeoutMs } : {}),
      });
    }
    case 'openai': {
      if (!config.model) throw new JudgeError('no-transport', 'the openai judge needs semantic.model');
      const apiKey = apiKeyFrom(config, context.env);
      return new OpenAiJudge({
        url: config.url ?? OPENAI_DEFAULT_URL,
        model: config.model,
        ...(apiKey ? { apiKey } : {}),
        ...(timeoutMs ? { timeoutMs } : {}),
      });
    }
    case 'anthropic': {
      if (!config.model) throw new JudgeError('no-transport', 'the anthropic judge needs semantic.model');
      if (!config.apiKeyEnv)
        throw new JudgeError(
          'no-transport',
          'the anthropic judge needs semantic.apiKeyEnv, the name of the variable holding the API key',
        );
      const apiKey = apiKeyFrom(config, context.env) ?? '';
      return new AnthropicJudge({
        url: config.url ?? ANTHROPIC_DEFAULT_URL,
        model: config.model,
        apiKey,
        ...(timeoutMs ? { timeoutMs } : {}),
      });
    }
    case 'vscode-lm':
      throw new JudgeError(
        'no-transport',
        'the vscode-lm judge is provided by the VS Code extension and is not available in this host',
      );
  }
};

/** Identifies a judge's settings, the key's fingerprint included, so a changed key builds a new judge. */
export function judgeIdentity(config: SemanticConfig, env: Record<string, string | undefined>): string {
  const key = config.apiKeyEnv ? (env[config.apiKeyEnv] ?? '') : '';
  const fingerprint = key ? createHash('sha256').update(key).digest('hex').slice(0, 16) : '';
  return JSON.stringify([
    config.provider ?? 'systemone',
    config.url ?? '',
    config.model ?? '',
    config.apiKeyEnv ?? '',
    config.timeoutMs ?? 0,
    fingerprint,
  ]);
}

/** Who answers, for the reply cache: the same question to the same model gets the same answer. */
export function answererIdentity(config: SemanticConfig): string {
  return JSON.stringify([config.provider ?? 'systemone', config.url ?? '', config.model ?? '']);
}
