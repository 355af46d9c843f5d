// Computes a call's facts once: the shell analysis extended with the commands that interpreter
// code and session-written files run, the paths that code touches, and everything unread.
import { analyzeShell, type RunTimeOrigin, type ShellAnalysis, type SimpleCommand, type Via } from '../shell';
import type { ToolCall, TouchedPath } from './call';
import { relatePath, withForwardSlashes } from '../shell/paths';
import { cwdBefore, evidenceOf, heredocInput, pipedLiteral, redirectWrites } from './commands';
import { literalOutput } from '../shell/literal-output';
import { fetchesUrl, secretsAndSends, type CodeReader, type CodeReading } from './code';
import { interpreterCode } from './interpreter-code';
import type { IoFacts } from './io';
import { sessionFilesRun, stdinMakefileRun, unwrittenScratchScript, type RunText } from './project-runs';
import type { SessionWrites } from './session-writes';
import { resolveSystemPath } from './system-paths';
import type { CodeFact, NetworkFact, Unread } from './types';
import { shellUnread } from './unread-shell';
import { runLaterShell } from './written-runs';
import { sedEdit } from './sed-edits';
import { scriptEdit } from './script-edits';
import { isPatchEnvelope, patchedTexts } from './patch';
import { appliedDiffFiles } from './applied-diffs';
import { copiedRuns } from './copied-runs';
import { inDownloads, inUnownedCacheEntry } from './temp-dirs';
import { secretsNamedInSource } from './unread-code-secrets';

const CODE_RUNNERS = /\b(eval|exec|Invoke-Expression|iex|compile|instance_eval|class_eval|Function)\b/i;

/** A reader's reason for code it could not follow that runs code made at run time (eval, Invoke-Expression, exec). */
function runsComputedCode(reason: string): boolean {
  return CODE_RUNNERS.test(reason) && reason.includes('computed');
}

/** Hops through code and written files followed before the rest is unread. */
const MAX_CODE_DEPTH = 4;
/** Commands added from code and written files before the rest is unread. */
const MAX_ADDED_COMMANDS = 2000;
/** Bytes of a session-written file read to screen it. */
export const MAX_SCREENED_FILE_BYTES = 256 * 1024;

export interface FactInputs {
  io: IoFacts;
  reader: CodeReader;
  writes: SessionWrites;
}

interface Pending {
  analysis: ShellAnalysis;
  /** Index, in the merged analysis, of the command that runs it; undefined at top level. */
  parent: number | undefined;
  via: Via | undefined;
  depth: number;
  /** The folder its commands start in. */
  cwd: string;
  /** Text a file written by this call will run later: judged for what it does, its unread parts left to that run. */
  laterOnly?: boolean;
}

export interface Derived {
  shell: ShellAnalysis | undefined;
  codePaths: TouchedPath[];
  code: CodeFact[];
  network: NetworkFact[];
  unread: Unread[];
}

function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Appends `extra`'s commands under `parent`, keeping pipeline ids unique and parents pointing right. */
function appendAnalysis(merged: ShellAnalysis, pending: Pending): void {
  const offset = merged.commands.length;
  const pipelineBase = merged.commands.reduce((max, c) => Math.max(max, c.pipeline.id), -1) + 1;
  const parentVia = pending.parent !== undefined ? (merged.commands[pending.parent]?.via ?? []) : [];
  for (const cmd of pending.analysis.commands) {
    const moved: SimpleCommand = {
      ...cmd,
      pipeline: { ...cmd.pipeline, id: cmd.pipeline.id + pipelineBase },
      via: pending.via ? [...parentVia, pending.via, ...cmd.via] : cmd.via,
    };
    if (cmd.parent !== undefined) moved.parent = cmd.parent + offset;
    else if (pending.parent !== undefined) moved.parent = pending.parent;
    else delete moved.parent;
    // Every other index into the analysis's own commands moves with them.
    if (cmd.variantOf !== undefined) moved.variantOf = cmd.variantOf + offset;
    if (cmd.origins) moved.origins = movedOrigins(cmd.origins, offset);
    merged.commands.push(moved);
  }
  merged.comments.push(...pending.analysis.comments);
  merged.hasParseErrors ||= pending.analysis.hasParseErrors;
  merged.truncated ||= pending.analysis.truncated;
}

