import type { Decision, HookEvent } from '../core/types';
import type { Evaluator } from '../core/evaluator';
import type { ActivityLog } from '../core/activity/log';
import { ApprovalLedger, waitedSeconds, type LedgerClock } from '../core/approvals/ledger';
import { approvalLine, approvalSummary, type ApprovalLine } from '../core/approvals/approvalLine';
import { bindArgs, type ArgsBinding } from '../core/approvals/digest';
import type { AnsweredResolution, PendingApproval, Resolution } from '../core/approvals/approvalTypes';
import type { ApprovalInfo, VerdictRecord } from '../core/verdict/record';
import type { Redactor } from '../core/redaction';
import type { AnswerResult, ApprovalAnswer, HostNotification, PendingView, ResolutionView } from '../protocol';
import type { AskContext, AskHandler, AskOutcome } from './hooks';
import { RecordBuffer } from './records';
import { findProjectRoot } from '../core/project';
import { StringPool } from './stringPool';

// Where an ask goes. With a panel connected, the agent's PreToolUse request is
// held until a person answers or the deadline passes. Without one (or at the
// deadline) the ask goes to the agent's own prompt, and the agent's
// PermissionRequest is answered from the ledger if the person answers in the
// panel first. Every answer is logged as an approval line linked to the record.

export interface AskBrokerOptions {
  evaluator: Evaluator;
  timeoutSeconds: number | (() => number);
  /** How long the agent's hook waits for this call, where Warden wrote it; undefined: not known. */
  hookTimeoutSeconds?: (event: HookEvent) => number | undefined;
  log?: ActivityLog;
  clock?: LedgerClock;
  records?: RecordBuffer;
  /** How many asks left to the agent's own prompt stay answerable in the panel at once (default 1,000). */
  maxPromptAsks?: number;
  onError?: (message: string) => void;
}

/** What an edit of an open ask is screened as, and redacted with: the asked call's place, not its arguments. */
type AskedCall = Pick<HookEvent, 'agent' | 'sessionId' | 'cwd' | 'transcriptPath'>;

type Waited = { kind: 'settled'; resolution: Resolution } | { kind: 'hung-up' } | { kind: 'panels-gone' };

const MAX_REMEMBERED_ASKS = 10_000;
/**
 * An ask the agent's own prompt already has stays answerable in the panel until its deadline, and holds
 * its call's arguments meanwhile. Nobody answers a thousand of them; an agent that makes asks faster
 * than they expire would otherwise grow Warden's memory without end. Past the bound the oldest is
 * closed early: its call stays with the agent's prompt, as it would at its deadline.
 */
export const DEFAULT_MAX_PROMPT_ASKS = 1000;
/** Time left for Warden's reply to reach the agent before its hook gives up. */
const HOOK_REPLY_MARGIN_SECONDS = 5;

export class AskBroker implements AskHandler {
  readonly ledger: ApprovalLedger;
  readonly records: RecordBuffer;
  private panels = 0;
  private readonly panelWaiters = new Set<() => void>();
  private readonly listeners = new Set<(n: HostNotification) => void>();
  /** Each call with an open ask, so an edit is re-screened as that call (its cwd, its transcript). */
  private readonly askedEvents = new Map<string, AskedCall>();
  /** One copy of the strings rows and open asks repeat (see StringPool). */
  private readonly strings = new StringPool();
  /** Open asks whose call went to the agent's prompt, oldest first (see DEFAULT_MAX_PROMPT_ASKS). */
  private readonly promptAsks = new Set<string>();

  constructor(private readonly opts: AskBrokerOptions) {
    this.records =
      opts.records ?? new RecordBuffer({ strings: this.strings, ...(opts.log ? { log: opts.log.index } : {}) });
    this.ledger = new ApprovalLedger({
      timeoutSeconds: opts.timeoutSeconds,
      ...(opts.clock ? { clock: opts.clock } : {}),
      screen: (toolName, editedInput, _sessionId, recordId) => this.screenEdit(recordId, toolName, editedInput),
      onListenerError: (err) => opts.onError?.(`an approval listener failed: ${String(err)}`),
    });
    this.ledger.onChange((event) => {
      if (event.type === 'pending') this.emit({ type: 'pending', pending: pendingView(event.pending) });
      else {
        this.promptAsks.delete(event.id);
        this.resolved(event.resolution);
      }
    });
  }

  get connectedPanels(): number {
    return this.panels;
  }

