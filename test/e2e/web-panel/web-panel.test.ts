import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';

// The same panel as a web page, served by the standalone server: `serve`
// prints a one-time panelUrl, headless Chromium opens it, hook calls become
// rows, an ask becomes an approval card whose "Approve once" answers the held
// hook request with an explicit allow. Then 10,000 more calls: the list keeps
// only a window of rows in the DOM and scrolls to the oldest. The page's
// screenshot goes to test-results/web-panel.png.

const root = process.cwd();
const cli = join(root, 'dist/cli.js');
const chromiumPath = process.env.AGENT_WARDEN_CHROMIUM ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const BULK = 10_000;

interface Served {
  url: string;
  tokenFile: string;
  panelUrl: string;
}

function startServe(
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ child: ChildProcess; served: Served; stderr: string[] }> {
  const child = spawn(process.execPath, [cli, 'serve', '--port', '0'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const stderr: string[] = [];
  child.stderr!.on('data', (d: Buffer) => stderr.push(d.toString()));
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`serve printed nothing within 20 s:\n${stderr.join('')}`)), 20_000);
    child.once('exit', (code) => fail(new Error(`serve exited with ${code}:\n${stderr.join('')}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      ok({ child, served: JSON.parse(line) as Served, stderr });
    });
  });
}

/** A temp project (with .git) for serve, and an environment whose home and state folders are inside it. */
function servedFolder(prefix: string): { base: string; folder: string; env: NodeJS.ProcessEnv } {
  const base = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const folder = join(base, 'project');
  mkdirSync(join(folder, '.git'), { recursive: true });
  mkdirSync(join(base, 'home'), { recursive: true });
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: join(base, 'home'),
    AGENT_WARDEN_HOME: join(base, 'warden-home'),
    AGENT_WARDEN_CLAUDE_BIN: join(base, 'no-claude'),
  };
  return { base, folder, env };
}

function hookBody(command: string, folder: string, n = 0): string {
  return JSON.stringify({
    session_id: 'web-panel-session',
    transcript_path: join(folder, 'no-transcript.jsonl'),
    cwd: folder,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command, description: 'web panel e2e' },
    tool_use_id: `toolu_web_${n}_${Math.random().toString(36).slice(2)}`,
  });
}

async function postHook(
  url: string,
  token: string,
  body: string,
): Promise<{ hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } }> {
  const res = await fetch(`${url}/hooks/claude`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body,
  });
  assert.equal(res.status, 200);
  return (await res.json()) as { hookSpecificOutput?: { permissionDecision?: string } };
}

/** The bulk push goes over kept-alive connections: a fresh one per call would cost more than the call. */
function bulkPoster(url: string, token: string): { post(body: string): Promise<string>; close(): void } {
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const target = new URL(url);
  return {
    post: (body) =>
      new Promise((ok, fail) => {
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
              'content-length': Buffer.byteLength(body),
            },
          },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (text += chunk));
            res.on('end', () =>
              res.statusCode === 200 ? ok(text) : fail(new Error(`hook answered ${res.statusCode}: ${text}`)),
            );
          },
        );
        req.on('error', fail);
        req.end(body);
      }),
    close: () => agent.destroy(),
  };
}

/** Resolves with the wall clock (ms) when a row whose text holds `needle` is in the DOM. */
async function watchForRow(page: Page, needle: string): Promise<void> {
  await page.evaluate((text) => {
    const w = window as unknown as { rowSeen?: Promise<number> };
    w.rowSeen = new Promise<number>((done) => {
      const seen = () =>
        Array.from(document.querySelectorAll('#spacer .row')).some((r) => (r.textContent ?? '').includes(text));
      if (seen()) return done(Date.now());
      const observer = new MutationObserver(() => {
        if (!seen()) return;
        observer.disconnect();
        done(Date.now());
      });
      observer.observe(document.getElementById('spacer')!, { childList: true, subtree: true });
    });
  }, needle);
}

test(
  'the web panel of `serve`: rows, an ask approved by a click, and 10,000 rows in a window',
  { timeout: 600_000 },
  async (t) => {
    assert.ok(
      existsSync(cli) && existsSync(join(root, 'dist/webview/panel.js')),
      'build first: node scripts/build.mjs',
    );
    assert.ok(existsSync(chromiumPath), `chromium is missing at ${chromiumPath}`);
    const { base, folder, env } = servedFolder('aw-web-panel-');
    const { child, served, stderr } = await startServe(folder, env);
    let browser: Browser | undefined;
    t.after(async () => {
      await browser?.close().catch(() => undefined);
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(base, { recursive: true, force: true });
    });

    assert.match(served.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.ok(served.panelUrl.startsWith(`${served.url}/panel?once=`), `a one-time panel link: ${served.panelUrl}`);
    const token = readFileSync(served.tokenFile, 'utf8').trim();
    const pageErrors: string[] = [];

    browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: CHROMIUM_ARGS });
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    page.on('pageerror', (err) => pageErrors.push(err.message));
    page.on('console', (msg) => {
      if (msg.type() === 'error') pageErrors.push(msg.text());
    });
    const opened = await page.goto(served.panelUrl);
    assert.equal(opened?.status(), 200, 'the one-time link sets the cookie and lands on the panel');
    assert.equal(new URL(page.url()).search, '', 'the one-time token leaves the address bar');
    const reused = await fetch(served.panelUrl, { redirect: 'manual' });
    assert.equal(reused.status, 401, 'the link works once');

    try {
      // An allowed call: its row proves the event stream is attached (asks are held only then).
      await watchForRow(page, 'web-allowed-dir');
      assert.deepEqual(await postHook(served.url, token, hookBody('ls -la web-allowed-dir', folder)), {});
      await page.waitForSelector('#spacer .row:has-text("web-allowed-dir")', { timeout: 20_000 });

      // A filter select keeps its value while rows arrive (its value is set after its options exist).
      await page.selectOption('select[data-filter="decision"]', 'allow');
      await postHook(served.url, token, hookBody('ls web-filter-kept', folder));
      await page.waitForSelector('#spacer .row:has-text("web-filter-kept")', { timeout: 20_000 });
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await postHook(served.url, token, hookBody('ls web-filter-kept-2', folder));
      await page.waitForSelector('#spacer .row:has-text("web-filter-kept-2")', { timeout: 20_000 });
      await page.waitForFunction(() => document.querySelector('select[data-filter="tool"] option[value="Bash"]'));
      assert.equal(
        await page.$eval('select[data-filter="decision"]', (el) => (el as HTMLSelectElement).value),
        'allow',
      );
      await page.selectOption('select[data-filter="decision"]', '');
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

      const denied = await postHook(served.url, token, hookBody('chmod -R 777 /', folder));
      assert.equal(denied.hookSpecificOutput?.permissionDecision, 'deny', JSON.stringify(denied));
      const denyRow = await page.waitForSelector('#spacer .row:has-text("chmod -R 777 /")', { timeout: 20_000 });
      assert.equal(await denyRow.$eval('.badge', (el) => el.textContent), 'deny');

      const held = postHook(served.url, token, hookBody('sudo apt-get install web-panel-package', folder));
      const card = await page.waitForSelector('.card:has-text("web-panel-package")', { timeout: 20_000 });
      const askRow = await page.waitForSelector('#spacer .row:has-text("web-panel-package")', { timeout: 20_000 });
      assert.equal(await askRow.$eval('.badge', (el) => el.textContent), 'ask');
      assert.match((await card.textContent()) ?? '', /sha256:[0-9a-f]{64}/, 'the card shows the digest');
      mkdirSync(join(root, 'test-results'), { recursive: true });
      await page.screenshot({ path: join(root, 'test-results/web-panel.png'), fullPage: true });
      await (await card.$('button[data-action="approve-once"]'))!.click();
      const answered = await held;
      assert.equal(
        answered.hookSpecificOutput?.permissionDecision,
        'allow',
        `the held ask is answered with an explicit allow: ${JSON.stringify(answered)}`,
      );
      await page.waitForSelector('.card', { state: 'detached', timeout: 10_000 });
      // The row follows its ask: it shows the answer and who gave it.
      await page.waitForSelector('#spacer .row:has-text("web-panel-package") .badge[data-outcome="approved"]', {
        timeout: 10_000,
      });
      const answeredRow = await page.$eval('#spacer .row:has-text("web-panel-package")', (el) => el.textContent ?? '');
      assert.match(answeredRow, /approved/);
      assert.match(answeredRow, /by the web panel/);
      await page.click('#spacer .row:has-text("web-panel-package")');
      const approvalLine = await page.waitForSelector('#detail .approval', { timeout: 10_000 });
      assert.match((await approvalLine.textContent()) ?? '', /approved once by web-panel/);
      assert.equal(
        await page.evaluate(() => document.activeElement?.id),
        'list',
        'after a click the list keeps focus, so the arrow keys move the selection',
      );
      await page.keyboard.press('ArrowDown');
      const selected = await page.$eval('#spacer .row.selected', (el) => el.textContent ?? '');
      assert.match(selected, /chmod -R 777/, 'ArrowDown selected the next (older) call');
      await page.keyboard.press('Escape');

      // 10,000 more calls through the real hook route, four at a time.
      const last = `web-bulk-${String(BULK - 1).padStart(5, '0')}`;
      await watchForRow(page, last);
      let next = 0;
      let lastRepliedAt = 0;
      const poster = bulkPoster(served.url, token);
      const pushStarted = Date.now();
      try {
        await Promise.all(
          Array.from({ length: 4 }, async () => {
            for (let n = next++; n < BULK; n = next++) {
              const reply = await poster.post(hookBody(`echo web-bulk-${String(n).padStart(5, '0')}`, folder, n));
              assert.equal(reply, '{}');
              if (n === BULK - 1) lastRepliedAt = Date.now();
            }
          }),
        );
      } finally {
        poster.close();
      }
      const pushSeconds = (Date.now() - pushStarted) / 1000;
      const seenAt = await page.evaluate(() => (window as unknown as { rowSeen: Promise<number> }).rowSeen);
      await page.waitForFunction((n) => document.getElementById('list')?.dataset.count === String(n), BULK, {
        timeout: 60_000,
      });

      const domRows = await page.$$eval('#spacer .row', (rows) => rows.length);
      assert.ok(domRows > 0 && domRows < 200, `only a window of rows is in the DOM (${domRows})`);
      // Four posters run at once, so any of the last four calls may be the last to arrive.
      const top = await page.$eval('#spacer .row', (el) => el.textContent ?? '');
      const lastFour = Array.from({ length: 4 }, (_, i) => `echo web-bulk-${String(BULK - 1 - i).padStart(5, '0')}`);
      assert.ok(
        lastFour.some((command) => top.includes(command)),
        `the newest call is on top: ${top}`,
      );

      // Scroll to the bottom: the oldest call still held is there, and the DOM holds a window again.
      const frame = await page.evaluate(async () => {
        const list = document.getElementById('list')!;
        // The panel redraws in its own animation-frame callback, queued by the scroll event before
        // ours: the time from the frame's start to our callback is the redraw's work in that frame.
        const inFrame = () =>
          new Promise<{ work: number; at: number }>((r) =>
            requestAnimationFrame((frameStart) => r({ work: performance.now() - frameStart, at: performance.now() })),
          );
        const work: number[] = [];
        const toFrame: number[] = [];
        for (const fraction of [0.25, 0.5, 0.75, 1]) {
          const started = performance.now();
          list.scrollTop = (list.scrollHeight - list.clientHeight) * fraction;
          list.dispatchEvent(new Event('scroll'));
          const first = await inFrame();
          work.push(first.work);
          toFrame.push(first.at - started);
          await inFrame();
        }
        return { work, toFrame, rows: document.querySelectorAll('#spacer .row').length };
      });
      assert.ok(frame.rows > 0 && frame.rows < 200, `still a window after scrolling (${frame.rows})`);
      const bottom = await page.$$eval('#spacer .row', (rows) => rows.map((r) => r.textContent ?? ''));
      assert.ok(
        bottom.some((text) => text.includes('web-bulk-00000')),
        `the oldest of the 10,000 shows at the bottom: ${bottom.slice(-2).join(' | ')}`,
      );
      assert.ok(!bottom.some((text) => text.includes(last)), 'the newest is scrolled out of the DOM');
      assert.deepEqual(pageErrors, [], 'no error in the page');

      console.log(
        `figure: ${BULK} hook calls pushed in ${pushSeconds.toFixed(1)} s (${Math.round(BULK / pushSeconds)} calls/s, 4 at a time)`,
      );
      console.log(
        `figure: 10,000th record: hook reply → its row in the DOM ${seenAt - lastRepliedAt} ms (wall clock, same machine)`,
      );
      const fixed = (list: number[]) => list.map((ms) => ms.toFixed(1)).join(', ');
      console.log(
        `figure: scroll jumps to 25/50/75/100 % of 10,000 rows: redraw work in the frame ${fixed(frame.work)} ms; scroll → painted frame ${fixed(frame.toFrame)} ms; ${domRows} row elements in the DOM`,
      );
    } catch (err) {
      throw new Error(
        `${(err as Error).message}\n--- serve stderr (tail) ---\n${stderr.join('').slice(-3000)}\n--- page errors ---\n${pageErrors.join('\n')}`,
        { cause: err },
      );
    }
  },
);

/** VS Code's light theme colours, set on the page the way a webview receives them. */
const LIGHT_THEME = {
  '--vscode-foreground': '#3b3b3b',
  '--vscode-sideBar-background': '#f8f8f8',
  '--vscode-descriptionForeground': '#595959',
  '--vscode-panel-border': '#e5e5e5',
  '--vscode-list-hoverBackground': '#f2f2f2',
  '--vscode-list-activeSelectionBackground': '#e4e6f1',
};

test(
  'a row in a narrow sidebar: a long command ends in an ellipsis and never squeezes its chips (light and dark)',
  { timeout: 180_000 },
  async (t) => {
    assert.ok(existsSync(cli) && existsSync(join(root, 'dist/webview/panel.js')), 'build first');
    const { base, folder, env } = servedFolder('aw-web-row-');
    const { child, served } = await startServe(folder, env);
    const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: CHROMIUM_ARGS });
    t.after(async () => {
      await browser.close().catch(() => undefined);
      child.kill('SIGTERM');
      rmSync(base, { recursive: true, force: true });
    });
    const token = readFileSync(served.tokenFile, 'utf8').trim();
    const page = await browser.newPage({ viewport: { width: 340, height: 500 } });
    await page.goto(served.panelUrl);
    await watchForRow(page, 'long-command-marker');
    const command = `echo long-command-marker ${'x'.repeat(400)} && ls -la ${'/very/deep/path'.repeat(10)}`;
    const call = JSON.parse(hookBody(command, folder)) as Record<string, unknown>;
    await postHook(served.url, token, JSON.stringify(call));
    // Its result, tied to the call by the tool use id: the row gets a "+1" chip.
    await postHook(
      served.url,
      token,
      JSON.stringify({ ...call, hook_event_name: 'PostToolUse', tool_response: { stdout: 'done' } }),
    );
    const row = '#spacer .row:has-text("long-command-marker")';
    await page.waitForSelector(`${row} .flag.events`, { timeout: 20_000 });
    mkdirSync(join(root, 'test-results'), { recursive: true });
    // Below 420 px the time, agent, answer and latency are hidden; above they compete for the room too.
    for (const theme of ['dark', 'light'] as const) {
      if (theme === 'light')
        await page.evaluate((vars) => {
          for (const [name, value] of Object.entries(vars)) document.documentElement.style.setProperty(name, value);
        }, LIGHT_THEME);
      for (const width of [340, 440, 600]) {
        await page.setViewportSize({ width, height: 500 });
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        const box = await page.$eval(row, (el) => {
          const rect = (sel: string) => el.querySelector(sel)!.getBoundingClientRect();
          const summary = el.querySelector<HTMLElement>('.cell.summary')!;
          const chip = el.querySelector<HTMLElement>('.flag.events')!;
          // The chip's own width, drawn alone: what it needs to be read whole.
          const alone = chip.cloneNode(true) as HTMLElement;
          alone.style.position = 'absolute';
          document.body.appendChild(alone);
          const needs = alone.getBoundingClientRect().width;
          alone.remove();
          return {
            row: el.getBoundingClientRect().right,
            chip: { right: rect('.flag.events').right, width: rect('.flag.events').width, needs },
            flags: rect('.cell.flags').right,
            badge: rect('.badge').right,
            summary: {
              width: summary.scrollWidth,
              shown: summary.clientWidth,
              ellipsis: getComputedStyle(summary).textOverflow,
            },
            chipText: chip.textContent,
          };
        });
        const what = `${theme}, ${width} px: ${JSON.stringify(box)}`;
        assert.equal(box.chipText, '+1', what);
        assert.ok(box.chip.width >= box.chip.needs - 0.5, `the chip keeps its width (${what})`);
        assert.ok(box.chip.right <= box.flags + 0.5, `the chip is not cut by its cell (${what})`);
        assert.ok(box.chip.right <= box.row && box.badge <= box.row, `chip and badge are inside the row (${what})`);
        assert.ok(box.summary.shown > 0 && box.summary.width > box.summary.shown, `the command is cut (${what})`);
        assert.equal(box.summary.ellipsis, 'ellipsis', what);
        await page.screenshot({ path: join(root, `test-results/web-panel-row-${width}px-${theme}.png`) });
      }
    }
  },
);
