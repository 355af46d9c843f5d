import { randomUUID } from 'node:crypto';
import { userHome } from './state';
import type { Decision, HookEvent, Merged, Outcome } from './types';
import { configChanged, describeHeld, loadConfig, type HeldChange, type ResolvedConfig } from './config/load';
import type { ConfirmationStore } from './config/confirmations';
import { ProjectRoots } from './project';
import { initShellParser } from './shell';
import { loadCodeGrammars } from './interp';
import { ALL_POLICIES } from './policies/registry';
import { resolvePolicyStates, unknownPolicySettings, type PolicyState } from './policies/run';
import { SessionStore } from './policies/session';
import type { AnyPolicy, ToolCall } from './policies/types';
import { combine } from './verdict/combine';
import type { FactSource } from './facts/io';
import { nodeFactSource } from './facts/io-node';
import { sessionWriteStoreFor, type SessionWriteStore } from './facts/session-writes';
import {
  NO_APPROVAL,
  NO_CUT,
  RECORD_SCHEMA_VERSION,
  SEMANTIC_OFF,
  type CloudPart,
  type VerdictRecord,
} from './verdict/record';
import { Redactor } from './redaction';
import { bindArgs } from './approvals/digest';
import type { ActivityLog } from './activity/log';
import type { SemanticTier, SemanticResult } from './review/tier';
import { InProcessRunner } from './deterministic/in-process';
import { warmUpShellParser } from './shell/warm-up';
import type { DeterministicAnswer, DeterministicRunner, Unread } from './deterministic/runner';
import type { DeterministicInput } from './deterministic/run';

export interface EvaluatorOptions {
  stateDir: string;
  /** The folder of Warden's running program (the host's dist): agents' hook commands run files in it. */
  programDir?: string;
  cliConfigPath?: string;
  /** The host's trust answer for every project it serves (VS Code workspace trust, --trust-project). */
  trustProject?: boolean;
  log?: ActivityLog;
  home?: string;
  policies?: AnyPolicy[];
  /** The semantic tier, when a judge is configured. */
  semantic?: SemanticTier;
  onWarning?: (message: string) => void;
  /** How often config files are checked for changes (hot reload), and working folders for the project they belong to. */
  reloadCheckMs?: number;
  /** What a person confirmed per config file; with it, loosening changes wait for a person. */
  confirmations?: ConfirmationStore;
  /** Loosening changes found on a (re)load, held until a person confirms them. */
  onHeldChanges?: (held: HeldChange[], projectRoot: string) => void;
  /** The file system and git as the policies see them; tests pass a fake. */
  factSource?: FactSource;
  /**
   * Where the deterministic tier runs. Serve and the extension pass a DeterministicPool (workers a
   * deadline can stop, the host's event loop free meanwhile); without one it runs in-process with
   * `policies` and `factSource`, under vm's timeout.
   */
  deterministic?: DeterministicRunner;
}

/** A call the deterministic tier could not read in time is an ask only a person answers, never an allow. */
function unreadOutcome(unread: Unread): Outcome {
  return {
    policy: 'budget',
    tier: 'deterministic',
    verdict: 'ask',
    reason: `Warden ran out of time reading this call: ${unread.detail}; a person should look at it before it runs`,
    personOnly: true,
  };
}

interface ProjectState {
  config: ResolvedConfig;
  states: PolicyState[];
  checkedAt: number;
}

export interface Evaluation {
  event: HookEvent;
  call?: ToolCall;
  merged: Merged;
  /** The record as logged, with the plain digest (the log itself stores a keyed one). */
  record: VerdictRecord;
  config: ResolvedConfig;
}

/**
 * The evaluation core that every host shares: config per project (reloaded when
 * its files change), the deterministic tier, the optional semantic tier,
 * combine, the VerdictRecord and its log line.
 */
