import type { Merged, Outcome } from '../types';
import type { ResolvedConfig } from '../config/load';
import type { CloudPart, Envelope, VerdictRecord } from '../verdict/record';
import { DEFAULT_CAPS } from '../semantic/caps';
import { CloudClients, machineKey } from '../cloud/client';
import { NO_SIDE_EFFECT_TOOLS } from '../cloud/contract';
import { degradedCloudPart, degradedCloudReview, runCloudReview, type CloudMode } from '../cloud/review';
import type { Caps } from '../semantic/caps';
import { decide, DEFAULT_THRESHOLDS, type SemanticDecision, type Thresholds } from '../semantic/decide';
import { buildEnvelope, type BuiltEnvelope } from '../semantic/envelope';
import { ReplyCache, requestKey, DEFAULT_CACHE_ENTRIES, DEFAULT_CACHE_TTL_MS } from '../semantic/judges/cache';
import {
  answererIdentity,
  defaultJudgeFactory,
  judgeIdentity,
  type JudgeFactory,
  type SemanticConfig,
} from '../semantic/judges/factory';
import { DEFAULT_TIMEOUT_MS } from '../semantic/judges/http';
import { DEFAULT_RATE_LIMIT, RateLimitedJudge, TokenBucket, type RateLimit } from '../semantic/judges/rate-limit';
import { checkAnswers, JudgeError, type Judge, type JudgeReply, type JudgeRequest } from '../semantic/judges/types';
import { mergeOutcomes } from '../semantic/merge';
import { combine } from '../verdict/combine';
import { selectQuestions, semanticPolicyNames, type QuestionSet } from '../semantic/questions';
import { SessionSecrets } from '../semantic/session-secrets';
import type { TranscriptReadOptions } from '../semantic/transcript';
import type { SemanticStartInput } from '../semantic/start';

// The contract between the evaluator and the semantic tier. The tier runs in
// parallel with the deterministic policies; the evaluator aborts it when a
// policy hard-denies, and lets it merge the outcomes otherwise.

export type { SemanticStartInput };

export interface SemanticResult {
  envelope: Envelope | null;
  redactions: VerdictRecord['redactions'];
  cut: VerdictRecord['cut'];
  status: VerdictRecord['semantic'];
  /** The semantic outcomes (empty when off or degraded). */
  outcomes: Outcome[];
  /** The Cloud review's part of the record, when `cloud.mode` is on. */
  cloud?: CloudPart;
  /** Combines the deterministic outcomes with the semantic ones under the tier's rules. */
  merge(deterministic: Outcome[]): Merged;
}

export interface SemanticRun {
  result: Promise<SemanticResult>;
  /** Stops the judge call; the returned result records why (and merges like combine). */
  abort(reason: string): SemanticResult;
}

export interface SemanticTier {
  /** Whether the tier runs for calls under this config (the local judge or Cloud is on). */
  isOn(config: ResolvedConfig): boolean;
  /** Undefined when the tier is off for this call's config. */
  start(input: SemanticStartInput): SemanticRun | undefined;
}

export interface SemanticTierOptions {
  /** Builds the judge from `semantic.*`; hosts pass their own for judges such as vscode-lm. */
  judgeFactory?: JudgeFactory;
  /** Where API keys and this process's secret-named variables are read; default process.env. */
  env?: Record<string, string | undefined>;
  /** Clock for the reply cache and the rate limiter. */
  now?: () => number;
  /** Key of the redaction allow-list hashes (the host's log key); the evaluator uses the same. */
  allowlistKey?: Buffer;
  caps?: Partial<Caps>;
  transcript?: TranscriptReadOptions;
  rateLimit?: RateLimit;
  cache?: { entries?: number; ttlMs?: number };
}

/** A tier that can also release the judges' pooled connections. */
export interface SemanticTierHandle extends SemanticTier {
  close(): Promise<void>;
}

const MAX_JUDGES = 8;

/** Every semantic policy turned off: the questions are then the global ones only. */
function allDisabled(): Record<string, { enabled: false }> {
  return Object.fromEntries(semanticPolicyNames().map((name) => [name, { enabled: false as const }]));
}

function thresholdsOf(config: SemanticConfig): Thresholds {
  const set = config.thresholds ?? {};
  return {
    fire: set.fire ?? DEFAULT_THRESHOLDS.fire,
    deny: set.deny ?? DEFAULT_THRESHOLDS.deny,
    injection: set.injection ?? DEFAULT_THRESHOLDS.injection,
    taskAgree: set.taskAgree ?? DEFAULT_THRESHOLDS.taskAgree,
    beyondTask: set.beyondTask ?? DEFAULT_THRESHOLDS.beyondTask,
  };
}

function summary(decision: SemanticDecision, asked: number): string {
  const fired = decision.verdicts.filter((v) => v.fired);
  const injection = decision.injectionSuspected ? '; injection suspected' : '';
  if (fired.length === 0) return `no semantic policy fired (${asked} asked)${injection}`;
  const list = fired
    .map((v) => `${v.policy} ${v.verdict}${v.change ? ` (${v.change})` : ''} ${(v.evidence ?? 0).toFixed(2)}`)
    .join(', ');
  return `fired: ${list}${injection}`;
}

