// The added latency of a held ask after the person's answer: a real endpoint
// (WardenHost on loopback) holds a PreToolUse while a panel is connected; the
// bench answers it through POST /api/approvals/<id> and times the held hook
// reply against the approval request and its response.
// Run: npx esbuild bench/held-ask.ts --bundle --platform=node --outfile=out/bench/held-ask.js && node out/bench/held-ask.js
import { argsDigest } from '../src/core/approvals/digest';
import { hookBody, openPanel, postApproval, postHook, startEndpoint } from '../test/server/approvals/harness';

const RUNS = Number(process.env['HELD_ASK_RUNS'] ?? 50);
const WARMUP = 5;

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index]!;
}

function summary(name: string, values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const fmt = (v: number) => v.toFixed(3).padStart(8);
  return `${name.padEnd(52)} p50 ${fmt(quantile(sorted, 0.5))} ms  p90 ${fmt(quantile(sorted, 0.9))} ms  min ${fmt(sorted[0]!)} ms  max ${fmt(sorted.at(-1)!)} ms`;
}

async function main(): Promise<void> {
  const endpoint = await startEndpoint({ approvalTimeoutSeconds: 120 });
  const panel = await openPanel(endpoint);
  const afterResponse: number[] = [];
  const afterRequest: number[] = [];
  let hookFirst = 0;
  try {
    for (let run = 0; run < WARMUP + RUNS; run++) {
      const command = `echo ask-me run-${run}`;
      const body = hookBody(endpoint, { sessionId: `bench-${run}`, command });
      let hookDoneAt = 0;
      const reply = postHook(endpoint, body).then((r) => {
        hookDoneAt = performance.now();
        return r;
      });
      const pending = (
        await panel.next('pending', (d) => (d['pending'] as Record<string, unknown>)['sessionId'] === `bench-${run}`)
      )['pending'] as Record<string, unknown>;
      const digest = argsDigest('Bash', body['tool_input']);
      const sentAt = performance.now();
      const answer = await postApproval(endpoint, String(pending['id']), {
        decision: 'approve',
        scope: 'once',
        digest,
      });
      const answeredAt = performance.now();
      if (answer.status !== 200) throw new Error(`the approval answered ${answer.status}: ${answer.text}`);
      const out = (await reply)['hookSpecificOutput'] as Record<string, unknown> | undefined;
      if (out?.['permissionDecision'] !== 'allow')
        throw new Error(`the held call was not allowed: ${JSON.stringify(out)}`);
      if (run < WARMUP) continue;
      afterResponse.push(hookDoneAt - answeredAt);
      afterRequest.push(hookDoneAt - sentAt);
      if (hookDoneAt < answeredAt) hookFirst++;
    }
  } finally {
    panel.close();
    await endpoint.close();
  }
  console.log(`held ask on loopback, ${RUNS} runs (after ${WARMUP} warm-up), Node ${process.version}`);
  console.log(summary('held hook reply - approval response (negative: first)', afterResponse));
  console.log(summary('held hook reply - approval request sent', afterRequest));
  console.log(`the held hook reply arrived before the approval's own response in ${hookFirst} of ${RUNS} runs`);
}

main().catch((err: Error) => {
  console.error(err.stack ?? err.message);
  process.exit(1);
});