function movedOrigins(origins: Record<number, RunTimeOrigin>, offset: number): Record<number, RunTimeOrigin> {
  const moved: Record<number, RunTimeOrigin> = {};
  for (const [at, origin] of Object.entries(origins))
    moved[Number(at)] =
      origin.kind === 'output' ? { kind: 'output', commands: origin.commands.map((i) => i + offset) } : origin;
  return moved;
}

/**
 * Files the command text itself writes before it may run them (`cat > x.sh <<EOF … EOF; sh x.sh`):
 * their content when it is literal (a heredoc, echo, printf), null when only run time knows it.
 */
export function writtenInCall(call: ToolCall, commands: readonly SimpleCommand[]): Map<string, string | null> {
  const written = new Map<string, string | null>();
  commands.forEach((cmd, index) => {
    for (const file of appliedDiffFiles(cmd))
      if (file.access === 'write')
        written.set(
          resolveSystemPath(file.path, { cwd: cwdBefore(commands, index, call), home: call.home }).absolute,
          file.text,
        );
    const targets = [
      ...redirectWrites(cmd),
      ...(cmd.name === 'tee' ? cmd.argv.slice(1).filter((a) => !a.startsWith('-')) : []),
    ];
    if (!targets.length) return;
    const heredoc = heredocInput(cmd);
    const view = { argv: cmd.argv, dynamic: new Set(cmd.dynamicWords) };
    const content =
      literalOutput(cmd.name, view, heredoc) ??
      (cmd.name === 'tee' ? (heredoc ?? pipedLiteral(commands, cmd)) : undefined);
    const cwd = cwdBefore(commands, index, call);
    for (const target of targets) {
      const { absolute } = resolveSystemPath(target, { cwd, home: call.home });
      const before = written.get(absolute);
      const appended =
        redirectWrites(cmd).includes(target) && cmd.redirects.some((r) => r.op === '>>' && r.target === target);
      written.set(
        absolute,
        content === undefined ? null : appended && typeof before === 'string' ? before + content : content,
      );
    }
  });
  return written;
}

/** Each file an apply_patch envelope adds or updates, by its resolved path, with the text it gets. */
export function patchedFileTexts(call: ToolCall, patch: string): { file: string; content: string }[] {
  return patchedTexts(patch).map(({ path, text }) => ({
    file:
      call.paths.find((p) => p.raw === path && p.access === 'write')?.absolute ??
      resolveSystemPath(path, { cwd: call.cwd, home: call.home }).absolute,
    content: text,
  }));
}

// Several policies ask for the same call's written files: worked out once per call.
const writtenTextsOf = new WeakMap<ToolCall, { file: string; content: string }[]>();

/** The files a call writes with text known now: a Write's or Edit's content, a shell call's literal redirects and tee. */
export function writtenTexts(call: ToolCall): { file: string; content: string }[] {
  let texts = writtenTextsOf.get(call);
  if (!texts) {
    // Rules know files by name and folders written with `/`: a Windows path is given to them so too.
    texts = computeWrittenTexts(call).map(({ file, content }) => ({ file: withForwardSlashes(file), content }));
    writtenTextsOf.set(call, texts);
  }
  return texts;
}

/** Every text the call puts into a file: writtenTexts, and what in-place shell edits (sed -i, yq -i) add. */
export function textsWrittenOrEdited(call: ToolCall): { file: string; content: string }[] {
  return [...writtenTexts(call), ...inPlaceEdits(call)];
}

/** The first file the call writes in which `judge` finds something, with what it found. */
export function firstWrittenFinding<T>(
  call: ToolCall,
  judge: (file: string, content: string) => T | null,
): { file: string; content: string; found: T } | undefined {
  for (const { file, content } of writtenTexts(call)) {
    const found = judge(file, content);
    if (found !== null) return { file, content, found };
  }
  return undefined;
}

/**
 * The text each in-place edit of a shell call brings into a file: `sed -i`'s added lines and
 * replacements, the package scripts `npm pkg set` writes, the lines `yq -i` sets. Only the added text is
 * known, never the whole file.
 */
export function inPlaceEdits(call: ToolCall): { file: string; content: string; cwd: string }[] {
  return inPlaceEditsOf(call.shell?.commands ?? [], call);
}

