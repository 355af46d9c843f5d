// Shared by the real-CLI tests of Codex, Gemini and Copilot: a throwaway HOME
// (the agent's, its shells' and Warden's), a project, a real `serve`, Warden's
// hook installed by the real `install`, a panel on the web API, and the agent
// CLI run to completion. The destructive call is `rm -rf ~/` with HOME a temp
// folder, checked afterwards.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  accessSync,
  constants,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isolatedEnv, jsonLines, runCli, startServe, toolsFolder, type ServeChild } from '../../builders/process';
import {
  openPanel,
  pendingList,
  postApproval,
  send,
  type Endpoint,
  type PanelStream,
} from '../../server/approvals/harness';

export const WIPE_HOME = 'rm -rf ~/';
export const SENTINEL = 'sentinel-that-must-survive.txt';
export const ASK_COMMAND = 'sudo apt-get install -y jq';

export interface World {
  project: string;
  home: string;
  stateDir: string;
  env: Record<string, string | undefined>;
}

/** The installed CLI's path; throws (never skips) when the tools were not installed. */
export function agentBinary(folder: string, bin: string): string {
  const path = join(toolsFolder(), folder, 'node_modules', '.bin', bin);
  try {
    accessSync(path, constants.X_OK);
  } catch {
    throw new Error(`${bin} is not installed at ${path}. Run .ci/install-tools.sh before the end-to-end tests.`);
  }
  return path;
}

export async function withWorld<T>(body: (world: World) => Promise<T>): Promise<T> {
  const project = realpathSync(mkdtempSync(join(tmpdir(), 'aw-e2e-agent-project-')));
  mkdirSync(join(project, '.git'));
  writeFileSync(join(project, '.git', 'HEAD'), 'ref: refs/heads/feature\n');
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'aw-e2e-agent-home-')));
  writeFileSync(join(home, SENTINEL), 'Warden kept this folder\n');
  const stateDir = join(home, '.agent-warden');
  mkdirSync(stateDir, { mode: 0o700 });
  // The throwaway HOME sits in a temp folder, where recursive deletes count as scratch-space
  // cleanup by default; without that allowance Warden judges it as the home folder it stands for.
  writeFileSync(
    join(stateDir, 'config.json'),
    JSON.stringify({ policies: { 'recursive-delete-outside-project': { params: { allowTempDirs: false } } } }),
  );
  try {
    return await body({ project, home, stateDir, env: isolatedEnv(home) });
  } finally {
    rmSync(project, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
}

/** serve for the world, and Warden's hook for the agent written by the real install. */
export async function serveAndInstall(world: World, agent: string, scope = 'user'): Promise<ServeChild> {
  const serve = await startServe({ cwd: world.project, env: world.env });
  const installed = await runCli(['install', '--agent', agent, '--scope', scope], {
    cwd: world.project,
    env: world.env,
  });
  if (installed.code !== 0) {
    await serve.stop();
    throw new Error(`install --agent ${agent} failed: ${installed.stderr}`);
  }
  // On this machine (sh, curl and openssl present) install picks the shell bridge: the agent runs it.
  const hookFile = /installed Warden hooks in (.+)/.exec(installed.stdout)?.[1];
  if (scope === 'user' && !(hookFile && readFileSync(hookFile, 'utf8').includes('hook.sh'))) {
    await serve.stop();
    throw new Error(`install --agent ${agent} did not write the shell bridge: ${installed.stdout}`);
  }
  return serve;
}

export function records(world: World, agent: string): Record<string, any>[] {
  return jsonLines(join(world.stateDir, 'activity.jsonl')).filter((e) => e.type === 'record' && e.agent === agent);
}

/** A panel on serve's web API (the panel token from the state folder): held asks wait for it. */
export async function connectPanel(
  serve: ServeChild,
  _world: World,
): Promise<{ panel: PanelStream; endpoint: Endpoint }> {
  // The one-time link on serve's ready line is exchanged for the panel's session cookie.
  const panelUrl = String((JSON.parse(serve.readyLine) as { panelUrl?: unknown }).panelUrl);
  const opened = await send(panelUrl, {});
  const panelCookie = String(opened.headers['set-cookie']?.[0] ?? '').split(';')[0]!;
  if (!panelCookie) throw new Error(`the panel link ${panelUrl} gave no session cookie (HTTP ${opened.status})`);
  const endpoint = { url: serve.url, panelCookie } as unknown as Endpoint;
  return { panel: await openPanel(endpoint), endpoint };
}

export { pendingList, postApproval };

/** The reason the person gives when refusing a held ask. */
export const REFUSAL = 'not on this machine';

/**
 * Waits for `agent`'s held ask of ASK_COMMAND in the panel and refuses it as a person would, with
 * REFUSAL (after `beforeRefusing`, for what a test checks while the ask is held). Gives the ask.
 */
export async function refuseHeldAsk(
  connected: { panel: PanelStream; endpoint: Endpoint },
  agent: string,
  waitMs: number,
  beforeRefusing: (pending: Record<string, any>) => Promise<void> = async () => undefined,
): Promise<Record<string, any>> {
  const { panel, endpoint } = connected;
  const pending = (await panel.next('pending', (d: any) => d.pending?.agent === agent, waitMs)).pending as Record<
    string,
    any
  >;
  assert.equal(pending.toolInput.command, ASK_COMMAND);
  await beforeRefusing(pending);
  const refused = await postApproval(endpoint, pending.id, {
    decision: 'refuse',
    digest: pending.digest,
    message: REFUSAL,
  });
  assert.equal(refused.status, 200, refused.text);
  return pending;
}

export interface AgentRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the agent CLI to completion (killed after timeoutMs). */
export function runAgent(
  binary: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number; stdin?: string },
): Promise<AgentRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, {
      cwd: opts.cwd,
      env: opts.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
      stderr += `\n[killed after ${opts.timeoutMs} ms]`;
    }, opts.timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(opts.stdin ?? '');
  });
}