export class Evaluator {
  private readonly projects = new Map<string, ProjectState>();
  private readonly sessions = new SessionStore();
  private readonly policies: AnyPolicy[];
  private readonly home: string;
  private readonly sessionWrites: SessionWriteStore;
  private readonly deterministic: DeterministicRunner;
  /** Per session, the last call's deterministic run: calls of one session read its memory in order. */
  private readonly sessionTurns = new Map<string, Promise<unknown>>();
  private pausedUntil = 0;
  private readonly roots: ProjectRoots;

  constructor(private readonly opts: EvaluatorOptions) {
    this.roots = new ProjectRoots(opts.reloadCheckMs ?? DEFAULT_RELOAD_CHECK_MS);
    this.policies = opts.policies ?? ALL_POLICIES;
    this.home = opts.home ?? userHome();
    this.sessionWrites = sessionWriteStoreFor(opts.stateDir);
    this.deterministic = opts.deterministic ?? new InProcessRunner(this.policies, opts.factSource ?? nodeFactSource);
  }

  /** Stops the evaluation workers, if any. */
  async close(): Promise<void> {
    await this.deterministic.close();
  }

  /** Loads the shell parser; long-running hosts also warm it up (one-shot commands skip that). */
  static async ready(opts: { warmUp?: boolean } = {}): Promise<void> {
    await initShellParser();
    await loadCodeGrammars();
    if (opts.warmUp !== false) await warmUpShellParser();
  }

  /** The warm-up alone, for a host that would rather start serving first. */
  static warmUp(): Promise<void> {
    return warmUpShellParser();
  }

  get log(): ActivityLog | undefined {
    return this.opts.log;
  }

  /** The project roots calls have come from, for hosts that watch their config files. */
  projectRoots(): string[] {
    return [...this.projects.keys()];
  }

  configFor(projectRoot: string): ResolvedConfig {
    return this.projectState(projectRoot).config;
  }

  policyStates(projectRoot: string): PolicyState[] {
    return this.projectState(projectRoot).states;
  }

  /** Pauses enforcement: calls are still evaluated and recorded, but answered as no objection. */
  pause(minutes: number, now = Date.now()): void {
    this.pausedUntil = now + minutes * 60_000;
  }

  resume(): void {
    this.pausedUntil = 0;
  }

  isPaused(now = Date.now()): boolean {
    return now < this.pausedUntil;
  }

  private projectState(projectRoot: string): ProjectState {
    const now = Date.now();
    const existing = this.projects.get(projectRoot);
    const interval = this.opts.reloadCheckMs ?? DEFAULT_RELOAD_CHECK_MS;
    if (
      existing &&
      (now - existing.checkedAt < interval || !configChanged(existing.config.files, this.opts.confirmations))
    ) {
      existing.checkedAt = now;
      return existing;
    }
    const config = loadConfig({
      stateDir: this.opts.stateDir,
      projectRoot,
      ...(this.opts.cliConfigPath ? { cliConfigPath: this.opts.cliConfigPath } : {}),
      ...(this.opts.trustProject !== undefined ? { trustProject: this.opts.trustProject } : {}),
      ...(this.opts.confirmations ? { confirmations: this.opts.confirmations } : {}),
    });
    for (const message of [...config.errors, ...config.warnings]) this.opts.onWarning?.(message);
    if (config.held.length) {
      if (this.opts.onHeldChanges) this.opts.onHeldChanges(config.held, projectRoot);
      else for (const held of config.held) this.opts.onWarning?.(describeHeld(held));
    }
    const states = resolvePolicyStates(this.policies, config);
    for (const message of unknownPolicySettings(this.policies, config)) this.opts.onWarning?.(message);
    for (const state of states) if (state.error) this.opts.onWarning?.(state.error);
    const fresh = { config, states, checkedAt: now };
    this.projects.set(projectRoot, fresh);
    return fresh;
  }

  /** Screens a tool call the way a hook event would be (used to re-screen an edited approval). */
  async screen(event: HookEvent): Promise<{ decision: Decision; reason: string; outcomes: Outcome[] }> {
    const { merged } = await this.decide(event, { record: false });
    return { decision: merged.decision, reason: merged.reason, outcomes: merged.outcomes };
  }

