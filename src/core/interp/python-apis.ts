// What Python APIs do, by qualified name (after imports and aliases are resolved).
import {
  arg,
  both,
  copyArgs,
  execArg,
  execRest,
  fileArg,
  fileReceiver,
  moveArgs,
  networkArg,
  networkTarget,
  pathOf,
  restFrom,
  envArg,
  type Call,
  type Handler,
} from './calls';
import type { Collector } from './collector';
import { str, UNKNOWN } from './values';

/** os.execv(path, argv): the program is `path`, the rest of argv its arguments. */
function execVector(pathIndex: number): Handler {
  return (call, out) => {
    const argv = arg(call, pathIndex + 1);
    const rest = argv.kind === 'list' ? argv.items.slice(1) : [UNKNOWN];
    out.execArgv(call.api, [arg(call, pathIndex), ...rest]);
  };
}

/** os.execl(path, arg0, arg1, …): arg0 is the program's own name; `trailing` drops an env at the end. */
function execList(pathIndex: number, trailing = 0): Handler {
  return (call, out) => {
    const rest = restFrom(call, pathIndex + 2);
    const args = trailing > 0 && call.spreadAt === undefined ? rest.slice(0, rest.length - trailing) : rest;
    out.execArgv(call.api, [arg(call, pathIndex), ...args]);
  };
}

/**
 * keyring.get_password(service, user) is what the keyring CLI's `keyring get service user` runs: read as
 * that command line, so a stored password read by code is judged as the CLI that prints it is.
 */
const keyringGet: Handler = (call, out) =>
  out.execArgv(call.api, [
    { kind: 'str', text: 'keyring' },
    { kind: 'str', text: 'get' },
    arg(call, 0, 'service_name'),
    arg(call, 1, 'username'),
  ]);

/** Airflow's BashOperator runs its `bash_command` in bash when the task runs (a DAG file is code run later). */
const bashOperator: Handler = (call, out) => {
  const command = call.named.get('bash_command');
  if (command) out.exec(call.api, command);
};

/** Airflow's connection lookups return its stored login, password and URI. */
const airflowConnection: Handler = (call, out) => {
  const id = arg(call, 0, 'conn_id');
  out.secretRead(call.api, `Airflow connection ${id.kind === 'str' ? id.text : '(computed)'}`);
};

/** subprocess.run and friends: a string is a command line, a list an argument vector. */
const subprocessRun: Handler = (call, out) => out.exec(call.api, arg(call, 0, 'args'));

/** runpy.run_path(path): the file's code runs as `python3 path` would run it. */
const runPath: Handler = (call, out) => out.execArgv(call.api, [str('python3'), arg(call, 0, 'path_name')]);

/** open(path, mode): the mode says read or write. */
function openFile(pathIndex: number, modeIndex: number, fromReceiver = false): Handler {
  return (call, out) => {
    const path = fromReceiver ? pathOf(call.receiver ?? UNKNOWN) : pathOf(arg(call, pathIndex, 'file'));
    const mode = arg(call, modeIndex, 'mode');
    const given = call.positional.length > modeIndex || call.named.has('mode');
    if (given && mode.kind !== 'str') {
      out.effect('write', 'open(?)', path);
      return;
    }
    const writes = mode.kind === 'str' && /[wax+]/.test(mode.text);
    out.effect(writes ? 'write' : 'read', writes ? 'open(w)' : 'open(r)', path);
  };
}

function socketConnect(call: Call, out: Collector): void {
  out.effect('network', call.api, networkTarget(arg(call, 0, 'address')));
}

const urlretrieve: Handler = both(networkArg(0, 'url'), fileArg('write', 1, 'filename'));

function pickle(call: Call, out: Collector): void {
  out.giveUp(`${call.api} of data (it can run code)`);
}

const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'];

function httpClient(prefix: string, table: Map<string, Handler>): void {
  for (const method of HTTP_METHODS) table.set(`${prefix}.${method}`, networkArg(0, 'url'));
  table.set(`${prefix}.request`, networkArg(1, 'url'));
  table.set(`${prefix}.stream`, networkArg(1, 'url'));
}

