import type { BenchResults, Figure } from './schema';

// The one table `npm run bench` prints, built from the results alone (what is printed is what is written).

type Line = { label: string; figure: Figure } | { label: string; text: string } | { heading: string };

function size(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(bytes >= 10 * 1024 * 1024 ? 0 : 1)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(bytes >= 10 * 1024 ? 0 : 1)} KB`;
  return `${bytes} B`;
}

function skippedOr<T extends object>(value: T | { skipped: string }): value is T {
  return !('skipped' in value);
}

/** Every figure of the results with its label, in table order. */
export function lines(results: BenchResults): Line[] {
  const out: Line[] = [];
  out.push({ heading: 'floor' }, { label: 'node -e 0', figure: results.floor });
  out.push({
    heading: `http through serve (mix of ${results.mix.distinctCalls} calls, ${results.mix.dangerous} dangerous)`,
  });
  const warm = results.httpWarmUp;
  out.push({
    label: 'warm-up first, 8 conn',
    text: `${warm.calls} calls in ${warm.seconds.toFixed(1)} s (${warm.callsPerSecond.toFixed(0)} calls/s while V8 optimises)`,
  });
  for (const row of results.http) {
    const c = `${row.connections} conn${row.sessions === 'shared' ? ', one session' : ''}`;
    out.push(
      { label: `${c} p50`, figure: row.p50 },
      { label: `${c} p95`, figure: row.p95 },
      { label: `${c} p99`, figure: row.p99 },
      { label: `${c} throughput`, figure: row.throughput },
    );
  }
  out.push({ heading: 'http floor: a do-nothing endpoint built like serve (node http, a worker hop)' });
  for (const row of results.httpFloor) {
    const c = `floor ${row.connections} conn`;
    out.push(
      { label: `${c} p50`, figure: row.p50 },
      { label: `${c} p99`, figure: row.p99 },
      { label: `${c} throughput`, figure: row.throughput },
    );
  }
  const paused = results.afterPause;
  out.push(
    { heading: `one call at a time, each after a ${paused.pauseMs} ms pause (as an agent calls)` },
    { label: 'serve, per call', figure: paused.serve },
    { label: 'http floor, per call', figure: paused.floor },
  );
  if (skippedOr(results.serveEventLoopMaxMs))
    out.push({ label: 'serve event-loop delay max (per run)', figure: results.serveEventLoopMaxMs });
  else out.push({ label: 'serve event-loop delay max', text: results.serveEventLoopMaxMs.skipped });
  out.push(
    { heading: 'in-process, per call' },
    { label: 'mix (evaluate, log on)', figure: results.inProcess.mix },
    { label: 'deterministic tier alone', figure: results.inProcess.deterministicOnly },
    { label: 'event-loop delay max (per run)', figure: results.inProcess.eventLoopMaxMs },
  );
  out.push({ heading: 'command bridge' });
  if (skippedOr(results.bridge))
    out.push(
      { label: 'dist/hook.js, endpoint up', figure: results.bridge.forwarding },
      { label: 'sh dist/hook.sh, endpoint up', figure: results.bridge.shellForwarding },
      { label: 'endpoint round trip alone', figure: results.bridge.roundTrip },
      { label: 'fallback in-process, code cache', figure: results.bridge.fallbackCodeCache },
      { label: 'fallback in-process, no code cache', figure: results.bridge.fallbackNoCodeCache },
    );
  else out.push({ label: 'bridge', text: results.bridge.skipped });
  out.push({ heading: 'redaction (blunt)' });
  for (const row of results.redaction)
    out.push({
      label: `${size(row.chars)} ${row.kind === 'typical' ? 'typical' : `adversarial (${row.input})`}`,
      figure: row.time,
    });
  out.push({ heading: 'envelope build, by transcript size' });
  for (const row of results.envelope) out.push({ label: `transcript ${size(row.transcriptBytes)}`, figure: row.time });
  out.push({ heading: 'exact-arguments digest' });
  for (const row of results.digest) out.push({ label: `${size(row.bytes)} ${row.shape}`, figure: row.time });
  out.push({ heading: 'deterministic tier on a Write of hard-to-read code' });
  for (const row of results.writtenCode) out.push({ label: `${size(row.bytes)} ${row.text}`, figure: row.time });
  const memory = (m: BenchResults['memory'], what: string) => [
    { heading: `${what}: serve, ${m.calls.toLocaleString('en')} calls at ${m.connections} conn` },
    { label: 'RSS at start', figure: m.rssAtStart },
    { label: `RSS after ${m.calls.toLocaleString('en')} calls`, figure: m.rssAfter },
    { label: 'calls in / rows logged', text: `${m.calls} / ${m.rowsLogged}` },
  ];
  const arenas2 = (m: BenchResults['memoryArenas2'], what: string): Line[] =>
    skippedOr(m)
      ? [{ label: `${what}: RSS after, MALLOC_ARENA_MAX=2`, figure: m.rssAfter }]
      : [{ label: `${what}: MALLOC_ARENA_MAX=2`, text: m.skipped }];
  out.push(...memory(results.memory, 'memory'), ...arenas2(results.memoryArenas2, 'same run'));
  out.push(
    { heading: `judge answering in a fixed ${results.judge.delayMs} ms` },
    { label: 'time Warden adds over the judge', figure: results.judge.added },
    { label: 'calls / judge requests', text: `${results.judge.calls} / ${results.judge.judgeRequests}` },
  );
  if (results.full) {
    out.push(...memory(results.full.memory, 'full memory run'), ...arenas2(results.full.memoryArenas2, 'same run'));
    const host = results.full.extensionHost;
    out.push({ heading: 'extension host (code-server)' });
    if (skippedOr(host))
      out.push(
        { label: `heap used before ${host.calls.toLocaleString('en')} calls`, figure: host.heapUsedBefore },
        { label: 'heap used after', figure: host.heapUsedAfter },
        { label: 'heap growth', figure: host.heapGrowth },
        { label: 'RSS after', figure: host.rssAfter },
      );
    else out.push({ label: 'extension host', text: host.skipped });
    const load = results.full.load;
    out.push(
      {
        heading: `load run: ${load.connections} conn for ${load.seconds.toFixed(0)} s, judge answering in ${load.judgeDelayMs} ms`,
      },
      { label: 'latency', figure: load.latency },
      { label: `calls past the ${load.deadlineMs} ms deadline`, text: String(load.pastDeadline) },
      { label: 'calls in / answered / rows out', text: `${load.callsIn} / ${load.callsAnswered} / ${load.rowsOut}` },
      { label: 'failed / judge requests', text: `${load.failed} / ${load.judgeRequests}` },
      { label: 'RSS after', figure: load.rssAfter },
      {
        label: 'serve event-loop delay max',
        text: load.eventLoopMaxMs === null ? 'not reported by this build' : `${load.eventLoopMaxMs.toFixed(1)} ms`,
      },
    );
  }
  return out;
}

/** Every millisecond figure's median as a multiple of the floor's. */
export function ratiosToFloor(results: Omit<BenchResults, 'ratiosToFloor'>): Record<string, number> {
  const ratios: Record<string, number> = {};
  for (const line of lines({ ...results, ratiosToFloor: {} }))
    if ('figure' in line && line.figure.unit === 'ms' && line.label !== 'node -e 0')
      ratios[line.label] = line.figure.median / results.floor.median;
  return ratios;
}

function number(value: number): string {
  const abs = Math.abs(value);
  return abs >= 100 ? value.toFixed(0) : abs >= 10 ? value.toFixed(1) : abs >= 1 ? value.toFixed(2) : value.toFixed(3);
}

export function renderTable(results: BenchResults): string {
  const m = results.machine;
  const head = [
    `Agent Warden bench (${results.mode}): node ${m.node}, ${m.cpus} CPUs, load average ${m.loadAverageAtStart[0]!.toFixed(1)} at start, ${m.loadAverageAtEnd[0]!.toFixed(1)} at end, ${results.seconds.toFixed(0)} s`,
    'median, spread (p25-p75 over calls, min-max over runs), n, and the median as a multiple of the node -e 0 floor',
    ...(results.cutByBudget.length
      ? [`cut short by their time budget (fewer runs or calls than planned): ${results.cutByBudget.join(', ')}`]
      : []),
    '',
    `${'figure'.padEnd(46)}${'median'.padStart(14)}  ${'spread'.padEnd(24)}${'n'.padStart(6)}${'x floor'.padStart(10)}`,
  ];
  const body = lines(results).map((line) => {
    if ('heading' in line) return `\n${line.heading}`;
    if ('text' in line) return `  ${line.label.padEnd(44)}${line.text.padStart(14)}`;
    const f = line.figure;
    const ratio = results.ratiosToFloor[line.label];
    const spread = f.spread === 'single' ? 'once' : `${number(f.low)}-${number(f.high)} ${f.spread}`;
    return `  ${line.label.padEnd(44)}${`${number(f.median)} ${f.unit}`.padStart(14)}  ${spread.padEnd(24)}${String(f.n).padStart(6)}${(ratio === undefined ? '' : ratio.toFixed(ratio < 0.01 ? 4 : 3)).padStart(10)}`;
  });
  return [...head, ...body].join('\n');
}
