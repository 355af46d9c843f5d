import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { auditFailures, auditPanel } from './accessibility';
import {
  assertWorkbenchTools,
  isolatedFolders,
  launchChromium,
  panelFrame,
  startCodeServer,
  switchTheme,
  type ThemeName,
} from './workbench';
import { until } from './until';
import { MEMORY_CALLS, sendMemoryCalls } from './memory';

// The extension in a real VS Code extension host: code-server serves the
// workbench, headless Chromium opens it with the extension under development
// and the suite in test/e2e/vscode/suite. The suite checks the host side;
// this file drives the panel in the browser: a hook call becomes a row, an
// ask is approved with the card's own button, which answers the held request
// with an explicit allow, and a redacted argument is revealed and marked "not
// a secret". A test-only extension installed beside Warden provides the fake
// language model the vscode-lm judge talks to. The panel's screenshot goes to
// test-results/.

const root = process.cwd();
// Built beside this bundle, in the same test build (scripts/build.mjs --tests).
const suitePath = resolve(__dirname, 'suite');
const fakeLmPath = resolve(__dirname, 'fake-lm');

/** The fake language-model extension's manifest: the vendor contribution stays out of Warden's own. */
const FAKE_LM_MANIFEST = {
  name: 'fake-lm',
  displayName: 'Agent Warden test language model',
  publisher: 'agent-warden-test',
  version: '0.0.1',
  engines: { vscode: '^1.104.0' },
  main: './extension.js',
  extensionKind: ['workspace'],
  contributes: { languageModelChatProviders: [{ vendor: 'agent-warden-test', displayName: 'Agent Warden test' }] },
};

function hookBody(command: string, folder: string): string {
  return JSON.stringify({
    session_id: 'e2e-session-0001',
    transcript_path: join(folder, 'transcript.jsonl'),
    cwd: folder,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command, description: 'e2e' },
    tool_use_id: `toolu_${Math.random().toString(36).slice(2)}`,
  });
}

