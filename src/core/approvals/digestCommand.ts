// The logic of `agent-warden digest [--tool NAME]`: stdin is {"tool_name":…,"tool_input":…}
// (a whole hook body works too: its other members are ignored), or with --tool the bare
// arguments. The command prints `digest` and exits 0, or prints `problem` and exits non-zero.
// Problems follow the house form of one sentence naming what and where, without a final period.

import { z } from 'zod';
import { bindableFromBody, findRawProblem } from './bodyBinding';
import { bindArgs, type BoundLocations } from './digest';

export type DigestOutcome = { ok: true; digest: string } | { ok: false; problem: string };

const callShape = z.object({
  tool_name: z.string().min(1),
  tool_input: z.unknown().refine((value) => value !== undefined),
});

/** With --tool the arguments are the whole document, so their paths start at `$`. */
const BARE_ARGUMENTS: BoundLocations = { toolName: [], toolInput: [] };

export function runDigest(stdinText: string, toolFlag?: string): DigestOutcome {
  const expected = toolFlag === undefined ? 'a {"tool_name", "tool_input"} object' : 'the arguments as JSON';
  if (stdinText.trim() === '') return { ok: false, problem: `stdin is empty where ${expected} was expected` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdinText);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { ok: false, problem: `stdin is not valid JSON (${detail}) where ${expected} was expected` };
  }
  if (toolFlag !== undefined) return digestBareArguments(stdinText, parsed, toolFlag);

  if (!callShape.safeParse(parsed).success) {
    return {
      ok: false,
      problem: 'stdin has no "tool_name" string and "tool_input" member at $ (for bare arguments use --tool NAME)',
    };
  }
  const binding = bindableFromBody(stdinText);
  return binding.ok ? { ok: true, digest: binding.digest } : { ok: false, problem: binding.problem };
}

function digestBareArguments(stdinText: string, parsed: unknown, toolName: string): DigestOutcome {
  if (toolName === '') return { ok: false, problem: 'an empty tool name in --tool' };
  const rawProblem = findRawProblem(stdinText, BARE_ARGUMENTS);
  if (rawProblem !== null) return { ok: false, problem: rawProblem };
  const binding = bindArgs(toolName, parsed, BARE_ARGUMENTS);
  return binding.ok ? { ok: true, digest: binding.digest } : { ok: false, problem: binding.problem };
}
