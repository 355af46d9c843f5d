// VS Code closed while an ask is pending. The real Claude Code CLI (both pinned versions) runs
// against the fake model with Warden's hooks from the real `install`, pointed at the extension's
// endpoint in code-server: once as http hooks, once through the command bridge. Each call writes a
// marker outside the project, which Warden asks about; the editor holds the ask (its notification
// is on screen), and code-server is then ended: SIGTERM to code-server (the editor shuts down), or
// SIGKILL to its whole process group (the machine kills it). What each agent then does is
// asserted: a call that fails closed is refused and the marker is never written; Claude Code
// before 2.1.295 with http hooks cannot fail closed, and its call runs. SECURITY.md's table
// is built from these rows.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { claudeBinary, claudeVersions, type ClaudeVersion } from '../claude/claude-binary';
import { toolResultsOf } from '../claude/anthropic-wire';
import { agentTurns, startFakeModel, toolUseIdFor, type FakeModel } from '../claude/fake-model';
import { runClaude, type ClaudeRun } from '../claude/run-claude';
import { runCli } from '../../builders/process';
import { openEditor, type Editor } from './code-server';
import { until } from './until';

type Hook = 'http' | 'bridge';
type Signal = 'SIGTERM' | 'SIGKILL';

interface Case {
  version: ClaudeVersion;
  hook: Hook;
}

/** What the agent did with the call once the editor was gone, and the words the model saw. */
interface Seen {
  ran: boolean;
  toolResult: string;
}

/**
 * Expected per signal and agent setup. SIGTERM: the editor shuts down and the extension
 * deactivates; as its window goes, every held ask is handed to the agent's own prompt ("the Warden
 * panel closed before anyone answered") before the endpoint closes, and a headless `claude -p`
 * cannot answer a prompt, so the call is refused. SIGKILL: nothing of Warden answers; http hooks
 * fail closed from 2.1.295 on (`onFailure: "block"`), the bridge evaluates in-process (where an
 * ask is a refusal naming the policy), and Claude Code 2.1.197 treats the failed http hook as no
 * objection, so the call runs.
 */
function expected(signal: Signal, c: Case): { ran: boolean; words: RegExp } {
  if (signal === 'SIGTERM') return { ran: false, words: /the Warden panel closed before anyone answered/ };
  if (c.hook === 'bridge') return { ran: false, words: /outside the project.*\[write-outside-project\]/ };
  if (c.version === '2.1.197') return { ran: true, words: /^$/ };
  return { ran: false, words: /onFailure is "block"/ };
}

const CASES: Case[] = claudeVersions.flatMap((version) =>
  (['http', 'bridge'] as const).map((hook) => ({ version, hook })),
);

interface Running {
  c: Case;
  marker: string;
  command: string;
  model: FakeModel;
  run: Promise<ClaudeRun>;
}

function endpointUrl(stateDir: string): string | undefined {
  const dir = join(stateDir, 'endpoints');
  if (!existsSync(dir)) return undefined;
  for (const file of readdirSync(dir)) {
    try {
      const record = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { url?: string; host?: string };
      if (record.host === 'extension' && record.url) return record.url;
    } catch {
      // A record being written.
    }
  }
  return undefined;
}

/** Warden's hooks from the real `install`, written to a settings file Claude Code gets with --settings. */
async function installHooks(editor: Editor, c: Case, project: string, url: string): Promise<string> {
  const result = await runCli(
    ['install', '--agent', 'claude', '--scope', 'local', ...(c.hook === 'bridge' ? ['--bridge'] : ['--url', url])],
    {
      cwd: project,
      env: {
        PATH: process.env.PATH,
        HOME: editor.home,
        AGENT_WARDEN_HOME: editor.stateDir,
        AGENT_WARDEN_CLAUDE_BIN: claudeBinary(c.version),
      },
    },
  );
  assert.equal(result.code, 0, `install failed: ${result.stderr}`);
  // Out of .claude/: the four runs share one repository, and each must see only its own hooks.
  const settings = join(project, `warden-${c.version}-${c.hook}.json`);
  renameSync(join(project, '.claude', 'settings.local.json'), settings);
  rmSync(join(project, '.claude'), { recursive: true, force: true });
  const hook = (
    JSON.parse(readFileSync(settings, 'utf8')) as { hooks: Record<string, { hooks: Record<string, unknown>[] }[]> }
  ).hooks['PreToolUse']![0]!.hooks[0]!;
  assert.equal(hook['type'], c.hook === 'http' ? 'http' : 'command');
  if (c.hook === 'http') assert.equal(hook['onFailure'], c.version === '2.1.197' ? undefined : 'block');
  return settings;
}

