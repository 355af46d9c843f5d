import { join } from 'node:path';
import { z } from 'zod';
import { definePolicy, type ToolCall } from '../types';
import type { SimpleCommand } from '../../shell';
import { argsOf, cwdBefore, downstreamOf, evidenceOf, parseFlags, shellCommands } from '../../facts/commands';
import { couldLandIn, type Landing } from '../../facts/landing';
import type { IoFacts } from '../../facts/io';
import type { PathFact } from '../../facts/types';
import { resolvePath } from '../../shell/paths';

// Self-defence: what an agent running as the same user could do to take Warden
// out of the loop, judged on the call's facts rather than on how it is spelled.
// Each finding is 'deny' when it certainly hits Warden and 'ask' when only run
// time can tell (a glob, a computed path, a pid chosen by another command).
// Always on, with its own reason, whatever the configuration says.

interface Finding {
  certain: boolean;
  what: string;
  evidence: string;
}

/** Folders whose loss takes an agent's hooks or Warden's settings with them. */
const CONFIG_FOLDERS = ['.claude', '.codex', '.gemini', '.cursor', '.copilot', '.github/hooks', '.agent-warden'];

// ---------------------------------------------------------------- Warden's processes

interface WardenProcesses {
  pids: Set<string>;
  ports: Set<string>;
  /** Each live endpoint's command line and process name, where the system shows them. */
  commandLines: string[];
  names: string[];
}

/** Endpoints recorded in the state folder: read without verifying, since protecting an unverified one costs nothing. */
function wardenProcesses(stateDir: string, io: IoFacts): WardenProcesses {
  const found: WardenProcesses = { pids: new Set(), ports: new Set(), commandLines: [], names: [] };
  const dir = join(stateDir, 'endpoints');
  for (const name of io.listDir(dir) ?? []) {
    if (!name.endsWith('.json')) continue;
    let record: { pid?: unknown; url?: unknown };
    try {
      record = JSON.parse(io.readText(join(dir, name), 64 * 1024) ?? '{}') as typeof record;
    } catch {
      continue;
    }
    if (typeof record.pid === 'number') {
      const pid = String(record.pid);
      found.pids.add(pid);
      const cmdline = io.readText(`/proc/${pid}/cmdline`, 64 * 1024);
      if (cmdline) found.commandLines.push(cmdline.replace(/\0/g, ' ').trim());
      const comm = io.readText(`/proc/${pid}/comm`, 256);
      if (comm) found.names.push(comm.trim());
    }
    if (typeof record.url === 'string') {
      const port = /:(\d+)(?:\/|$)/.exec(record.url)?.[1];
      if (port) found.ports.add(port);
    }
  }
  // What Warden's processes look like where /proc cannot tell: serve under Node, the extension host.
  if (!found.commandLines.length) found.commandLines.push('node /usr/lib/node_modules/agent-warden/dist/cli.js serve');
  if (!found.names.length) found.names.push('node', 'code', 'code-server');
  return found;
}

const KILLERS = new Set(['kill', 'pkill', 'killall', 'skill', 'snice', 'taskkill', 'stop-process', 'xkill', 'tkill']);

function namesWardenPort(word: string, ports: Set<string>): boolean {
  for (const port of ports)
    if (new RegExp(`(^|[^0-9])${port}($|[^0-9])`).test(word) && /[:=/]|^\d+$/.test(word)) return true;
  return false;
}

/** The commands that choose what `cmd` acts on: its pipeline's upstream and its command substitutions. */
function helpersOf(commands: SimpleCommand[], cmd: SimpleCommand): SimpleCommand[] {
  const index = commands.indexOf(cmd);
  return commands.filter(
    (other) =>
      other !== cmd &&
      ((other.pipeline.id === cmd.pipeline.id && other.pipeline.index < cmd.pipeline.index) || other.parent === index),
  );
}

function patternMatches(pattern: string, subjects: readonly string[], exact: boolean): boolean | 'unknown' {
  try {
    const re = new RegExp(exact ? `^(?:${pattern})$` : pattern);
    return subjects.some((s) => re.test(s));
  } catch {
    return 'unknown';
  }
}

