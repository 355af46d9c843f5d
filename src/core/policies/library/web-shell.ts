// Code that hands a web request's own input to a command runner or to eval: a web shell. Whoever can
// reach the page then runs what they like as the server, and its name (health.php, status.jsp) says
// nothing of it. No feature of an ordinary project passes a query parameter straight into system().
import { z } from 'zod';
import { definePolicy } from '../types';
import { evidenceOf } from '../../facts/commands';
import { firstWrittenFinding } from '../../facts/compute';

/** A call that runs a command or evaluates code, in the languages web servers run. */
const RUNNER =
  /\b(?:system|exec|shell_exec|passthru|popen|proc_open|pcntl_exec|eval|assert|execSync|spawnSync|spawn|Popen|check_output|getoutput|Process\.Start)\s*\(|Runtime\.getRuntime\(\)\.exec\s*\(|`[^`\n]{0,20}\$_(?:GET|POST|REQUEST)/g;
/** The request's own input: PHP's superglobals, a servlet's or Flask's request, Express's req, ASP.NET's Request. */
const REQUEST_INPUT =
  /\$_(?:GET|POST|REQUEST|COOKIE)\b|\$_SERVER\[\s*['"]HTTP_|\brequest\.(?:args|form|values|GET|POST|getParameter|getHeader|json|data|query_params)\b|\breq\.(?:query|body|params|headers)\b|\bRequest(?:\.QueryString|\.Form)?\[/;
/** How far past the runner's opening parenthesis its argument is looked at. */
const ARGUMENT_CHARS = 80;
/** Past this many characters of one written file, the rest is not looked at. */
const SCANNED_CHARS = 262_144;

function requestRunsCode(content: string): string | null {
  const text = content.slice(0, SCANNED_CHARS);
  for (const runner of text.matchAll(RUNNER)) {
    const from = runner.index;
    const span = text.slice(from, from + runner[0].length + ARGUMENT_CHARS).split(/[;\n]/)[0] ?? '';
    if (REQUEST_INPUT.test(span)) return span;
  }
  return null;
}

export const webShellWritten = definePolicy({
  name: 'web-shell-written',
  category: 'dangerous-commands',
  description:
    "Asks before writing code that hands a web request's own input to a command runner or eval (`system($_GET['c'])`, `exec(req.query.cmd)`): a web shell, whatever the file is called.",
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    const found = call ? firstWrittenFinding(call, (_file, content) => requestRunsCode(content)) : undefined;
    if (!found) return null;
    return {
      reason: `Writes ${found.file} with code that runs what a web request sends (${evidenceOf(found.found, 80)}): anyone who reaches it runs commands as the server. Approve this exact call only if that is what the person wants.`,
      evidence: evidenceOf(found.found),
    };
  },
});
