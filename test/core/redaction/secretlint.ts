// secretlint's recommended preset, loaded the only way a CommonJS bundle can load these ES modules
// (a dynamic import). Used by the oracle test and bench/redaction.ts; never by the product.

export interface SecretlintReport {
  /** `rule:messageId`, e.g. `github:GITHUB_TOKEN`. */
  rule: string;
  start: number;
  end: number;
}

export type Secretlint = (content: string, file?: string) => Promise<SecretlintReport[]>;

export async function loadSecretlint(): Promise<Secretlint> {
  const { lintSource } = await import('@secretlint/core');
  const { creator } = await import('@secretlint/secretlint-rule-preset-recommend');
  const config = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: creator }] };
  return async (content, file = 'input.txt') => {
    const result = await lintSource({
      source: { content, filePath: `/virtual/${file}`, contentType: 'text' },
      options: { config, noPhysicFilePath: true },
    });
    return result.messages.map((m) => ({
      rule: `${m.ruleId.replace('@secretlint/secretlint-rule-', '')}:${m.messageId}`,
      start: m.range[0],
      end: m.range[1],
    }));
  };
}
