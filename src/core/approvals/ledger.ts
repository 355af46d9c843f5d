// The approval ledger: every ask that waits for a person, and what their answers license.
// In memory only (the full arguments never leave it); the server and the extension share it.
//
// How a host uses it, for a call whose verdict is `ask` (binding from bindableFromBody):
//   1. ledger.useLicence(session, tool, digest, { personOnly }) → a licence: reply allow
//      (a once-licence is consumed by this call). Not for personOnly asks: they always open.
//   2. const { pending, settled } = ledger.open({ ..., delivery, binding })
//      - a panel is connected: delivery 'held'; keep the agent's request open and await
//        `settled`: answered allow → explicit allow (+ updatedInput), answered deny → deny with
//        the reason, expired → hand the call to the agent's prompt (`ask`), withdrawn → the
//        agent is gone. If the agent's connection drops, ledger.withdraw(pending.id, …). If the
//        host releases the request early (the last panel closed), ledger.handOff(pending.id)
//        first, so a later answer still reaches the agent's PermissionRequest.
//      - no panel: delivery 'agent-prompt'; reply `ask` at once (headless runs: deny, and
//        withdraw). The ask stays answerable in the panel until its deadline.
//   3. The agent's PermissionRequest for a call: ledger.awaitAnswerFor(session, tool, digest,
//      { personOnly }) → null when no ask or answer exists for exactly this call (evaluate as
//      usual), else { approvalId, settled } to hold the request on: an answer given in the
//      panel before or after it arrived is delivered once. Expired → no decision (the agent's
//      prompt stands). If that request drops (the person answered in the terminal),
//      ledger.withdraw(approvalId, …).
//   4. POST /api/approvals/<id>: ledger.answer(id, answer) → ok | not-found (404) |
//      digest-mismatch (409, still pending) | not-bindable (still pending).
//   5. GET /api/pending: ledger.list(); push ledger.onChange events to panels; on
//      ledger 'resolved' with an answered resolution, log approvalLine(resolution).
//   6. SessionEnd: ledger.endSession(session); shutdown: ledger.close().
// Licences: approve once licenses exactly the digest it names, once, in its session; approve for
// the session is a standing licence for that tool and digest in that session. Any other bytes
// (an edit, a rewrite by a policy after the approval) have another digest and are not covered.

import { randomBytes } from 'node:crypto';
import type {
  AnsweredResolution,
  AnswerResult,
  ApprovalAnswer,
  Delivery,
  LedgerEvent,
  Licence,
  PendingApproval,
  Resolution,
  ScreenEdit,
  ScreenResult,
} from './approvalTypes';
import { bindArgs, type ArgsBinding } from './digest';
import { LicenceBook } from './licences';
import type { AgentName } from '../types';

export const DEFAULT_APPROVAL_TIMEOUT_SECONDS = 120;
const MAX_TIMEOUT_SECONDS = 24 * 60 * 60;

/** Time as the ledger sees it; tests pass a manual clock so nothing sleeps. */
export interface LedgerClock {
  now(): number;
  /** Calls `callback` after `delayMs`; returns a cancel function. */
  setTimer(callback: () => void, delayMs: number): () => void;
}

export const systemClock: LedgerClock = {
  now: () => Date.now(),
  setTimer(callback, delayMs) {
    const timer = setTimeout(callback, Math.max(0, delayMs));
    timer.unref();
    return () => clearTimeout(timer);
  },
};

export interface LedgerOptions {
  screen: ScreenEdit;
  /** Config `approvals.timeoutSeconds`; a function is read again for every ask, so a config change applies to the next one. */
  timeoutSeconds?: number | (() => number);
  clock?: LedgerClock;
  newId?: () => string;
  /** A listener that throws must not break the ledger; its error goes here. */
  onListenerError?: (error: unknown) => void;
}

export interface OpenRequest {
  recordId: string;
  agent: AgentName;
  sessionId: string;
  toolName: string;
  toolInput: unknown;
  reason: string;
  personOnly?: boolean;
  delivery: Delivery;
  /** From bindableFromBody over the raw body; without it the parsed value is bound, which cannot see duplicate keys. */
  binding?: ArgsBinding;
  /** A shorter deadline for this ask than the config's (the agent stops waiting sooner). */
  timeoutCapSeconds?: number;
}

