import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { toolResultsOf, type ToolResult } from '../claude/anthropic-wire';
import { claudeBinary } from '../claude/claude-binary';
import { agentTurns, startFakeModel, toolUseIdFor, type FakeModel } from '../claude/fake-model';
import { runClaude, type ClaudeRun } from '../claude/run-claude';
import { packageVsix } from './package-vsix';
import {
  assertWorkbenchTools,
  codeServerEntry,
  codeServerEnv,
  isolatedFolders,
  launchChromium,
  node24,
  panelFrame,
  runPaletteCommand,
  startCodeServer,
  switchTheme,
  type ThemeName,
} from './workbench';
import { until } from './until';

// The whole loop with the real programs: the .vsix that `npm run package`
// builds, installed into code-server; Connect run from the command palette and
// confirmed in its notification; the real Claude Code CLI started in the
// workspace with the settings Connect wrote, against a fake model that asks
// for five Bash calls. Warden holds the three that ask while the panel is
// open, and a person answers each by clicking its card: one approved (its
// marker file appears), one refused with a message (no marker; the model reads
// the message), one edited (the edited command's marker appears, the
// original's does not). The panel's rows and counts are then checked against
// what the agent reported to the model. Screenshots of every state, in a light
// and a dark theme, go to test-results/loop-*.png.

const root = process.cwd();
const CLAUDE_VERSION = '2.1.332';
const results = join(root, 'test-results');

/**
 * Each ask writes its own marker in the workspace, so what really ran is read off the disk. Each asks
 * because its command is known only at run time (head's output is not worked out statically; a bare
 * echo's is, and would be read as the plain touch it prints).
 */
const CALLS = {
  listing: 'ls -a',
  approve: 'bash -c "$(echo touch approved.marker | head -n 1)"',
  refuse: 'bash -c "$(echo touch refused.marker | head -n 1)"',
  edit: 'bash -c "$(echo touch original.marker | head -n 1)"',
  secret: 'cat ~/.ssh/id_rsa',
} as const;
const EDITED = 'touch edited.marker';
const REFUSAL_MESSAGE = 'Not now: leave refused.marker alone and carry on.';
const ORDER = ['listing', 'approve', 'refuse', 'edit', 'secret'] as const;
const FINAL_TEXT = 'Done with the scripted calls.';

interface Loop {
  page: Page;
  frame: Frame;
  folder: string;
  model: FakeModel;
  shots: string[];
  step: (what: string) => void;
}

async function shoot(loop: Loop, name: string): Promise<void> {
  const path = join(results, `loop-${name}.png`);
  const webview = await loop.page.$('iframe.webview');
  await (webview ?? loop.page).screenshot({ path });
  loop.shots.push(path);
  loop.step(`screenshot ${name}`);
}

/** The pending card of this exact command, once it is drawn: its selector (a card is redrawn as it changes). */
async function cardFor(frame: Frame, command: string): Promise<string> {
  const id = await until(
    `the approval card for ${command}`,
    async () => {
      for (const card of await frame.$$('#cards .card'))
        if ((await card.$$eval('.arg-value', (els) => els.map((e) => e.textContent ?? ''))).includes(command))
          return (await card.getAttribute('data-approval-id')) ?? undefined;
      return undefined;
    },
    90_000,
  );
  return `#cards .card[data-approval-id="${id}"]`;
}

async function click(frame: Frame, card: string, action: string): Promise<void> {
  const button = await frame.waitForSelector(`${card} button[data-action="${action}"]:not([disabled])`, {
    timeout: 20_000,
  });
  await button.click();
}

interface PanelRow {
  tool: string;
  summary: string;
  outcome: string;
  answer: string;
}

/** The panel's tool-call rows as drawn (session events aside), newest first. */
function callRows(frame: Frame): Promise<PanelRow[]> {
  return frame.$$eval('.row:not(.session-event)', (rows) =>
    rows
      .sort((a, b) => Number((a as HTMLElement).dataset.index) - Number((b as HTMLElement).dataset.index))
      .map((row) => ({
        tool: row.querySelector('.cell.tool')?.textContent ?? '',
        summary: row.querySelector('.cell.summary')?.textContent ?? '',
        outcome: row.querySelector('.badge')?.getAttribute('data-outcome') ?? '',
        answer: row.querySelector('.cell.answer')?.textContent ?? '',
      })),
  );
}