const PORT_LOOKUPS = new Set(['lsof', 'fuser', 'ss', 'netstat']);
const NAME_LOOKUPS = new Set(['pgrep', 'pidof']);

type Choice = 'warden' | 'other' | 'unknown';

/** What a command that picks pids for a kill can pick: Warden, only other processes, or unknown. */
function lookupChoice(helper: SimpleCommand, p: WardenProcesses): Choice {
  if (helper.dynamicWords.length) return 'unknown';
  const name = helper.name.toLowerCase();
  const args = argsOf(helper);
  if (PORT_LOOKUPS.has(name)) return args.some((a) => /(^|[:=])\d{2,5}(\/|$)|^\d{2,5}$/.test(a)) ? 'other' : 'unknown';
  if (!NAME_LOOKUPS.has(name)) return 'unknown';
  const flags = parseFlags(args, ['u', 'U', 'g', 'G', 'P', 't', 's'], []);
  const full = flags.short.has('f');
  const hits = flags.positionals.map((pattern) =>
    name === 'pidof' ? p.names.includes(pattern) : patternMatches(pattern, full ? p.commandLines : p.names, false),
  );
  if (hits.includes(true)) return 'warden';
  return hits.length && hits.every((h) => h === false) ? 'other' : 'unknown';
}

/** A word that is one command substitution: its commands are the kill's helpers. */
const WHOLE_SUBSTITUTION = /^\$\([^]*\)$|^`[^`]*`$/;
/** A command that names Warden's port, pid or program (whatever it looks up is Warden). */
function namesWarden(helper: SimpleCommand, p: WardenProcesses): boolean {
  return helper.argv.some(
    (w) => namesWardenPort(w, p.ports) || p.pids.has(w) || /agent-warden|cli\.js\s+serve/.test(w),
  );
}

/** Commands that only pass a lookup's pids on, or end a pipeline that found none. */
const PID_FILTERS = new Set(['true', ':', 'head', 'tail', 'sort', 'uniq', 'tr', 'cut', 'grep', 'awk', 'sed']);

/**
 * What the kill's run-time words other than substitutions stand for: for a variable of known origin,
 * this call's own background job or what a lookup found; 'unknown' for any other.
 */
function variableChoices(cmd: SimpleCommand, commands: SimpleCommand[], p: WardenProcesses): Choice[] {
  return cmd.dynamicWords
    .filter((index) => index > 0 && !WHOLE_SUBSTITUTION.test(cmd.argv[index] ?? ''))
    .map((index) => {
      const origin = cmd.origins?.[index];
      if (origin === undefined) return 'unknown';
      if (origin.kind === 'background-pid') return 'other';
      const choices = origin.commands
        .map((at) => commands[at])
        .filter((c): c is SimpleCommand => c !== undefined && !PID_FILTERS.has(c.name))
        .map((c) => (namesWarden(c, p) ? 'warden' : lookupChoice(c, p)));
      if (choices.includes('warden')) return 'warden';
      return choices.length > 0 && choices.every((c) => c === 'other') ? 'other' : 'unknown';
    });
}

function stopsWarden(call: ToolCall, processes: () => WardenProcesses): Finding | null {
  const commands = shellCommands(call);
  for (const cmd of commands) {
    const name = cmd.name.toLowerCase();
    const args = argsOf(cmd);
    const evidence = evidenceOf(cmd.text);
    if (name === 'fuser' && parseFlags(args).short.has('k')) {
      const p = processes();
      if (args.some((a) => namesWardenPort(a, p.ports)))
        return { certain: true, what: "kills whatever holds Warden's port (fuser -k)", evidence };
      if (cmd.dynamicWords.length)
        return { certain: false, what: 'kills the holders of a port or file chosen at run time (fuser -k)', evidence };
      continue;
    }
    if (!KILLERS.has(name)) continue;
    const p = processes();
    const dynamic = cmd.dynamicWords.some((i) => i > 0) || cmd.via.includes('xargs');
    if (name === 'kill' || name === 'tkill' || name === 'skill' || name === 'snice') {
      const flags = parseFlags(args, ['s', 'n'], ['signal']);
      const targets = flags.positionals;
      if (targets.includes('-1') || args.includes('-1'))
        return { certain: true, what: 'signals every process of this user, Warden among them (kill -1)', evidence };
      const pid = targets.find((t) => p.pids.has(t));
      if (pid) return { certain: true, what: `signals Warden's own process ${pid}`, evidence };
    }
    if (name === 'pkill' || name === 'killall' || name === 'skill') {
      const flags = parseFlags(args, ['s', 'u', 'U', 'g', 'G', 'P', 't', 'n', 'o'], ['signal']);
      const full = flags.short.has('f') || flags.long.has('full');
      const regex = name === 'pkill' || flags.short.has('r') || flags.long.has('regexp');
      for (const pattern of flags.positionals) {
        const subjects = full ? p.commandLines : p.names;
        const hit = regex
          ? patternMatches(pattern, subjects, false)
          : subjects.some((s) => s === pattern || s.endsWith(`/${pattern}`));
        if (hit === true)
          return {
            certain: true,
            what: `matches Warden's process by ${full ? 'command line' : 'name'} (${pattern})`,
            evidence,
          };
        if (hit === 'unknown')
          return { certain: false, what: `matches processes by a pattern Warden cannot read (${pattern})`, evidence };
      }
    }
    const helpers = helpersOf(commands, cmd);
    if (helpers.some((h) => namesWarden(h, p)))
      return { certain: true, what: "signals processes chosen by Warden's port or pid", evidence };
    const lookup = [...helpers.map((h) => lookupChoice(h, p)), ...variableChoices(cmd, commands, p)];
    if (lookup.includes('warden'))
      return { certain: true, what: "signals processes a lookup finds by Warden's name or command line", evidence };
    // `lsof -ti:3000 | xargs kill`, `kill $(pgrep -f vite)`, `PID=$(lsof -ti:3000); kill "$PID"`, `kill $!`:
    // the pids come from a lookup that cannot find Warden, or are this call's own job.
    if (dynamic && lookup.length && lookup.every((c) => c === 'other')) continue;
    if (dynamic)
      return {
        certain: false,
        what: 'signals processes chosen at run time, which may be Warden (name the pids, or stop it yourself)',
        evidence,
      };
  }
  return null;
}