export interface OpenedApproval {
  pending: PendingApproval;
  /** Resolves exactly once: answered, expired or withdrawn. Never rejects. */
  settled: Promise<Resolution>;
}

interface OpenEntry {
  pending: PendingApproval;
  settled: Promise<Resolution>;
  resolve: (resolution: Resolution) => void;
  cancelTimer: () => void;
  /** A PermissionRequest is waiting on this ask (agent-prompt delivery). */
  claimed: boolean;
  /** An edit is being screened; other answers are turned away meanwhile. */
  answering: boolean;
}

export class ApprovalLedger {
  private readonly entries = new Map<string, OpenEntry>();
  private readonly listeners = new Set<(event: LedgerEvent) => void>();
  private readonly book: LicenceBook;
  private readonly clock: LedgerClock;
  private readonly readTimeout: () => number;

  /** The deadline of the next ask, in seconds: the config's value now, or the last valid one. */
  get timeoutSeconds(): number {
    try {
      return (this.lastTimeout = checkTimeout(this.readTimeout()));
    } catch {
      return this.lastTimeout;
    }
  }
  private lastTimeout = DEFAULT_APPROVAL_TIMEOUT_SECONDS;
  private readonly newId: () => string;

  constructor(private readonly options: LedgerOptions) {
    const source = options.timeoutSeconds ?? DEFAULT_APPROVAL_TIMEOUT_SECONDS;
    this.readTimeout = typeof source === 'function' ? source : () => source;
    this.lastTimeout = checkTimeout(this.readTimeout());
    this.clock = options.clock ?? systemClock;
    this.newId = options.newId ?? (() => randomBytes(16).toString('base64url'));
    this.book = new LicenceBook(() => this.clock.now());
  }

  open(request: OpenRequest): OpenedApproval {
    const binding = request.binding ?? bindArgs(request.toolName, request.toolInput);
    const createdMs = this.clock.now();
    const timeoutMs = Math.min(this.timeoutSeconds, request.timeoutCapSeconds ?? Infinity) * 1000;
    const pending: PendingApproval = Object.freeze({
      id: this.uniqueId(),
      recordId: request.recordId,
      agent: request.agent,
      sessionId: request.sessionId,
      toolName: request.toolName,
      toolInput: request.toolInput,
      digest: binding.ok ? binding.digest : null,
      bindProblem: binding.ok ? null : binding.problem,
      reason: request.reason,
      personOnly: request.personOnly === true,
      delivery: request.delivery,
      createdAt: new Date(createdMs).toISOString(),
      deadline: new Date(createdMs + timeoutMs).toISOString(),
    });
    let resolve: (resolution: Resolution) => void = () => undefined;
    const settled = new Promise<Resolution>((settle) => (resolve = settle));
    const entry: OpenEntry = {
      pending,
      settled,
      resolve,
      cancelTimer: () => undefined,
      claimed: false,
      answering: false,
    };
    this.entries.set(pending.id, entry);
    entry.cancelTimer = this.clock.setTimer(() => this.expire(pending.id), timeoutMs);
    this.emit({ type: 'pending', pending });
    return { pending, settled };
  }

  get(id: string): PendingApproval | undefined {
    return this.entries.get(id)?.pending;
  }

  /** Open asks, oldest first. */
  list(): PendingApproval[] {
    return [...this.entries.values()].map((entry) => entry.pending);
  }

