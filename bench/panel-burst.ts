// The panel in a burst, measured in the real page (headless Chromium on the
// web panel of `agent-warden serve`, the same UI as the webview): 1,000 hook
// calls paced over about 5 s with two asks in the middle (one from another
// session, one from the burst's own). Prints when the last row showed after the
// last reply, how long each ask's card took after its hook call, and the long
// tasks (PerformanceObserver 'longtask') in the page. Figures, never
// assertions. AGENT_WARDEN_CLI points at another build's cli.js to measure it
// the same way (before/after); BURST_SOCKETS sets how many connections the
// burst may open (8 by default; 1000 sends every call at once, as agents do).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium } from 'playwright-core';

const CALLS = Number(process.env.BURST_CALLS ?? 1000);
const SECONDS = Number(process.env.BURST_SECONDS ?? 5);
const cli = process.env.AGENT_WARDEN_CLI ?? join(process.cwd(), 'dist/cli.js');
const chromiumPath = process.env.AGENT_WARDEN_CHROMIUM ?? '/usr/bin/chromium';

function body(command: string, folder: string, n: number, session = 'burst-session'): string {
  return JSON.stringify({
    session_id: session,
    transcript_path: join(folder, 'none.jsonl'),
    cwd: folder,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command, description: 'burst' },
    tool_use_id: `toolu_burst_${n}`,
  });
}

