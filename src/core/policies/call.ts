import { homedir } from 'node:os';
import type { HookEvent } from '../types';
import { analyzeShell } from '../shell';
import { relatePath } from '../shell/paths';
import { assembleFacts } from '../facts';
import type { CodeReader } from '../facts/code';
import { NO_CODE_READER } from '../facts/code';
import { deriveFacts, fileToolTexts, writtenTexts } from '../facts/compute';
import { codeAsShell, imageBuildShell, notebookCommands, runLaterShell } from '../facts/written-runs';
import { browserScriptOf } from '../text/browser-scripts';
import { urlsInText } from '../text/urls';
import { shellQuote } from '../shell/quote';
import { runnerCodeOf, type RunnerCode } from '../text/code-runners';
import { wrappedCommandLine } from '../facts/mcp-command-lines';
import { argumentCommandLines, proseCommandLines } from '../text/embedded-commands';
import { operationArguments } from '../text/service-operations';
import { IoFacts, NO_FACT_SOURCE, type FactSource } from '../facts/io';
import { patchPaths } from '../facts/patch';
import { NO_SESSION_WRITES, type SessionWrites } from '../facts/session-writes';
import { resolveSystemPath } from '../facts/system-paths';
import type { FaceBook, ToolFace } from '../config/faces';
import { canonicalToolName, isAgentMemoryTool, isSubAgentTool } from '../config/tool-names';
import type { ToolCall, TouchedPath } from './types';

function stringParam(input: Record<string, unknown>, name: string | undefined): string | undefined {
  if (!name) return undefined;
  const value = input[name];
  if (typeof value === 'string') return value;
  // Codex sends its shell command as an argv array.
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return shellJoin(value as string[]);
  return undefined;
}

function shellJoin(argv: readonly string[]): string {
  return argv.map(shellQuote).join(' ');
}

// MultiEdit-style edit lists: the text that lands in the file is each edit's replacement.
const REPLACEMENT_KEYS = ['new_string', 'new_str', 'newText', 'content'];

function contentOf(input: Record<string, unknown>, params: readonly string[] | undefined): string | undefined {
  if (!params) return undefined;
  const parts: string[] = [];
  for (const name of params) {
    const value = input[name];
    if (typeof value === 'string') parts.push(value);
    else if (
      Array.isArray(value) &&
      value.every(
        (v) =>
          v &&
          typeof v === 'object' &&
          REPLACEMENT_KEYS.some((k) => typeof (v as Record<string, unknown>)[k] === 'string'),
      )
    ) {
      for (const edit of value as Record<string, unknown>[])
        parts.push(String(REPLACEMENT_KEYS.map((k) => edit[k]).find((v) => typeof v === 'string')));
    } else if (value !== undefined) parts.push(JSON.stringify(value));
  }
  return parts.length ? parts.join('\n') : undefined;
}

function touched(
  raw: string,
  access: TouchedPath['access'],
  source: string,
  cwd: string,
  projectRoot: string,
  home: string,
): TouchedPath {
  const { absolute } = resolveSystemPath(raw, { cwd, home });
  return { raw, absolute, access, relation: relatePath(absolute, projectRoot, home), source };
}

function facePaths(
  face: ToolFace,
  input: Record<string, unknown>,
  cwd: string,
  projectRoot: string,
  home: string,
): TouchedPath[] {
  const out: TouchedPath[] = [];
  const target = face.pathTarget;
  if (target) {
    for (const name of [target.param, ...(target.aliases ?? [])]) {
      const raw = input[name];
      // Some tools (Gemini's read_many_files) take a list of paths.
      const list =
        typeof raw === 'string'
          ? [raw]
          : Array.isArray(raw)
            ? raw.filter((v): v is string => typeof v === 'string')
            : [];
      const paths = list.filter((p) => p !== '');
      if (!paths.length) continue;
      out.push(...paths.map((p) => touched(p, target.access, name, cwd, projectRoot, home)));
      break;
    }
  }
  // apply_patch carries its target files inside the patch text.
  if (face.family === 'edit' || face.family === 'write') {
    for (const name of face.contentParams ?? []) {
      const text = input[name];
      if (typeof text !== 'string' || !text.includes('*** ')) continue;
      out.push(...patchPaths(text).map((p) => touched(p.path, p.access, name, cwd, projectRoot, home)));
    }
  }
  return out;
}

export interface CallContext {
  projectRoot: string;
  home?: string;
  faces: FaceBook;
  /** The file system and git (a fake in tests); default: knows nothing. */
  source?: FactSource;
  /** Reads interpreter code (the composition root passes interp's); default: reads none, so code is unread. */
  reader?: CodeReader;
  /** What this session wrote so far (kept in the state folder). */
  writes?: SessionWrites;
}