  async answer(id: string, answer: ApprovalAnswer): Promise<AnswerResult> {
    const entry = this.entries.get(id);
    if (entry === undefined || entry.answering) return { kind: 'not-found' };
    const { pending } = entry;
    if (answer.digest !== pending.digest) return { kind: 'digest-mismatch', shownDigest: pending.digest };
    if (answer.decision === 'refuse') return this.settleAnswered(entry, this.refusal(pending, answer));
    if (answer.editedInput === undefined) {
      if (pending.digest === null)
        return { kind: 'not-bindable', problem: pending.bindProblem ?? 'arguments that are not bindable' };
      return this.settleAnswered(entry, this.approval(pending, answer, pending.digest));
    }

    const edited = answer.editedInput;
    if (!isRecord(edited))
      return { kind: 'not-bindable', problem: 'edited arguments that are not a JSON object at $.editedInput' };
    const binding = bindArgs(pending.toolName, edited, { toolName: ['tool_name'], toolInput: ['editedInput'] });
    if (!binding.ok) return { kind: 'not-bindable', problem: binding.problem };
    if (binding.digest === pending.digest)
      return this.settleAnswered(entry, this.approval(pending, answer, binding.digest));

    entry.answering = true;
    const screen = await this.screenEdit(pending, structuredClone(edited));
    // The deadline or a withdrawal may have closed the ask while the screen ran: they win.
    if (this.entries.get(id) !== entry) return { kind: 'not-found' };
    entry.answering = false;
    if (screen.decision === 'deny') {
      return this.settleAnswered(entry, {
        ...this.refusal(pending, answer),
        answer: 'approve',
        edited: true,
        screen,
        reason: `The person's edited arguments were denied in Agent Warden: ${screen.reason}`,
      });
    }
    return this.settleAnswered(entry, {
      ...this.approval(pending, answer, binding.digest),
      edited: true,
      updatedInput: edited,
      screen,
    });
  }

  /** Closes an ask nobody will use any more (the agent disconnected). False when it was not open. */
  withdraw(id: string, reason: string): boolean {
    const entry = this.entries.get(id);
    if (entry === undefined) return false;
    this.settleClosed(entry, 'withdrawn', reason);
    return true;
  }

  /** The held request was released to the agent's prompt: its answer now waits for the PermissionRequest. */
  handOff(id: string): boolean {
    const entry = this.entries.get(id);
    if (entry === undefined) return false;
    entry.pending = Object.freeze({ ...entry.pending, delivery: 'agent-prompt' as const });
    return true;
  }

  /** A licence covering exactly this call, or null. Never one for a personOnly ask. */
  findLicence(sessionId: string, toolName: string, digest: string, options: { personOnly: boolean }): Licence | null {
    return this.book.find(sessionId, toolName, digest, options.personOnly);
  }

  /** Marks a licence used (a once-licence is gone afterwards); false when it was already used or lapsed. */
  consume(licence: Licence): boolean {
    return this.book.consume(licence);
  }

  /** The session licences in force. */
  standingLicences(): Licence[] {
    return this.book.listStanding();
  }

  /** Revokes a session licence: the next identical call is asked again. */
  revokeLicence(licenceId: string): boolean {
    return this.book.revoke(licenceId);
  }

  /** findLicence and consume in one step. */
  useLicence(sessionId: string, toolName: string, digest: string, options: { personOnly: boolean }): Licence | null {
    const licence = this.findLicence(sessionId, toolName, digest, options);
    return licence !== null && this.consume(licence) ? licence : null;
  }

  /** For the agent's PermissionRequest: the answer to the ask handed to its prompt for exactly this call. */
  awaitAnswerFor(
    sessionId: string,
    toolName: string,
    digest: string,
    options: { personOnly?: boolean } = {},
  ): { approvalId: string; settled: Promise<Resolution> } | null {
    const personOnly = options.personOnly === true;
    const answered = this.book.claimAnswer(sessionId, toolName, digest, personOnly);
    if (answered !== null) return { approvalId: answered.approvalId, settled: Promise.resolve(answered) };
    for (const entry of this.entries.values()) {
      const { pending } = entry;
      if (
        pending.delivery === 'agent-prompt' &&
        !entry.claimed &&
        pending.sessionId === sessionId &&
        pending.toolName === toolName &&
        pending.digest === digest &&
        (pending.personOnly || !personOnly)
      ) {
        entry.claimed = true;
        return { approvalId: pending.id, settled: entry.settled };
      }
    }
    return null;
  }

  /** Withdraws the session's open asks and forgets its licences. */
  endSession(sessionId: string, reason = 'the session ended'): void {
    for (const entry of [...this.entries.values()])
      if (entry.pending.sessionId === sessionId) this.settleClosed(entry, 'withdrawn', reason);
    this.book.forgetSession(sessionId);
  }

  close(reason = 'Warden stopped'): void {
    for (const entry of [...this.entries.values()]) this.settleClosed(entry, 'withdrawn', reason);
    this.book.clear();
  }