export const PYTHON_APIS = new Map<string, Handler>([
  ['os.system', execArg(0, 'command')],
  ['os.popen', execArg(0, 'cmd')],
  ['subprocess.getoutput', execArg(0, 'cmd')],
  ['subprocess.getstatusoutput', execArg(0, 'cmd')],
  ['commands.getoutput', execArg(0)],
  ['commands.getstatusoutput', execArg(0)],
  ['commands.getstatus', execArg(0)],
  ['subprocess.run', subprocessRun],
  ['subprocess.call', subprocessRun],
  ['subprocess.check_call', subprocessRun],
  ['subprocess.check_output', subprocessRun],
  ['subprocess.Popen', subprocessRun],
  ['asyncio.create_subprocess_shell', execArg(0, 'cmd')],
  ['asyncio.create_subprocess_exec', execRest(0)],
  ['pty.spawn', execArg(0, 'argv')],
  ['runpy.run_path', runPath],
  ['os.execv', execVector(0)],
  ['os.execve', execVector(0)],
  ['os.execvp', execVector(0)],
  ['os.execvpe', execVector(0)],
  ['os.execl', execList(0)],
  ['os.execlp', execList(0)],
  ['os.execle', execList(0, 1)],
  ['os.execlpe', execList(0, 1)],
  ['os.spawnv', execVector(1)],
  ['os.spawnve', execVector(1)],
  ['os.spawnvp', execVector(1)],
  ['os.spawnvpe', execVector(1)],
  ['os.spawnl', execList(1)],
  ['os.spawnlp', execList(1)],
  ['os.spawnle', execList(1, 1)],
  ['os.spawnlpe', execList(1, 1)],
  ['os.posix_spawn', execVector(0)],
  ['os.posix_spawnp', execVector(0)],
  ['open', openFile(0, 1)],
  ['io.open', openFile(0, 1)],
  ['codecs.open', openFile(0, 1)],
  ['os.open', fileArg('read', 0, 'path')],
  ['os.listdir', fileArg('read', 0, 'path')],
  ['shutil.rmtree', fileArg('delete', 0, 'path')],
  ['os.remove', fileArg('delete', 0, 'path')],
  ['os.unlink', fileArg('delete', 0, 'path')],
  ['os.rmdir', fileArg('delete', 0, 'path')],
  ['os.removedirs', fileArg('delete', 0, 'name')],
  ['os.truncate', fileArg('write', 0, 'path')],
  ['os.chmod', fileArg('write', 0, 'path')],
  ['os.chown', fileArg('write', 0, 'path')],
  ['os.mkdir', fileArg('write', 0, 'path')],
  ['os.makedirs', fileArg('write', 0, 'name')],
  ['os.symlink', fileArg('write', 1, 'dst')],
  ['os.link', fileArg('write', 1, 'dst')],
  ['os.rename', moveArgs(0, 1)],
  ['os.replace', moveArgs(0, 1)],
  ['shutil.move', moveArgs(0, 1)],
  ['shutil.copy', copyArgs(0, 1)],
  ['shutil.copy2', copyArgs(0, 1)],
  ['shutil.copyfile', copyArgs(0, 1)],
  ['shutil.copytree', copyArgs(0, 1)],
  ['shutil.chown', fileArg('write', 0, 'path')],
  // Loaders handed a path read that file: an INI file (~/.aws/credentials is one), a netrc (the user's
  // own ~/.netrc when none is named), an SQLite database (a browser's cookies).
  ['configparser.ConfigParser.read', fileArg('read', 0, 'filenames')],
  ['configparser.RawConfigParser.read', fileArg('read', 0, 'filenames')],
  ['netrc.netrc', (call, out) => out.effect('read', call.api, call.positional[0] ?? str('~/.netrc'))],
  ['sqlite3.connect', fileArg('read', 0, 'database')],
  ['pathlib.Path.read_text', fileReceiver('read')],
  ['pathlib.Path.read_bytes', fileReceiver('read')],
  ['pathlib.Path.open', openFile(0, 0, true)],
  ['pathlib.Path.write_text', fileReceiver('write')],
  ['pathlib.Path.write_bytes', fileReceiver('write')],
  ['pathlib.Path.touch', fileReceiver('write')],
  ['pathlib.Path.mkdir', fileReceiver('write')],
  ['pathlib.Path.chmod', fileReceiver('write')],
  ['pathlib.Path.unlink', fileReceiver('delete')],
  ['pathlib.Path.rmdir', fileReceiver('delete')],
  ['pathlib.Path.iterdir', fileReceiver('read')],
  ['pathlib.Path.rename', both(fileReceiver('delete'), fileArg('write', 0, 'target'))],
  ['pathlib.Path.replace', both(fileReceiver('delete'), fileArg('write', 0, 'target'))],
  ['pathlib.Path.symlink_to', fileReceiver('write')],
  ['urllib.request.urlopen', networkArg(0, 'url')],
  ['urllib.request.urlretrieve', urlretrieve],
  ['urllib.urlopen', networkArg(0, 'url')],
  ['urllib.urlretrieve', urlretrieve],
  ['urllib2.urlopen', networkArg(0, 'url')],
  ['http.client.HTTPConnection', networkArg(0, 'host')],
  ['http.client.HTTPSConnection', networkArg(0, 'host')],
  ['httplib.HTTPConnection', networkArg(0, 'host')],
  ['httplib.HTTPSConnection', networkArg(0, 'host')],
  ['ftplib.FTP', networkArg(0, 'host')],
  ['ftplib.FTP_TLS', networkArg(0, 'host')],
  ['smtplib.SMTP', networkArg(0, 'host')],
  ['smtplib.SMTP_SSL', networkArg(0, 'host')],
  ['telnetlib.Telnet', networkArg(0, 'host')],
  ['socket.create_connection', networkArg(0, 'address')],
  ['socket.socket.connect', socketConnect],
  ['socket.socket.connect_ex', socketConnect],
  ['socket.socket.sendto', (call, out) => out.effect('network', call.api, networkTarget(arg(call, 1)))],
  ['os.getenv', envArg(0)],
  ['os.environ.get', envArg(0)],
  ['os.environ.pop', envArg(0)],
  ['os.environ.setdefault', envArg(0)],
  ['os.getenvb', envArg(0)],
  ['airflow.operators.bash.BashOperator', bashOperator],
  ['airflow.operators.bash_operator.BashOperator', bashOperator],
  ['airflow.providers.standard.operators.bash.BashOperator', bashOperator],
  ['airflow.hooks.base.BaseHook.get_connection', airflowConnection],
  ['airflow.hooks.base_hook.BaseHook.get_connection', airflowConnection],
  ['airflow.models.Connection.get_connection_from_secrets', airflowConnection],
  ['airflow.models.connection.Connection.get_connection_from_secrets', airflowConnection],
  ['urllib.request.Request', networkArg(0, 'url')],
  ['keyring.get_password', keyringGet],
  ['keyring.get_credential', keyringGet],
  ['pickle.loads', pickle],
  ['pickle.load', pickle],
  ['marshal.loads', pickle],
  ['shelve.open', pickle],
]);
httpClient('requests', PYTHON_APIS);
httpClient('requests.Session', PYTHON_APIS);
httpClient('httpx', PYTHON_APIS);
httpClient('httpx.Client', PYTHON_APIS);
httpClient('httpx.AsyncClient', PYTHON_APIS);
httpClient('urllib3.PoolManager', PYTHON_APIS);

