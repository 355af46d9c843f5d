// A resolved config, as loadConfig would give it: the defaults (no file read, the project untrusted)
// unless a test says otherwise:
//   aConfig().build()                                   every policy at its defaults
//   aConfig().policy('secret-reads', { extraPaths }).build()
//   aConfig().semantic({ judge: … }).trusted().build()
import { defaultConfig, type PolicySetting, type ResolvedConfig } from '../../src/core/config/load';

export class ConfigBuilder {
  private readonly config: ResolvedConfig = defaultConfig();

  /** Turns the named policy on (whatever its default) with these parameters, as the user's file would. */
  policy(name: string, params: Record<string, unknown> = {}, setting: Partial<PolicySetting> = {}): this {
    this.config.policySettings.set(name, { enabled: true, enabledSource: 'user', params, ...setting });
    return this;
  }

  semantic(semantic: ResolvedConfig['semantic']): this {
    this.config.semantic = semantic;
    return this;
  }

  cloud(cloud: ResolvedConfig['cloud']): this {
    this.config.cloud = cloud;
    return this;
  }

  redactionAllowlist(patterns: string[]): this {
    this.config.redactionAllowlist = patterns;
    return this;
  }

  /** The project's own config file counts (its folder is trusted). */
  trusted(trusted = true): this {
    this.config.projectTrusted = trusted;
    return this;
  }

  /** Any other field, set as is. */
  with(fields: Partial<ResolvedConfig>): this {
    Object.assign(this.config, fields);
    return this;
  }

  build(): ResolvedConfig {
    return this.config;
  }
}

export function aConfig(): ConfigBuilder {
  return new ConfigBuilder();
}