async function postHook(url: string, token: string, body: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${url}/hooks/claude`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body,
  });
  assert.equal(res.status, 200);
  return (await res.json()) as Record<string, unknown>;
}

test(
  'the extension in a real VS Code extension host (code-server): activation, endpoint, connect, the vscode-lm judge, a row, an ask approved by a click, reveal and not a secret',
  // bench:full sends 100,000 calls for the extension host's memory figure; a few ms each on a loaded machine.
  { timeout: 360_000 + MEMORY_CALLS * 30 },
  async (t) => {
    assertWorkbenchTools();
    assert.ok(
      existsSync(join(root, 'dist/extension.js')) && existsSync(join(root, 'dist/webview/panel.js')),
      'build first: node scripts/build.mjs --tests',
    );
    assert.ok(
      existsSync(join(suitePath, 'index.js')),
      'the extension-host suite is not built: node scripts/build.mjs --tests',
    );
    assert.ok(
      existsSync(join(fakeLmPath, 'extension.js')),
      'the fake language-model extension is not built: node scripts/build.mjs --tests',
    );

    const base = mkdtempSync(join(tmpdir(), 'aw-vscode-e2e-'));
    const dirs = isolatedFolders(base, ['warden-home', 'ws/.git', 'ws/.e2e']);
    // A private copy of the extension and the suite: a rebuild elsewhere in the clone (it wipes dist/) must not pull them from under the host.
    const extDir = join(base, 'ext');
    for (const part of ['package.json', 'dist', 'schemas', 'media/icon.png'])
      cpSync(join(root, part), join(extDir, part), { recursive: true });
    const suiteDir = join(base, 'suite');
    cpSync(suitePath, suiteDir, { recursive: true });
    // A test-only extension beside it, installed by dropping its folder into the extensions folder
    // (code-server scans it on first start; the payload takes one development path only): the
    // language-model vendor the vscode-lm judge is tested against.
    const fakeLmDir = join(
      dirs.extensions!,
      `${FAKE_LM_MANIFEST.publisher}.${FAKE_LM_MANIFEST.name}-${FAKE_LM_MANIFEST.version}`,
    );
    cpSync(fakeLmPath, fakeLmDir, { recursive: true });
    writeFileSync(join(fakeLmDir, 'package.json'), JSON.stringify(FAKE_LM_MANIFEST, null, 2));
    const folder = join(base, 'ws');
    const handshake = join(folder, '.e2e');
    const server = await startCodeServer(dirs, {
      AGENT_WARDEN_HOME: dirs['warden-home']!,
      // No real Claude Code here: the hook plan must not depend on one being on PATH.
      AGENT_WARDEN_CLAUDE_BIN: join(base, 'no-claude'),
      // The test-only memory command (src/extension/testProbes.ts).
      AGENT_WARDEN_TEST_PROBES: '1',
    });
    const { port, log } = server;
    const browser = await launchChromium();
    t.after(async () => {
      await browser.close().catch(() => undefined);
      server.stop();
      rmSync(base, { recursive: true, force: true });
    });

    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const suiteLog: string[] = [];
    let exitCode: number | undefined;
    await page.exposeFunction('codeAutomationLog', (...args: unknown[]) =>
      suiteLog.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ')),
    );
    await page.exposeFunction('codeAutomationExit', (code: unknown) => {
      exitCode = Number(code);
    });
    const payload = [
      ['extensionDevelopmentPath', `vscode-remote://127.0.0.1:${port}${extDir}`],
      ['extensionTestsPath', `vscode-remote://127.0.0.1:${port}${suiteDir}`],
      ['skipWelcome', 'true'],
    ];
    await page.goto(
      `http://127.0.0.1:${port}/?folder=${encodeURIComponent(folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`,
    );

    const finish = (ok: boolean, error?: string) =>
      writeFileSync(join(handshake, 'browser-done.json'), JSON.stringify({ ok, ...(error ? { error } : {}) }));
    try {
      await sendMemoryCalls(handshake, until, () => {
        if (exitCode !== undefined) throw new Error(`the suite ended early with ${exitCode}:\n${suiteLog.join('\n')}`);
      });
      const ready = await until(
        'the suite to hand over (activation, /health, connect, panel attached)',
        () => {
          if (exitCode !== undefined)
            throw new Error(`the suite ended early with ${exitCode}:\n${suiteLog.join('\n')}`);
          const file = join(handshake, 'suite-ready.json');
          return existsSync(file)
            ? (JSON.parse(readFileSync(file, 'utf8')) as { url: string; token: string; folder: string })
            : undefined;
        },
        120_000,
      );

      const frame = await panelFrame(page);

      // A hook call that no policy objects to: a row appears, newest first.
      // The page notes the wall-clock time the row is inserted, for the latency figure.
      await frame.evaluate(() => {
        const w = window as unknown as { rowSeenAt?: Promise<number> };
        w.rowSeenAt = new Promise<number>((done) => {
          const observer = new MutationObserver(() => {
            if (
              Array.from(document.querySelectorAll('.row')).some((r) =>
                (r.textContent ?? '').includes('e2e-marker-dir'),
              )
            ) {
              observer.disconnect();
              done(Date.now());
            }
          });
          observer.observe(document.body, { subtree: true, childList: true });
        });
      });
      const sentAt = Date.now();
      const allowReply = await postHook(ready.url, ready.token, hookBody('ls -la e2e-marker-dir', ready.folder));
      const repliedAt = Date.now();
      assert.deepEqual(allowReply, {}, 'an allowed call gets no decision from Warden');
      const row = await frame.waitForSelector('.row:has-text("e2e-marker-dir")', { timeout: 20_000 });
      assert.equal(await row.$eval('.badge', (el) => el.textContent), 'allow');
      const rowSeenAt = await frame.evaluate(() => (window as unknown as { rowSeenAt: Promise<number> }).rowSeenAt);
      // The record goes to the panel before the reply goes out, so the row may come first (a negative figure).
      console.log(
        `figure: hook reply received → row in the panel's DOM: ${rowSeenAt - repliedAt} ms; hook request sent → row: ${rowSeenAt - sentAt} ms (wall clock, same machine)`,
      );

      // An ask, held while the panel is attached, approved with the card's button.
      const held = postHook(ready.url, ready.token, hookBody('sudo apt-get install e2e-package', ready.folder));
      const card = await frame.waitForSelector('.card:has-text("e2e-package")', { timeout: 20_000 });
      await frame.waitForSelector('.row:has-text("e2e-package")', { timeout: 20_000 });
      mkdirSync(join(root, 'test-results'), { recursive: true });
      const webview = await page.$('iframe.webview');
      if (webview) await webview.screenshot({ path: join(root, 'test-results/panel.png') });
      else await page.screenshot({ path: join(root, 'test-results/panel.png') });
      assert.ok(existsSync(join(root, 'test-results/panel.png')));
      assert.match((await card.textContent()) ?? '', /sha256:[0-9a-f]{64}/, 'the card shows the digest');

      // Accessibility, once per theme: an axe-core audit of the panel with a row open and an ask waiting.
      await (await frame.waitForSelector('.row:has-text("e2e-marker-dir")'))!.click();
      await frame.waitForSelector('#detail .detail', { timeout: 10_000 });
      const audits: string[] = [];
      for (const file of ['light', 'dark', 'hc-dark', 'hc-light'] as ThemeName[]) {
        const theme = await switchTheme(page, frame, file);
        const webviewEl = await page.$('iframe.webview');
        await (webviewEl ?? page).screenshot({ path: join(root, `test-results/panel-${file}.png`) });
        const result = await auditPanel(frame);
        const failures = auditFailures(result);
        audits.push(
          `${theme}: ${failures.length} failure(s); ${result.violations.length} violation(s), ${result.computed.length} contrast check(s) computed here (lowest ${Math.min(99, ...result.computed.map((c) => c.ratio))}:1), ${result.unsettled.length} unsettled${failures.length ? `\n  ${failures.join('\n  ')}` : ''}`,
        );
        console.log(`figure: axe audit in code-server, ${audits[audits.length - 1]}`);
      }
      assert.ok(
        audits.every((line) => / 0 failure\(s\)/.test(line.split('\n')[0]!)),
        `the panel passes the audit in every theme:\n${audits.join('\n')}`,
      );

      await (await card.$('button[data-action="approve-once"]'))!.click();
      const answered = (await held) as { hookSpecificOutput?: { permissionDecision?: string } };
      assert.equal(
        answered.hookSpecificOutput?.permissionDecision,
        'allow',
        `the held ask is answered with an explicit allow: ${JSON.stringify(answered)}`,
      );
      await frame.waitForSelector('.card', { state: 'detached', timeout: 10_000 });

      // A redacted argument: its marker opens into details, "Reveal original" shows the value held in
      // memory, and "Not a secret" writes the keyed hash of it (never the value) to the local config.
      const buildId = 'b7Kq9Xz2Lm4Np8Rt1Vw6Yc3Hd5Jf0Gs';
      await postHook(ready.url, ready.token, hookBody(`./deploy.sh --token ${buildId}`, ready.folder));
      const secretRow = await frame.waitForSelector('.row:has-text("deploy.sh")', { timeout: 20_000 });
      assert.ok(!((await secretRow.textContent()) ?? '').includes(buildId), 'the row shows the redacted arguments');
      await secretRow.click();
      await (await frame.waitForSelector('#detail .marker[data-source="arguments"]', { timeout: 10_000 })).click();
      await frame.waitForSelector('#detail .marker-info:has-text("characters long")', { timeout: 10_000 });
      assert.ok(
        !((await frame.textContent('#detail')) ?? '').includes(buildId),
        'the details never show the value by themselves',
      );
      await (await frame.$('#detail [data-action="reveal"]'))!.click();
      const revealed = await frame.waitForSelector('#detail .revealed', { timeout: 10_000 });
      assert.equal(await revealed.textContent(), buildId);
      await (await frame.$('#detail [data-action="not-secret"]'))!.click();
      const localConfig = join(ready.folder, '.agent-warden', 'config.local.json');
      const allowlist = await until(
        'the allow-list entry',
        () => {
          const text = existsSync(localConfig) ? readFileSync(localConfig, 'utf8') : '';
          return text.includes('allowlist') ? text : undefined;
        },
        10_000,
      );
      assert.ok(!allowlist.includes(buildId), 'the local config never holds the value');
      const logKey = Buffer.from(readFileSync(join(dirs['warden-home']!, 'log-key'), 'utf8').trim(), 'hex');
      assert.deepEqual((JSON.parse(allowlist) as { redaction: { allowlist: string[] } }).redaction.allowlist, [
        createHmac('sha256', logKey).update(buildId).digest('hex'),
      ]);
      finish(true);
    } catch (err) {
      finish(false, (err as Error).message);
      throw new Error(
        `${(err as Error).message}\n--- suite log ---\n${suiteLog.join('\n')}\n--- code-server log (tail) ---\n${log.join('').slice(-3000)}`,
        { cause: err },
      );
    }

    await until('the suite to exit', () => exitCode, 60_000);
    for (const line of suiteLog)
      if (line.includes('[suite]')) console.log(line.slice(line.indexOf('[suite]')).replace(/"\]$/, ''));
    assert.equal(exitCode, 0, `the extension-host suite failed:\n${suiteLog.join('\n')}`);
    assert.ok(
      suiteLog.some((l) => l.includes('[suite] vscode-lm judge: semantic ok')),
      `the vscode-lm judge was checked:\n${suiteLog.join('\n')}`,
    );
    assert.ok(
      suiteLog.some((l) => l.includes('[suite] extension host memory over')),
      `the extension host's memory was read through the test-only command:\n${suiteLog.join('\n')}`,
    );
    assert.ok(
      suiteLog.some((l) => l.includes('[suite] uninstall --agent codex restored')),
      `Connect Another Agent was checked:\n${suiteLog.join('\n')}`,
    );
    assert.ok(
      suiteLog.some((l) => l.includes('[suite] disconnect removed the hooks')),
      `the suite ran to its end:\n${suiteLog.join('\n')}`,
    );
  },
);
