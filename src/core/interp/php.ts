// Reads PHP code (with or without its opening tag): resolves variables holding literals, then
// reports what each function call, backtick command and include does.
import type { SyntaxNode } from '../shell/nodes';
import { Bindings } from './bindings';
import { arg, execArg, fileArg, moveArgs, networkArg, restFrom, type Call, type Handler } from './calls';
import type { Collector } from './collector';
import { parseCode } from './parse';
import { charactersOf, concat, interpolated, RUN_TIME_PART, str, textOf, UNKNOWN, type Value } from './values';
import { walk } from './walk';

const URL_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
const STANDARD_STREAMS = /^php:\/\/(stdin|stdout|stderr|input|output|memory|temp)/i;
const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  v: '\v',
  f: '\f',
  e: '\x1b',
  '0': '\0',
  '\\': '\\',
  $: '$',
  '"': '"',
};
const ENVIRONMENTS = new Set(['_ENV', '_SERVER']);
const CALLBACK_TAKERS = new Set([
  'call_user_func',
  'call_user_func_array',
  'array_map',
  'array_walk',
  'array_filter',
  'usort',
  'register_shutdown_function',
  'forward_static_call',
  'forward_static_call_array',
]);

/** A path, a URL (network) or a standard stream (nothing to report). */
function pathOrUrl(kind: 'read' | 'write', index: number): Handler {
  return (call, out) => {
    const target = arg(call, index);
    // A URL with a value appended at run time (`'https://host/?k=' . $key`) still names its host.
    const text = target.kind === 'partial' ? target.text : textOf(target);
    if (text !== undefined && STANDARD_STREAMS.test(text)) return;
    if (text !== undefined && URL_SCHEME.test(text) && !text.toLowerCase().startsWith('file://')) {
      out.effect('network', call.api, target);
      return;
    }
    out.effect(kind, call.api, target);
  };
}

/** copy() takes a URL as its source too (with allow_url_fopen, PHP's default): that copy is a download. */
const copyFromPathOrUrl: Handler = (call, out) => {
  pathOrUrl('read', 0)(call, out);
  out.effect('write', call.api, arg(call, 1));
};

const fopen: Handler = (call, out) => {
  const mode = arg(call, 1);
  const writes = mode.kind !== 'str' || /[waxc+]/.test(mode.text);
  pathOrUrl(writes ? 'write' : 'read', 0)(call, out);
};

/** proc_open takes a command line or (PHP 7.4+) an argument vector. */
const procOpen: Handler = (call, out) => out.exec(call.api, arg(call, 0));

const pcntlExec: Handler = (call, out) => {
  const args = arg(call, 1);
  out.execArgv(call.api, [
    arg(call, 0),
    ...(args.kind === 'list' ? args.items : call.positional.length > 1 ? [UNKNOWN] : []),
  ]);
};

const curlSetopt: Handler = (call, out) => {
  const option = call.positional[1];
  if (option?.kind === 'ref' && option.name === 'CURLOPT_URL') out.effect('network', 'curl', arg(call, 2));
};

const curlInit: Handler = (call, out) => {
  if (call.positional.length > 0) out.effect('network', 'curl', arg(call, 0));
};

const socketConnect: Handler = (call, out) => {
  const host = arg(call, 1);
  const port = arg(call, 2);
  out.effect('network', call.api, host.kind === 'str' && port.kind === 'str' ? str(`${host.text}:${port.text}`) : host);
};

const hostPort: Handler = (call, out) => {
  const host = arg(call, 0);
  const port = arg(call, 1);
  out.effect('network', call.api, host.kind === 'str' && port.kind === 'str' ? str(`${host.text}:${port.text}`) : host);
};

const getenv: Handler = (call, out) => {
  if (call.positional.length === 0) out.wholeEnvironment(call.api);
  else out.envRead(call.api, arg(call, 0));
};

function evaluate(what: string, index: number): Handler {
  return (call, out) => out.evaluate('php', arg(call, index), what);
}

