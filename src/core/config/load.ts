import { existsSync, readFileSync, statSync } from 'node:fs';
import { userHome } from '../state';
import { join, resolve } from 'node:path';
import { isInside, resolvePath } from '../shell/paths';
import { configSchema, type ConfigScope, type WardenConfigFile } from './schema';
import { describeConfigIssues } from './errors';
import { FaceBook, parseToolFaces } from './faces';
import type { ToolFace } from './faces';
import type { ConfirmationStore } from './confirmations';
import { classifyConfigChange, type ConfigChange } from './loosening';
import { splitTightening } from './split';

export interface PolicySetting {
  enabled?: boolean;
  enabledSource?: ConfigScope;
  params: Record<string, unknown>;
  paramsSource?: ConfigScope;
  /** List items an untrusted project adds on top of the merged (and default) lists. */
  appendParams?: Record<string, unknown[]>;
}

export interface ScopeFile {
  scope: ConfigScope;
  path: string;
  present: boolean;
  /** mtime and size, for hot reload. */
  stamp: string;
}

export interface ResolvedConfig {
  policySettings: Map<string, PolicySetting>;
  faces: FaceBook;
  allowTools?: string[];
  redactionAllowlist: string[];
  semantic: NonNullable<WardenConfigFile['semantic']>;
  /** Org-managed checks; only from the user scope, the --config file or a trusted project. */
  cloud: NonNullable<WardenConfigFile['cloud']>;
  approvalsTimeoutSeconds: number;
  failureDecision: 'deny' | 'ask' | 'allow';
  /** Milliseconds the deterministic tier may spend on one call before the call counts as unread. */
  deterministicBudgetMs: number;
  logMaxBytes: number;
  logKeep: number;
  trustedRoots: string[];
  projectTrusted: boolean;
  files: ScopeFile[];
  /** Problems that made a file (or a face) be refused; each names the file and the key. */
  errors: string[];
  /** Settings ignored because the project is not trusted. */
  warnings: string[];
  /** Loosening changes not in force until a person confirms them. */
  held: HeldChange[];
}

export interface LoadOptions {
  stateDir: string;
  projectRoot: string;
  cliConfigPath?: string;
  /** The host's own trust answer (VS Code workspace trust, or --trust-project). */
  trustProject?: boolean;
  /** The home folder for `~` in trustedRoots; defaults to the current user's. */
  home?: string;
  /**
   * What a person confirmed per file. With it (every host passes it), a change to the
   * user, project or local file that is not proven to tighten is held: the last
   * confirmed version stays in force until a person confirms the new one.
   */
  confirmations?: ConfirmationStore;
}

/** A config file change that loosens protection and waits for a person. */
export interface HeldChange {
  scope: ConfigScope;
  path: string;
  /** The file's text that would apply once confirmed (null: the file was removed). */
  text: string | null;
  /** What waits: the loosening keys (the tightening part of a mixed change applies at once). */
  changes: ConfigChange[];
  /** Set when the new text cannot be read as config at all. */
  problem?: string;
}

import {
  DEFAULT_APPROVAL_TIMEOUT_SECONDS,
  DEFAULT_DETERMINISTIC_BUDGET_MS,
  DEFAULT_LOG_KEEP,
  DEFAULT_LOG_MAX_BYTES,
} from './defaults';

export { DEFAULT_APPROVAL_TIMEOUT_SECONDS, DEFAULT_DETERMINISTIC_BUDGET_MS, DEFAULT_LOG_KEEP, DEFAULT_LOG_MAX_BYTES };

/** The config with no file read: every setting at its default, the project untrusted. */
export function defaultConfig(): ResolvedConfig {
  return {
    policySettings: new Map(),
    faces: new FaceBook(new Map()),
    redactionAllowlist: [],
    semantic: {},
    cloud: {},
    approvalsTimeoutSeconds: DEFAULT_APPROVAL_TIMEOUT_SECONDS,
    failureDecision: 'deny',
    deterministicBudgetMs: DEFAULT_DETERMINISTIC_BUDGET_MS,
    logMaxBytes: DEFAULT_LOG_MAX_BYTES,
    logKeep: DEFAULT_LOG_KEEP,
    trustedRoots: [],
    projectTrusted: false,
    files: [],
    errors: [],
    warnings: [],
    held: [],
  };
}