async function openRow(frame: Frame, command: string): Promise<string> {
  const rows = await frame.$$('.row:not(.session-event)');
  for (const row of rows)
    if ((await row.$eval('.cell.summary', (e) => e.textContent ?? '')).includes(command)) {
      await row.click();
      const detail = await frame.waitForSelector(`#detail .detail:has-text("${command.replace(/"/g, '\\"')}")`, {
        timeout: 15_000,
      });
      return (await detail.textContent()) ?? '';
    }
  throw new Error(`no row for ${command}`);
}

function toolResultFor(model: FakeModel, call: (typeof ORDER)[number]): ToolResult {
  const last = agentTurns(model).at(-1);
  assert.ok(last, 'the CLI made no main-loop request to the fake model');
  const id = toolUseIdFor(ORDER.indexOf(call));
  const result = toolResultsOf(last).find((entry) => entry.toolUseId === id);
  assert.ok(result, `no tool_result for ${id} (${CALLS[call]}) reached the model`);
  return result;
}

/** What the model was told about each call, for failure messages. */
function modelView(model: FakeModel): string {
  const last = agentTurns(model).at(-1);
  if (!last) return '(no main-loop request reached the fake model)';
  return toolResultsOf(last)
    .map((r) => `${r.toolUseId}${r.isError ? ' (error)' : ''}: ${r.text.slice(0, 400)}`)
    .join('\n');
}

/** Answers the three asks as a person would, with screenshots of each pending card in both themes. */
async function answerTheAsks(loop: Loop): Promise<void> {
  const { page, frame, folder } = loop;
  const marker = (name: string) => existsSync(join(folder, name));

  // Approved once: the command really runs.
  let card = await cardFor(frame, CALLS.approve);
  assert.equal(marker('approved.marker'), false, 'the held call has not run before its answer');
  await shoot(loop, 'light-pending');
  await switchTheme(page, frame, 'dark');
  await shoot(loop, 'dark-pending');
  await click(frame, card, 'approve-once');
  await until('approved.marker on disk', () => marker('approved.marker'), 60_000);

  // Refused with a message for the agent: nothing runs.
  card = await cardFor(frame, CALLS.refuse);
  await frame.fill(`${card} input.refuse-message`, REFUSAL_MESSAGE);
  await shoot(loop, 'dark-refusing');
  await switchTheme(page, frame, 'light');
  await shoot(loop, 'light-refusing');
  await click(frame, card, 'refuse');

  // Edited: the person's version is checked again, approved, and runs instead of the original.
  card = await cardFor(frame, CALLS.edit);
  await click(frame, card, 'edit');
  const editor = `${card} textarea.edit-text`;
  await frame.waitForSelector(editor, { timeout: 10_000 });
  const original = JSON.parse(await frame.inputValue(editor)) as Record<string, unknown>;
  assert.equal(original.command, CALLS.edit, 'the editor starts from the exact arguments');
  await frame.fill(editor, JSON.stringify({ ...original, command: EDITED }, null, 2));
  await click(frame, card, 'rescreen');
  await frame.waitForSelector(`${card} .rescreen .badge`, { timeout: 20_000 });
  await frame.waitForSelector(`${card} button[data-action="approve-edit"]:not([disabled])`, { timeout: 10_000 });
  await shoot(loop, 'light-editing');
  await switchTheme(page, frame, 'dark');
  await shoot(loop, 'dark-editing');
  await click(frame, card, 'approve-edit');
  await until('edited.marker on disk', () => marker('edited.marker'), 60_000);
}

/** The list and each answered row's details, in the theme the page is in. */
async function shootAnsweredStates(loop: Loop, theme: ThemeName): Promise<Record<string, string>> {
  await shoot(loop, `${theme}-rows`);
  const details: Record<string, string> = {};
  for (const [name, command] of [
    ['approved', CALLS.approve],
    ['refused', CALLS.refuse],
    ['edited', CALLS.edit],
  ] as const) {
    details[name] = await openRow(loop.frame, command);
    await shoot(loop, `${theme}-detail-${name}`);
  }
  return details;
}

