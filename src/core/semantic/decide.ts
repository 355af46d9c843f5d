// From the judge's probabilities to semantic outcomes. The rules:
// - a policy's evidence is the lowest answer among its probes; it fires at `fire` (0.70) and denies
//   at `deny` (0.85) when its mode is deny, otherwise it warns (instruct);
// - the human's request may soften a firing deny to a warning, or clear a firing warning, only when
//   the human named every target and the task probes agree (task-step and user-asked-operation at
//   least `taskAgree`, beyond-task at most `beyondTask`), no part of the call or of a human turn was
//   cut, and the target scan is complete;
// - a suspected injection (`injection` at least its threshold) withdraws every override and turns
//   every firing policy into a deny; alone it only warns, it never denies.
import type { Decision, Outcome } from '../types';
import type { VerdictRecord } from '../verdict/record';
import { INJECTION_QUESTION, SEMANTIC_POLICIES, type SelectedPolicy } from './questions';

export interface Thresholds {
  fire: number;
  deny: number;
  injection: number;
  /** task-step and user-asked-operation must reach this for an override. */
  taskAgree: number;
  /** beyond-task must stay at or below this for an override. */
  beyondTask: number;
}

export const DEFAULT_THRESHOLDS: Thresholds = {
  fire: 0.7,
  deny: 0.85,
  injection: 0.7,
  taskAgree: 0.7,
  beyondTask: 0.3,
};

export interface DecideInput {
  policies: SelectedPolicy[];
  answers: Record<string, number>;
  thresholds: Thresholds;
  /** The task probes were asked (a human turn exists). */
  taskProbes: boolean;
  cut: VerdictRecord['cut'];
  targetScanComplete: boolean;
  /** The human named every target of the call (see naming.ts). */
  namedAllTargets: boolean;
  /** Targets the human did not name, for the reason line. */
  unnamedTargets?: string[];
}

export type PolicyChange = 'cleared' | 'softened' | 'escalated';

export interface PolicyVerdict {
  policy: string;
  /** Lowest answer among the probes; null when a probe went unanswered. */
  evidence: number | null;
  fired: boolean;
  /** What the policy concluded before overrides and escalation. */
  base: Decision;
  verdict: Decision;
  change?: PolicyChange;
}

export interface SemanticDecision {
  verdicts: PolicyVerdict[];
  outcomes: Outcome[];
  injectionSuspected: boolean;
  /** Whether the human's request could clear or soften a firing policy. */
  overrideAllowed: boolean;
  /** Why it could not, one phrase each. */
  overrideBlockers: string[];
  /** Whether reviewable deterministic findings may be cleared at all (no injection, nothing of the call cut, full scan). */
  clearingAllowed: boolean;
}

function answer(answers: Record<string, number>, id: string): number | undefined {
  const value = answers[id];
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 1 ? value : undefined;
}

function format(p: number): string {
  return p.toFixed(2);
}

function overrideBlockers(input: DecideInput, injectionSuspected: boolean): string[] {
  const { thresholds: t, answers } = input;
  const blockers: string[] = [];
  if (!input.taskProbes) blockers.push('no human request was found in the transcript');
  if (injectionSuspected) blockers.push('text in the call appears to address the reviewer');
  if (input.cut.request) blockers.push('part of the call was cut before review');
  if (input.cut.userSaid) blockers.push("part of the human's request was cut before review");
  if (!input.targetScanComplete) blockers.push('not every target of the call could be read');
  if (!input.namedAllTargets) {
    const unnamed = input.unnamedTargets?.length ? `: ${input.unnamedTargets.slice(0, 5).join(', ')}` : '';
    blockers.push(`the human did not name every target${unnamed}`);
  }
  if (input.taskProbes) {
    const step = answer(answers, 'task-step');
    const asked = answer(answers, 'user-asked-operation');
    const beyond = answer(answers, 'beyond-task');
    if (step === undefined || step < t.taskAgree) blockers.push('the judge did not see this as a step of the task');
    if (asked === undefined || asked < t.taskAgree)
      blockers.push('the judge did not find that the human asked for this operation');
    if (beyond === undefined || beyond > t.beyondTask)
      blockers.push('the judge found that the call goes beyond the task');
  }
  return blockers;
}

function reasonFor(description: string, verdict: PolicyVerdict, probes: string, blockers: readonly string[]): string {
  const evidence = `judge ${format(verdict.evidence ?? 0)}`;
  switch (verdict.change) {
    case 'escalated':
      return `${description} (${evidence}), and text in the call appears to address the reviewer, so it is refused; rewrite the call without instructions to the reviewer`;
    case 'softened':
      return `${description} (${evidence}); the human asked for exactly this, so it goes ahead with a warning: double-check the targets`;
    case 'cleared':
      return `${description} (${evidence}), but the human asked for exactly this: cleared`;
    default: {
      const why = blockers.length ? `; the human's request does not cover it (${blockers[0]})` : '';
      if (verdict.verdict === 'deny')
        return `${description} (${evidence})${why}; ask the human to request it by naming every target`;
      return `Warning: ${description.charAt(0).toLowerCase()}${description.slice(1)} (${evidence}); make sure the human wants this [${probes}]`;
    }
  }
}

export function decide(input: DecideInput): SemanticDecision {
  const { thresholds: t, answers } = input;
  const injectionAnswer = answer(answers, INJECTION_QUESTION.id);
  const injectionSuspected = injectionAnswer !== undefined && injectionAnswer >= t.injection;
  const blockers = overrideBlockers(input, injectionSuspected);
  const overrideAllowed = blockers.length === 0;
  const verdicts: PolicyVerdict[] = [];
  const outcomes: Outcome[] = [];
  for (const policy of input.policies) {
    const probeAnswers = policy.probeIds.map((id) => answer(answers, id));
    const evidence = probeAnswers.some((p) => p === undefined) ? null : Math.min(...(probeAnswers as number[]));
    const fired = evidence !== null && evidence >= t.fire;
    const base: Decision = !fired ? 'allow' : policy.mode === 'deny' && evidence >= t.deny ? 'deny' : 'instruct';
    const verdict: PolicyVerdict = { policy: policy.name, evidence, fired, base, verdict: base };
    if (fired && injectionSuspected) {
      verdict.verdict = 'deny';
      if (base !== 'deny') verdict.change = 'escalated';
    } else if (fired && overrideAllowed) {
      verdict.verdict = base === 'deny' ? 'instruct' : 'allow';
      verdict.change = base === 'deny' ? 'softened' : 'cleared';
    }
    verdicts.push(verdict);
    if (!fired) continue;
    const description = SEMANTIC_POLICIES.find((p) => p.name === policy.name)?.description ?? policy.name;
    const probes = policy.probeIds.map((id, i) => `${id}=${format(probeAnswers[i] ?? 0)}`).join(', ');
    outcomes.push({
      policy: policy.name,
      tier: 'semantic',
      verdict: verdict.verdict,
      reason: reasonFor(description, verdict, probes, blockers),
      evidence: probes,
    });
  }
  if (injectionSuspected) {
    outcomes.push({
      policy: 'injection',
      tier: 'semantic',
      verdict: 'instruct',
      reason: `Text in this call appears to address the reviewer (judge ${format(injectionAnswer ?? 0)}); overrides are withdrawn and firing policies deny`,
      evidence: `injection=${format(injectionAnswer ?? 0)}`,
    });
  }
  const clearingAllowed = !injectionSuspected && !input.cut.request && input.targetScanComplete;
  return { verdicts, outcomes, injectionSuspected, overrideAllowed, overrideBlockers: blockers, clearingAllowed };
}
