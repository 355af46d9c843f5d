// Runs the real Claude Code CLI once in print mode (`-p`) against a fake model,
// with a throwaway HOME so no person's settings, hooks or credentials take part.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { claudeBinary, type ClaudeVersion } from './claude-binary';

export interface RunClaudeOptions {
  version: ClaudeVersion;
  cwd: string;
  prompt: string;
  modelUrl: string;
  /** Written to <cwd>/.claude/settings.local.json. */
  settings?: object;
  /** Added to (and overriding) the clean environment the CLI gets. */
  env?: Record<string, string>;
  timeoutMs?: number;
  permissionMode?: string;
  /** More CLI arguments, after the prompt and output format. */
  extraArgs?: readonly string[];
  /** Sees the output as it comes, so a caller can show it while the run is still going (or stuck). */
  onOutput?: (stream: 'stdout' | 'stderr', chunk: string) => void;
  /** Ends the run (and the shells it started) early, as a timeout does. */
  signal?: AbortSignal;
}

const permissionDenialSchema = z.looseObject({
  tool_name: z.string(),
  tool_use_id: z.string().optional(),
  tool_input: z.record(z.string(), z.unknown()).optional(),
});

/** The fields of `--output-format json` the tests read; the rest is kept as is. */
export const claudeResultSchema = z.looseObject({
  type: z.string(),
  subtype: z.string().optional(),
  is_error: z.boolean().optional(),
  result: z.string().optional(),
  num_turns: z.number().optional(),
  duration_ms: z.number().optional(),
  session_id: z.string().optional(),
  permission_denials: z.array(permissionDenialSchema).default([]),
});
export type ClaudeResult = z.infer<typeof claudeResultSchema>;

export interface ClaudeRun {
  exitCode: number;
  /** The parsed result line, or null when stdout was not the expected JSON. */
  result: ClaudeResult | null;
  stdout: string;
  stderr: string;
  /** Wall time of the whole run, for benchmarks and reports (never asserted on). */
  elapsedMs: number;
}

const defaultTimeoutMs = 60_000;

/** A clean environment: nothing of the caller's Claude, Anthropic or proxy setup leaks in. */
function cleanEnvironment(home: string, modelUrl: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  const inherited: NodeJS.ProcessEnv = {};
  for (const name of ['PATH', 'LANG', 'LC_ALL', 'TZ']) {
    const value = process.env[name];
    if (value !== undefined) inherited[name] = value;
  }
  return {
    ...inherited,
    HOME: home,
    TMPDIR: join(home, 'tmp'),
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    ANTHROPIC_BASE_URL: modelUrl,
    ANTHROPIC_API_KEY: 'dummy',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    // The CLI refuses bypassPermissions as root unless it is told it runs in a sandbox.
    IS_SANDBOX: '1',
    ...extra,
  };
}

function parseResult(stdout: string): ClaudeResult | null {
  const lastLine = stdout.trim().split('\n').pop() ?? '';
  try {
    const parsed = claudeResultSchema.safeParse(JSON.parse(lastLine));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function writeProjectSettings(cwd: string, settings: object): void {
  mkdirSync(join(cwd, '.claude'), { recursive: true });
  writeFileSync(join(cwd, '.claude', 'settings.local.json'), JSON.stringify(settings, null, 2));
}

export async function runClaude(options: RunClaudeOptions): Promise<ClaudeRun> {
  const binary = claudeBinary(options.version);
  if (options.settings !== undefined) writeProjectSettings(options.cwd, options.settings);
  const home = mkdtempSync(join(tmpdir(), 'aw-claude-home-'));
  mkdirSync(join(home, 'tmp'));
  const args = ['-p', options.prompt, '--output-format', 'json'];
  if (options.permissionMode !== undefined) args.push('--permission-mode', options.permissionMode);
  args.push(...(options.extraArgs ?? []));
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  const started = performance.now();

  try {
    return await new Promise<ClaudeRun>((resolve, reject) => {
      // Its own process group, so a timeout also ends the shells the agent started.
      const child = spawn(binary, args, {
        cwd: options.cwd,
        env: cleanEnvironment(home, options.modelUrl, options.env ?? {}),
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      let stdout = '';
      let stderr = '';
      let timedOut = false;
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        options.onOutput?.('stdout', chunk);
      });
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
        options.onOutput?.('stderr', chunk);
      });
      const timer = setTimeout(() => {
        timedOut = true;
        killGroup(child.pid);
      }, timeoutMs);
      options.signal?.addEventListener('abort', () => killGroup(child.pid), { once: true });
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.once('close', (code, signal) => {
        clearTimeout(timer);
        // Shells the agent left running in the background end with it.
        killGroup(child.pid);
        if (timedOut) {
          reject(
            new Error(
              `claude ${options.version} did not finish within ${timeoutMs} ms and was killed.\n` +
                `stdout: ${stdout.slice(-2000)}\nstderr: ${stderr.slice(-2000)}`,
            ),
          );
          return;
        }
        resolve({
          exitCode: code ?? (signal ? 128 : 1),
          result: parseResult(stdout),
          stdout,
          stderr,
          elapsedMs: performance.now() - started,
        });
      });
    });
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // The group is already gone.
  }
}
