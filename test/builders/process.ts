// Shared by the suites: where the repository and its fixtures are, and running the built CLI
// (serve, hook, one-shot commands) as a child process.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/** The repository root: the nearest ancestor of this bundle holding the agent-warden package.json. */
export function repoRoot(): string {
  let dir = __dirname;
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'agent-warden'
    )
      return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no agent-warden package.json above ${__dirname}`);
    dir = parent;
  }
}

/** The real Claude Code 2.1.197 hook inputs, captured from the CLI and kept under test/fixtures. */
export function claudeFixturesDir(): string {
  const dir = resolve(repoRoot(), 'test', 'fixtures', 'claude-code-2.1.197');
  if (!existsSync(dir)) throw new Error(`The captured Claude Code hook inputs are missing: expected them in ${dir}.`);
  return dir;
}

/** Where .ci/install-tools.sh puts the pinned tools: AGENT_WARDEN_TOOLS, else the per-user cache. */
export function toolsFolder(): string {
  return (
    process.env.AGENT_WARDEN_TOOLS ??
    join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'agent-warden-tools')
  );
}

export function cliPath(): string {
  const path = join(repoRoot(), 'dist', 'cli.js');
  if (!existsSync(path)) throw new Error(`${path} is missing: run \`node scripts/build.mjs --tests\` first`);
  return path;
}

/** A fake `claude` binary that prints the given version line. */
export function fakeClaude(dir: string, versionLine: string): string {
  const path = join(dir, `fake-claude-${versionLine.replace(/[^0-9.]/g, '')}`);
  writeFileSync(path, `#!/bin/sh\necho ${JSON.stringify(versionLine)}\n`);
  chmodSync(path, 0o755);
  return path;
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  stdin?: string;
  cwd?: string;
  env?: Record<string, string | undefined>;
}

/** An environment that isolates the CLI from this machine's own Warden state and Claude Code. */
export function isolatedEnv(
  home: string,
  extra: Record<string, string | undefined> = {},
): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    HOME: home,
    AGENT_WARDEN_HOME: join(home, '.agent-warden'),
    AGENT_WARDEN_CLAUDE_BIN: join(home, 'no-claude-here'),
    ...extra,
  };
}

function cleanEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}

/** Runs `node dist/cli.js ARGS` to completion. */
export function runCli(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  return runNode([cliPath(), ...args], opts);
}

/** The command bridge's own entry. */
export function hookPath(): string {
  const path = join(repoRoot(), 'dist', 'hook.js');
  if (!existsSync(path)) throw new Error(`${path} is missing: run \`node scripts/build.mjs --tests\` first`);
  return path;
}

/** Runs `node dist/hook.js ARGS` (the command bridge) to completion. */
export function runHook(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  return runNode([hookPath(), ...args], opts);
}

/** The shell bridge, as the build ships it beside dist/hook.js. */
export function shellHookPath(): string {
  const path = join(repoRoot(), 'dist', 'hook.sh');
  if (!existsSync(path)) throw new Error(`${path} is missing: run \`node scripts/build.mjs --tests\` first`);
  return path;
}

/** Runs `sh dist/hook.sh NODE ARGS` (the shell bridge, handing off to this Node) to completion. */
export function runShellHook(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  return runProgram('sh', [shellHookPath(), process.execPath, ...args], opts);
}

/** Runs `node NODE_ARGS` to completion. */
export function runNode(nodeArgs: string[], opts: CliOptions = {}): Promise<CliResult> {
  return runProgram(process.execPath, nodeArgs, opts);
}

function runProgram(command: string, args: string[], opts: CliOptions): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, {
      cwd: opts.cwd ?? process.cwd(),
      env: cleanEnv(opts.env ?? { PATH: process.env.PATH }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => resolvePromise({ code, signal, stdout, stderr }));
    child.stdin.on('error', () => undefined);
    child.stdin.end(opts.stdin ?? '');
  });
}

export interface ServeChild {
  child: ChildProcess;
  url: string;
  tokenFile: string;
  /** The whole ready line as printed. */
  readyLine: string;
  stdout(): string;
  stderr(): string;
  /** Ends the child (SIGTERM unless told) and waits for it to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts `node dist/cli.js serve --port 0 …` and waits for its one ready line. */
/** `node` is the Node binary serve runs on (default: the one running the tests). */
export function startServe(opts: CliOptions & { args?: string[]; node?: string } = {}): Promise<ServeChild> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(opts.node ?? process.execPath, [cliPath(), 'serve', '--port', '0', ...(opts.args ?? [])], {
      cwd: opts.cwd ?? process.cwd(),
      env: cleanEnv(opts.env ?? { PATH: process.env.PATH }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let ready = false;
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    const fail = (why: string) => {
      if (ready) return;
      ready = true;
      child.kill('SIGKILL');
      reject(new Error(`serve did not become ready: ${why}\nstdout: ${stdout}\nstderr: ${stderr}`));
    };
    const timer = setTimeout(() => fail('no ready line within 20 s'), 20_000);
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (ready) return;
      const newline = stdout.indexOf('\n');
      if (newline < 0) return;
      ready = true;
      clearTimeout(timer);
      const readyLine = stdout.slice(0, newline);
      let parsed: { url?: unknown; tokenFile?: unknown };
      try {
        parsed = JSON.parse(readyLine) as typeof parsed;
      } catch (err) {
        child.kill('SIGKILL');
        reject(new Error(`serve's ready line is not JSON: ${readyLine} (${(err as Error).message})`));
        return;
      }
      resolvePromise({
        child,
        url: String(parsed.url),
        tokenFile: String(parsed.tokenFile),
        readyLine,
        stdout: () => stdout,
        stderr: () => stderr,
        stop: async (signal: NodeJS.Signals = 'SIGTERM') => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          await exited;
        },
      });
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      fail(`it exited early (code ${code}, signal ${signal})`);
    });
  });
}

/** Every JSON line of a JSONL file (an absent file has none). */
export function jsonLines(path: string): Record<string, unknown>[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