  /** A connected panel; call the returned function when it goes away. */
  attachPanel(): () => void {
    this.panels++;
    let attached = true;
    return () => {
      if (!attached) return;
      attached = false;
      this.panels--;
      if (this.panels === 0) for (const wake of [...this.panelWaiters]) wake();
    };
  }

  onChange(listener: (n: HostNotification) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publishRecord(record: VerdictRecord): void {
    const row = this.records.add(record);
    this.emit({ type: 'rows', rows: [row] });
  }

  pending(): PendingView[] {
    return this.ledger.list().map(pendingView);
  }

  async answer(id: string, answer: ApprovalAnswer, answeredBy: string): Promise<AnswerResult> {
    // Arguments that are not bindable have no digest to show, so the one sent back (the API
    // requires one) cannot be checked against it; the ledger then refuses a plain approval
    // fail-closed, naming the problem, and still takes a refusal or an edit (bound on its own).
    const shown = this.ledger.get(id);
    const result = await this.ledger.answer(id, {
      decision: answer.decision,
      scope: answer.scope,
      digest: shown !== undefined && shown.digest === null ? null : answer.digest,
      ...(answer.editedInput ? { editedInput: answer.editedInput } : {}),
      ...(answer.message ? { message: answer.message } : {}),
      answeredBy,
    });
    switch (result.kind) {
      case 'ok': {
        const row = this.records.summaryOf(result.resolution.recordId);
        return { kind: 'ok', resolution: this.viewOf(result.resolution), row: row ?? null };
      }
      case 'not-found':
        return {
          kind: 'not-pending',
          message: `no pending approval ${id}: it is unknown, answered, expired or withdrawn`,
        };
      case 'digest-mismatch':
        return {
          kind: 'digest-mismatch',
          message: 'the digest is not the one shown for this approval; nothing was licensed',
        };
      case 'not-bindable':
        return { kind: 'not-bindable', message: `these arguments cannot be approved: ${result.problem}` };
    }
  }

  async handle(ctx: AskContext): Promise<AskOutcome | undefined> {
    const { event } = ctx.evaluation;
    if (!event.toolName) return undefined;
    this.remember(ctx.evaluation.record.id, event);
    return event.event === 'PermissionRequest' ? this.permissionRequest(ctx) : this.preToolUseAsk(ctx);
  }

  close(): void {
    this.ledger.close();
  }

  private async preToolUseAsk(ctx: AskContext): Promise<AskOutcome | undefined> {
    const { event, record, merged } = ctx.evaluation;
    const personOnly = merged.outcomes.some((o) => o.personOnly === true);
    const licensed = this.licensed(event, record, personOnly);
    if (licensed) return licensed;
    const toAgent = (why: string): AskOutcome | undefined =>
      ctx.headless ? undefined : { decision: 'ask', consented: false, reason: `${merged.reason}${why}` };
    if (this.panels === 0) {
      if (ctx.headless) return undefined;
      const opened = this.ledger.open(this.openRequest(event, record, merged.reason, personOnly, 'agent-prompt'));
      this.keptForPrompt(opened.pending.id);
      return toAgent('');
    }
    const cap = this.hookDeadline(event);
    const opened = this.ledger.open({
      ...this.openRequest(event, record, `${merged.reason}${cap?.note ?? ''}`, personOnly, 'held'),
      ...(cap ? { timeoutCapSeconds: cap.seconds } : {}),
    });
    const waited = await this.wait(opened.settled, ctx.signal);
    if (waited.kind === 'hung-up') {
      this.ledger.withdraw(opened.pending.id, 'the agent hung up before a person answered');
      return { decision: 'deny', consented: false, reason: 'withdrawn: the agent hung up' };
    }
    if (waited.kind === 'panels-gone') {
      if (this.ledger.handOff(opened.pending.id)) this.keptForPrompt(opened.pending.id);
      return toAgent(' (the Warden panel closed before anyone answered)');
    }
    const { resolution } = waited;
    if (resolution.kind === 'answered') return answeredOutcome(resolution);
    if (resolution.kind === 'expired')
      return toAgent(` (no answer in the Warden panel within ${waitedSeconds(opened.pending)} s)`);
    return { decision: 'deny', consented: false, reason: `withdrawn: ${resolution.reason}` };
  }

  /**
   * When the agent's hook stops waiting before the config's deadline (its timeout was written when
   * Warden was connected, and approvals.timeoutSeconds was raised since), the ask ends first, so
   * Warden's answer, not the agent's time-out, settles the call; the card says why.
   */
  private hookDeadline(event: HookEvent): { seconds: number; note: string } | undefined {
    const hookSeconds = this.opts.hookTimeoutSeconds?.(event);
    if (hookSeconds === undefined) return undefined;
    const configured = this.ledger.timeoutSeconds;
    const seconds = Math.max(1, hookSeconds - HOOK_REPLY_MARGIN_SECONDS);
    if (seconds >= configured) return undefined;
    return {
      seconds,
      note: ` [This ask ends after ${seconds} s, not the configured ${configured} s: ${event.agent}'s hook stops waiting after ${hookSeconds} s, as written when Warden was connected. Connect again to wait ${configured} s.]`,
    };
  }

  private async permissionRequest(ctx: AskContext): Promise<AskOutcome | undefined> {
    const { event, record, merged } = ctx.evaluation;
    const digest = record.argsDigest;
    if (!digest) return undefined;
    const personOnly = merged.outcomes.some((o) => o.personOnly === true);
    const licensed = this.licensed(event, record, personOnly);
    if (licensed) return licensed;
    let approvalId: string;
    let settled: Promise<Resolution>;
    const waiting = this.ledger.awaitAnswerFor(event.sessionId, event.toolName!, digest, { personOnly });
    if (waiting) {
      ({ approvalId, settled } = waiting);
    } else if (this.panels > 0) {
      // The agent is about to prompt in its terminal; offer the same question in the panel.
      const opened = this.ledger.open(
        this.openRequest(event, record, `${event.toolName} needs permission: ${merged.reason}`, personOnly, 'held'),
      );
      approvalId = opened.pending.id;
      settled = opened.settled;
    } else {
      return undefined;
    }
    const waited = await this.wait(settled, ctx.signal, !waiting);
    if (waited.kind === 'hung-up') {
      // The person answered at the agent's own prompt.
      this.ledger.withdraw(approvalId, 'answered at the agent prompt');
      return undefined;
    }
    if (waited.kind === 'panels-gone') {
      this.ledger.withdraw(approvalId, 'the Warden panel closed');
      return undefined;
    }
    if (waited.resolution.kind === 'answered') return answeredOutcome(waited.resolution);
    return undefined;
  }

  private licensed(event: HookEvent, record: VerdictRecord, personOnly: boolean): AskOutcome | undefined {
    if (!record.argsDigest) return undefined;
    const licence = this.ledger.useLicence(event.sessionId, event.toolName!, record.argsDigest, { personOnly });
    if (!licence) return undefined;
    const scope = licence.kind === 'session' ? 'for this session' : 'once';
    this.updateApproval(record.id, () => ({
      state: 'licensed',
      scope: licence.kind,
      digest: licence.digest,
      answeredBy: licence.grantedBy,
      answeredAt: licence.grantedAt,
      approvalId: licence.approvalId,
    }));
    // The record line already says ask; this line says a person's earlier licence allowed it.
    this.logLine({
      type: 'approval',
      recordId: record.id,
      approvalId: licence.approvalId,
      decision: 'allow',
      answer: 'licence',
      scope: licence.kind,
      digest: licence.digest,
      shownDigest: licence.digest,
      answeredBy: licence.grantedBy,
      answeredAt: new Date().toISOString(),
      edited: false,
      reason: `allowed by a ${licence.kind} licence granted at ${licence.grantedAt}`,
    });
    return {
      decision: 'allow',
      consented: true,
      reason: `approved ${scope} by ${licence.grantedBy} for exactly these arguments`,
    };
  }

  private openRequest(
    event: HookEvent,
    record: VerdictRecord,
    reason: string,
    personOnly: boolean,
    delivery: 'held' | 'agent-prompt',
  ) {
    const binding: ArgsBinding = record.argsDigest
      ? { ok: true, digest: this.strings.intern(record.argsDigest) }
      : { ok: false, problem: record.notBindable ?? 'the arguments are not plain JSON data' };
    this.updateApproval(record.id, (approval) => ({ ...approval, state: 'pending' }));
    // An ask stays open until its deadline (minutes) whether or not anyone answers: hold little.
    const pool = this.strings;
    return {
      recordId: record.id,
      agent: event.agent,
      sessionId: pool.intern(event.sessionId),
      toolName: pool.intern(event.toolName!),
      toolInput: event.toolInput ?? {},
      reason: pool.intern(reason),
      personOnly,
      delivery,
      binding,
    };
  }

  private wait(settled: Promise<Resolution>, signal: AbortSignal, releaseWhenPanelsGo = true): Promise<Waited> {
    return new Promise<Waited>((resolve) => {
      let done = false;
      const finish = (w: Waited) => {
        if (done) return;
        done = true;
        signal.removeEventListener('abort', onAbort);
        this.panelWaiters.delete(onPanelsGone);
        resolve(w);
      };
      const onAbort = () => finish({ kind: 'hung-up' });
      const onPanelsGone = () => finish({ kind: 'panels-gone' });
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort);
      if (releaseWhenPanelsGo) this.panelWaiters.add(onPanelsGone);
      void settled.then((resolution) => finish({ kind: 'settled', resolution }));
    });
  }