async function startRun(editor: Editor, c: Case, url: string): Promise<Running> {
  const project = editor.folder;
  const marker = join(editor.home, `ran-${c.version}-${c.hook}.txt`);
  const command = `echo ran > ${marker}`;
  const settings = await installHooks(editor, c, project, url);
  const model = await startFakeModel({
    toolCalls: [{ name: 'Bash', input: { command, description: 'Write a marker' } }],
    finalText: 'Finished the scripted calls.',
  });
  const run = runClaude({
    version: c.version,
    cwd: project,
    prompt: 'Write the marker.',
    modelUrl: model.url,
    permissionMode: 'bypassPermissions',
    // The bridge and Claude's shells see the editor's HOME and state folder, as in its terminal.
    env: { HOME: editor.home, AGENT_WARDEN_HOME: editor.stateDir },
    extraArgs: ['--settings', settings],
    timeoutMs: 240_000,
  });
  return { c, marker, command, model, run };
}

/** The editor's notification for this ask: the ask is held in the editor's UI. */
async function askOnScreen(editor: Editor, marker: string): Promise<void> {
  await until(
    `the editor's notification for ${marker}`,
    async () => {
      const texts = await editor.page.$$eval(
        '.notification-toast, .notifications-list-container .monaco-list-row',
        (els) => els.map((e) => e.textContent ?? ''),
      );
      return texts.some((t) => t.includes(marker)) || undefined;
    },
    120_000,
  );
}

function outcome(r: Running, result: ClaudeRun): Seen {
  const ran = existsSync(r.marker);
  const denied = (result.result?.permission_denials ?? []).some((d) => d.tool_input?.['command'] === r.command);
  assert.equal(denied, !ran, `the agent's own account disagrees with the marker: ${result.stdout}\n${result.stderr}`);
  const last = agentTurns(r.model).at(-1);
  const reply = last ? toolResultsOf(last).find((t) => t.toolUseId === toolUseIdFor(0)) : undefined;
  assert.ok(reply, `no tool_result reached the model: ${result.stdout}\n${result.stderr}`);
  assert.equal(reply.isError, !ran);
  return { ran, toolResult: ran ? '' : reply.text };
}

for (const signal of ['SIGTERM', 'SIGKILL'] as Signal[]) {
  test(
    `code-server ended with ${signal} while Claude Code's asks are held in the editor: ${signal === 'SIGTERM' ? "every held call goes to the agent's own prompt (refused in -p)" : 'the bridge and 2.1.332 http hooks refuse, 2.1.197 http hooks run the call'}`,
    { timeout: 600_000 },
    async (t) => {
      const editor = await openEditor('aw-closed-ask', { 'agentWarden.notifications.onAsk': true });
      t.after(() => editor.dispose());
      const url = await until('the extension endpoint record', () => endpointUrl(editor.stateDir), 180_000);
      const runs: Running[] = [];
      t.after(async () => {
        for (const r of runs) await r.model.close();
      });
      try {
        for (const c of CASES) {
          const r = await startRun(editor, c, url);
          runs.push(r);
          await askOnScreen(editor, r.marker);
        }
      } catch (err) {
        throw new Error(`${(err as Error).message}\n--- code-server log (tail) ---\n${editor.log().slice(-3000)}`, {
          cause: err,
        });
      }
      for (const r of runs) assert.equal(existsSync(r.marker), false, `${r.marker} was written before anyone answered`);

      if (signal === 'SIGTERM') process.kill(editor.pid, 'SIGTERM');
      else process.kill(-editor.pid, 'SIGKILL');

      const seen: string[] = [];
      const wanted: string[] = [];
      for (const r of runs) {
        const got = outcome(r, await r.run);
        const want = expected(signal, r.c);
        const label = `${signal}, Claude Code ${r.c.version} with ${r.c.hook} hooks`;
        console.log(`figure: ${label}: ${got.ran ? 'ran' : 'refused'}; the model saw: ${got.toolResult.slice(0, 200)}`);
        seen.push(
          `${label}: ${got.ran ? 'ran' : 'refused'}, words ${want.words.test(got.toolResult) ? 'as expected' : got.toolResult}`,
        );
        wanted.push(`${label}: ${want.ran ? 'ran' : 'refused'}, words as expected`);
      }
      assert.deepEqual(seen, wanted);
    },
  );
}
