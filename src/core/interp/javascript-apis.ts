// What JavaScript APIs (Node, Bun, Deno and a few common packages) do, by qualified name.
import {
  arg,
  copyArgs,
  execArg,
  fileArg,
  fileReceiver,
  moveArgs,
  networkArg,
  networkTarget,
  pathOf,
  restFrom,
  type Call,
  type Handler,
} from './calls';
import type { Collector } from './collector';
import { str, UNKNOWN, type Value } from './values';

function itemsOf(value: Value): Value[] {
  return value.kind === 'list' ? value.items : [UNKNOWN];
}

function field(value: Value, name: string): Value | undefined {
  return value.kind === 'record' ? value.fields.get(name) : undefined;
}

function truthy(value: Value | undefined): boolean | undefined {
  if (!value) return false;
  if (value.kind !== 'str') return undefined;
  return !['false', '0', '', 'null', 'undefined'].includes(value.text);
}

/** execFile(file, [args], [options]) */
const execFile: Handler = (call, out) => {
  const args = arg(call, 1);
  const hasArgs =
    args.kind === 'list' || ((args.kind === 'unknown' || args.kind === 'partial') && call.positional.length >= 2);
  out.execArgv(call.api, [arg(call, 0), ...(hasArgs ? itemsOf(args) : [])]);
};

/** spawn(command, [args], [options]): with `shell`, the words are joined into one command line. */
const spawn: Handler = (call, out) => {
  const second = arg(call, 1);
  const hasArgs =
    second.kind === 'list' || ((second.kind === 'unknown' || second.kind === 'partial') && call.positional.length >= 2);
  const options = hasArgs ? arg(call, 2) : second;
  const words = [arg(call, 0), ...(hasArgs ? itemsOf(second) : [])];
  const optionsGiven = call.positional.length > (hasArgs ? 2 : 1) || call.spreadAt !== undefined;
  // Options that could not be read may hold `shell: true`, which makes the words one command line.
  if (optionsGiven && options.kind !== 'record') words.push(UNKNOWN);
  const shell = truthy(field(options, 'shell'));
  if (shell !== false) {
    const texts = words.map((word) => (word.kind === 'str' ? word.text : undefined));
    out.effect('exec', call.api, texts.every((t) => t !== undefined) ? str(texts.join(' ')) : UNKNOWN);
    return;
  }
  out.execArgv(call.api, words);
};

const fork: Handler = (call, out) => {
  const args = arg(call, 1);
  out.execArgv(call.api, [str('node'), arg(call, 0), ...(args.kind === 'list' ? args.items : [])]);
};

/** Bun.spawn(['ls']) or Bun.spawn({ cmd: ['ls'] }) */
const bunSpawn: Handler = (call, out) => {
  const first = arg(call, 0);
  out.execArgv(call.api, itemsOf(field(first, 'cmd') ?? first));
};

/** new Deno.Command(cmd, { args }) */
const denoCommand: Handler = (call, out) => {
  const options = arg(call, 1);
  const args =
    options.kind === 'record' ? options.fields.get('args') : call.positional.length > 1 ? UNKNOWN : undefined;
  out.execArgv(call.api, [arg(call, 0), ...(args ? itemsOf(args) : [])]);
};

const denoRun: Handler = (call, out) => out.execArgv(call.api, itemsOf(field(arg(call, 0), 'cmd') ?? UNKNOWN));

/** fs.open(path, flags): the flags say read or write. */
const openFile: Handler = (call, out) => {
  const flags = arg(call, 1);
  const given = call.positional.length > 1;
  const writes = !given ? false : flags.kind !== 'str' || /[wa+]/.test(flags.text);
  out.effect(writes ? 'write' : 'read', call.api, pathOf(arg(call, 0)));
};

/** shelljs rm('-rf', a, b): every word that is not an option is a path removed. */
const shellRm: Handler = (call, out) => {
  for (const word of restFrom(call, 0)) {
    if (word.kind === 'str' && word.text.startsWith('-')) continue;
    out.effect('delete', call.api, word.kind === 'list' ? UNKNOWN : word);
  }
};

/** net.connect(port, host), net.connect({ host, port }) or net.connect(path) */
const socketConnect: Handler = (call, out) => {
  const first = arg(call, 0);
  if (first.kind === 'str' && /^\d+$/.test(first.text)) {
    const host = call.positional.length > 1 ? arg(call, 1) : str('localhost');
    out.effect('network', call.api, host.kind === 'str' ? str(`${host.text}:${first.text}`) : UNKNOWN);
    return;
  }
  out.effect('network', call.api, networkTarget(first));
};

