import type { SemanticConfig } from '../core/semantic/judges/factory';
import type { CloudConfig } from '../core/cloud/client';

// API keys of the HTTP judges and the org Cloud's machine key, kept in the
// editor's SecretStorage (one secret per provider, stored under the provider's
// name, `cloud` for the machine key) and handed to the semantic tier through
// its environment, under the variable `semantic.apiKeyEnv` (or `cloud.keyEnv`)
// names. Nothing here touches process.env or the disk.

export const KEYED_PROVIDERS = ['systemone', 'openai', 'anthropic', 'cloud'] as const;
export type KeyedProvider = (typeof KEYED_PROVIDERS)[number];

export function isKeyedProvider(value: unknown): value is KeyedProvider {
  return typeof value === 'string' && (KEYED_PROVIDERS as readonly string[]).includes(value);
}

/** The variable a stored key goes under when the config names none. */
export function defaultKeyEnv(provider: KeyedProvider): string {
  return `AGENT_WARDEN_${provider.toUpperCase()}_API_KEY`;
}

/** The subset of vscode.SecretStorage used here. */
export interface SecretStore {
  get(key: string): Thenable<string | undefined>;
  store(key: string, value: string): Thenable<void>;
  delete(key: string): Thenable<void>;
}

export class JudgeKeys {
  private readonly keys = new Map<KeyedProvider, string>();
  /** Variables this class set in the tier's environment, with what was there before. */
  private readonly overlaid = new Map<string, { provider: KeyedProvider; before: string | undefined }>();
  /** The environment the semantic tier reads: a copy of the process's, plus the stored keys. */
  readonly env: Record<string, string | undefined>;

  constructor(
    private readonly secrets: SecretStore,
    baseEnv: Record<string, string | undefined> = process.env,
  ) {
    this.env = { ...baseEnv };
  }

  /** Reads every provider's key into memory (SecretStorage is asynchronous; the tier is not). */
  async load(): Promise<void> {
    await Promise.all(KEYED_PROVIDERS.map((provider) => this.reload(provider)));
  }

  async reload(provider: KeyedProvider): Promise<void> {
    const value = await this.secrets.get(provider);
    if (value) {
      this.keys.set(provider, value);
      return;
    }
    this.keys.delete(provider);
    for (const [name, entry] of [...this.overlaid]) if (entry.provider === provider) this.restore(name);
  }

  async set(provider: KeyedProvider, value: string): Promise<void> {
    const key = value.trim();
    if (key === '') await this.secrets.delete(provider);
    else await this.secrets.store(provider, key);
    await this.reload(provider);
  }

  has(provider: KeyedProvider): boolean {
    return this.keys.has(provider);
  }

  /**
   * The semantic config to evaluate with, and the tier's environment made to
   * match it: the stored key of the configured provider goes under
   * `semantic.apiKeyEnv` (or the default name, which the config then uses).
   */
  prepare(config: SemanticConfig): SemanticConfig {
    const provider = config.provider ?? 'systemone';
    if (!isKeyedProvider(provider)) return config;
    const name = this.overlay(provider, config.apiKeyEnv);
    return name === undefined || config.apiKeyEnv ? config : { ...config, apiKeyEnv: name };
  }

  /** The same for the Cloud review: the stored machine key goes under `cloud.keyEnv` (or the default name). */
  prepareCloud(config: CloudConfig): CloudConfig {
    if ((config.mode ?? 'off') === 'off') return config;
    const name = this.overlay('cloud', config.keyEnv);
    return name === undefined || config.keyEnv ? config : { ...config, keyEnv: name };
  }

  /** Puts the stored key of `provider` in the tier's environment; the variable's name, or undefined when none is stored. */
  private overlay(provider: KeyedProvider, configured: string | undefined): string | undefined {
    const key = this.keys.get(provider);
    if (!key) return undefined;
    const name = configured ?? defaultKeyEnv(provider);
    if (!this.overlaid.has(name)) this.overlaid.set(name, { provider, before: this.env[name] });
    this.env[name] = key;
    return name;
  }

  /** Puts back what the environment held under a name before a stored key was put there. */
  private restore(name: string): void {
    const entry = this.overlaid.get(name);
    if (!entry) return;
    this.overlaid.delete(name);
    const before = entry.before;
    if (before === undefined) delete this.env[name];
    else this.env[name] = before;
  }
}