  async evaluate(event: HookEvent): Promise<Evaluation> {
    const result = await this.decide(event, { record: true });
    return result;
  }

  private async decide(event: HookEvent, opts: { record: boolean }): Promise<Evaluation> {
    const started = performance.now();
    const projectRoot = this.roots.rootOf(event.cwd || process.cwd());
    const { config } = this.projectState(projectRoot);
    const sessionKey = `${event.agent}:${event.sessionId}`;
    const answer = await this.runDeterministic(event, projectRoot, config, sessionKey);
    const call = answer.ok ? answer.call : undefined;
    const read = answer.ok ? answer.read : undefined;
    const outcomes = answer.ok ? answer.outcomes : [unreadOutcome(answer)];
    const ioRecords = answer.ok ? answer.ioRecords : [];

    const semanticRun =
      this.opts.semantic && call ? this.opts.semantic.start({ event, call, config, projectRoot }) : undefined;
    let semantic: SemanticResult | undefined;
    if (semanticRun) {
      const hardDeny = outcomes.some((o) => o.verdict === 'deny' && !o.reviewableBy?.length);
      semantic = hardDeny ? notAsked(semanticRun.abort(SKIPPED_AFTER_DENY)) : await semanticRun.result;
    }
    const merged = semantic ? semantic.merge(outcomes) : combine(outcomes);
    if (opts.record && read && event.event === 'PreToolUse' && merged.decision !== 'deny')
      this.rememberWrites(sessionKey, read.written);
    // A call of this session waiting on this one's turn goes to the evaluation worker before this one's
    // record is built, so the worker evaluates it meanwhile instead of idling: a worker that waits
    // between calls starts each with cold caches (bench/replay: 0.6 ms pauses made each call ~50% slower).
    if (this.sessionTurns.has(sessionKey)) await nextTurnOfTheLoop();
    const paused = this.isPaused();
    const record = this.buildRecord(
      event,
      call,
      merged,
      config,
      semantic,
      performance.now() - started,
      paused,
      projectRoot,
    );
    const redactor = this.redactorFor(config);
    record.facts = {
      io: ioRecords.map((r) => ({
        ...r,
        arg: redactor.redactText(r.arg).text,
        answer: redactor.redactText(r.answer).text,
      })),
      unread: (read?.unread ?? []).map((u) => ({ reason: u.reason, detail: redactor.redactText(u.detail).text })),
    };
    if (opts.record) this.opts.log?.append(this.forLog(record));
    if (paused)
      return {
        event,
        ...(call ? { call } : {}),
        merged: { ...merged, decision: 'allow', reason: `enforcement paused: ${merged.reason}` },
        record,
        config,
      };
    return { event, ...(call ? { call } : {}), merged, record, config };
  }

  /**
   * The deterministic tier for one call. Calls of one session take turns, so each reads what the one
   * before remembered; a turn waits at most one budget for the call ahead of it, then runs anyway.
   */
  private async runDeterministic(
    event: HookEvent,
    projectRoot: string,
    config: ResolvedConfig,
    sessionKey: string,
  ): Promise<DeterministicAnswer> {
    const ahead = this.sessionTurns.get(sessionKey);
    const turn = (async () => {
      if (ahead) await waitAtMost(ahead, config.deterministicBudgetMs);
      const input: DeterministicInput = {
        event,
        projectRoot,
        home: this.home,
        stateDir: this.opts.stateDir,
        programDir: this.opts.programDir,
        session: this.sessions.entriesOf(sessionKey),
        sessionKey,
        wholeCall: this.opts.semantic?.isOn(config) ?? false,
      };
      const answer = await this.deterministic.run(input, config);
      if (answer.ok) this.sessions.apply(sessionKey, answer.sessionWrites);
      return answer;
    })();
    this.sessionTurns.set(sessionKey, turn);
    try {
      return await turn;
    } finally {
      if (this.sessionTurns.get(sessionKey) === turn) this.sessionTurns.delete(sessionKey);
    }
  }