function inPlaceEditsOf(
  commands: readonly SimpleCommand[],
  call: ToolCall,
): { file: string; content: string; cwd: string }[] {
  return commands.flatMap((cmd, index) => {
    const edit = sedEdit(cmd) ?? scriptEdit(cmd);
    if (!edit) return [];
    const cwd = cwdBefore(commands, index, call);
    return edit.files.map((file) => ({
      file: resolveSystemPath(file, { cwd, home: call.home }).absolute,
      content: edit.text,
      cwd,
    }));
  });
}

/** A file tool's written files: each file of an apply_patch envelope, or its one target with the call's content. */
export function fileToolTexts(call: ToolCall): { file: string; content: string }[] {
  if (call.content === undefined) return [];
  if (isPatchEnvelope(call.content)) return patchedFileTexts(call, call.content);
  const target = call.paths.find((p) => p.access === 'write');
  return target ? [{ file: target.absolute, content: call.content }] : [];
}

function computeWrittenTexts(call: ToolCall): { file: string; content: string }[] {
  if (call.command === undefined) return fileToolTexts(call);
  // Every command that runs on this machine writes here, however it was reached: `( cat > f <<EOF )`,
  // `bash -c 'printf … > f'`, a function's body. What ssh, docker exec or kubectl exec run writes elsewhere.
  const here = (call.shell?.commands ?? []).filter((c) => !c.via.includes('ssh'));
  return [...writtenInCall(call, here)]
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
    .map(([file, content]) => ({ file, content }));
}