function evaluateLast(call: Call, out: Collector): void {
  const code = call.spreadAt !== undefined ? UNKNOWN : (call.positional[call.positional.length - 1] ?? str(''));
  out.evaluate('javascript', code, 'Function');
}

function evaluateFirst(what: string): Handler {
  return (call, out) => out.evaluate('javascript', arg(call, 0), what);
}

/** setTimeout('code', …) evaluates a string; a function is ordinary. */
const timer: Handler = (call, out) => {
  const first = arg(call, 0);
  if (first.kind === 'str') out.evaluate('javascript', first, call.api);
};

const nativeBinding: Handler = (call, out) => out.giveUp(`native code through ${call.api}`);

const FS_READ = [
  'readFile',
  'readFileSync',
  'createReadStream',
  'readdir',
  'readdirSync',
  'readlink',
  'readlinkSync',
  'opendir',
  'opendirSync',
  'readJson',
  'readJsonSync',
];
const FS_WRITE = [
  'writeFile',
  'writeFileSync',
  'appendFile',
  'appendFileSync',
  'createWriteStream',
  'mkdir',
  'mkdirSync',
  'chmod',
  'chmodSync',
  'chown',
  'chownSync',
  'truncate',
  'truncateSync',
  'utimes',
  'utimesSync',
  'outputFile',
  'outputFileSync',
  'writeJson',
  'writeJsonSync',
  'mkdirp',
  'ensureDir',
];
const FS_DELETE = [
  'rm',
  'rmSync',
  'rmdir',
  'rmdirSync',
  'unlink',
  'unlinkSync',
  'remove',
  'removeSync',
  'emptyDir',
  'emptyDirSync',
];
const FS_COPY = ['copyFile', 'copyFileSync', 'cp', 'cpSync', 'copy', 'copySync'];
const FS_MOVE = ['rename', 'renameSync', 'move', 'moveSync'];
const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'request'];

export const JAVASCRIPT_APIS = new Map<string, Handler>([
  ['child_process.exec', execArg(0)],
  ['child_process.execSync', execArg(0)],
  ['child_process.execFile', execFile],
  ['child_process.execFileSync', execFile],
  ['child_process.spawn', spawn],
  ['child_process.spawnSync', spawn],
  ['child_process.fork', fork],
  ['Bun.spawn', bunSpawn],
  ['Bun.spawnSync', bunSpawn],
  ['Deno.Command', denoCommand],
  ['Deno.run', denoRun],
  ['execa', execFile],
  ['execa.execa', execFile],
  ['execa.execaSync', execFile],
  ['execa.execaCommand', execArg(0)],
  ['execa.execaCommandSync', execArg(0)],
  ['shelljs.exec', execArg(0)],
  ['shelljs.rm', shellRm],
  ['fs.open', openFile],
  ['fs.openSync', openFile],
  ['fs.symlink', fileArg('write', 1)],
  ['fs.symlinkSync', fileArg('write', 1)],
  ['Bun.file.text', fileReceiver('read')],
  ['Bun.file.json', fileReceiver('read')],
  ['Bun.file.arrayBuffer', fileReceiver('read')],
  ['Bun.file.bytes', fileReceiver('read')],
  ['Bun.file.stream', fileReceiver('read')],
  ['Bun.file.delete', fileReceiver('delete')],
  ['Bun.file.write', fileReceiver('write')],
  ['Bun.write', fileArg('write', 0)],
  ['Deno.readTextFile', fileArg('read', 0)],
  ['Deno.readTextFileSync', fileArg('read', 0)],
  ['Deno.readFile', fileArg('read', 0)],
  ['Deno.readFileSync', fileArg('read', 0)],
  ['Deno.writeTextFile', fileArg('write', 0)],
  ['Deno.writeTextFileSync', fileArg('write', 0)],
  ['Deno.writeFile', fileArg('write', 0)],
  ['Deno.writeFileSync', fileArg('write', 0)],
  ['Deno.remove', fileArg('delete', 0)],
  ['Deno.removeSync', fileArg('delete', 0)],
  ['fetch', networkArg(0)],
  ['node-fetch', networkArg(0)],
  ['undici.fetch', networkArg(0)],
  ['undici.request', networkArg(0)],
  ['axios', (call, out) => out.effect('network', call.api, networkTarget(field(arg(call, 0), 'url') ?? arg(call, 0)))],
  ['WebSocket', networkArg(0)],
  ['ws', networkArg(0)],
  ['EventSource', networkArg(0)],
  ['http.request', networkArg(0)],
  ['http.get', networkArg(0)],
  ['https.request', networkArg(0)],
  ['https.get', networkArg(0)],
  ['http2.connect', networkArg(0)],
  ['net.connect', socketConnect],
  ['net.createConnection', socketConnect],
  ['tls.connect', socketConnect],
  ['Deno.connect', socketConnect],
  ['Bun.connect', socketConnect],
  ['Deno.env.get', (call, out) => out.envRead(call.api, arg(call, 0))],
  ['Deno.env.toObject', (call, out) => out.wholeEnvironment(call.api)],
  ['eval', evaluateFirst('eval')],
  ['Function', evaluateLast],
  ['AsyncFunction', evaluateLast],
  ['vm.runInThisContext', evaluateFirst('vm')],
  ['vm.runInNewContext', evaluateFirst('vm')],
  ['vm.runInContext', evaluateFirst('vm')],
  ['vm.Script', evaluateFirst('vm')],
  ['vm.compileFunction', evaluateFirst('vm')],
  ['setTimeout', timer],
  ['setInterval', timer],
  ['setImmediate', timer],
  ['process.binding', nativeBinding],
  ['process._linkedBinding', nativeBinding],
  ['process.dlopen', nativeBinding],
  [
    'worker_threads.Worker',
    (call, out) => {
      if (truthy(field(arg(call, 1), 'eval')) !== false) out.evaluate('javascript', arg(call, 0), 'Worker');
    },
  ],
]);
/** A number in place of a path is a file descriptor already open (0 is standard input): no new file. */
function unlessDescriptor(handler: Handler): Handler {
  return (call, out) => {
    const first = arg(call, 0);
    if (first.kind === 'str' && /^\d+$/.test(first.text)) return;
    handler(call, out);
  };
}

