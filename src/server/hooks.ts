import type { Decision, HookEvent } from '../core/types';
import { adapterFor } from '../core/agents';
import type { AgentAdapter, ReplyInput } from '../core/agents';
import type { Evaluation, Evaluator } from '../core/evaluator';
import type { VerdictRecord } from '../core/verdict/record';
import { findRawProblem } from '../core/approvals/bodyBinding';
import { HOOK_BODY_LOCATIONS } from '../core/approvals/digest';

/** How an ask was settled, by a person in the panel or by handing it to the agent. */
export interface AskOutcome {
  decision: Decision;
  reason: string;
  /** True only when a person approved these exact bytes (or a licence for them exists). */
  consented: boolean;
  updatedInput?: Record<string, unknown>;
  /** Words for the model beside the decision (an edited approval says what changed). */
  additionalContext?: string;
  /** PermissionRequest with no answer yet: let the agent's own prompt decide. */
  passThrough?: boolean;
}

export interface AskContext {
  evaluation: Evaluation;
  /** Aborted when the agent hangs up. */
  signal: AbortSignal;
  headless: boolean;
}

/**
 * Decides what happens to calls that need a person: asks, and
 * PermissionRequests (which the ledger may already have an answer for).
 * Without one, an ask goes to the agent's own prompt (or is a deny headless).
 */
export interface AskHandler {
  handle(ctx: AskContext): Promise<AskOutcome | undefined>;
}

export interface HookServiceOptions {
  evaluator: Evaluator;
  failureDecision: () => Decision;
  asks?: AskHandler;
  onRecord?: (record: VerdictRecord) => void;
  onError?: (message: string) => void;
}

export interface HookReply {
  reply: Record<string, unknown>;
  record: VerdictRecord;
}

function failureReplyInput(event: string, decision: Decision, problem: string): ReplyInput {
  const reason = `Agent Warden could not evaluate this call: ${problem}`;
  return { event, decision, reason };
}

/** The agent-facing part of every host: body in, the agent's own reply out. Never throws. */
export class HookService {
  constructor(private readonly opts: HookServiceOptions) {}

  async handle(
    agent: string,
    bodyText: string | { problem: string },
    signal: AbortSignal,
    headless = false,
  ): Promise<HookReply> {
    const adapter = adapterFor(agent);
    const decision = this.opts.failureDecision();
    if (!adapter) {
      return this.failure(agent, 'PreToolUse', decision, `no adapter for agent "${agent}"`, undefined, (input) => ({
        hookSpecificOutput: {
          hookEventName: input.event,
          permissionDecision: input.decision,
          permissionDecisionReason: input.reason,
        },
      }));
    }
    const gate = adapter.eventNameOf(undefined);
    if (typeof bodyText !== 'string')
      return this.failure(agent, gate, decision, bodyText.problem, undefined, adapter.reply);
    let body: unknown;
    try {
      body = JSON.parse(bodyText);
    } catch (err) {
      return this.failure(
        agent,
        gate,
        decision,
        `the body is not valid JSON (${(err as Error).message})`,
        undefined,
        adapter.reply,
      );
    }
    const eventName = adapter.eventNameOf(body);
    // Everything from parsing on is inside the try: a throw here would become a
    // 500, which agents read as "go ahead".
    try {
      const parsed = adapter.parse(body, { headless });
      if (!parsed.ok) return this.failure(agent, eventName, decision, parsed.problem, body, adapter.reply);
      if (parsed.event.toolName !== undefined) {
        const rawProblem = findRawProblem(bodyText, HOOK_BODY_LOCATIONS);
        if (rawProblem) parsed.event.bindProblem = rawProblem;
      }
      return await this.evaluate(parsed.event, signal, headless, adapter);
    } catch (err) {
      this.opts.onError?.(`internal error on ${eventName}: ${(err as Error).stack ?? err}`);
      return this.failure(
        agent,
        eventName,
        decision,
        `an internal error (${(err as Error).message})`,
        body,
        adapter.reply,
      );
    }
  }

  private async evaluate(
    event: HookEvent,
    signal: AbortSignal,
    headless: boolean,
    adapter: AgentAdapter,
  ): Promise<HookReply> {
    const reply = adapter.reply;
    // An agent that cannot ask is like a headless run: nobody answers at its prompt.
    const noPrompt = headless || !adapter.canAsk(event.rawEventName);
    const evaluation = await this.opts.evaluator.evaluate(event);
    this.opts.onRecord?.(evaluation.record);
    const { merged } = evaluation;
    const context = merged.outcomes.map((o) => o.additionalContext).filter((c): c is string => !!c);
    const updatedOutput = merged.outcomes.find((o) => o.updatedOutput !== undefined)?.updatedOutput;
    const base: ReplyInput = { event: event.rawEventName, decision: merged.decision, reason: merged.reason };
    if (context.length) base.additionalContext = context.join('\n');
    if (updatedOutput !== undefined) base.updatedOutput = updatedOutput;

    const needsPerson =
      merged.decision === 'ask' || (event.event === 'PermissionRequest' && merged.decision !== 'deny');
    if (needsPerson && (event.event === 'PreToolUse' || event.event === 'PermissionRequest')) {
      const outcome = this.opts.asks
        ? await this.opts.asks.handle({ evaluation, signal, headless: noPrompt })
        : undefined;
      if (outcome) return { reply: reply({ ...base, ...outcome }), record: evaluation.record };
      if (merged.decision === 'ask' && noPrompt) {
        const reason = headless
          ? `${merged.reason}. No person can answer here (a headless run), so Warden refuses; approve it in the Warden panel or run interactively`
          : `${merged.reason}. ${adapter.displayName} cannot ask its user from a hook, so Warden refuses; open the Warden panel to approve such calls as they come, then let the agent retry`;
        return { reply: reply({ ...base, decision: 'deny', reason }), record: evaluation.record };
      }
      if (event.event === 'PermissionRequest')
        return { reply: reply({ ...base, passThrough: true }), record: evaluation.record };
    }
    return { reply: reply(base), record: evaluation.record };
  }

  private failure(
    agent: string,
    event: string,
    decision: Decision,
    problem: string,
    body: unknown,
    reply: (input: ReplyInput) => Record<string, unknown>,
  ): HookReply {
    let record: VerdictRecord;
    try {
      record = this.opts.evaluator.recordFailure(agent, problem, decision, body);
      this.opts.onRecord?.(record);
    } catch (err) {
      this.opts.onError?.(`could not record a failed call: ${(err as Error).message}`);
      record = undefined as unknown as VerdictRecord;
    }
    return { reply: reply(failureReplyInput(event, decision, problem)), record };
  }
}