export function deriveFacts(call: ToolCall, inputs: FactInputs): Derived {
  const unread: Unread[] = [];
  const code: CodeFact[] = [];
  const network: NetworkFact[] = [];
  const codePaths: TouchedPath[] = [];
  if (!call.shell) return { shell: undefined, codePaths, code, network, unread };
  const analyze = (text: string) => analyzeShell(text, { home: call.home, env: { HOME: call.home } });
  const merged: ShellAnalysis = { ...call.shell, commands: [], comments: [] };
  const queue: Pending[] = [{ analysis: call.shell, parent: undefined, via: undefined, depth: 0, cwd: call.cwd }];
  let added = 0;
  const powershellFace = /^(powershell|pwsh)$/i.test(call.face.tool);
  const inCall = writtenInCall(call, call.shell.commands);
  // Asked once per command the call runs, and a long session's list is a thousand paths: joined again
  // only when a nested script added a file to this call's own (inCall grows as scripts are read).
  const sessionList = inputs.writes.list();
  let joined = { size: -1, list: sessionList };
  const writes = {
    list: () => {
      if (inCall.size === 0) return sessionList;
      if (joined.size !== inCall.size) joined = { size: inCall.size, list: [...sessionList, ...inCall.keys()] };
      return joined.list;
    },
    has: (p: string) => inCall.has(p) || inputs.writes.has(p),
  };
  const readWritten = (file: string): string | null =>
    inCall.has(file) ? (inCall.get(file) ?? null) : inputs.io.readText(file, MAX_SCREENED_FILE_BYTES);
  // What a file this call writes with literal text will run later (a Makefile recipe appended by a
  // heredoc, `echo … >> conftest.py`) is judged now, as a Write of that text would be; so is what
  // `sed -i` adds to such a file (`sed -i '1a curl … | sh' deploy.sh`), and the package scripts
  // `npm pkg set scripts.*` writes.
  const judgeLater = (file: string, content: string | null, cwd: string, depth: number) => {
    const runs = typeof content === 'string' ? runLaterShell(file, content) : undefined;
    if (runs !== undefined && runs.trim() !== '')
      queue.push({ analysis: analyze(runs), parent: undefined, via: 'write-time', depth, cwd, laterOnly: true });
  };
  for (const [file, content] of inCall) judgeLater(file, content, call.cwd, 1);
  for (const { file, content, cwd } of inPlaceEditsOf(call.shell.commands, call)) judgeLater(file, content, cwd, 1);

  const readCode = (
    language: string,
    text: string,
    where: string,
    origin: CodeFact['origin'],
    at: Pending,
    parent: number | undefined,
  ) => {
    if (!inputs.reader.reads(language)) {
      unread.push({ reason: 'unread-code', detail: `${where} runs ${language} code Warden has no reader for` });
      code.push({ language, origin, source: where, effects: [] });
      return;
    }
    const reading: CodeReading = inputs.reader.read(language, text);
    const fetched = fetchesUrl(reading.effects);
    const written: string[] = [];
    code.push({
      language,
      origin,
      source: where,
      effects: reading.effects.map(
        (e) => `${e.kind} ${e.api}${e.value !== undefined ? ` ${evidenceOf(e.value, 80)}` : ''}`,
      ),
      ...secretsAndSends(reading.effects),
      ...(fetched ? { fetchesInto: written } : {}),
    });
    // Code that fetches from the network and runs code it computes is a download run (`iwr … | iex`,
    // `exec(urlopen(…).read())`): as much a question in a file that runs later as on the command line.
    for (const reason of reading.unread)
      unread.push({
        reason: 'unread-code',
        detail: `${where}: ${language} code ${reason}`,
        ...(fetched && runsComputedCode(reason) ? { alsoLater: true as const } : {}),
      });
    for (const effect of reading.effects) {
      const literal = !effect.dynamic && (effect.value !== undefined || effect.argv !== undefined);
      if (effect.kind === 'exec') {
        if (!literal) {
          unread.push({
            reason: 'unread-code',
            detail: `${where}: ${language} code runs a command built at run time (${effect.api})`,
          });
          // Only partly known: still read for what is written in it, as a shell's -c script is.
          if (effect.value === undefined || effect.argv !== undefined) continue;
        }
        const text = effect.argv ? effect.argv.map(shellQuote).join(' ') : (effect.value ?? '');
        queue.push({
          analysis: analyze(text),
          parent,
          via: 'interpreter-code',
          depth: at.depth + 1,
          cwd: at.cwd,
          ...(at.laterOnly ? { laterOnly: true } : {}),
        });
      } else if (effect.kind === 'read' || effect.kind === 'write' || effect.kind === 'delete') {
        const partialRead = effect.kind === 'read' && effect.dynamic && effect.value !== undefined;
        if (!literal && !partialRead) {
          if (effect.kind !== 'read')
            unread.push({
              reason: 'unresolvable-path',
              detail: `${where}: ${language} code ${effect.kind === 'delete' ? 'deletes' : 'writes'} a path known only at run time (${effect.api})`,
            });
          continue;
        }
        const raw = effect.value ?? effect.argv?.[0] ?? '';
        const resolved = resolveSystemPath(raw, { cwd: at.cwd, home: call.home });
        if (effect.kind === 'write' && literal) written.push(resolved.absolute);
        codePaths.push({
          raw,
          absolute: resolved.absolute,
          access: effect.kind,
          relation: relatePath(resolved.absolute, call.projectRoot, call.home),
          source: `${language} code (${effect.api})`,
          ...(partialRead ? { dynamic: true as const } : {}),
        });
      } else if (effect.kind === 'network') {
        network.push({
          via: `${language} ${effect.api}`,
          ...(effect.value !== undefined ? { destination: effect.value } : {}),
        });
      }
    }
    // A file opened by a name the code computes (a loop over names, a join with the home folder) may be any
    // credential store its literals name: `for (const f of [".pgpass", …]) readFileSync(home + "/" + f)`.
    if (reading.effects.some((e) => e.kind === 'read' && e.dynamic))
      for (const named of secretsNamedInSource(text, call.home))
        codePaths.push({
          raw: named.literal,
          absolute: named.absolute,
          access: 'read',
          relation: relatePath(named.absolute, call.projectRoot, call.home),
          source: `${language} code (a file it opens by a computed name, among the names it holds)`,
        });
  };

  const screenFile = (text: RunText, at: Pending, parent: number) => {
    if (text.kind === 'shell') {
      queue.push({
        analysis: analyze(text.lines.join('\n')),
        parent,
        via: 'session-file',
        depth: at.depth + 1,
        cwd: at.cwd,
        ...(at.laterOnly ? { laterOnly: true } : {}),
      });
      return;
    }
    if (text.code.length >= MAX_SCREENED_FILE_BYTES) {
      unread.push({
        reason: 'budget',
        detail: `${text.file} was written in this session and is larger than Warden reads`,
      });
      return;
    }
    readCode(text.language, text.code, text.file, 'session-file', at, parent);
  };

  for (let next = queue.shift(); next; next = queue.shift()) {
    const at = next;
    if (at.depth > MAX_CODE_DEPTH || added > MAX_ADDED_COMMANDS) {
      unread.push({
        reason: 'truncated',
        detail: 'code runs code nested deeper (or more of it) than Warden follows',
      });
      continue;
    }
    const offset = merged.commands.length;
    const unreadBefore = unread.length;
    // A PowerShell tool's command is PowerShell, not bash: its own reader decides what is unread.
    if (at.depth === 0 && powershellFace)
      readCode('powershell', call.command ?? '', call.toolName, 'inline', at, undefined);
    else unread.push(...shellUnread(at.analysis));
    appendAnalysis(merged, at);
    if (at.depth > 0) {
      added += at.analysis.commands.length;
      // What a script run by this call writes is this call's too: a file it writes and then runs
      // (`cat > /tmp/x.sh <<EOF … EOF; sh /tmp/x.sh` inside a script the command line wrote) is read
      // as that text, not looked for on disk, and a file it writes to run later is judged now.
      for (const [file, content] of writtenInCall(call, at.analysis.commands)) {
        if (inCall.has(file)) continue;
        inCall.set(file, content);
        judgeLater(file, content, at.cwd, at.depth + 1);
      }
      for (const { file, content, cwd } of inPlaceEditsOf(at.analysis.commands, call))
        judgeLater(file, content, cwd, at.depth + 1);
    }
    const found = interpreterCode(at.analysis.commands);
    unread.push(...found.unread);
    for (const source of found.sources)
      readCode(source.language, source.code, source.source, source.origin, at, offset + source.command);
    at.analysis.commands.forEach((cmd, index) => {
      const cwd = at.depth === 0 ? cwdBefore(at.analysis.commands, index, call) : at.cwd;
      const run = sessionFilesRun(cmd, cwd, call.projectRoot, call.home, writes, readWritten);
      for (const problem of run.problems)
        unread.push({
          reason: 'unknown-script',
          detail: `${cmd.name} runs ${problem.file}, written in this session or this command, and ${problem.problem}`,
        });
      for (const text of run.texts) screenFile(text, at, offset + index);
      for (const copy of copiedRuns(cmd, cwd, call, inputs.io)) {
        const text = copy.readable ? readWritten(copy.source) : null;
        if (text === null || text.length >= MAX_SCREENED_FILE_BYTES) {
          // Only a file a tool runs by itself makes an unknown text a question now; other code waits for its run.
          if (copy.autoRunBy !== undefined)
            unread.push({
              reason: text === null ? 'unknown-script' : 'budget',
              detail: `${cmd.name} puts ${copy.source} at ${copy.landed}, where ${copy.autoRunBy}, and Warden cannot read ${text === null ? 'it' : 'all of it'}`,
              alsoLater: true,
            });
          continue;
        }
        const runs = runLaterShell(copy.landed, text);
        if (runs !== undefined && runs.trim() !== '')
          queue.push({
            analysis: analyze(runs),
            parent: offset + index,
            via: 'write-time',
            depth: at.depth + 1,
            cwd,
            laterOnly: true,
          });
      }
      const fromInput = stdinMakefileRun(cmd, call.home);
      if (fromInput) screenFile(fromInput, at, offset + index);
      const scratch = unwrittenScratchScript(cmd, at.analysis.commands.slice(0, index), cwd, call, writes);
      if (scratch !== undefined) {
        const where = inUnownedCacheEntry(scratch, call.home)
          ? "in the cache but in no tool's own folder,"
          : inDownloads(scratch, call.projectRoot, call.home)
            ? 'in a downloads folder'
            : 'in a temporary folder';
        // Asked when a written file would run it too: a build or a hook that runs a scratch file nobody
        // wrote here runs whatever lands there by then, often where Warden never sees the run.
        unread.push({
          reason: 'unknown-script',
          detail: `${cmd.name} runs ${scratch}, a file ${where} that neither this session nor this command wrote`,
          alsoLater: true,
        });
      }
    });
    if (at.laterOnly)
      unread.splice(unreadBefore, unread.length - unreadBefore, ...laterToo(unread.slice(unreadBefore)));
  }
  return { shell: merged, codePaths, code, network, unread: dedupeUnread(unread) };
}

/** The unread facts that hold for text a written file runs later as well. */
export function laterToo(unread: readonly Unread[]): Unread[] {
  return unread.filter((u) => u.alsoLater === true);
}

function dedupeUnread(unread: Unread[]): Unread[] {
  const seen = new Set<string>();
  return unread.filter((u) => {
    const key = `${u.reason}\u0000${u.detail}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