export function scopeFiles(opts: LoadOptions): { scope: ConfigScope; path: string }[] {
  const files: { scope: ConfigScope; path: string }[] = [
    { scope: 'user', path: join(opts.stateDir, 'config.json') },
    { scope: 'project', path: join(opts.projectRoot, '.agent-warden', 'config.json') },
    { scope: 'local', path: join(opts.projectRoot, '.agent-warden', 'config.local.json') },
  ];
  if (opts.cliConfigPath) files.push({ scope: 'cli', path: resolve(opts.cliConfigPath) });
  return files;
}

function stampOf(path: string): string {
  try {
    const st = statSync(path);
    // The inode catches a file replaced by rename with the same size within one mtime tick.
    return `${st.mtimeMs}:${st.size}:${st.ino}`;
  } catch {
    return 'absent';
  }
}

interface ScopeRead {
  /** null: the file is absent. */
  text: string | null;
  /** undefined: absent, unreadable or refused (the error says why). */
  data: WardenConfigFile | undefined;
}

function readScopeFile(path: string, errors: string[]): ScopeRead {
  if (!existsSync(path)) return { text: null, data: undefined };
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    errors.push(`${path}: cannot be read (${(err as Error).message})`);
    return { text: null, data: undefined };
  }
  return { text, data: parseScopeText(path, text, errors) };
}

function parseScopeText(path: string, text: string, errors: string[]): WardenConfigFile | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    errors.push(`${path}: not valid JSON (${(err as Error).message})`);
    return undefined;
  }
  const parsed = configSchema.safeParse(json);
  if (!parsed.success) {
    errors.push(...describeConfigIssues(path, parsed.error));
    return undefined;
  }
  return parsed.data;
}

/**
 * Merges the scopes in order user < project < local < cli. An untrusted project
 * scope may only tighten: it can turn policies on, narrow the tool allow list and
 * make failures deny, but what would loosen is ignored with a warning.
 */