  private resolved(resolution: Resolution): void {
    const redactor = this.redactorFor(resolution.recordId);
    this.askedEvents.delete(resolution.recordId);
    const summary = approvalSummary(resolution);
    const edited = resolution.kind === 'answered' && resolution.edited && resolution.decision === 'allow';
    const note = resolution.kind === 'answered' ? undefined : closedNote(resolution.reason);
    const line = resolution.kind === 'answered' ? redactedLine(approvalLine(resolution), redactor) : undefined;
    this.emit({ type: 'resolved', resolution: redactedView(resolution, redactor) });
    this.updateApproval(resolution.recordId, () => ({
      ...summary,
      approvalId: resolution.approvalId,
      ...(edited ? { edited: true } : {}),
      ...(note ? { note } : {}),
      ...(line?.ranInput ? { ranInput: line.ranInput } : {}),
      ...(line?.message ? { message: line.message } : {}),
    }));
    if (line) this.logLine(line);
    // An ask that closed unanswered leaves a line too, so the log says what became of it.
    else if (resolution.kind !== 'answered')
      this.logLine({
        type: 'approval',
        recordId: resolution.recordId,
        approvalId: resolution.approvalId,
        decision: 'ask',
        answer: resolution.kind,
        scope: null,
        digest: null,
        shownDigest: null,
        answeredBy: null,
        answeredAt: resolution.at,
        edited: false,
        reason: resolution.reason,
      });
  }

