// Elixir and Erlang code given on the command line: `elixir -e`, `iex -e`, `mix run -e`, `erl -eval`, a
// release's `bin/APP eval|rpc` (code run inside the live system), and the VM flags that evaluate code
// (`ERL_AFLAGS='-eval …'`, `elixir --erl "-eval …"`). No reader here follows either language. Calls into the
// project's own modules are the project's code, as `mix test` runs it; what is read here is what reaches
// outside the VM: a shell, code evaluated from a string, the network, mail, files written or removed, files
// read from outside the project, and bulk changes to the database. Any of those leaves the code unread, and a
// person decides. This is a list of known capabilities, not a reader: harm written without them passes, as it
// does in the project's own modules.
import { argsOf, evidenceOf } from './commands';
import type { SimpleCommand } from '../shell';
import { trimEndChars } from '../text/scan';

/** Calls that reach a shell, evaluate code, the network, mail or another node, or change files. */
const REACHES_OUT: readonly string[] = [
  // A shell or a port program.
  ...['System.cmd', 'System.shell', ':os.cmd', 'os:cmd', 'Port.open', 'open_port', ':os.putenv', 'System.put_env'],
  // Code evaluated from a string or a file, or loaded as a binary; packages installed for the script.
  ...['Code.eval', 'Code.compile', 'Code.require_file', 'erl_eval', ':code.load', 'code:load', 'Mix.install'],
  // The network, mail, and other nodes.
  ...['Req.', ':httpc', 'httpc:', 'HTTPoison.', 'Finch.', 'Tesla.', 'Mint.', 'gen_tcp', 'gen_udp', ':ssl.', 'ssl:'],
  ...['Swoosh.', 'Mailer.deliver', 'Bamboo.', 'ExAws', ':ftp', 'ftp:', ':ssh', 'ssh:', 'inet_res', 'Node.connect'],
  ...['Node.spawn', ':rpc.', 'rpc:', ':erpc', 'erpc:'],
  // Files written, copied, moved or removed.
  ...['File.write', 'File.rm', 'File.cp', 'File.rename', 'File.ln', 'File.chmod', 'File.mkdir', 'File.touch'],
  ...[':file.write', 'file:write', ':file.delete', 'file:delete', 'del_dir', ':file.rename', 'file:rename'],
  // The whole environment at once, and bulk changes to the database.
  ...['System.get_env()', 'Repo.delete', 'Repo.update_all', 'Repo.insert_all', 'Repo.query', 'SQL.query'],
];
/** Reads of files, which reach outside the project when the path is the home's or absolute. */
const FILE_READS: readonly string[] = ['File.read', 'File.stream', 'File.open', ':file.read', 'file:read', 'File.ls'];
const OUTSIDE_PATH_MARKS: readonly string[] = ['Path.expand', 'user_home', '"~', '"/', "'~", "'/", '".env', '~c"/'];
/** The application's config as the live system holds it: a release's database URL and keys. */
const LIVE_CONFIG: readonly string[] = ['Application.get_env', 'Application.fetch_env', 'Application.get_all_env'];

/** What a piece of Elixir or Erlang code reaches outside the VM with, or null. */
function reachOf(code: string, live: boolean): string | null {
  const reach = REACHES_OUT.find((mark) => code.includes(mark));
  if (reach !== undefined) return trimEndChars(reach, '.:()');
  // Migrations run down: every table they made is dropped.
  if (code.includes('Ecto.Migrator') && code.includes(':down')) return 'Ecto.Migrator … :down';
  const read = FILE_READS.find((mark) => code.includes(mark));
  if (read !== undefined && OUTSIDE_PATH_MARKS.some((mark) => code.includes(mark)))
    return `${read} outside the project`;
  if (live) return LIVE_CONFIG.find((mark) => code.includes(mark)) ?? null;
  return null;
}

/** The value after a single-dash option (`erl -eval CODE`), each time it is given. */
function valuesAfter(args: readonly string[], option: string): string[] {
  return args.flatMap((word, at) => (word === option && args[at + 1] !== undefined ? [args[at + 1]!] : []));
}

// The VM's flags, from the environment or `--erl`: -eval evaluates its expression, -s and -run call a function.
const VM_FLAG_VARIABLES = ['ERL_AFLAGS', 'ERL_FLAGS', 'ERL_ZFLAGS', 'ELIXIR_ERL_OPTIONS'];
const EVALUATING_FLAG = /(?:^|\s)-(?:eval|s|run)\s/;

/** `bin/APP eval CODE`, `bin/APP rpc CODE`: a release's script, run against the live system. */
function releaseCode(cmd: SimpleCommand, args: readonly string[]): string | undefined {
  const program = cmd.argv[0] ?? '';
  if (!/(?:^|\/)bin\/[\w.-]+$/.test(program) || !['eval', 'rpc'].includes(args[0] ?? '')) return undefined;
  return args[1];
}

interface BeamCode {
  code: string;
  shown: string;
  live: boolean;
}

function beamCodesOf(cmd: SimpleCommand): BeamCode[] {
  const name = cmd.name.toLowerCase();
  const args = argsOf(cmd);
  const codes: BeamCode[] = [];
  if (name === 'elixir' || name === 'iex')
    for (const option of ['-e', '--eval'])
      codes.push(...valuesAfter(args, option).map((code) => ({ code, shown: name, live: false })));
  if (name === 'mix' && args[0] === 'run')
    for (const option of ['-e', '--eval'])
      codes.push(...valuesAfter(args, option).map((code) => ({ code, shown: 'mix run', live: false })));
  if (name === 'erl')
    codes.push(...valuesAfter(args, '-eval').map((code) => ({ code, shown: 'erl -eval', live: false })));
  if (['elixir', 'iex', 'elixirc', 'mix'].includes(name))
    codes.push(...valuesAfter(args, '--erl').map((code) => ({ code, shown: `${name} --erl`, live: false })));
  for (const variable of VM_FLAG_VARIABLES) {
    const value = cmd.assignments[variable];
    if (value !== undefined) codes.push({ code: value, shown: variable, live: false });
  }
  const release = releaseCode(cmd, args);
  if (release !== undefined) codes.push({ code: release, shown: `${cmd.argv[0]} ${args[0]}`, live: true });
  return codes;
}

/** What Elixir or Erlang code on this command line reaches outside the VM with (see above), or null. */
export function unreadBeamCode(cmd: SimpleCommand): string | null {
  for (const { code, shown, live } of beamCodesOf(cmd)) {
    const flagged = VM_FLAG_VARIABLES.includes(shown) || shown.endsWith('--erl');
    // A VM flag that evaluates code hides a program in the environment of every VM the command starts.
    if (flagged && EVALUATING_FLAG.test(` ${code} `))
      return `${shown} makes the Erlang VM evaluate code as it starts (${evidenceOf(code, 60)}), which Warden has no reader for`;
    const reach = reachOf(code, live);
    if (reach !== null)
      return `${shown} runs ${live ? 'code inside the live release' : 'Elixir or Erlang code'} Warden has no reader for (${evidenceOf(code, 60)}), with ${reach}`;
  }
  return null;
}