const PHP_APIS = new Map<string, Handler>([
  ['system', execArg(0)],
  ['exec', execArg(0)],
  ['shell_exec', execArg(0)],
  ['passthru', execArg(0)],
  ['popen', execArg(0)],
  ['proc_open', procOpen],
  ['expect_popen', execArg(0)],
  ['pcntl_exec', pcntlExec],
  ['file_get_contents', pathOrUrl('read', 0)],
  ['file', pathOrUrl('read', 0)],
  ['readfile', pathOrUrl('read', 0)],
  ['fopen', fopen],
  ['parse_ini_file', fileArg('read', 0)],
  ['highlight_file', fileArg('read', 0)],
  ['show_source', fileArg('read', 0)],
  ['scandir', fileArg('read', 0)],
  ['opendir', fileArg('read', 0)],
  ['file_put_contents', pathOrUrl('write', 0)],
  ['mkdir', fileArg('write', 0)],
  ['touch', fileArg('write', 0)],
  ['chmod', fileArg('write', 0)],
  ['chown', fileArg('write', 0)],
  ['symlink', fileArg('write', 1)],
  ['link', fileArg('write', 1)],
  ['copy', copyFromPathOrUrl],
  ['rename', moveArgs(0, 1)],
  ['move_uploaded_file', moveArgs(0, 1)],
  ['unlink', fileArg('delete', 0)],
  ['rmdir', fileArg('delete', 0)],
  ['curl_init', curlInit],
  ['curl_setopt', curlSetopt],
  ['fsockopen', hostPort],
  ['pfsockopen', hostPort],
  ['stream_socket_client', networkArg(0)],
  ['socket_connect', socketConnect],
  ['get_headers', networkArg(0)],
  ['ftp_connect', networkArg(0)],
  ['ftp_ssl_connect', networkArg(0)],
  ['getenv', getenv],
  // Laravel's env() reads the environment (and .env) by name.
  ['env', (call, out) => out.envRead('env', arg(call, 0))],
  ['eval', evaluate('eval', 0)],
  [
    'assert',
    (call, out) => {
      const first = arg(call, 0);
      if (first.kind === 'str') out.evaluate('php', first, 'assert');
    },
  ],
  ['create_function', evaluate('create_function', 1)],
  ['unserialize', (call, out) => out.giveUp('unserialize of data (it can run code)')],
  ['dl', (call, out) => out.giveUp('native code through dl')],
  ['ffi::cdef', (call, out) => out.giveUp('native code through FFI')],
]);

// Laravel's facades (`Http::timeout(3)->post(…)`, `Process::run(…)`, `Schedule::exec(…)`): the methods that
// reach a host or run a command, by the facade the call chain starts from.
const HTTP_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head']);
const FACADE_METHODS: Record<string, (method: string) => 'network' | 'exec' | undefined> = {
  http: (method) => (HTTP_METHODS.has(method) ? 'network' : undefined),
  process: (method) => (method === 'run' || method === 'start' ? 'exec' : undefined),
  schedule: (method) => (method === 'exec' ? 'exec' : undefined),
};

/** Laravel's path helpers, as the project-relative folder each names. */
const PATH_HELPERS: Record<string, string> = {
  base_path: '',
  app_path: 'app/',
  config_path: 'config/',
  database_path: 'database/',
  storage_path: 'storage/',
  resource_path: 'resources/',
  public_path: 'public/',
  lang_path: 'lang/',
};

export function readPhp(code: string, out: Collector): void {
  // `php -r` code has no opening tag; the grammar reads text outside tags as output.
  const tagged = /^\s*<\?(php|=)?/i.test(code) || code.includes('<?php');
  const prefix = tagged ? '' : '<?php ';
  const parsed = parseCode('php', prefix + code, out.deadline);
  if (!parsed) {
    out.giveUp('ran out of time parsing');
    return;
  }
  if (parsed.hasError) out.giveUp('parse error');
  new PhpReader(out).read(parsed.root);
}

function functionName(node: SyntaxNode): string {
  const text = node.type === 'qualified_name' ? (node.childForFieldName('name')?.text ?? node.text) : node.text;
  return text.replace(/^\\+/, '').toLowerCase();
}