  /**
   * Files this call writes (a file tool's target, a redirect, a copy), kept per session so that
   * running one of them later is read like inline code. A store that cannot be written only
   * loses that memory; the call itself is unaffected.
   */
  private rememberWrites(sessionKey: string, written: string[]): void {
    try {
      this.sessionWrites.record(sessionKey, written);
    } catch (err) {
      this.opts.onWarning?.(`could not record this session's written files: ${(err as Error).message}`);
    }
  }

  /** The redactor a call from this project is recorded with: what a person adds to it later goes through it too. */
  redactorForProject(projectRoot: string): Redactor {
    return this.redactorFor(this.configFor(projectRoot));
  }

  // One redactor per loaded config: building one reads the whole process
  // environment for secret values, which cost more than the policies per call.
  private readonly redactors = new WeakMap<ResolvedConfig, Redactor>();
  private redactorFor(config: ResolvedConfig): Redactor {
    let redactor = this.redactors.get(config);
    if (!redactor) {
      redactor = new Redactor({ allowlist: { key: this.allowlistKey(), hashes: new Set(config.redactionAllowlist) } });
      this.redactors.set(config, redactor);
    }
    return redactor;
  }

  private failureRedactor: Redactor | undefined;

  private allowlistKeyCache: Buffer | undefined;
  private allowlistKey(): Buffer {
    // The log key doubles as the allow-list key: both are this user's private keyed hashes.
    this.allowlistKeyCache ??= this.opts.log?.key ?? Buffer.alloc(32);
    return this.allowlistKeyCache;
  }

  private buildRecord(
    event: HookEvent,
    call: ToolCall | undefined,
    merged: Merged,
    config: ResolvedConfig,
    semantic: SemanticResult | undefined,
    latencyMs: number,
    paused: boolean,
    projectRoot: string,
  ): VerdictRecord {
    const redactor = this.redactorFor(config);
    const text = (value: string) => redactor.redactText(value).text;
    const redactedInput = event.toolInput ? redactor.redactJson(event.toolInput, 'blunt') : undefined;
    let digest: string | null = null;
    let notBindable: string | undefined;
    if (event.bindProblem) notBindable = event.bindProblem;
    else if (event.toolName && event.toolInput) {
      const binding = bindArgs(event.toolName, event.toolInput);
      if (binding.ok) digest = binding.digest;
      else notBindable = binding.problem;
    }
    const outcomes = merged.outcomes.map((o) => ({
      ...o,
      reason: redactor.redactText(o.reason).text,
      ...(o.evidence ? { evidence: redactor.redactText(o.evidence).text } : {}),
    }));
    const record: VerdictRecord = {
      type: 'record',
      schemaVersion: RECORD_SCHEMA_VERSION,
      id: randomUUID(),
      ts: new Date().toISOString(),
      // Every string the agent sent goes through the redactor, not the arguments alone.
      agent: text(event.agent),
      event: text(event.rawEventName),
      sessionId: text(event.sessionId),
      cwd: text(event.cwd),
      projectRoot: text(projectRoot),
      toolName: event.toolName === undefined ? null : text(event.toolName),
      ...(event.toolUseId ? { toolUseId: text(event.toolUseId) } : {}),
      toolInput: redactedInput?.value ?? null,
      argsDigest: digest,
      decision: merged.decision,
      reason: redactor.redactText(merged.reason).text,
      outcomes,
      envelope: semantic?.envelope ?? null,
      redactions: {
        ...(semantic?.redactions ?? { count: redactedInput?.count ?? 0, byLabel: redactedInput?.byLabel ?? {} }),
        inArguments: redactedInput?.count ?? 0,
      },
      cut: semantic?.cut ?? NO_CUT,
      semantic: semantic?.status ?? SEMANTIC_OFF,
      approval: NO_APPROVAL,
      latencyMs: Math.round(latencyMs * 1000) / 1000,
    };
    if (semantic?.cloud) record.cloud = this.redactedCloudPart(semantic.cloud, redactor);
    if (notBindable) record.notBindable = text(notBindable);
    if (paused) record.paused = true;
    // Observe mode: what the judge found is shown beside the enforced outcomes, never merged into them.
    if (semantic?.status.status === 'observe')
      record.outcomes.push(
        ...semantic.outcomes
          .filter((o) => o.verdict !== 'allow')
          .map((o) => ({ ...o, reason: redactor.redactText(o.reason).text, observed: true })),
      );
    return record;
  }

