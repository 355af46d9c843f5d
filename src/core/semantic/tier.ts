import type { HookEvent, Merged, Outcome } from '../types';
import type { ResolvedConfig } from '../config/load';
import type { ToolCall } from '../policies/types';
import type { Envelope, VerdictRecord } from '../verdict/record';
import type { Caps } from './caps';
import { decide, DEFAULT_THRESHOLDS, type SemanticDecision, type Thresholds } from './decide';
import { buildEnvelope, type BuiltEnvelope } from './envelope';
import { ReplyCache, requestKey, DEFAULT_CACHE_ENTRIES, DEFAULT_CACHE_TTL_MS } from './judges/cache';
import {
  answererIdentity,
  defaultJudgeFactory,
  judgeIdentity,
  type JudgeFactory,
  type SemanticConfig,
} from './judges/factory';
import { DEFAULT_TIMEOUT_MS } from './judges/http';
import { DEFAULT_RATE_LIMIT, RateLimitedJudge, TokenBucket, type RateLimit } from './judges/rate-limit';
import { checkAnswers, JudgeError, type Judge, type JudgeReply, type JudgeRequest } from './judges/types';
import { mergeOutcomes } from './merge';
import { combine } from '../verdict/combine';
import { selectQuestions, type QuestionSet } from './questions';
import { SessionSecrets } from './session-secrets';
import type { TranscriptReadOptions } from './transcript';

// The contract between the evaluator and the semantic tier. The tier runs in
// parallel with the deterministic policies; the evaluator aborts it when a
// policy hard-denies, and lets it merge the outcomes otherwise.

export interface SemanticStartInput {
  event: HookEvent;
  call: ToolCall;
  config: ResolvedConfig;
  projectRoot: string;
}

export interface SemanticResult {
  envelope: Envelope | null;
  redactions: VerdictRecord['redactions'];
  cut: VerdictRecord['cut'];
  status: VerdictRecord['semantic'];
  /** The semantic outcomes (empty when off or degraded). */
  outcomes: Outcome[];
  /** Combines the deterministic outcomes with the semantic ones under the tier's rules. */
  merge(deterministic: Outcome[]): Merged;
}

export interface SemanticRun {
  result: Promise<SemanticResult>;
  /** Stops the judge call; the returned result records why (and merges like combine). */
  abort(reason: string): SemanticResult;
}

export interface SemanticTier {
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
  ): SemanticResult {
    return result(
      built,
      { status: 'degraded', reason, latencyMs: Math.round(performance.now() - started), model: null },
      null,
      mode,
    );
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

  function startRun(input: SemanticStartInput, mode: 'observe' | 'enforce'): SemanticRun {
    const started = performance.now();
    const session = `${input.event.agent}:${input.event.sessionId}`;
    const built = buildEnvelope({
      event: input.event,
      call: input.call,
      projectRoot: input.projectRoot,
      redaction: {
        env,
        allowlist: { key: options.allowlistKey ?? Buffer.alloc(32), hashes: new Set(input.config.redactionAllowlist) },
        knownSecrets: sessionSecrets.known(session),
        onSecrets: (values) => sessionSecrets.remember(session, values),
      },
      ...(options.caps ? { caps: options.caps } : {}),
      ...(options.transcript ? { transcriptOptions: options.transcript } : {}),
    });
    const selection = selectQuestions(input.call.face.family, built.hasHumanTurn, input.config.semantic.policies);
    const controller = new AbortController();
    let settled: SemanticResult | undefined;
    const pending = run(input, built, selection, mode, controller.signal, started).then((r) => (settled ??= r));
    return {
      result: pending,
      abort(reason: string): SemanticResult {
        if (settled) return settled;
        settled = degraded(built, `aborted: ${reason}`, started, mode);
        controller.abort(reason);
        return settled;
      },
    };
  }

  return {
    start(input: SemanticStartInput): SemanticRun | undefined {
      const mode = input.config.semantic.mode ?? 'off';
      if (mode === 'off') return undefined;
      try {
        return startRun(input, mode);
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
          merge: (deterministic) => combine(deterministic),
        };
        return { result: Promise.resolve(failed), abort: () => failed };
      }
    },
    async close(): Promise<void> {
      const all = [...judges.values()];
      judges.clear();
      await Promise.all(all.map(async (judge) => judge.close?.()));
    },
  };
}