/** Reads a tool event's arguments through its face; undefined for events without a tool. */
/** What a Write or Edit of a file the project's tooling runs will run, as shell text. */
function writtenRunText(call: ToolCall): { file: string; text: string } | undefined {
  if ((call.face.family !== 'write' && call.face.family !== 'edit') || call.content === undefined) return undefined;
  // A notebook's markdown cell, or a cell deleted, runs nothing.
  if (call.input['cell_type'] === 'markdown' || call.input['edit_mode'] === 'delete') return undefined;
  const runs = fileToolTexts(call)
    .map(({ file, content }) => ({ file, text: runLaterShell(file, content) }))
    .filter((run): run is { file: string; text: string } => run.text !== undefined && run.text.trim() !== '');
  return runs.length ? { file: runs[0]!.file, text: runs.map((run) => run.text).join('\n') } : undefined;
}

/** What an MCP tool without a face of its own keeps to run (pipeline steps, event scripts, a page script), as shell text. */
/** A code runner's code as shell text: a shell's as it is, a kernel cell's as a notebook runs it. */
function runnerShell(runner: RunnerCode): string | undefined {
  if (runner.language === 'shell') return runner.code;
  if (runner.language === 'ipython') return notebookCommands(runner.code).join('\n');
  return codeAsShell(runner.language, runner.code);
}

function mcpRunText(call: ToolCall): { file: string; text: string; now?: true } | undefined {
  if (call.face.builtIn || call.face.family === 'write' || call.face.family === 'edit') return undefined;
  // A page script is JavaScript, a code runner's code is code of its language, each read as such: not
  // also as a command line.
  const page = browserScriptOf(call.toolName, call.input);
  const runner = page ? undefined : runnerCodeOf(call.toolName, call.input);
  const codeKey = page?.key ?? runner?.key;
  // A dispatching tool's operation arguments (`{"command": "restart_service", "args": {"env": …}}`) are read
  // where the tool keeps them.
  const args = operationArguments(call.input);
  const others = codeKey ? Object.fromEntries(Object.entries(args).filter(([key]) => key !== codeKey)) : args;
  const code = page ? codeAsShell('javascript', page.script) : runner && runnerShell(runner);
  const exported = parameterExports(call.input) ?? parameterExports(args);
  const lines = [...argumentCommandLines(others), ...(code ? [code] : []), ...(exported ? [exported] : [])];
  if (!lines.length) return undefined;
  // A runner's code or a page script runs as the tool is called, and so does a job started with variables:
  // what cannot be read in them is asked about now.
  return { file: call.toolName, text: lines.join('\n'), ...(code || exported ? { now: true as const } : {}) };
}

/** The commands an agent memory note tells later sessions to run, or a sub-agent's prompt tells it to run, as shell text. */
function memoryRunText(call: ToolCall): { file: string; text: string; now?: true } | undefined {
  if (!isAgentMemoryTool(call.toolName) && !isSubAgentTool(call.toolName)) return undefined;
  const lines = Object.values(call.input).flatMap((value) =>
    typeof value === 'string' ? proseCommandLines(value) : [],
  );
  if (!lines.length) return undefined;
  // A sub-agent starts on its prompt at once: what cannot be read in the commands it is told to run is
  // asked about now. A memory note's commands run in later sessions, and are judged there too.
  const subAgent = isSubAgentTool(call.toolName);
  return {
    file: `${call.toolName} ${subAgent ? 'prompt' : 'note'}`,
    text: lines.join('\n'),
    ...(subAgent ? { now: true as const } : {}),
  };
}

/** The URLs a fetch tool names in its prose parameter (face.urlText) when it has no URL parameter. */
function urlsNamedInText(face: ToolFace, input: Record<string, unknown>): string[] {
  if (face.family !== 'network' || face.urlText === undefined) return [];
  if (stringParam(input, face.urlParam) !== undefined) return [];
  return urlsInText(stringParam(input, face.urlText) ?? '');
}

/** Each URL as the request it is (`curl -sS -- URL`), so every policy that reads a fetch reads all of them. */
function fetchCommandLines(urls: readonly string[]): string | undefined {
  return urls.length ? urls.map((url) => `curl -sS -- ${shellQuote(url)}`).join('\n') : undefined;
}

/**
 * A shell tool's `env` argument (MCP shell servers take one), as the exports it amounts to: every
 * program the command starts has those variables (`NODE_OPTIONS`, `LD_PRELOAD`) in its environment.
 */