  /** Cloud's reasons are text from outside: redacted like every other reason before the log or the panel. */
  private redactedCloudPart(part: CloudPart, redactor: Redactor): CloudPart {
    const text = (value: string): string => redactor.redactText(value).text;
    return {
      ...part,
      reason: part.reason === null ? null : text(part.reason),
      outcomes: part.outcomes.map((o) => ({ ...o, reason: o.reason === null ? null : text(o.reason) })),
      observed: part.observed.map((o) => ({ ...o, reason: text(o.reason) })),
    };
  }

  /** The log keeps a keyed digest, never the plain one. */
  forLog(record: VerdictRecord): VerdictRecord {
    if (!this.opts.log) return record;
    return { ...record, argsDigest: this.opts.log.keyedDigest(record.argsDigest) };
  }

  /** Records a call that could not be evaluated (bad body, internal error) so no row is lost. */
  recordFailure(agent: string, problem: string, decision: Decision, body?: unknown): VerdictRecord {
    const redactor = (this.failureRedactor ??= new Redactor({}));
    const text = (value: string) => redactor.redactText(value).text;
    const field = (name: string): string | undefined => {
      const value = (body as Record<string, unknown> | undefined)?.[name];
      return typeof value === 'string' ? value : undefined;
    };
    const cwd = field('cwd');
    const record: VerdictRecord = {
      type: 'record',
      schemaVersion: RECORD_SCHEMA_VERSION,
      id: randomUUID(),
      ts: new Date().toISOString(),
      agent: text(agent),
      event: text(field('hook_event_name') ?? 'unknown'),
      sessionId: text(field('session_id') ?? 'unknown'),
      toolName: field('tool_name') === undefined ? null : text(field('tool_name')!),
      toolInput: null,
      argsDigest: null,
      decision,
      reason: redactor.redactText(problem).text,
      outcomes: [
        { policy: 'failure', tier: 'deterministic', verdict: decision, reason: redactor.redactText(problem).text },
      ],
      envelope: null,
      redactions: { count: 0, byLabel: {} },
      cut: NO_CUT,
      semantic: SEMANTIC_OFF,
      approval: NO_APPROVAL,
      latencyMs: 0,
      failure: redactor.redactText(problem).text,
    };
    if (cwd !== undefined) record.cwd = text(cwd);
    this.opts.log?.append(record);
    return record;
  }
}

/** How often a config file, and the project a working folder belongs to, are checked again. */
const DEFAULT_RELOAD_CHECK_MS = 250;
const SKIPPED_AFTER_DENY = 'a deterministic policy denied the call';

/** The judge was not asked because a deterministic policy already denied: that is no degradation. */
function notAsked(result: SemanticResult): SemanticResult {
  const reason = `not asked: ${SKIPPED_AFTER_DENY}`;
  const cloud = result.cloud ? { ...result.cloud, status: 'skipped' as const, reason } : undefined;
  return { ...result, status: { ...result.status, status: 'off', reason }, ...(cloud ? { cloud } : {}) };
}

/** Waits for `promise` (its outcome ignored), or `ms`, whichever comes first. */
async function waitAtMost(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  try {
    await Promise.race([promise.then(noop, noop), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function noop(): void {}

/** Resolves after the promise callbacks queued now have run (setImmediate runs after them). */
function nextTurnOfTheLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