class PhpReader {
  private readonly bindings = new Bindings<SyntaxNode>();
  /** Files this code copies from a URL: including one runs code nobody has read. */
  private readonly downloaded = new Set<string>();

  constructor(private readonly out: Collector) {}

  read(root: SyntaxNode): void {
    walk(root, (node) => this.bind(node));
    walk(root, (node) => this.visit(node));
  }

  private bind(node: SyntaxNode): void {
    if (node.type === 'assignment_expression') {
      const left = node.childForFieldName('left');
      const right = node.childForFieldName('right');
      if (left?.type === 'variable_name' && right) this.bindings.assign(left.text, right);
      else if (left) this.bindOther(left, true);
      return;
    }
    if (node.type === 'augmented_assignment_expression' || node.type === 'reference_assignment_expression') {
      const left = node.childForFieldName('left');
      if (left) this.bindOther(left, false);
      return;
    }
    if (
      node.type === 'foreach_statement' ||
      node.type === 'formal_parameters' ||
      node.type === 'global_declaration' ||
      node.type === 'static_variable_declaration' ||
      node.type === 'catch_clause' ||
      node.type === 'anonymous_function_use_clause'
    ) {
      for (const variable of node.descendantsOfType(['variable_name'])) {
        if (node.type === 'foreach_statement' && variable === node.namedChildren[0]) continue;
        this.bindings.other(variable.text);
      }
      return;
    }
    if (node.type === 'update_expression') {
      for (const variable of node.descendantsOfType(['variable_name'])) this.bindings.other(variable.text);
    }
  }

  private bindOther(target: SyntaxNode, elementsMutate: boolean): void {
    if (target.type === 'subscript_expression' || target.type === 'member_access_expression') {
      const base = target.namedChildren[0];
      if (base?.type === 'variable_name') {
        if (elementsMutate) this.bindings.mutate(base.text);
        else this.bindings.other(base.text);
      }
      return;
    }
    for (const variable of target.type === 'variable_name' ? [target] : target.descendantsOfType(['variable_name'])) {
      this.bindings.other(variable.text);
    }
  }

  resolve(node: SyntaxNode | undefined): Value {
    if (!node) return UNKNOWN;
    switch (node.type) {
      case 'string':
      case 'encapsed_string':
      case 'heredoc':
      case 'nowdoc':
        return this.stringValue(node);
      case 'integer':
      case 'boolean':
      case 'null':
        return str(node.text);
      case 'variable_name':
        return this.bindings.lookup(node.text, (value) => this.resolve(value)) ?? UNKNOWN;
      case 'name':
      case 'qualified_name':
        return { kind: 'ref', name: node.text };
      case 'parenthesized_expression':
      case 'argument':
        return this.resolve(node.namedChildren[node.namedChildren.length - 1]);
      case 'binary_expression':
        return node.childForFieldName('operator')?.text === '.'
          ? concat([this.resolve(node.childForFieldName('left')), this.resolve(node.childForFieldName('right'))])
          : UNKNOWN;
      case 'array_creation_expression':
        return {
          kind: 'list',
          items: node.namedChildren
            .filter((item) => item.type === 'array_element_initializer')
            .map((item) => (item.namedChildren.length === 1 ? this.resolve(item.namedChildren[0]) : UNKNOWN)),
        };
      case 'function_call_expression': {
        const fn = node.childForFieldName('function');
        const name = fn && (fn.type === 'name' || fn.type === 'qualified_name') ? functionName(fn) : '';
        const args = this.argumentsOf(node, name);
        if (name === 'implode' || name === 'join') {
          const separator = textOf(args.positional[0]);
          const list = args.positional[1];
          if (separator === undefined || list?.kind !== 'list') return UNKNOWN;
          return concat(list.items.flatMap((item, index) => (index === 0 ? [item] : [str(separator), item])));
        }
        if (name === 'getenv' && textOf(args.positional[0]) === 'HOME') return str('~');
        if (Object.hasOwn(PATH_HELPERS, name)) {
          const folder = PATH_HELPERS[name] as string;
          if (args.positional.length === 0) return str(folder === '' ? '.' : folder.slice(0, -1));
          const rest = args.positional[0] as Value;
          return rest.kind === 'str' ? str(folder + rest.text.replace(/^\/+/, '')) : UNKNOWN;
        }
        // Text decoded from a literal: a command spelled in hex, base64, rot13 or backwards reads as itself.
        const decoded = decodedLiteral(name, args.positional[0]);
        if (decoded !== undefined) return decoded;
        // `chr(99)`, `array_map('chr', [99, 117, …])`: text spelled out as character codes.
        if (name === 'chr') return charactersOf(args.positional.slice(0, 1));
        if (name === 'array_map' && textOf(args.positional[0]) === 'chr' && args.positional[1]?.kind === 'list')
          return { kind: 'list', items: args.positional[1].items.map((item) => charactersOf([item])) };
        return UNKNOWN;
      }
      default:
        return UNKNOWN;
    }
  }