  /**
   * The redactor the call was recorded with (its project's config): what a person adds to the call
   * when answering (edited arguments, their words) reaches the log and the panel redacted like it.
   */
  private redactorFor(recordId: string): AnswerRedactor {
    const asked = this.askedEvents.get(recordId);
    const root = asked ? findProjectRoot(asked.cwd || process.cwd()) : this.records.projectRootOf(recordId);
    return this.opts.evaluator.redactorForProject(root ?? findProjectRoot(process.cwd()));
  }

  private viewOf(resolution: Resolution): ResolutionView {
    return redactedView(resolution, this.redactorFor(resolution.recordId));
  }

  /** Changes a row's approval and tells the panels: a row follows its ask to the end. */
  private updateApproval(id: string, change: (approval: ApprovalInfo) => ApprovalInfo): void {
    const row = this.records.updateApproval(id, change);
    if (row) this.emit({ type: 'rows', rows: [row] });
  }

  /** Appends an approval line; the log keeps keyed digests only. */
  private logLine(
    line:
      { type: 'approval'; digest: string | null; shownDigest: string | null; [key: string]: unknown } | ApprovalLine,
  ): void {
    const log = this.opts.log;
    if (!log) return;
    try {
      log.append({ ...line, digest: log.keyedDigest(line.digest), shownDigest: log.keyedDigest(line.shownDigest) });
    } catch (err) {
      this.opts.onError?.(`could not log an approval: ${(err as Error).message}`);
    }
  }

  /** An ask now with the agent's prompt; past the bound the oldest such ask closes. */
  private keptForPrompt(approvalId: string): void {
    this.promptAsks.add(approvalId);
    const limit = this.opts.maxPromptAsks ?? DEFAULT_MAX_PROMPT_ASKS;
    for (const oldest of this.promptAsks) {
      if (this.promptAsks.size <= limit) break;
      this.promptAsks.delete(oldest);
      this.ledger.withdraw(
        oldest,
        `over ${limit} asks were open at once; this one, the oldest, is left to the agent's prompt`,
      );
    }
  }

  private remember(recordId: string, event: HookEvent): void {
    this.askedEvents.set(recordId, {
      agent: event.agent,
      sessionId: this.strings.intern(event.sessionId),
      cwd: this.strings.intern(event.cwd),
      ...(event.transcriptPath ? { transcriptPath: this.strings.intern(event.transcriptPath) } : {}),
    });
    if (this.askedEvents.size > MAX_REMEMBERED_ASKS) {
      const oldest = this.askedEvents.keys().next().value;
      if (oldest !== undefined) this.askedEvents.delete(oldest);
    }
  }