export function loadConfig(opts: LoadOptions): ResolvedConfig {
  const errors: string[] = [];
  const warnings: string[] = [];
  const files: ScopeFile[] = [];
  const scopes: { scope: ConfigScope; path: string; data: WardenConfigFile }[] = [];
  const held: HeldChange[] = [];
  for (const file of scopeFiles(opts)) {
    if (file.scope === 'cli' && !existsSync(file.path)) errors.push(`${file.path}: the --config file does not exist`);
    const read = readScopeFile(file.path, errors);
    // The --config file is named by the person on the command line; the others are files an agent can write.
    const gated =
      opts.confirmations && file.scope !== 'cli'
        ? gateScope(file, read, opts.confirmations, errors)
        : { data: read.data };
    if (gated.held) held.push(gated.held);
    const confirmationStamp = opts.confirmations && file.scope !== 'cli' ? opts.confirmations.stamp(file.path) : '';
    files.push({ ...file, present: existsSync(file.path), stamp: `${stampOf(file.path)}|${confirmationStamp}` });
    if (gated.data) scopes.push({ ...file, data: gated.data });
  }
  const user = scopes.find((s) => s.scope === 'user')?.data;
  // Only the user's own config can trust a project; a root trusts the projects below it too.
  const home = opts.home ?? userHome();
  const trustedRoots = (user?.trustedRoots ?? []).map((p) => resolvePath(p, '/', home));
  const projectRootAbs = resolvePath(opts.projectRoot, '/', home);
  const projectTrusted = opts.trustProject === true || trustedRoots.some((root) => isInside(projectRootAbs, root));
  for (const scope of scopes) {
    if (scope.scope !== 'user' && scope.data.trustedRoots)
      warnings.push(
        `${scope.path}: trustedRoots ignored: only the user config (${join(opts.stateDir, 'config.json')}) can trust projects`,
      );
  }

  const resolved: ResolvedConfig = {
    ...defaultConfig(),
    trustedRoots,
    projectTrusted,
    files,
    errors,
    warnings,
    held,
  };
  const faces = new Map<string, ToolFace>();

  for (const { scope, path, data } of scopes) {
    const tightenOnly = scope === 'project' && !projectTrusted;
    const ignored = (key: string) =>
      warnings.push(`${path}: ${key} ignored: the project is not trusted, so its config may only tighten`);
    for (const [name, setting] of Object.entries(data.policies ?? {})) {
      const current = resolved.policySettings.get(name) ?? { params: {} };
      if (setting.enabled !== undefined) {
        if (tightenOnly && setting.enabled === false) ignored(`policies.${name}.enabled=false`);
        else {
          current.enabled = setting.enabled;
          current.enabledSource = scope;
        }
      }
      if (setting.params) {
        if (tightenOnly)
          mergeTighteningParams(current, setting.params, scope, () => ignored(`policies.${name}.params`));
        else {
          current.params = { ...current.params, ...setting.params };
          current.paramsSource = scope;
        }
      }
      resolved.policySettings.set(name, current);
    }
    if (data.toolFaces) {
      if (tightenOnly) ignored('toolFaces');
      else {
        // Each scope's faces are checked on their own, so an error names its file; a refused
        // face leaves whatever an earlier scope declared for that tool in place.
        const parsed = parseToolFaces(data.toolFaces);
        errors.push(...parsed.errors.map((e) => `${path}: ${e.message}`));
        for (const [tool, face] of parsed.faces) faces.set(tool, face);
      }
    }
    if (data.allowTools) {
      // Narrowing: a later scope's list intersects what an earlier one allowed.
      resolved.allowTools = resolved.allowTools
        ? resolved.allowTools.filter((t) => data.allowTools!.includes(t))
        : [...data.allowTools];
    }
    if (data.redaction?.allowlist) {
      if (tightenOnly) ignored('redaction.allowlist');
      else resolved.redactionAllowlist.push(...data.redaction.allowlist);
    }
    if (data.semantic) {
      if (tightenOnly) ignored('semantic');
      else
        resolved.semantic = {
          ...resolved.semantic,
          ...data.semantic,
          thresholds: { ...resolved.semantic.thresholds, ...data.semantic.thresholds },
        };
    }
    if (data.cloud) {
      // Stricter than tighten-only: a cloned repository must not choose where the person's words
      // go, not even to turn Cloud on, so an untrusted project's cloud block is ignored whole.
      if ((scope === 'project' || scope === 'local') && !projectTrusted) ignored('cloud');
      else resolved.cloud = { ...resolved.cloud, ...data.cloud };
    }
    if (data.approvals?.timeoutSeconds !== undefined) {
      if (tightenOnly) ignored('approvals.timeoutSeconds');
      else resolved.approvalsTimeoutSeconds = data.approvals.timeoutSeconds;
    }
    if (data.failure?.decision !== undefined) {
      if (tightenOnly && data.failure.decision !== 'deny') ignored('failure.decision');
      else resolved.failureDecision = data.failure.decision;
    }
    const budgetMs = data.budget?.deterministicMs;
    if (budgetMs !== undefined) {
      // A shorter budget only turns more calls into asks, so an untrusted project may lower it.
      if (tightenOnly && budgetMs > resolved.deterministicBudgetMs) ignored('budget.deterministicMs');
      else resolved.deterministicBudgetMs = budgetMs;
    }
    if (data.log && tightenOnly) ignored('log');
    if (data.log?.maxBytes !== undefined && !tightenOnly) resolved.logMaxBytes = data.log.maxBytes;
    if (data.log?.keep !== undefined && !tightenOnly) resolved.logKeep = data.log.keep;
  }

  resolved.faces = new FaceBook(faces);
  return resolved;
}

