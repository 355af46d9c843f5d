import type { Decision, Merged, Outcome } from '../types';
import { joinLines } from '../text/scan';

const RANK: Record<Decision, number> = { allow: 0, instruct: 1, ask: 2, deny: 3 };

export function severity(decision: Decision): number {
  return RANK[decision];
}

export function mostSevere(a: Decision, b: Decision): Decision {
  return RANK[a] >= RANK[b] ? a : b;
}

/**
 * deny > ask > instruct > allow. Every outcome is kept; the reason line is the
 * most severe outcome's, with a count of the others so a person knows to look.
 */
export function combine(outcomes: Outcome[]): Merged {
  let decision: Decision = 'allow';
  for (const outcome of outcomes) decision = mostSevere(decision, outcome.verdict);
  const deciding = outcomes.filter((o) => o.verdict === decision);
  if (decision === 'allow' || deciding.length === 0)
    return { decision: 'allow', reason: 'no policy objected', outcomes };
  const first = deciding[0]!;
  const others = outcomes.length - 1;
  const suffix = others > 0 ? ` (+${others} more finding${others > 1 ? 's' : ''})` : '';
  return { decision, reason: oneLine(`${first.reason} [${first.policy}]${suffix}`), outcomes };
}

// The reason is shown in one line (the agent's prompt, the panel row); a policy
// quoting a multi-line command must not break it.
function oneLine(text: string): string {
  return joinLines(text);
}