  /**
   * The approvals façade's re-screen: an edit of a pending ask, screened as the
   * asked call itself would be (its agent, session, cwd and transcript). The
   * panel's preview and the real re-screen on approval both come here, so they
   * cannot disagree.
   */
  async rescreen(
    approvalId: string,
    editedInput: Record<string, unknown>,
  ): Promise<{ decision: Decision; reason: string; digest: string | null }> {
    const pending = this.ledger.get(approvalId);
    if (!pending) throw new Error('this ask is no longer pending');
    const screened = await this.screenEdit(pending.recordId, pending.toolName, editedInput);
    const binding = bindArgs(pending.toolName, editedInput);
    return { ...screened, digest: binding.ok ? binding.digest : null };
  }

  private async screenEdit(
    recordId: string,
    toolName: string,
    editedInput: Record<string, unknown>,
  ): Promise<{ decision: Decision; reason: string }> {
    const original = this.askedEvents.get(recordId);
    if (!original)
      return { decision: 'deny', reason: 'the asked call is no longer known, so an edit cannot be screened' };
    const event: HookEvent = {
      agent: original.agent,
      event: 'PreToolUse',
      rawEventName: 'PreToolUse',
      sessionId: original.sessionId,
      cwd: original.cwd,
      toolName,
      toolInput: editedInput,
      raw: {},
      ...(original.transcriptPath ? { transcriptPath: original.transcriptPath } : {}),
    };
    const screened = await this.opts.evaluator.screen(event);
    return { decision: screened.decision, reason: screened.reason };
  }

  private emit(n: HostNotification): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(n);
      } catch (err) {
        this.opts.onError?.(`a panel listener failed: ${(err as Error).message}`);
      }
    }
  }
}

type AnswerRedactor = Pick<Redactor, 'redactText' | 'redactJson'>;

/** An answer's line with the person's additions redacted (the reason of a refusal quotes their message). */
function redactedLine(line: ApprovalLine, redactor: AnswerRedactor): ApprovalLine {
  return {
    ...line,
    reason: redactor.redactText(line.reason).text,
    ...(line.ranInput ? { ranInput: redactor.redactJson(line.ranInput, 'blunt').value } : {}),
    ...(line.message ? { message: redactor.redactText(line.message).text } : {}),
  };
}

function redactedView(resolution: Resolution, redactor: AnswerRedactor): ResolutionView {
  const view = resolutionView(resolution);
  return view.message === undefined ? view : { ...view, message: redactor.redactText(view.message).text };
}

/** The reason an ask closed unanswered, in the record's note: where the call went. */
function closedNote(reason: string): string {
  return /agent prompt|agent's prompt/.test(reason) ? 'agent-prompt' : reason;
}

function answeredOutcome(resolution: AnsweredResolution): AskOutcome {
  if (resolution.decision === 'allow') {
    return {
      decision: 'allow',
      consented: true,
      reason: resolution.reason,
      ...(resolution.updatedInput
        ? {
            updatedInput: resolution.updatedInput,
            additionalContext: `The person changed your call in Agent Warden before approving it; what runs is: ${JSON.stringify(resolution.updatedInput)}`,
          }
        : {}),
    };
  }
  // A refusal's reason already carries the person's message; a denied edit's does not.
  const message = resolution.answer === 'refuse' ? undefined : resolution.message?.trim();
  return {
    decision: 'deny',
    consented: false,
    reason: message ? `${resolution.reason}: ${message}` : resolution.reason,
  };
}

export function pendingView(p: PendingApproval): PendingView {
  return {
    id: p.id,
    recordId: p.recordId,
    agent: p.agent,
    sessionId: p.sessionId,
    toolName: p.toolName,
    toolInput: (p.toolInput ?? {}) as Record<string, unknown>,
    digest: p.digest,
    ...(p.bindProblem ? { notBindable: p.bindProblem } : {}),
    reason: p.reason,
    personOnly: p.personOnly,
    createdAt: p.createdAt,
    deadline: p.deadline,
  };
}

export function resolutionView(r: Resolution): ResolutionView {
  if (r.kind === 'answered') {
    return {
      id: r.approvalId,
      recordId: r.recordId,
      state: r.decision === 'allow' ? 'approved' : 'refused',
      scope: r.scope,
      digest: r.digest,
      answeredBy: r.answeredBy,
      answeredAt: r.answeredAt,
      ...(r.message ? { message: r.message } : {}),
    };
  }
  return {
    id: r.approvalId,
    recordId: r.recordId,
    state: r.kind,
    scope: null,
    digest: null,
    answeredBy: null,
    answeredAt: r.at,
  };
}