// ---------------------------------------------------------------- another endpoint, hooks re-pointed

const WARDEN_SUBCOMMANDS_REFUSED = new Set(['serve', 'install', 'uninstall', 'hook', 'env']);

/** The index of Warden's CLI among argv (its bin, its package's cli.js), or -1. */
function wardenCliAt(cmd: SimpleCommand, io: IoFacts, cwd: string, home: string): number {
  for (let i = 0; i < cmd.argv.length; i++) {
    const word = cmd.argv[i] ?? '';
    if (/(^|\/)agent-warden(@[^/\s]*)?$/.test(word) || /agent-warden\/dist\/cli\.js$/.test(word)) return i;
    if (/(^|\/)cli\.js$/.test(word)) {
      // `node dist/cli.js …` inside Warden's own package.
      const script = resolvePath(word, cwd, home);
      const manifest = io.readText(join(script, '..', '..', 'package.json'), 64 * 1024);
      if (manifest && /"name"\s*:\s*"agent-warden"/.test(manifest)) return i;
    }
  }
  return -1;
}

function startsOrRepointsWarden(call: ToolCall): Finding | null {
  const commands = shellCommands(call);
  for (const [index, cmd] of commands.entries()) {
    const at = wardenCliAt(cmd, call.io, cwdBefore(commands, index, call), call.home);
    if (at < 0) continue;
    const subcommand = cmd.argv.slice(at + 1).find((w) => !w.startsWith('-'));
    if (subcommand === undefined || !WARDEN_SUBCOMMANDS_REFUSED.has(subcommand)) continue;
    const what =
      subcommand === 'serve'
        ? 'starts another Warden endpoint, whose record and panel link would be the agent’s'
        : subcommand === 'hook'
          ? "runs Warden's command bridge by hand"
          : subcommand === 'env'
            ? "prints Warden's hook token"
            : `re-points or removes Warden's hooks (agent-warden ${subcommand})`;
    return { certain: true, what, evidence: evidenceOf(cmd.text) };
  }
  return null;
}

