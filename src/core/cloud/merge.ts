// Cloud's verdict merged with the machine's: the most severe decision wins; on a deny Cloud's
// reason comes first; warnings are joined, each once; Cloud's outcomes come before the machine's
// semantic ones. Observed checks never get here (reply.ts keeps them apart).
import type { Decision, Merged, Outcome } from '../types';
import { combine, severity } from '../verdict/combine';
import type { SemanticDecision } from '../semantic/decide';
import { reviewed } from '../semantic/merge';
import type { CloudOutcome, CloudVerdict } from './reply';
import { joinLines } from '../text/scan';

/** The policy name of an outcome that stands for Cloud's verdict itself (a decision no check carries). */
export const CLOUD_VERDICT_POLICY = 'org-review';

const CLOUD_VERDICT_TO_DECISION: Record<CloudOutcome['verdict'], Decision> = {
  deny: 'deny',
  instruct: 'instruct',
  overridden: 'allow',
  none: 'allow',
};

function outcomeOf(o: CloudOutcome): Outcome {
  const cleared = o.verdict === 'overridden';
  return {
    policy: o.check,
    tier: 'cloud',
    verdict: CLOUD_VERDICT_TO_DECISION[o.verdict],
    reason:
      o.reason ??
      (cleared
        ? `the org check ${o.check} fired, but the person asked for this`
        : `the org check ${o.check} flagged this call`),
    evidence: `evidence=${o.evidence.toFixed(2)}`,
    cloudPolicyId: o.cloudPolicyId,
    cloudVersion: o.cloudVersion,
  };
}

/** Cloud's outcomes as Warden's (checks that fired or were cleared); its verdict stands as one more when no check carries it. */
export function cloudOutcomes(verdict: CloudVerdict): Outcome[] {
  const outcomes = verdict.outcomes.filter((o) => o.verdict !== 'none').map(outcomeOf);
  const carried = outcomes.reduce((top, o) => Math.max(top, severity(o.verdict)), 0);
  if (severity(verdict.decision) > carried)
    outcomes.push({
      policy: CLOUD_VERDICT_POLICY,
      tier: 'cloud',
      verdict: verdict.decision,
      reason:
        verdict.reason ??
        (verdict.beyondTask ? 'the org review found that the call goes beyond the task' : 'the org review objected'),
    });
  return outcomes;
}

function tagged(outcome: Outcome): string {
  const owner = outcome.cloudPolicyId ? `org ${outcome.cloudPolicyId} v${outcome.cloudVersion ?? 0}` : outcome.policy;
  return `${outcome.reason} [${outcome.tier === 'cloud' ? owner : outcome.policy}]`;
}

function oneLine(text: string): string {
  return joinLines(text);
}

function reasonFor(
  decision: Decision,
  cloud: CloudVerdict | null,
  cloudSide: Outcome[],
  rest: Outcome[],
): string | null {
  if (decision === 'deny') {
    const first = cloudSide.find((o) => o.verdict === 'deny');
    if (!first) return null;
    const reason = cloud?.reason
      ? `${cloud.reason} [${first.cloudPolicyId ? `org ${first.cloudPolicyId} v${first.cloudVersion ?? 0}` : first.policy}]`
      : tagged(first);
    const others = cloudSide.length + rest.length - 1;
    return oneLine(`${reason}${others > 0 ? ` (+${others} more finding${others > 1 ? 's' : ''})` : ''}`);
  }
  if (decision === 'instruct') {
    const lines: string[] = [];
    const add = (line: string): void => {
      const clean = oneLine(line);
      if (!lines.includes(clean)) lines.push(clean);
    };
    for (const o of [...cloudSide, ...rest]) if (o.verdict === 'instruct') add(tagged(o));
    return lines.length > 0 ? lines.join('; ') : null;
  }
  return null;
}

export interface CloudMergeInput {
  deterministic: Outcome[];
  /** The machine's own semantic decision when it is enforced. */
  local: SemanticDecision | null;
  /** Cloud's verdict when it is applied. */
  cloud: CloudVerdict | null;
}

/** The call's merged verdict with Cloud's part applied. */
export function mergeWithCloud(input: CloudMergeInput): Merged {
  const deterministic = input.local ? input.deterministic.map((o) => reviewed(o, input.local!)) : input.deterministic;
  const cloudSide = input.cloud ? cloudOutcomes(input.cloud) : [];
  const localSide = input.local?.outcomes ?? [];
  const combined = combine([...deterministic, ...cloudSide, ...localSide]);
  const decided = (o: Outcome): boolean => o.verdict === combined.decision;
  // A deterministic finding at the top severity keeps combine's reason: it decided the call.
  if (deterministic.some(decided) && !(combined.decision === 'deny' && cloudSide.some(decided))) return combined;
  const reason = reasonFor(combined.decision, input.cloud, cloudSide, [...localSide, ...deterministic]);
  return reason ? { ...combined, reason } : combined;
}