function environmentGiven(input: Record<string, unknown>): string {
  return exportsOf(input['env'], /^[A-Za-z_]\w*$/)
    .map((line) => `${line}; `)
    .join('');
}

/** An object's string entries whose names match, as `export NAME=VALUE` lines. */
function exportsOf(value: unknown, names: RegExp): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.entries(value)
    .filter((entry): entry is [string, string] => names.test(entry[0]) && typeof entry[1] === 'string')
    .map(([name, text]) => `export ${name}=${shellQuote(text)}`);
}

// Where a tool takes the variables of what it starts: a job's parameters, an app platform's config vars.
const ENVIRONMENT_KEYS = [
  ...['env', 'environment', 'parameters', 'params', 'variables', 'build_parameters'],
  ...['config_vars', 'configVars', 'env_vars', 'envVars', 'vars'],
];

/**
 * The variables a tool without a command starts a job or an app with (a CI build's `parameters`, a run's
 * `env`, an app's config vars), written as environment variables are (`JAVA_TOOL_OPTIONS`): its programs
 * get them.
 */
function parameterExports(input: Record<string, unknown>): string | undefined {
  const lines = ENVIRONMENT_KEYS.flatMap((key) => exportsOf(input[key], /^[A-Z_][A-Z0-9_]*$/));
  return lines.length ? lines.join('\n') : undefined;
}

export function toolCallOf(event: HookEvent, ctx: CallContext): ToolCall | undefined {
  if (!event.toolName) return undefined;
  const input = event.toolInput ?? {};
  const toolName = canonicalToolName(event.agent, event.toolName, event.raw);
  const face = ctx.faces.faceFor(event.toolName, input, toolName);
  const home = ctx.home ?? homedir();
  const cwd = event.cwd || ctx.projectRoot;
  // An MCP tool that wraps a CLI is read as the command line it stands for (its `command` is then only a part);
  // a fetch that names its URLs in prose, as the fetches it makes.
  const textUrls = urlsNamedInText(face, input);
  const wrapped = (face.builtIn ? undefined : wrappedCommandLine(toolName, input)) ?? fetchCommandLines(textUrls);
  const command = wrapped ?? (face.family === 'shell' ? stringParam(input, face.commandParam ?? 'command') : undefined);
  const io = new IoFacts(ctx.source ?? NO_FACT_SOURCE);
  const call: ToolCall = {
    toolName,
    input,
    face,
    cwd,
    projectRoot: ctx.projectRoot,
    home,
    paths: facePaths(face, input, cwd, ctx.projectRoot, home),
    facts: { reads: [], writes: [], deletes: [], runs: [], network: [], code: [], unread: [] },
    io,
  };
  if (command !== undefined) {
    call.command = command;
    // PowerShell escapes with a backtick, not a backslash: read its `C:\x` paths as paths.
    const text = /^(powershell|pwsh)$/i.test(face.tool) ? command.replace(/\\/g, '/') : command;
    call.shell = analyzeShell(environmentGiven(input) + text, { home, env: { HOME: home } });
  }
  const content = contentOf(input, face.contentParams);
  if (content !== undefined) call.content = content;
  const runsLater =
    command === undefined ? (writtenRunText(call) ?? mcpRunText(call) ?? memoryRunText(call)) : undefined;
  if (runsLater) {
    if (!('now' in runsLater)) call.runsLater = runsLater.file;
    call.shell = analyzeShell(runsLater.text, { home, env: { HOME: home } });
  }
  const url = stringParam(input, face.urlParam) ?? textUrls[0];
  if (url !== undefined) call.url = url;
  const derived = deriveFacts(call, {
    io,
    reader: ctx.reader ?? NO_CODE_READER,
    writes: ctx.writes ?? NO_SESSION_WRITES,
  });
  if (derived.shell) call.shell = derived.shell;
  call.paths.push(...derived.codePaths);
  call.facts = assembleFacts(call, derived);
  // What a written Dockerfile's RUN steps run while its image builds, written by a file tool or by the shell
  // (`printf 'RUN …' >> Dockerfile`, known once the call's commands are).
  const builds = writtenTexts(call).flatMap(({ file, content }) => imageBuildShell(file, content) ?? []);
  if (builds.length) call.imageBuild = analyzeShell(builds.join('\n'), { home, env: { HOME: home } });
  if (face.family === 'shell' && command === undefined)
    call.facts.unread.push({
      reason: 'parse-error',
      detail: `the ${face.commandParam ?? 'command'} parameter is missing or not text`,
    });
  return call;
}
