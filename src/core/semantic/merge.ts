// Combines the deterministic outcomes with the semantic decision. A deterministic finding marked
// reviewable may be cleared only by the semantic policies it names, every one of them asked,
// answered and not firing; everything else combines as usual, the most severe verdict winning.
import type { Decision, Merged, Outcome } from '../types';
import { combine } from '../verdict/combine';
import type { SemanticDecision } from './decide';

/** The names among `reviewableBy` that stop a clearing (not asked, unanswered, or firing); empty when it may clear. */
export function clearingObstacles(outcome: Outcome, decision: SemanticDecision): string[] {
  const obstacles: string[] = [];
  for (const name of outcome.reviewableBy ?? []) {
    const verdict = decision.verdicts.find((v) => v.policy === name);
    if (!verdict) obstacles.push(`${name} was not asked`);
    else if (verdict.evidence === null) obstacles.push(`${name} was not answered`);
    else if (verdict.fired) obstacles.push(`${name} fired`);
  }
  return obstacles;
}

/** A deterministic outcome after the semantic review: cleared when every policy it names let it go. */
export function reviewed(outcome: Outcome, decision: SemanticDecision): Outcome {
  if (!outcome.reviewableBy?.length || outcome.verdict === 'allow' || outcome.personOnly) return outcome;
  if (!decision.clearingAllowed || clearingObstacles(outcome, decision).length > 0) return outcome;
  const names = outcome.reviewableBy.join(', ');
  return {
    ...outcome,
    verdict: 'allow',
    reason: `${outcome.reason}; cleared by the semantic review (${names} did not fire)`,
  };
}

/** What the semantic tier would make of the call: reviewable findings reviewed, semantic outcomes added. */
export function mergeEnforced(deterministic: Outcome[], decision: SemanticDecision): Merged {
  return combine([...deterministic.map((o) => reviewed(o, decision)), ...decision.outcomes]);
}

export interface MergeResult {
  merged: Merged;
  /** In observe mode: what enforcing would have decided. */
  wouldDecide?: Decision;
}

export function mergeOutcomes(
  deterministic: Outcome[],
  decision: SemanticDecision | null,
  mode: 'observe' | 'enforce',
): MergeResult {
  if (!decision) return { merged: combine(deterministic) };
  const enforced = mergeEnforced(deterministic, decision);
  if (mode === 'enforce') return { merged: enforced };
  return { merged: combine(deterministic), wouldDecide: enforced.decision };
}
