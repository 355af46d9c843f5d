// What the command bridge prints when it can produce no verdict at all (no
// endpoint answered and the in-process evaluation failed): a refusal in the
// form each agent enforces. No schema library here: the bridge loads this on
// its fast path.

export interface ProcessReply {
  stdout: string;
  stderr: string;
  code: number;
}

const json = (value: unknown): string => JSON.stringify(value) + '\n';

/** A refusal every agent enforces, for a gate on a tool call. */
export function lastResortDeny(agent: string, reason: string): ProcessReply {
  const stderr = reason.endsWith('\n') ? reason : `${reason}\n`;
  switch (agent) {
    case 'gemini':
      // Gemini reads JSON on stdout on any exit code, and plain text on exit 2 as a deny.
      return { stdout: json({ decision: 'deny', reason }), stderr, code: 2 };
    case 'cursor':
      // Cursor expects JSON on every path.
      return { stdout: json({ permission: 'deny', user_message: reason, agent_message: reason }), stderr, code: 0 };
    case 'copilot':
      // Copilot ignores failing hooks, so the refusal must be a well-formed reply.
      return { stdout: json({ permissionDecision: 'deny', permissionDecisionReason: reason }), stderr, code: 0 };
    default:
      // Claude Code and Codex: exit 2 blocks, with the reason on stderr.
      return { stdout: '', stderr, code: 2 };
  }
}