  onChange(listener: (event: LedgerEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private expire(id: string): void {
    const entry = this.entries.get(id);
    if (entry !== undefined)
      this.settleClosed(entry, 'expired', `no one answered within ${waitedSeconds(entry.pending)} s`);
  }

  private async screenEdit(pending: PendingApproval, edited: Record<string, unknown>): Promise<ScreenResult> {
    try {
      return await this.options.screen(pending.toolName, edited, pending.sessionId, pending.recordId);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      return { decision: 'deny', reason: `the edited arguments could not be screened (${detail})` };
    }
  }

  private approval(pending: PendingApproval, answer: ApprovalAnswer, digest: string): AnsweredResolution {
    const what = answer.scope === 'session' ? 'this call for the session' : 'this call once';
    return {
      ...this.answeredBase(pending, answer),
      decision: 'allow',
      answer: 'approve',
      scope: answer.scope,
      digest,
      reason:
        digest === pending.digest
          ? `The person approved ${what} in Agent Warden.`
          : `The person approved ${what} in Agent Warden after editing its arguments: what runs is the edited call, not the one you asked for.`,
    };
  }

  private refusal(pending: PendingApproval, answer: ApprovalAnswer): AnsweredResolution {
    const message = answer.message?.trim();
    return {
      ...this.answeredBase(pending, answer),
      decision: 'deny',
      answer: 'refuse',
      scope: null,
      digest: null,
      // The model reads this word for word: plain words, the person's message last.
      reason: `The person refused this call in Agent Warden${message ? `: ${message}` : '.'}`,
    };
  }

  private answeredBase(pending: PendingApproval, answer: ApprovalAnswer) {
    return {
      kind: 'answered' as const,
      approvalId: pending.id,
      recordId: pending.recordId,
      sessionId: pending.sessionId,
      toolName: pending.toolName,
      shownDigest: pending.digest,
      edited: false,
      ...(answer.message !== undefined ? { message: answer.message } : {}),
      answeredBy: answer.answeredBy,
      answeredAt: new Date(this.clock.now()).toISOString(),
    };
  }

  private settleAnswered(entry: OpenEntry, resolution: AnsweredResolution): AnswerResult {
    const { pending } = entry;
    this.closeEntry(entry);
    if (resolution.decision === 'allow' && resolution.scope === 'session' && resolution.digest !== null) {
      this.book.grantStanding({ ...resolution, digest: resolution.digest });
    }
    if (pending.delivery === 'agent-prompt' && !entry.claimed && pending.digest !== null) {
      this.book.keepUnclaimed(resolution, pending.digest, pending.personOnly, this.timeoutSeconds * 1000);
    }
    this.finish(entry, resolution);
    return { kind: 'ok', resolution };
  }

  private settleClosed(entry: OpenEntry, kind: 'expired' | 'withdrawn', reason: string): void {
    this.closeEntry(entry);
    const { pending } = entry;
    this.finish(entry, {
      kind,
      approvalId: pending.id,
      recordId: pending.recordId,
      sessionId: pending.sessionId,
      toolName: pending.toolName,
      reason,
      at: new Date(this.clock.now()).toISOString(),
    });
  }

  private closeEntry(entry: OpenEntry): void {
    this.entries.delete(entry.pending.id);
    entry.cancelTimer();
  }

  private finish(entry: OpenEntry, resolution: Resolution): void {
    this.emit({ type: 'resolved', id: entry.pending.id, resolution });
    entry.resolve(resolution);
  }

  private emit(event: LedgerEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        this.options.onListenerError?.(error);
      }
    }
  }

  private uniqueId(): string {
    for (let attempt = 0; attempt < 8; attempt++) {
      const id = this.newId();
      if (!this.entries.has(id)) return id;
    }
    throw new Error('the approval id source keeps repeating ids that are still open');
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** How long an ask was open for answers: the config's timeout, or less when the agent stops waiting sooner. */
export function waitedSeconds(pending: Pick<PendingApproval, 'createdAt' | 'deadline'>): number {
  return Math.round((Date.parse(pending.deadline) - Date.parse(pending.createdAt)) / 1000);
}

function checkTimeout(timeoutSeconds: number): number {
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0 || timeoutSeconds > MAX_TIMEOUT_SECONDS)
    throw new RangeError(
      `approvals.timeoutSeconds must be between 0 and ${MAX_TIMEOUT_SECONDS}, not ${timeoutSeconds}`,
    );
  return timeoutSeconds;
}