  private stringValue(node: SyntaxNode): Value {
    const single = node.type === 'string' || node.type === 'nowdoc';
    let text = '';
    let runTime = false;
    for (const part of node.descendantsOfType(
      [
        'string_content',
        'escape_sequence',
        'nowdoc_string',
        'variable_name',
        'dynamic_variable_name',
        'subscript_expression',
        'member_access_expression',
        'function_call_expression',
      ],
      true,
    )) {
      if (part.type === 'string_content' || part.type === 'nowdoc_string') text += part.text;
      else if (part.type === 'escape_sequence') {
        if (single) text += part.text === "\\'" ? "'" : part.text === '\\\\' ? '\\' : part.text;
        else {
          const decoded = decodeEscape(part.text);
          if (decoded === undefined) return UNKNOWN;
          text += decoded;
        }
      } else {
        // "…$var…", "{$obj->x}": a value interpolated at run time.
        text += RUN_TIME_PART;
        runTime = true;
      }
    }
    return interpolated(text, runTime);
  }

  private argumentsOf(node: SyntaxNode, api: string): Call {
    const call: Call = { api, positional: [], named: new Map(), namedSpread: false };
    for (const item of node.childForFieldName('arguments')?.namedChildren ?? []) {
      if (item.type !== 'argument') continue;
      if (item.children.some((c) => c.type === '...')) call.spreadAt ??= call.positional.length;
      else call.positional.push(this.resolve(item));
    }
    return call;
  }

  private visit(node: SyntaxNode): void {
    switch (node.type) {
      case 'function_call_expression':
        this.visitCall(node);
        return;
      case 'scoped_call_expression':
      case 'member_call_expression':
        this.visitFacadeCall(node);
        return;
      case 'shell_command_expression':
        this.out.exec('backticks', this.stringValue(node));
        return;
      case 'include_expression':
      case 'include_once_expression':
      case 'require_expression':
      case 'require_once_expression': {
        const path = this.resolve(node.namedChildren[0]);
        if (path.kind === 'str' && this.downloaded.has(path.text))
          this.out.giveUp(`include of ${path.text}, which this code downloads`);
        else if (path.kind === 'str') this.out.effect('read', node.type.replace('_expression', ''), path);
        else this.out.giveUp('include of a computed path');
        return;
      }
      case 'subscript_expression':
        this.visitEnvironment(node);
        return;
      case 'variable_name':
        // `$_ENV` handed on whole (an argument, an array's value, a foreach): not `$_ENV['X']`.
        if (ENVIRONMENTS.has(node.text.slice(1)) && node.parent?.type !== 'subscript_expression') {
          this.out.wholeEnvironment(`$${node.text.slice(1)}`);
        }
    }
  }

