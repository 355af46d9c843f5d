import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Session } from 'node:inspector/promises';
import { runDeterministic } from '../src/core/deterministic/run';
import { Evaluator } from '../src/core/evaluator';
import { nodeFactSource } from '../src/core/facts/io-node';
import { IoFacts } from '../src/core/facts/io';
import { INTERPRETER_CODE_READER } from '../src/core/interp/reader';
import { toolCallOf } from '../src/core/policies/call';
import { ALL_POLICIES } from '../src/core/policies/registry';
import { resolvePolicyStates, type PolicyState } from '../src/core/policies/run';
import type { ResolvedConfig } from '../src/core/config/load';
import type { AnyPolicy, PolicyContext, SessionMemory } from '../src/core/policies/types';
import { captureMixInputs, mixLength, type CapturedCall } from './suite/captured';

// Where the deterministic tier's time goes on the fixed mix: the call's facts (toolCallOf) and each
// policy's evaluate, timed one policy at a time over every call of the mix.
//   node bench/run.mjs policy-costs   (env COST_ROUNDS, default 300; COST_TOP, default 25; COST_ONLY=NAME,NAME)
// COST_WHOLE=1 times the whole tier (runDeterministic) per call instead, lazy facts included: run the bundle
// under node --cpu-prof to see where that time goes. COST_INSITU=1 times each policy inside the whole tier,
// in the registry's order, so a fact worked out lazily is charged to the first policy that asks for it;
// a policy timed alone in a loop costs about a third of what it costs among the others.
// COST_PERCALL=1 times the whole tier for each call of the mix alone, dearest first; COST_MATCH=TEXT keeps
// only the calls whose tool and input hold TEXT (to profile one kind of call).

// Few rounds leave a policy's code unoptimized by V8, and its cost several times what it is in a host that has run a while.
const ROUNDS = Number(process.env['COST_ROUNDS'] ?? 300);
const TOP = Number(process.env['COST_TOP'] ?? 25);
const ONLY = process.env['COST_ONLY']?.split(',');
const ALLOCATIONS = process.env['COST_ALLOCATIONS'] === '1';
const WHOLE = process.env['COST_WHOLE'] === '1';
const IN_SITU = process.env['COST_INSITU'] === '1';
const PER_CALL = process.env['COST_PERCALL'] === '1';
const MATCH = process.env['COST_MATCH'];

interface SamplingNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SamplingNode[];
}

/** Bytes allocated per call of the whole tier, by the function that allocated them (V8's sampling heap profiler). */
async function allocations(run: () => void, calls: number): Promise<void> {
  const inspector = new Session();
  inspector.connect();
  await inspector.post('HeapProfiler.startSampling', {
    samplingInterval: 512,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  run();
  const { profile } = (await inspector.post('HeapProfiler.stopSampling')) as { profile: { head: SamplingNode } };
  inspector.disconnect();
  const byFunction = new Map<string, number>();
  let total = 0;
  // A built-in's allocation (an iterator's next, a Set, a slice) counts for the script function that called it.
  const visit = (node: SamplingNode, caller: string) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const here = url ? `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}` : '';
    const name = here || `${caller} (${functionName || 'native'})`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + node.selfSize);
    total += node.selfSize;
    for (const child of node.children) visit(child, here || caller);
  };
  visit(profile.head, '(root)');
  console.log(`allocated: ${(total / calls / 1024).toFixed(1)} KB per call`);
  for (const [name, bytes] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, TOP))
    console.log(`${(bytes / calls / 1024).toFixed(2).padStart(8)} KB  ${name}`);
}

const session: SessionMemory = { get: () => undefined, set: () => undefined };

/** Each policy's time inside the whole tier, and the whole tier's, per call (wall time: run on a quiet machine). */
function inSitu(calls: CapturedCall[], config: ResolvedConfig, resolved: PolicyState[]): void {
  const spent = new Map<string, number>();
  let counting = false;
  const timed = resolved.map((state) => {
    const { policy } = state;
    const evaluate: AnyPolicy['evaluate'] = (ctx) => {
      const started = performance.now();
      try {
        return policy.evaluate(ctx);
      } finally {
        if (counting) spent.set(policy.name, (spent.get(policy.name) ?? 0) + performance.now() - started);
      }
    };
    return { ...state, policy: { ...policy, evaluate } };
  });
  let whole = 0;
  for (let round = 0; round < ROUNDS; round++) {
    counting = round > 2;
    const started = performance.now();
    for (const { input, writes } of calls) runDeterministic(input, config, timed, nodeFactSource, writes);
    if (counting) whole += performance.now() - started;
  }
  const perCall = (ms: number) => (ms * 1000) / ((ROUNDS - 3) * calls.length);
  const policies = [...spent.values()].reduce((sum, ms) => sum + ms, 0);
  console.log(`${calls.length} calls, whole tier ${perCall(whole).toFixed(1)} µs per call (wall)`);
  console.log(
    `policies in situ: ${perCall(policies).toFixed(1)} µs; facts and the rest: ${perCall(whole - policies).toFixed(1)} µs`,
  );
  for (const [name, ms] of [...spent].sort((a, b) => b[1] - a[1]).slice(0, TOP))
    console.log(`${perCall(ms).toFixed(2).padStart(8)} µs  ${name}`);
}