/** Rejects when the signal aborts, so a judge that ignores its signal still cannot hold the call. */
function untilAborted(signal: AbortSignal, timeoutMs: number, timeout: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    const fail = (): void => {
      reject(
        timeout.aborted && !signal.aborted
          ? new JudgeError('timeout', `the judge did not answer within ${timeoutMs} ms`)
          : new JudgeError('aborted', 'the judge call was aborted'),
      );
    };
    const combined = AbortSignal.any([signal, timeout]);
    if (combined.aborted) fail();
    else combined.addEventListener('abort', fail, { once: true });
  });
}

export function createSemanticTier(options: SemanticTierOptions = {}): SemanticTierHandle {
  const env = options.env ?? process.env;
  const now = options.now ?? Date.now;
  const factory = options.judgeFactory ?? defaultJudgeFactory;
  const rateLimit = options.rateLimit ?? DEFAULT_RATE_LIMIT;
  const bucket = new TokenBucket(rateLimit, now);
  const replies = new ReplyCache(
    options.cache?.entries ?? DEFAULT_CACHE_ENTRIES,
    options.cache?.ttlMs ?? DEFAULT_CACHE_TTL_MS,
    now,
  );
  const judges = new Map<string, Judge>();
  const sessionSecrets = new SessionSecrets();
  const cloudClients = new CloudClients();

  function judgeFor(config: SemanticConfig): Judge {
    const identity = judgeIdentity(config, env);
    const existing = judges.get(identity);
    if (existing) return existing;
    const judge = new RateLimitedJudge(factory(config, { env }), bucket, rateLimit);
    judges.set(identity, judge);
    while (judges.size > MAX_JUDGES) {
      const [oldest, evicted] = judges.entries().next().value as [string, Judge];
      judges.delete(oldest);
      void evicted.close?.();
    }
    return judge;
  }

  function result(
    built: BuiltEnvelope,
    status: VerdictRecord['semantic'],
    decision: SemanticDecision | null,
    mode: 'observe' | 'enforce',
  ): SemanticResult {
    return {
      envelope: built.envelope,
      redactions: built.redactions,
      cut: built.cut,
      status,
      outcomes: decision?.outcomes ?? [],
      merge(deterministic: Outcome[]): Merged {
        const { merged, wouldDecide } = mergeOutcomes(deterministic, decision, mode);
        if (wouldDecide) status.wouldDecide = wouldDecide;
        return merged;
      },
    };
  }

  function degraded(
    built: BuiltEnvelope,
    reason: string,
    started: number,
    mode: 'observe' | 'enforce',
    cloudMode?: CloudMode,
  ): SemanticResult {
    const latencyMs = Math.round(performance.now() - started);
    const failed = result(built, { status: 'degraded', reason, latencyMs, model: null }, null, mode);
    return cloudMode ? { ...failed, cloud: degradedCloudPart(cloudMode, reason, latencyMs) } : failed;
  }

  async function ask(
    config: SemanticConfig,
    request: JudgeRequest,
    signal: AbortSignal,
  ): Promise<JudgeReply & { checked: Record<string, number> }> {
    const key = requestKey(answererIdentity(config), request);
    const cached = replies.get(key);
    if (cached) return { ...cached, checked: checkAnswers(request.questions, cached.answers) };
    const judge = judgeFor(config);
    const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const timeout = AbortSignal.timeout(timeoutMs);
    const reply = await Promise.race([
      judge.ask(request, AbortSignal.any([signal, timeout])),
      untilAborted(signal, timeoutMs, timeout),
    ]);
    const checked = checkAnswers(request.questions, reply.answers);
    replies.set(key, reply);
    return { ...reply, checked };
  }

  async function run(
    input: SemanticStartInput,
    built: BuiltEnvelope,
    selection: QuestionSet,
    mode: 'observe' | 'enforce',
    signal: AbortSignal,
    started: number,
  ): Promise<SemanticResult> {
    const config = input.config.semantic;
    try {
      const reply = await ask(config, { envelope: built.envelope, questions: selection.questions }, signal);
      const decision = decide({
        policies: selection.policies,
        answers: reply.checked,
        thresholds: thresholdsOf(config),
        taskProbes: selection.taskProbes,
        cut: built.cut,
        targetScanComplete: built.scan.complete,
        namedAllTargets: built.naming.named,
        unnamedTargets: built.naming.unnamed,
      });
      const status: VerdictRecord['semantic'] = {
        status: mode === 'observe' ? 'observe' : 'ok',
        reason: summary(decision, selection.policies.length),
        latencyMs: Math.round(performance.now() - started),
        model: reply.model,
      };
      return result(built, status, decision, mode);
    } catch (err) {
      const message = err instanceof JudgeError ? err.message : `the judge failed: ${(err as Error).message}`;
      return degraded(built, message, started, mode);
    }
  }

  async function runCloud(
    input: SemanticStartInput,
    built: BuiltEnvelope,
    selection: QuestionSet,
    semanticMode: 'off' | 'observe' | 'enforce',
    cloudMode: CloudMode,
    signal: AbortSignal,
    started: number,
  ): Promise<SemanticResult> {
    let review;
    try {
      const client = cloudClients.for(input.config.cloud);
      const key = machineKey(input.config.cloud, env);
      review = await runCloudReview({
        start: input,
        built,
        selection,
        semanticMode,
        cloudMode,
        thresholds: thresholdsOf(input.config.semantic),
        client,
        key,
        humanTurnCap: options.caps?.humanTurn ?? DEFAULT_CAPS.humanTurn,
        redaction: redactionFor(input),
        signal,
        started,
      });
    } catch (err) {
      review = degradedCloudReview(cloudMode, (err as Error).message, started);
    }
    const local = result(built, review.status, null, semanticMode === 'observe' ? 'observe' : 'enforce');
    return { ...local, cloud: review.cloud, merge: review.merge };
  }

  function redactionFor(input: SemanticStartInput) {
    const session = `${input.event.agent}:${input.event.sessionId}`;
    return {
      env,
      allowlist: { key: options.allowlistKey ?? Buffer.alloc(32), hashes: new Set(input.config.redactionAllowlist) },
      knownSecrets: sessionSecrets.known(session),
      onSecrets: (values: string[]) => sessionSecrets.remember(session, values),
    };
  }

  /** A call Cloud need not see (no side effects): nothing is sent, and the record says so. */
  function skippedByCloud(cloudMode: CloudMode, tool: string): SemanticResult {
    return {
      envelope: null,
      redactions: { count: 0, byLabel: {} },
      cut: { request: false, userSaid: false, truncated: false },
      status: { status: 'ok', reason: `${tool} has no side effects: not sent for review`, latencyMs: 0, model: null },
      outcomes: [],
      cloud: { ...degradedCloudPart(cloudMode, `${tool} has no side effects: not sent`, 0), status: 'skipped' },
      merge: (deterministic) => combine(deterministic),
    };
  }

  function startRun(
    input: SemanticStartInput,
    semanticMode: 'off' | 'observe' | 'enforce',
    cloudMode: CloudMode | undefined,
  ): SemanticRun {
    const started = performance.now();
    const mode = semanticMode === 'observe' ? 'observe' : 'enforce';
    const built = buildEnvelope({
      event: input.event,
      call: input.call,
      projectRoot: input.projectRoot,
      redaction: redactionFor(input),
      ...(options.caps ? { caps: options.caps } : {}),
      ...(options.transcript ? { transcriptOptions: options.transcript } : {}),
    });
    // With the local tier off, Cloud still gets the global questions (injection, the task probes).
    const selection = selectQuestions(
      input.call.face.family,
      built.hasHumanTurn,
      semanticMode === 'off' ? allDisabled() : input.config.semantic.policies,
    );
    const controller = new AbortController();
    let settled: SemanticResult | undefined;
    const running = cloudMode
      ? runCloud(input, built, selection, semanticMode, cloudMode, controller.signal, started)
      : run(input, built, selection, mode, controller.signal, started);
    const pending = running.then((r) => (settled ??= r));
    return {
      result: pending,
      abort(reason: string): SemanticResult {
        if (settled) return settled;
        settled = degraded(built, `aborted: ${reason}`, started, mode, cloudMode);
        controller.abort(reason);
        return settled;
      },
    };
  }

  const isOn = (config: ResolvedConfig): boolean =>
    (config.semantic.mode ?? 'off') !== 'off' || (config.cloud.mode ?? 'off') !== 'off';

  return {
    isOn,
    start(input: SemanticStartInput): SemanticRun | undefined {
      if (!isOn(input.config)) return undefined;
      const mode = input.config.semantic.mode ?? 'off';
      const cloudSetting = input.config.cloud.mode ?? 'off';
      const cloudMode = cloudSetting === 'off' ? undefined : cloudSetting;
      if (cloudMode && NO_SIDE_EFFECT_TOOLS.includes(input.call.toolName) && input.call.face.builtIn) {
        const skipped = skippedByCloud(cloudMode, input.call.toolName);
        return { result: Promise.resolve(skipped), abort: () => skipped };
      }
      try {
        return startRun(input, mode, cloudMode);
      } catch (err) {
        // A failure of the tier itself never costs the call its deterministic verdict.
        const failed: SemanticResult = {
          envelope: null,
          redactions: { count: 0, byLabel: {} },
          cut: { request: false, userSaid: false, truncated: false },
          status: {
            status: 'degraded',
            reason: `the semantic tier failed: ${(err as Error).message}`,
            latencyMs: null,
            model: null,
          },
          outcomes: [],
          ...(cloudMode
            ? { cloud: degradedCloudPart(cloudMode, `the semantic tier failed: ${(err as Error).message}`, null) }
            : {}),
          merge: (deterministic) => combine(deterministic),
        };
        return { result: Promise.resolve(failed), abort: () => failed };
      }
    },
    async close(): Promise<void> {
      const all = [...judges.values()];
      judges.clear();
      await Promise.all([...all.map(async (judge) => judge.close?.()), cloudClients.close()]);
    },
  };
}