/** Drags the sash at the side bar's edge to the right, so the panel's rows have room for their outcome and answer. */
async function widenSideBar(page: Page): Promise<void> {
  const side = await (await page.$('#workbench\\.parts\\.sidebar'))?.boundingBox();
  if (!side) throw new Error('no side bar to widen');
  const edge = side.x + side.width;
  for (const sash of await page.$$('.monaco-sash.vertical')) {
    const box = await sash.boundingBox();
    if (!box || Math.abs(box.x + box.width / 2 - edge) > 4 || box.height < side.height / 2) continue;
    const y = side.y + side.height / 2;
    await page.mouse.move(box.x + box.width / 2, y);
    await page.mouse.down();
    await page.mouse.move(edge + 350, y, { steps: 10 });
    await page.mouse.up();
    return;
  }
  throw new Error(`no sash at the side bar's edge (x ${edge})`);
}

/** Clicks a button of a notification: on its toast, or in the notification centre once the toast has hidden. */
async function clickNotificationButton(page: Page, label: string): Promise<void> {
  const button = page.locator('.notifications-toasts, .notifications-center').getByRole('button', { name: label });
  try {
    await button.first().waitFor({ state: 'visible', timeout: 20_000 });
  } catch {
    await runPaletteCommand(page, 'Notifications: Show Notifications');
    await button.first().waitFor({ state: 'visible', timeout: 20_000 });
  }
  await button.first().click();
}

function installVsix(vsix: string, dirs: Record<string, string>): void {
  const run = spawnSync(
    node24,
    [
      codeServerEntry,
      '--user-data-dir',
      dirs['user-data']!,
      '--extensions-dir',
      dirs.extensions!,
      '--install-extension',
      vsix,
    ],
    { encoding: 'utf8', timeout: 120_000, env: codeServerEnv(dirs, {}) },
  );
  assert.equal(run.status, 0, `code-server --install-extension failed:\n${run.stdout}\n${run.stderr}`);
  const installed = readdirSync(dirs.extensions!).filter((name) => name.startsWith('agent-warden.agent-warden-'));
  assert.equal(installed.length, 1, `the extension is in the extensions folder: ${readdirSync(dirs.extensions!)}`);
}