/** CPU per call of the whole tier for each call of the mix, so the dear calls show. */
function perCall(calls: CapturedCall[], config: ResolvedConfig, resolved: PolicyState[]): void {
  const spent = calls.map(() => 0);
  for (let round = 0; round < ROUNDS; round++)
    calls.forEach(({ input, writes }, index) => {
      const started = process.cpuUsage();
      runDeterministic(input, config, resolved, nodeFactSource, writes);
      const used = process.cpuUsage(started);
      if (round > 2) spent[index]! += used.user + used.system;
    });
  const rows = calls.map(({ input }, index) => ({ us: spent[index]! / (ROUNDS - 3), what: describe(input) }));
  rows.sort((a, b) => b.us - a.us);
  const total = rows.reduce((sum, row) => sum + row.us, 0);
  console.log(`${calls.length} calls, whole tier ${(total / calls.length).toFixed(1)} µs of CPU per call on average`);
  for (const row of rows.slice(0, TOP)) console.log(`${row.us.toFixed(1).padStart(9)} µs  ${row.what}`);
}

function describe(input: CapturedCall['input']): string {
  const text = JSON.stringify(input.event.toolInput ?? {});
  return `${input.event.toolName ?? input.event.event} ${text.length > 90 ? `${text.slice(0, 90)}…` : text}`;
}

async function main(): Promise<void> {
  const folder = realpathSync(mkdtempSync(join(tmpdir(), 'aw-costs-')));
  try {
    await Evaluator.ready({ warmUp: true });
    const captured = await captureMixInputs(folder, mixLength(), 'cost');
    const { config } = captured;
    const calls = MATCH ? captured.calls.filter(({ input }) => describe(input).includes(MATCH)) : captured.calls;
    const resolvedStates = resolvePolicyStates(ALL_POLICIES, config);
    const states = resolvedStates.filter((s) => s.enabled && (!ONLY || ONLY.includes(s.policy.name)));
    const callOf = ({ input, writes }: CapturedCall) =>
      toolCallOf(input.event, {
        projectRoot: input.projectRoot,
        home: input.home,
        faces: config.faces,
        source: nodeFactSource,
        reader: INTERPRETER_CODE_READER,
        writes,
      });
    if (ALLOCATIONS) {
      const rounds = Math.max(ROUNDS, 10);
      await allocations(() => {
        for (let round = 0; round < rounds; round++)
          for (const { input, writes } of calls)
            runDeterministic(input, config, resolvedStates, nodeFactSource, writes);
      }, rounds * calls.length);
      return;
    }
    if (IN_SITU) {
      inSitu(calls, config, resolvedStates);
      return;
    }
    if (PER_CALL) {
      perCall(calls, config, resolvedStates);
      return;
    }
    if (WHOLE) {
      // CPU time, not wall time: on a shared machine the neighbours' load would otherwise be the figure.
      let wholeTotal = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const started = process.cpuUsage();
        for (const { input, writes } of calls) runDeterministic(input, config, resolvedStates, nodeFactSource, writes);
        const used = process.cpuUsage(started);
        if (round > 2) wholeTotal += (used.user + used.system) / 1000;
      }
      console.log(
        `${calls.length} calls, whole tier: ${((wholeTotal * 1000) / ((ROUNDS - 3) * calls.length)).toFixed(1)} µs of CPU per call`,
      );
      return;
    }
    let factsTotal = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const started = performance.now();
      for (const captured of calls) callOf(captured);
      if (round > 2) factsTotal += performance.now() - started;
    }
    const contexts = calls.map((captured) => {
      const { input } = captured;
      const call = callOf(captured);
      return (params: unknown): PolicyContext<unknown> => ({
        event: input.event,
        call,
        session,
        stateDir: input.stateDir,
        programDir: input.programDir,
        io: call?.io ?? new IoFacts(nodeFactSource),
        params,
      });
    });
    const costs: { name: string; us: number }[] = [];
    for (const state of states) {
      const ctxs = contexts.map((make) => make(state.params));
      let total = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const started = performance.now();
        for (const ctx of ctxs) {
          try {
            state.policy.evaluate(ctx);
          } catch {
            // A policy that throws costs what it cost.
          }
        }
        if (round > 2) total += performance.now() - started;
      }
      costs.push({ name: state.policy.name, us: (total * 1000) / ((ROUNDS - 3) * calls.length) });
    }
    costs.sort((a, b) => b.us - a.us);
    const sum = costs.reduce((s, c) => s + c.us, 0);
    console.log(`${calls.length} calls, ${states.length} enabled policies`);
    console.log(`facts (toolCallOf): ${((factsTotal * 1000) / ((ROUNDS - 3) * calls.length)).toFixed(1)} µs per call`);
    console.log(`policies together: ${sum.toFixed(1)} µs per call`);
    for (const c of costs.slice(0, TOP)) console.log(`${c.us.toFixed(2).padStart(8)} µs  ${c.name}`);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

void main();
