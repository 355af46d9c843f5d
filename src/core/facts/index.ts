// A call's facts: what it reads, writes, deletes, runs, sends, and what could not be read.
// Computed once per call by toolCallOf; policies and the semantic tier read `call.facts`.
import type { ToolCall } from './call';
import type { SimpleCommand } from '../shell';
import { isInside } from '../shell/paths';
import { argsOf, forLoops } from './commands';
import { laterToo, type Derived } from './compute';
import { isGlobWord } from './globs';
import { DOWNLOADERS, NETCATS } from './programs';
import { tableDownloads, tableUpload } from './program-table';
import { readTargets, writeTargets, type PathTarget } from './targets';
import { tempDirs } from './temp-dirs';
import type { CallFacts, NetworkFact, PathFact, Unread } from './types';

export type { CallFacts, PathFact, Unread, UnreadReason } from './types';

/** Programs that send or fetch over the network. */
export const NETWORK_PROGRAMS: ReadonlySet<string> = new Set([
  ...DOWNLOADERS,
  ...NETCATS,
  'ssh',
  'scp',
  'sftp',
  'rsync',
  'ftp',
  'tftp',
  'mail',
  'sendmail',
  'mutt',
  'git',
]);

const GIT_NETWORK = new Set(['push', 'pull', 'fetch', 'clone', 'ls-remote', 'submodule']);

function pathFact(target: PathTarget): PathFact {
  const fact: PathFact = {
    raw: target.raw,
    absolute: target.absolute,
    relation: target.relation,
    dynamic: target.dynamic,
    glob: isGlobWord(target.raw),
    access: target.access,
    source: target.source,
  };
  if (target.real) fact.real = target.real;
  return fact;
}

/** Loop variables over words that stay in the working folder (`for f in *.log`): their paths resolve there. */
function localLoopVariables(commands: readonly SimpleCommand[]): Set<string> {
  const names = new Set<string>();
  for (const loop of forLoops(commands)) {
    const { variable } = loop;
    // Read word by word as written: `$(find . -name x)` is `$(find`, `.`, `-name`, `x)`.
    const words = loop.words.join(' ').split(/\s+/);
    // `$(find . -name …)`, `$(git ls-files)`: a listing program over relative paths yields relative paths.
    const listing = /^["']?(\$\(|`)(find|git|ls|fd|rg|grep)$/.test(words[0] ?? '') ? words.slice(1) : words;
    if (listing.every((w) => w !== '' && !/^["']?(\/|~|\$|\.\.)/.test(w))) names.add(variable);
  }
  return names;
}

/**
 * A delete whose target is known only at run time and could be anywhere: the word starts with a
 * variable or substitution, or a run-time word sits right under /, the home folder or a place
 * outside the project and the temp folders.
 */
function unresolvableDeletes(call: ToolCall, deletes: PathFact[]): Unread[] {
  const loops = localLoopVariables(call.shell?.commands ?? []);
  const out: Unread[] = [];
  for (const target of deletes) {
    if (!target.dynamic) continue;
    const at = target.raw.search(/\$|`/);
    if (at === -1) continue;
    const variable = /^\$\{?([A-Za-z_]\w*)\}?(\/|$)/.exec(target.raw)?.[1];
    if (at === 0 && variable && loops.has(variable)) continue;
    const staticDir = target.raw.slice(0, target.raw.lastIndexOf('/', at) + 1);
    const anchored =
      at > 0 &&
      staticDir !== '' &&
      (target.relation === 'inside-project' ||
        tempDirs().some((t) => isInside(target.absolute, t) && target.absolute !== t));
    if (!anchored)
      out.push({
        reason: 'unresolvable-path',
        detail: `${target.source} deletes ${target.raw}, a path known only at run time`,
      });
  }
  return out;
}

function shellNetwork(call: ToolCall): NetworkFact[] {
  const out: NetworkFact[] = [];
  for (const cmd of call.shell?.commands ?? []) {
    const name = cmd.name.toLowerCase();
    if (!NETWORK_PROGRAMS.has(name)) {
      const upload = tableUpload(cmd);
      if (upload) out.push({ via: name, destination: upload.to });
      else if (tableDownloads(cmd).length) out.push({ via: name });
      continue;
    }
    const args = argsOf(cmd);
    if (name === 'git' && !args.some((a) => GIT_NETWORK.has(a))) continue;
    const destination = args.find((a) => /^[a-z][a-z0-9+.-]*:\/\//i.test(a) || /^[\w.-]+@[\w.-]+:/.test(a));
    out.push({ via: name, ...(destination ? { destination } : {}) });
  }
  return out;
}

/** Assembles the facts once `call.shell` and `call.paths` hold what code and written files add. */
export function assembleFacts(call: ToolCall, derived: Derived): CallFacts {
  const reads = readTargets(call).map(pathFact);
  const changed = writeTargets(call).map(pathFact);
  const deletes = changed.filter((t) => t.access === 'delete');
  return {
    reads,
    writes: changed.filter((t) => t.access === 'write'),
    deletes,
    runs: (call.shell?.commands ?? []).map((cmd) => ({
      argv: cmd.argv,
      from: cmd.via.includes('interpreter-code')
        ? 'code'
        : cmd.via.includes('session-file') || cmd.via.includes('write-time')
          ? 'session-file'
          : 'shell',
    })),
    network: [...shellNetwork(call), ...derived.network],
    code: derived.code,
    // What a written file will run is judged for what it does; what cannot be read there is the
    // later call's to ask about, when that call runs it (the session keeps what it wrote).
    unread: call.runsLater ? laterToo(derived.unread) : [...derived.unread, ...unresolvableDeletes(call, deletes)],
  };
}