for (const name of FS_READ) JAVASCRIPT_APIS.set(`fs.${name}`, unlessDescriptor(fileArg('read', 0)));
for (const name of FS_WRITE) JAVASCRIPT_APIS.set(`fs.${name}`, unlessDescriptor(fileArg('write', 0)));
for (const name of FS_DELETE) JAVASCRIPT_APIS.set(`fs.${name}`, fileArg('delete', 0));
for (const name of FS_COPY) JAVASCRIPT_APIS.set(`fs.${name}`, copyArgs(0, 1));
for (const name of FS_MOVE) JAVASCRIPT_APIS.set(`fs.${name}`, moveArgs(0, 1));
for (const method of HTTP_METHODS) JAVASCRIPT_APIS.set(`axios.${method}`, networkArg(0));
JAVASCRIPT_APIS.set('axios.request', (call, out) =>
  out.effect('network', call.api, networkTarget(field(arg(call, 0), 'url') ?? arg(call, 0))),
);

/** Tags of template literals that run their text as a shell command. */
export const SHELL_TAGS = new Set(['Bun.$', 'bun.$', 'zx.$', 'execa.$', '$']);

/** Constructors whose instances have methods in the table above. */
export const JAVASCRIPT_CLASSES = new Set(['Bun.file']);

/** Module names as written in require/import, to the names the tables use. */
export function moduleName(specifier: string): string {
  let name = specifier.startsWith('node:') ? specifier.slice(5) : specifier;
  if (name === 'fs-extra' || name === 'graceful-fs' || name === 'fs/promises')
    name = name === 'fs/promises' ? 'fs.promises' : 'fs';
  if (name === 'child_process/promises') name = 'child_process';
  return name.replace(/\//g, '.');
}

/** The table's name for an API: fs.promises.readFile reads as fs.readFile. */
export function tableName(api: string): string {
  return api.replace(/^fs\.promises\./, 'fs.').replace(/^(globalThis|global|window|self)\./, '');
}

/** Names whose members looked up by a computed key could be anything they hold. */
const WATCHED_ROOTS = new Set([
  'child_process',
  'fs',
  'process',
  'globalThis',
  'global',
  'window',
  'self',
  'Bun',
  'Deno',
  'vm',
  'http',
  'https',
  'net',
  'require',
  'module',
  'execa',
  'shelljs',
  'Reflect',
]);

export function isWatchedJavaScriptRef(name: string): boolean {
  return WATCHED_ROOTS.has(name.split('.')[0] ?? name);
}

/** Unbound names that stand for the global object. */
export const GLOBAL_OBJECTS = new Set(['globalThis', 'global', 'window', 'self']);