// An untrusted project may add deny patterns (list-valued params grow) but not
// replace or remove anything the other scopes set.
function mergeTighteningParams(
  current: PolicySetting,
  params: Record<string, unknown>,
  scope: ConfigScope,
  onIgnored: () => void,
): void {
  let ignoredSomething = false;
  for (const [key, value] of Object.entries(params)) {
    const isDenyList = /^(deny|block|protected)/i.test(key) && Array.isArray(value);
    if (!isDenyList) {
      ignoredSomething = true;
      continue;
    }
    current.appendParams = { ...current.appendParams, [key]: [...(current.appendParams?.[key] ?? []), ...value] };
    current.paramsSource = current.paramsSource ?? scope;
  }
  if (ignoredSomething) onIgnored();
}

/**
 * The version of one scope file that is in force: the file itself when it is
 * what a person confirmed or only tightens that, else the confirmed version
 * (none confirmed: no settings), with the change held for a person.
 */
function gateScope(
  file: { scope: ConfigScope; path: string },
  read: ScopeRead,
  store: ConfirmationStore,
  errors: string[],
): { data: WardenConfigFile | undefined; held?: HeldChange } {
  const confirmed = store.get(file.path);
  if (confirmed !== undefined && confirmed.text === read.text) return { data: read.data };
  if (confirmed === undefined && read.text === null) return { data: undefined };
  // The confirmed text parsed before; a refused one (a schema change since) counts as no settings.
  const baseline =
    confirmed?.text !== null && confirmed?.text !== undefined
      ? (parseScopeText(file.path, confirmed.text, []) ?? {})
      : {};
  const unreadable = read.text !== null && read.data === undefined;
  if (!unreadable) {
    const changes = classifyConfigChange(baseline, read.data ?? {});
    if (changes.every((c) => c.effect === 'tightens')) {
      try {
        store.confirm(file.path, read.text, 'tightening');
      } catch (err) {
        errors.push(`${file.path}: a tightening change applies, but could not be recorded (${(err as Error).message})`);
      }
      return { data: read.data };
    }
    const split = splitTightening(baseline, read.data ?? {}, changes);
    if (split) {
      // The tightening part becomes the baseline at once, so undoing it later is a loosening too.
      try {
        store.confirm(file.path, JSON.stringify(split.inForce), 'tightening');
      } catch (err) {
        errors.push(`${file.path}: the tightening part applies, but could not be recorded (${(err as Error).message})`);
      }
      return {
        data: split.inForce,
        held: { scope: file.scope, path: file.path, text: read.text, changes: split.waiting },
      };
    }
    return {
      data: confirmed ? baseline : undefined,
      held: { scope: file.scope, path: file.path, text: read.text, changes },
    };
  }
  return {
    data: confirmed ? baseline : undefined,
    held: {
      scope: file.scope,
      path: file.path,
      text: read.text,
      changes: [],
      problem: 'the file cannot be read as Warden config, so the settings it replaces would be dropped',
    },
  };
}

/** One line per held change, for the person: which file, what loosens, how to confirm. */
export function describeHeld(held: HeldChange): string {
  const loosening = held.changes.filter((c) => c.effect === 'loosens').map((c) => c.detail);
  const what = held.problem ?? loosening.join('; ');
  return `${held.path} (${held.scope} config) would loosen protection: ${what}. Held: the last confirmed version stays in force until a person confirms this change in VS Code or at the agent-warden serve terminal`;
}

/** True when any scope file (or its confirmation) changed since `files` was read. */
export function configChanged(files: ScopeFile[], confirmations?: ConfirmationStore): boolean {
  return files.some(
    (f) => `${stampOf(f.path)}|${confirmations && f.scope !== 'cli' ? confirmations.stamp(f.path) : ''}` !== f.stamp,
  );
}