  private visitCall(node: SyntaxNode): void {
    const fn = node.childForFieldName('function');
    if (!fn) return;
    let name: string;
    if (fn.type === 'name' || fn.type === 'qualified_name') name = functionName(fn);
    else {
      const value = this.resolve(fn);
      if (value.kind !== 'str') {
        if (fn.type !== 'anonymous_function' && fn.type !== 'arrow_function')
          this.out.giveUp('call of a computed function name');
        return;
      }
      name = value.text.replace(/^\\+/, '').toLowerCase();
    }
    const call = this.argumentsOf(node, name);
    if (CALLBACK_TAKERS.has(name)) {
      const index = name === 'array_walk' || name === 'array_filter' || name === 'usort' ? 1 : 0;
      const callback = arg(call, index);
      const target = textOf(callback)?.replace(/^\\+/, '').toLowerCase();
      if (callback.kind === 'str' && target && PHP_APIS.has(target)) {
        const inner: Call = {
          api: target,
          positional: name === 'call_user_func' ? restFrom(call, 1) : [UNKNOWN],
          named: new Map(),
          namedSpread: false,
        };
        (PHP_APIS.get(target) as Handler)(inner, this.out);
      } else if (callback.kind === 'unknown' && (name === 'call_user_func' || name === 'call_user_func_array')) {
        this.out.giveUp('call of a computed function name');
      }
      return;
    }
    PHP_APIS.get(name)?.(call, this.out);
    if (name === 'copy') this.noteDownload(call);
  }

  /** `copy('https://…', 'x.php')`: a file from the network, which an include then runs. */
  private noteDownload(call: Call): void {
    const source = textOf(arg(call, 0));
    const target = textOf(arg(call, 1));
    if (source !== undefined && target !== undefined && URL_SCHEME.test(source) && !/^file:/i.test(source))
      this.downloaded.add(target);
  }

  private visitFacadeCall(node: SyntaxNode): void {
    const method = node.childForFieldName('name')?.text.toLowerCase() ?? '';
    let root = node;
    while (root.type === 'member_call_expression') root = root.childForFieldName('object') ?? root;
    if (root.type !== 'scoped_call_expression') return;
    const facade =
      functionName(root.childForFieldName('scope') ?? root)
        .split('\\')
        .pop() ?? '';
    const effect = Object.hasOwn(FACADE_METHODS, facade) ? FACADE_METHODS[facade]!(method) : undefined;
    if (!effect) return;
    const call = this.argumentsOf(node, `${facade}::${method}`);
    if (effect === 'exec') this.out.exec(call.api, arg(call, 0));
    else this.out.effect('network', call.api, arg(call, 0));
  }

  private visitEnvironment(node: SyntaxNode): void {
    const base = node.namedChildren[0];
    if (base?.type !== 'variable_name' || !ENVIRONMENTS.has(base.text.slice(1))) return;
    if (node.parent?.type === 'assignment_expression' && node.field === 'left') return;
    this.out.envRead(`$${base.text.slice(1)}`, this.resolve(node.namedChildren[1]));
  }
}

/** hex2bin, base64_decode, str_rot13 or strrev of a literal, as the text it gives; undefined otherwise. */
function decodedLiteral(name: string, argument: Value | undefined): Value | undefined {
  if (argument?.kind !== 'str') return undefined;
  const text = argument.text;
  switch (name) {
    case 'hex2bin':
      return /^([0-9a-fA-F]{2})*$/.test(text) ? str(Buffer.from(text, 'hex').toString('latin1')) : undefined;
    case 'base64_decode':
      return /^[A-Za-z0-9+/]*={0,2}$/.test(text.replace(/\s+/g, ''))
        ? str(Buffer.from(text, 'base64').toString('latin1'))
        : undefined;
    case 'str_rot13':
      return str(text.replace(/[a-z]/gi, (c) => rot13(c)));
    case 'strrev':
      return str([...text].reverse().join(''));
    default:
      return undefined;
  }
}

function rot13(letter: string): string {
  const base = letter <= 'Z' ? 65 : 97;
  return String.fromCharCode(((letter.charCodeAt(0) - base + 13) % 26) + base);
}

function decodeEscape(escape: string): string | undefined {
  const body = escape.slice(1);
  const simple = ESCAPES[body];
  if (simple !== undefined) return simple;
  if (/^x[0-9a-fA-F]{1,2}$/.test(body)) return String.fromCharCode(parseInt(body.slice(1), 16));
  if (/^[0-7]{1,3}$/.test(body)) return String.fromCharCode(parseInt(body, 8));
  if (/^u\{[0-9a-fA-F]{1,6}\}$/.test(body)) {
    const code = parseInt(body.slice(2, -1), 16);
    return code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
  }
  return escape;
}