// ---------------------------------------------------------------- paths

function worst(a: Landing, b: Landing): Landing {
  return a === 'yes' || b === 'yes' ? 'yes' : a === 'maybe' || b === 'maybe' ? 'maybe' : 'no';
}

const STARTS_AT_RUN_TIME = /^["']?[$`]/;
const RUN_TIME_PART = /[$`]/;

/**
 * A word whose run-time part sits under a relative or no folder (`packages/$p/x`, `<(git log "$A")`,
 * a URL, a sed script ending in `$/`): like a word that is nothing but a run-time value, it could go
 * anywhere and so aims nowhere in particular. A glob, a tilde or an absolute folder before the
 * run-time part is what aims a word at one place.
 */
function aimedOnlyAtRunTime(word: string): boolean {
  const dynamicAt = word.search(RUN_TIME_PART);
  if (dynamicAt === -1) return false;
  const staticPart = word.slice(0, dynamicAt);
  return !/^["']?[/~]/.test(staticPart) && !/[*?[]/.test(staticPart);
}

/**
 * Whether anything else in the call points at `dir`: a word (a glob, a tilde form, a /proc
 * view) that could land there, or the folder's name. A path that is nothing but a run-time
 * value (`"$f"` in a loop), or one under a relative folder (`packages/$p/x`), is read as aimed
 * at `dir` only then; otherwise it is the unread-call policy's to judge.
 */
function callPointsAt(call: ToolCall, dir: string): boolean {
  const name = dir.slice(dir.lastIndexOf('/') + 1).replace(/^\./, '');
  if (name && (call.command ?? '').toLowerCase().includes(name.toLowerCase())) return true;
  const place = { cwd: call.cwd, home: call.home };
  for (const cmd of shellCommands(call)) {
    const words = [...cmd.argv, ...Object.values(cmd.assignments), ...cmd.redirects.map((r) => r.target)];
    for (const word of words) {
      if (!word || STARTS_AT_RUN_TIME.test(word) || !/[/~*?[]/.test(word) || aimedOnlyAtRunTime(word)) continue;
      if (couldLandIn(word, dir, place, { recursive: true }) !== 'no') return true;
    }
  }
  return false;
}

function landing(fact: PathFact, dir: string, call: ToolCall, recursive: boolean): Landing {
  const place = { cwd: call.cwd, home: call.home };
  let result = couldLandIn(fact.raw, dir, place, { recursive, io: call.io });
  if (result !== 'yes' && fact.real) result = worst(result, couldLandIn(fact.real, dir, place, { recursive }));
  if (
    result === 'maybe' &&
    (STARTS_AT_RUN_TIME.test(fact.raw) || aimedOnlyAtRunTime(fact.raw)) &&
    !callPointsAt(call, dir)
  )
    return 'no';
  return result;
}

function touchesStateFolder(call: ToolCall, stateDir: string): Finding | null {
  const facts = [
    ...call.facts.reads.map((f) => ({ f, verb: 'reads' })),
    ...call.facts.writes.map((f) => ({ f, verb: 'writes' })),
    ...call.facts.deletes.map((f) => ({ f, verb: 'deletes' })),
  ];
  let maybe: Finding | null = null;
  for (const { f, verb } of facts) {
    const hit = landing(f, stateDir, call, verb === 'deletes');
    if (hit === 'yes')
      return {
        certain: true,
        what: `${verb} Warden's state folder (${f.raw}), which holds its keys and log`,
        evidence: f.raw,
      };
    if (hit === 'maybe')
      maybe ??= {
        certain: false,
        what: `${verb} ${f.raw}, which may resolve into Warden's state folder (a glob, a link or a path known only at run time)`,
        evidence: f.raw,
      };
  }
  return maybe;
}