test(
  'the whole loop: the packaged .vsix in code-server, Connect from the palette, the real Claude Code CLI, asks approved, refused and edited by clicking their cards',
  { timeout: 600_000 },
  async (t) => {
    assertWorkbenchTools();
    const claude = claudeBinary(CLAUDE_VERSION);
    const started = Date.now();
    const step = (what: string) => console.log(`[loop] ${((Date.now() - started) / 1000).toFixed(1)} s: ${what}`);
    const base = mkdtempSync(join(tmpdir(), 'aw-loop-e2e-'));
    const cleanup: (() => unknown)[] = [() => rmSync(base, { recursive: true, force: true })];
    t.after(async () => {
      // Last in, first out, each bounded: a stuck browser must not keep the editor and the agent running.
      for (const undo of cleanup.reverse()) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          Promise.resolve()
            .then(undo)
            .catch(() => undefined),
          new Promise((r) => (timer = setTimeout(r, 15_000))),
        ]);
        clearTimeout(timer);
      }
    });
    mkdirSync(results, { recursive: true });

    const { copy, vsix } = packageVsix(root);
    const dirs = isolatedFolders(base, ['warden-home', 'ws/.git']);
    try {
      installVsix(vsix, dirs);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
    const packagedAt = Date.now();
    step('the .vsix is built and installed');
    const folder = join(base, 'ws');
    const wardenHome = dirs['warden-home']!;

    const server = await startCodeServer(dirs, {
      AGENT_WARDEN_HOME: wardenHome,
      // Connect asks this CLI its version to choose the hook entries (fail closed since 2.1.295).
      AGENT_WARDEN_CLAUDE_BIN: claude,
    });
    cleanup.push(() => server.stop());
    const browser = await launchChromium();
    cleanup.push(() => browser.close());
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(`${server.url}/?folder=${encodeURIComponent(folder)}`);

    const model = await startFakeModel({
      toolCalls: ORDER.map((call) => ({ name: 'Bash', input: { command: CALLS[call], description: `e2e ${call}` } })),
      finalText: FINAL_TEXT,
    });
    cleanup.push(() => model.close());
    const stopClaude = new AbortController();
    cleanup.push(() => stopClaude.abort());
    const claudeOutput: string[] = [];
    let frame: Frame | undefined;
    let run: ClaudeRun | undefined;

    try {
      // The extension activates on start-up and writes its endpoint record.
      await until(
        'the extension endpoint record',
        () => existsSync(join(wardenHome, 'endpoints')) && readdirSync(join(wardenHome, 'endpoints')).length > 0,
        120_000,
      );
      step('the extension is up');
      const settingsFile = join(folder, '.claude', 'settings.local.json');
      await runPaletteCommand(page, 'Agent Warden: Connect Claude Code to this workspace');
      // Connect opens its diff and asks in a notification; the person confirms there.
      await clickNotificationButton(page, 'Write hooks');
      const settings = await until(
        'the hook entries Connect writes',
        () => {
          const text = existsSync(settingsFile) ? readFileSync(settingsFile, 'utf8') : '';
          return text.includes('PreToolUse') ? (JSON.parse(text) as { hooks: Record<string, unknown[]> }) : undefined;
        },
        30_000,
      );
      const pre = JSON.stringify(settings.hooks.PreToolUse);
      assert.match(pre, /"type":"http"/, 'Connect wrote an http hook');
      assert.match(pre, /"onFailure":"block"/, `Claude Code ${CLAUDE_VERSION} gets fail-closed entries`);

      step('Connect wrote the hooks');
      await runPaletteCommand(page, 'Agent Warden: Show the Panel');
      frame = await panelFrame(page);
      await widenSideBar(page);
      await switchTheme(page, frame, 'light');
      const readyAt = Date.now();

      step('the panel is open');
      // The real CLI in the workspace, with the settings Connect wrote; its own prompt stays out of the way.
      const claudeRun = runClaude({
        version: CLAUDE_VERSION,
        cwd: folder,
        prompt: 'Run the scripted commands.',
        modelUrl: model.url,
        permissionMode: 'bypassPermissions',
        timeoutMs: 400_000,
        onOutput: (stream, chunk) => claudeOutput.push(`[${stream}] ${chunk}`),
        signal: stopClaude.signal,
      });
      // A failure while answering must not leave the run's rejection unhandled.
      claudeRun.catch(() => undefined);
      const loop: Loop = { page, frame, folder, model, shots: [], step };
      await answerTheAsks(loop);
      run = await claudeRun;
      const answeredAt = Date.now();

      step('claude finished');
      // What the agent did and reported.
      assert.equal(run.exitCode, 0, `claude exited with ${run.exitCode}`);
      assert.ok(run.result, 'claude printed its result JSON');
      assert.equal(run.result.result, FINAL_TEXT);
      assert.ok(existsSync(join(folder, 'approved.marker')), 'the approved command ran');
      assert.equal(existsSync(join(folder, 'refused.marker')), false, 'the refused command did not run');
      assert.ok(existsSync(join(folder, 'edited.marker')), 'the edited command ran');
      assert.equal(existsSync(join(folder, 'original.marker')), false, 'the original of the edited command did not');
      const told = Object.fromEntries(ORDER.map((call) => [call, toolResultFor(model, call)]));
      assert.equal(told.listing!.isError, false);
      assert.match(told.listing!.text, /\.claude/, 'the listing ran and shows the settings folder Connect made');
      assert.equal(told.approve!.isError, false, told.approve!.text);
      assert.equal(told.refuse!.isError, true, 'the refusal reached the model as an error');
      assert.ok(told.refuse!.text.includes(REFUSAL_MESSAGE), 'the person’s message reached the model word for word');
      assert.equal(told.edit!.isError, false, told.edit!.text);
      assert.match(
        JSON.stringify(agentTurns(model).at(-1)?.messages ?? []),
        /The person changed your call in Agent Warden before approving it; what runs is: .*touch edited\.marker/,
        'the model is told its call was edited',
      );
      assert.equal(told.secret!.isError, true, 'the key read was denied');
      const denials = run.result.permission_denials.map((d) => d.tool_input?.['command']);
      assert.deepEqual(denials.sort(), [CALLS.refuse, CALLS.secret].sort(), 'Claude lists the refusal and the deny');

      // The panel against what the agent reported.
      const reported = Object.values(told);
      const expected: Record<string, [string, RegExp]> = {
        [CALLS.listing]: ['allow', /^$/],
        [CALLS.approve]: ['approved', /panel/],
        [CALLS.refuse]: ['refused', /panel/],
        [CALLS.edit]: ['approved-edited', /edited.*panel/],
        [CALLS.secret]: ['deny', /^$/],
      };
      const rows = await until(
        'every call row with its final outcome',
        async () => {
          const drawn = await callRows(frame!);
          return drawn.length === ORDER.length && drawn.every((r) => r.outcome !== 'ask') ? drawn : undefined;
        },
        30_000,
      );
      for (const row of rows) {
        const want = expected[row.summary.trim()];
        assert.ok(want, `a row for a call the model made: ${JSON.stringify(row)}`);
        assert.equal(row.tool, 'Bash');
        assert.equal(row.outcome, want[0], `${row.summary}: ${JSON.stringify(row)}`);
        assert.match(row.answer, want[1], `${row.summary}: who answered`);
      }
      assert.deepEqual(
        rows.map((r) => r.summary.trim()),
        [...ORDER].reverse().map((call) => CALLS[call]),
        'newest first, one row per tool call',
      );
      // The status line and summary are redrawn at most every 250 ms while rows arrive, so they may
      // trail the last row for a moment; they must settle on what the model was told.
      const toldCounts = `0 pending · ${reported.length} calls · ${reported.filter((r) => r.isError).length} denied`;
      const counts = await until(
        'the status counts settle',
        async () => {
          const text = (await frame!.textContent('.status .counts')) ?? '';
          return text === toldCounts ? text : undefined;
        },
        5_000,
      ).catch(async () => (await frame!.textContent('.status .counts')) ?? '');
      assert.equal(counts, toldCounts, 'the counts are what the model was told');
      const readStats = () =>
        frame!.$$eval('.summary .stat', (els) =>
          Object.fromEntries(
            els.map((e) => [
              (e.lastElementChild?.textContent ?? '').trim(),
              Number(e.querySelector('strong')?.textContent),
            ]),
          ),
        );
      const stats = await until(
        'the summary settles',
        async () => {
          const read = await readStats();
          return read.calls === reported.length ? read : undefined;
        },
        5_000,
      ).catch(readStats);
      assert.equal(stats.calls, reported.length, `the summary's calls: ${JSON.stringify(stats)}`);
      assert.equal(stats.asked, 3, `the summary's asks: ${JSON.stringify(stats)}`);
      assert.equal(stats.denied, denials.length, `the summary's denials: ${JSON.stringify(stats)}`);

      // Every answered state, with its details, in both themes.
      const details = await shootAnsweredStates(loop, 'dark');
      await switchTheme(page, frame, 'light');
      await shootAnsweredStates(loop, 'light');
      // The details carry the answer's line: what the person chose, where, and that the arguments were edited.
      assert.match(details.approved!, /Approval: approved once by vscode-panel at /);
      assert.match(details.refused!, /Approval: refused by vscode-panel at /);
      assert.match(details.edited!, /Approval: approved once with edited arguments by vscode-panel at /);
      // What the person added is kept: the refusal's message, and the edited arguments that ran beside the asked ones.
      assert.ok(details.refused!.includes(`Their message: ${REFUSAL_MESSAGE}`), details.refused);
      assert.ok(details.edited!.includes('Arguments that ran (edited by the person'), details.edited);
      assert.ok(details.edited!.includes(EDITED), details.edited);

      for (const shot of loop.shots) assert.ok(existsSync(shot), shot);
      console.log(`screenshots: ${loop.shots.map((s) => s.slice(root.length + 1)).join(', ')}`);
      console.log(
        `figure: loop run ${((Date.now() - started) / 1000).toFixed(0)} s (package and install ${((packagedAt - started) / 1000).toFixed(0)} s, editor ready ${((readyAt - packagedAt) / 1000).toFixed(0)} s, Claude run with the answers ${((answeredAt - readyAt) / 1000).toFixed(0)} s)`,
      );
    } catch (err) {
      const panel = frame
        ? await frame.evaluate(() => document.body.innerText).catch(() => '(unreadable)')
        : '(no panel frame)';
      await page.screenshot({ path: join(results, 'loop-failure.png') }).catch(() => undefined);
      throw new Error(
        [
          (err as Error).message,
          `--- the panel's text ---\n${panel}`,
          `--- Claude Code's output ---\n${run ? `${run.stdout}\n${run.stderr}` : claudeOutput.join('')}`,
          `--- what the model was told ---\n${modelView(model)}`,
          `--- code-server (tail) ---\n${server.log.join('').slice(-3000)}`,
          `(a screenshot of the workbench: test-results/loop-failure.png)`,
        ].join('\n'),
        { cause: err },
      );
    }
  },
);