function poster(url: string, token: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: Number(process.env.BURST_SOCKETS ?? 8) });
  const target = new URL(url);
  return {
    post: (text: string) =>
      new Promise<string>((ok, fail) => {
        const req = request(
          {
            host: target.hostname,
            port: target.port,
            path: '/hooks/claude',
            method: 'POST',
            agent,
            headers: {
              authorization: `Bearer ${token}`,
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(text),
            },
          },
          (res) => {
            let out = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => (out += c));
            res.on('end', () => ok(out));
          },
        );
        req.on('error', fail);
        req.end(text);
      }),
    close: () => agent.destroy(),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function main(): Promise<void> {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'aw-burst-')));
  const folder = join(base, 'project');
  mkdirSync(join(folder, '.git'), { recursive: true });
  mkdirSync(join(base, 'home'));
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: join(base, 'home'),
    AGENT_WARDEN_HOME: join(base, 'warden-home'),
    AGENT_WARDEN_CLAUDE_BIN: join(base, 'no-claude'),
  };
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BURST_PROF ? ['--cpu-prof', '--cpu-prof-dir=' + process.env.BURST_PROF] : []),
      cli,
      'serve',
      '--port',
      '0',
    ],
    {
      cwd: folder,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stderr!.on('data', (d: Buffer) => process.stderr.write(d));
  const served = await new Promise<{ url: string; tokenFile: string; panelUrl: string }>((ok, fail) => {
    child.once('exit', (code) => fail(new Error(`serve exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => ok(JSON.parse(line)));
  });
  const token = readFileSync(served.tokenFile, 'utf8').trim();
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    await page.addInitScript(() => {
      const w = window as unknown as { longTasks: { start: number; duration: number }[] };
      w.longTasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.longTasks.push({ start: e.startTime, duration: e.duration });
      }).observe({ type: 'longtask', buffered: true });
    });
    await page.goto(served.panelUrl);
    const post = poster(served.url, token);
    const askPost = poster(served.url, token);
    await post.post(body('echo warm-up', folder, -1));
    await page.waitForSelector('#spacer .row', { timeout: 30_000 });
    const last = `burst-${String(CALLS - 1).padStart(5, '0')}`;
    await page.evaluate((needle) => {
      const w = window as unknown as {
        seen: Promise<number>;
        cardSeen: Promise<number>;
        sameCardSeen: Promise<number>;
        burstStart: number;
      };
      w.burstStart = performance.now();
      const watch = (test: () => boolean) =>
        new Promise<number>((done) => {
          if (test()) return done(Date.now());
          const o = new MutationObserver(() => {
            if (!test()) return;
            o.disconnect();
            done(Date.now());
          });
          o.observe(document.body, { childList: true, subtree: true, characterData: true });
        });
      w.seen = watch(() =>
        Array.from(document.querySelectorAll('#spacer .row')).some((r) => (r.textContent ?? '').includes(needle)),
      );
      const card = (needle: string) => () =>
        Array.from(document.querySelectorAll('.card')).some((c) => (c.textContent ?? '').includes(needle));
      w.cardSeen = watch(card('burst-ask-package'));
      w.sameCardSeen = watch(card('burst-ask-same-session'));
    }, last);
    // BURST_PAGE_PROF=FILE: the page's CPU profile over the burst (read with bench/cpuprofile-top.mjs).
    const cdp = process.env.BURST_PAGE_PROF ? await page.context().newCDPSession(page) : undefined;
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    const started = Date.now();
    let lastReplyAt = 0;
    let askPostedAt = 0;
    const replyMs: number[] = [];
    const inFlight: Promise<unknown>[] = [];
    for (let n = 0; n < CALLS; n++) {
      const due = started + (n * SECONDS * 1000) / CALLS;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      if (n === Math.floor(CALLS / 2)) {
        // On a connection of its own: the burst's queued requests must not hold it back on the client side.
        askPostedAt = Date.now();
        // One ask from another session (another agent while this one bursts), one from the burst's own session.
        askPost
          .post(body('sudo apt-get install burst-ask-package', folder, 1_000_000, 'burst-other-session'))
          .catch(() => undefined);
        askPost.post(body('sudo apt-get install burst-ask-same-session', folder, 1_000_001)).catch(() => undefined);
      }
      const sentAt = Date.now();
      const p = post.post(body(`echo burst-${String(n).padStart(5, '0')}`, folder, n)).then(() => {
        replyMs.push(Date.now() - sentAt);
        if (n === CALLS - 1) lastReplyAt = Date.now();
      });
      inFlight.push(p);
    }
    await Promise.all(inFlight);
    const pushSeconds = (Date.now() - started) / 1000;
    const [seenAt, cardAt, sameCardAt] = await page.evaluate(async () => {
      const w = window as unknown as {
        seen: Promise<number>;
        cardSeen: Promise<number>;
        sameCardSeen: Promise<number>;
      };
      return [await w.seen, await w.cardSeen, await w.sameCardSeen];
    });
    await new Promise((r) => setTimeout(r, 500));
    if (cdp) {
      const { profile } = await cdp.send('Profiler.stop');
      writeFileSync(process.env.BURST_PAGE_PROF!, JSON.stringify(profile));
    }
    const tasks = await page.evaluate(() => {
      const w = window as unknown as { longTasks: { start: number; duration: number }[]; burstStart: number };
      return w.longTasks.filter((t) => t.start >= w.burstStart).map((t) => t.duration);
    });
    const over50 = tasks.filter((d) => d > 50);
    const cards = await page.evaluate(() => document.querySelectorAll('.card').length);
    const frames = await page.evaluate(() => performance.getEntriesByName('aw-frame').map((e) => e.duration));
    post.close();
    askPost.close();
    console.log(`cli: ${cli}`);
    console.log(`${CALLS} calls answered in ${pushSeconds.toFixed(1)} s (${Math.round(CALLS / pushSeconds)} calls/s)`);
    console.log(
      `reply time per call: median ${median(replyMs)} ms, longest ${Math.max(...replyMs)} ms (${process.env.BURST_SOCKETS ?? 8} sockets)`,
    );
    console.log(`last row visible ${seenAt - lastReplyAt} ms after the last reply`);
    console.log(
      `ask card visible ${cardAt - askPostedAt} ms after its hook call (another session's ask, posted mid-burst; ${cards} card(s) open)`,
    );
    console.log(`ask card of the burst's own session visible ${sameCardAt - askPostedAt} ms after its hook call`);
    console.log(
      `long tasks in the page during the burst: ${tasks.length} (over 50 ms: ${over50.length}; longest ${Math.round(Math.max(0, ...tasks))} ms; total ${Math.round(tasks.reduce((a, b) => a + b, 0))} ms)`,
    );
    if (frames.length)
      console.log(
        `panel redraws: ${frames.length} frames, median ${median(frames).toFixed(1)} ms, longest ${Math.max(...frames).toFixed(1)} ms`,
      );
  } finally {
    await browser.close();
    child.kill('SIGTERM');
    rmSync(base, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