function removesConfigFolder(call: ToolCall, stateDir: string): Finding | null {
  // Which config folders exist is asked only of a call that deletes something: every other call
  // would pay for (and record) fourteen questions whose answers cannot change its verdict.
  if (call.facts.deletes.length === 0) return null;
  const folders = [stateDir];
  for (const base of new Set([call.projectRoot, call.home]))
    for (const name of CONFIG_FOLDERS) {
      const dir = join(base, name);
      if (call.io.exists(dir)) folders.push(dir);
    }
  let maybe: Finding | null = null;
  for (const fact of call.facts.deletes) {
    for (const dir of folders) {
      const hit = landing(fact, dir, call, true);
      if (hit === 'yes')
        return {
          certain: true,
          what: `deletes or renames ${fact.raw}, taking ${dir} (agent or Warden configuration) with it`,
          evidence: fact.raw,
        };
      if (hit === 'maybe')
        maybe ??= {
          certain: false,
          what: `deletes or renames ${fact.raw}, which may take ${dir} (agent or Warden configuration) with it`,
          evidence: fact.raw,
        };
    }
  }
  return maybe;
}

// What lists processes and listening ports, and what finds a process by name.
const PROCESS_LISTERS = new Set(['ps', 'lsof', 'ss', 'netstat', 'launchctl', 'systemctl', 'top', 'htop']);
const PROCESS_FINDERS = new Set(['pgrep', 'pidof']);
const SEARCHERS = new Set(['grep', 'egrep', 'rg', 'awk']);
const NAMES_WARDEN = /warden/i;

/**
 * A search for Warden's own process or port (`lsof -iTCP | grep warden`, `pgrep -f warden`): the first
 * step of addressing the guard directly. Asked, not refused: a person may be looking for it.
 */
function probesWarden(call: ToolCall): Finding | null {
  const commands = shellCommands(call);
  for (const cmd of commands) {
    if (!argsOf(cmd).some((a) => NAMES_WARDEN.test(a))) continue;
    const fed =
      SEARCHERS.has(cmd.name) &&
      commands.some((other) => PROCESS_LISTERS.has(other.name) && downstreamOf(commands, other).includes(cmd));
    if (PROCESS_FINDERS.has(cmd.name) || fed)
      return { certain: false, what: "looks for Warden's process or port", evidence: cmd.text };
  }
  return null;
}

function selfDefenceFinding(call: ToolCall, stateDir: string): Finding | null {
  let processes: WardenProcesses | undefined;
  const lazyProcesses = () => (processes ??= wardenProcesses(stateDir, call.io));
  const findings = [
    startsOrRepointsWarden(call),
    stopsWarden(call, lazyProcesses),
    touchesStateFolder(call, stateDir),
    removesConfigFolder(call, stateDir),
    probesWarden(call),
  ].filter((f): f is Finding => f !== null);
  return findings.find((f) => f.certain) ?? findings[0] ?? null;
}

export const wardenSelfDefence = definePolicy({
  name: 'warden-self-defence',
  category: 'agent-integrity',
  description:
    'Always on: no stopping or freezing Warden or looking for its process, no second endpoint or re-pointed hooks, no deleting agent config folders, no reaching its state folder by globs, links or run-time paths.',
  defaultEnabled: true,
  alwaysOn: true,
  decision: 'deny',
  params: z.object({}),
  evaluate({ call, stateDir }) {
    if (!call) return null;
    const finding = selfDefenceFinding(call, resolvePath(stateDir, '/', call.home));
    if (!finding) return null;
    return {
      decision: finding.certain ? 'deny' : 'ask',
      reason: `Warden self-defence: this call ${finding.what}. An agent may not take its own guard out of the loop; if Warden is in the way, tell the person why.`,
      evidence: evidenceOf(finding.evidence),
    };
  },
});