/** Constructors whose instances have methods in the table above. */
export const PYTHON_CLASSES = new Map<string, string>([
  ['pathlib.Path', 'pathlib.Path'],
  ['configparser.ConfigParser', 'configparser.ConfigParser'],
  ['configparser.RawConfigParser', 'configparser.RawConfigParser'],
  ['pathlib.PosixPath', 'pathlib.Path'],
  ['pathlib.PurePath', 'pathlib.Path'],
  ['socket.socket', 'socket.socket'],
  ['requests.Session', 'requests.Session'],
  ['requests.session', 'requests.Session'],
  ['httpx.Client', 'httpx.Client'],
  ['httpx.AsyncClient', 'httpx.AsyncClient'],
  ['urllib3.PoolManager', 'urllib3.PoolManager'],
  ['urllib.request.Request', 'urllib.request.Request'],
]);

/** Modules whose attributes looked up by a computed name could be anything they hold. */
export const PYTHON_WATCHED_MODULES = [
  'os',
  'subprocess',
  'shutil',
  'builtins',
  '__builtins__',
  'pty',
  'socket',
  'importlib',
  'sys',
  'posix',
  'nt',
  'commands',
  'pathlib',
  'io',
];

export function isWatchedPythonRef(name: string): boolean {
  const root = name.split('.')[0] ?? name;
  return PYTHON_WATCHED_MODULES.includes(root);
}
