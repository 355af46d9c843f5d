// Reads PowerShell code: cmdlets and their aliases, external programs, .NET calls ([IO.File]::…,
// Net.WebClient) and $env: reads. A cmdlet that is neither known harmless nor known in the table is
// unread rather than guessed ordinary.
import type { SyntaxNode } from '../shell/nodes';
import { Bindings } from './bindings';
import type { Collector } from './collector';
import { parseCode } from './parse';
import { concat, HOME, str, UNKNOWN, type Value } from './values';
import { walk } from './walk';

interface Argument {
  parameter?: string;
  value: Value;
}

interface Invocation {
  api: string;
  args: Argument[];
}

type CmdletHandler = (invocation: Invocation, out: Collector) => void;

/** Parameters that never take a value: the word after them is positional. */
const SWITCHES = new Set([
  'recurse',
  'force',
  'confirm',
  'whatif',
  'nonewwindow',
  'wait',
  'passthru',
  'usebasicparsing',
  'raw',
  'noprofile',
  'noninteractive',
  'append',
  'nonewline',
  'verbose',
  'debug',
  'erroraction',
  'asjob',
  'nologo',
]);
/** Parameters that take a value; an abbreviation of one of these is not a switch. */
const VALUED = [
  'path',
  'literalpath',
  'filepath',
  'uri',
  'destination',
  'value',
  'outfile',
  'argumentlist',
  'source',
  'name',
  'newname',
  'typename',
  'command',
  'computername',
  'itemtype',
  'encoding',
];

/** PowerShell accepts any unambiguous abbreviation of a parameter's name. */
function isSwitch(name: string): boolean {
  if (VALUED.some((valued) => valued.startsWith(name))) return false;
  return [...SWITCHES].some((known) => known.startsWith(name));
}

const SAFE_VERBS = new Set([
  'get',
  'write',
  'format',
  'select',
  'where',
  'foreach',
  'sort',
  'measure',
  'convertto',
  'convertfrom',
  'test',
  'join',
  'split',
  'resolve',
  'compare',
  'group',
  'read',
  'show',
  'find',
  'import',
  'out',
  'wait',
  'start-sleep',
  'new-object',
  'new-timespan',
  'new-guid',
  'clear-host',
  'set-location',
  'push-location',
  'pop-location',
  'set-strictmode',
  'set-variable',
  'new-variable',
  'trace',
  'update-typedata',
]);
const ALIASES: Record<string, string> = {
  iex: 'invoke-expression',
  saps: 'start-process',
  start: 'start-process',
  ii: 'invoke-item',
  rm: 'remove-item',
  del: 'remove-item',
  erase: 'remove-item',
  rd: 'remove-item',
  ri: 'remove-item',
  rmdir: 'remove-item',
  gc: 'get-content',
  cat: 'get-content',
  type: 'get-content',
  sc: 'set-content',
  ac: 'add-content',
  clc: 'clear-content',
  cp: 'copy-item',
  copy: 'copy-item',
  cpi: 'copy-item',
  mv: 'move-item',
  move: 'move-item',
  mi: 'move-item',
  ren: 'rename-item',
  rni: 'rename-item',
  ni: 'new-item',
  mkdir: 'new-item',
  md: 'new-item',
  iwr: 'invoke-webrequest',
  curl: 'invoke-webrequest',
  wget: 'invoke-webrequest',
  irm: 'invoke-restmethod',
  gci: 'get-childitem',
  ls: 'get-childitem',
  dir: 'get-childitem',
  echo: 'write-output',
  write: 'write-output',
  select: 'select-object',
  where: 'where-object',
  '?': 'where-object',
  '%': 'foreach-object',
  foreach: 'foreach-object',
  sort: 'sort-object',
  measure: 'measure-object',
  ft: 'format-table',
  fl: 'format-list',
  cd: 'set-location',
  sl: 'set-location',
  chdir: 'set-location',
  pwd: 'get-location',
  gl: 'get-location',
  gi: 'get-item',
  gm: 'get-member',
  gps: 'get-process',
  ps: 'get-process',
  cls: 'clear-host',
  clear: 'clear-host',
  sleep: 'start-sleep',
  icm: 'invoke-command',
  tee: 'tee-object',
  kill: 'stop-process',
  spps: 'stop-process',
};

/** The value of parameter `names` (first name matching by prefix, as PowerShell does), else positional `index`. */
function param(invocation: Invocation, names: readonly string[], index = 0): Value | undefined {
  for (const argument of invocation.args) {
    if (argument.parameter && names.some((name) => name.startsWith(argument.parameter as string)))
      return argument.value;
  }
  return invocation.args.filter((argument) => argument.parameter === undefined)[index]?.value;
}

function pathsOf(invocation: Invocation, names: readonly string[]): Value[] {
  const named = invocation.args.filter((a) => a.parameter && names.some((n) => n.startsWith(a.parameter as string)));
  const values =
    named.length > 0 ? named.map((a) => a.value) : invocation.args.filter((a) => !a.parameter).map((a) => a.value);
  return values.flatMap((value) => (value.kind === 'list' ? value.items : [value]));
}

function fileCmdlet(kind: 'read' | 'write' | 'delete', names = ['path', 'literalpath', 'filepath']): CmdletHandler {
  return (invocation, out) => {
    const paths = pathsOf(invocation, names);
    if (paths.length === 0) out.effect(kind, invocation.api, UNKNOWN);
    for (const path of paths) out.effect(kind, invocation.api, path);
  };
}

function copyCmdlet(removesSource: boolean): CmdletHandler {
  return (invocation, out) => {
    const source = param(invocation, ['path', 'literalpath'], 0) ?? UNKNOWN;
    const target = param(invocation, ['destination', 'newname'], 1) ?? UNKNOWN;
    out.effect(removesSource ? 'delete' : 'read', invocation.api, source);
    out.effect('write', invocation.api, target);
  };
}

const webRequest: CmdletHandler = (invocation, out) => {
  out.effect('network', invocation.api, param(invocation, ['uri']) ?? UNKNOWN);
  const saved = param(invocation, ['outfile'], 99);
  if (saved) out.effect('write', invocation.api, saved);
  // -InFile sends the file as the request's body: it is read, and leaves with the request.
  const sent = param(invocation, ['infile'], 99);
  if (sent) out.effect('read', invocation.api, sent);
};

const startProcess: CmdletHandler = (invocation, out) => {
  const file = param(invocation, ['filepath'], 0) ?? UNKNOWN;
  const list = param(invocation, ['argumentlist', 'args'], 1);
  const items = !list
    ? []
    : list.kind === 'list'
      ? list.items
      : list.kind === 'str'
        ? list.text.split(/\s+/).filter(Boolean).map(str)
        : [UNKNOWN];
  out.execArgv(invocation.api, [file, ...items]);
};

const CMDLETS = new Map<string, CmdletHandler>([
  [
    'invoke-expression',
    (invocation, out) => out.evaluate('powershell', param(invocation, ['command']), 'Invoke-Expression'),
  ],
  ['start-process', startProcess],
  ['invoke-item', fileCmdlet('read')],
  ['remove-item', fileCmdlet('delete')],
  ['clear-content', fileCmdlet('write')],
  ['get-content', fileCmdlet('read')],
  ['import-csv', fileCmdlet('read')],
  ['import-clixml', fileCmdlet('read')],
  ['set-content', fileCmdlet('write')],
  ['add-content', fileCmdlet('write')],
  ['out-file', fileCmdlet('write')],
  ['export-csv', fileCmdlet('write')],
  ['export-clixml', fileCmdlet('write')],
  ['tee-object', fileCmdlet('write', ['filepath', 'literalpath'])],
  ['new-item', fileCmdlet('write', ['path', 'name'])],
  ['set-acl', fileCmdlet('write')],
  ['copy-item', copyCmdlet(false)],
  ['move-item', copyCmdlet(true)],
  ['rename-item', copyCmdlet(true)],
  ['invoke-webrequest', webRequest],
  ['invoke-restmethod', webRequest],
  [
    'start-bitstransfer',
    (invocation, out) => {
      out.effect('network', invocation.api, param(invocation, ['source'], 0) ?? UNKNOWN);
      out.effect('write', invocation.api, param(invocation, ['destination'], 1) ?? UNKNOWN);
    },
  ],
  ['add-type', (_invocation, out) => out.giveUp('Add-Type compiles code')],
  [
    'invoke-command',
    (invocation, out) => {
      if (param(invocation, ['computername', 'session', 'hostname'], 99))
        out.effect('network', invocation.api, param(invocation, ['computername', 'hostname'], 99) ?? UNKNOWN);
      if (param(invocation, ['filepath'], 99)) out.giveUp('Invoke-Command of a script file');
    },
  ],
]);

/** .NET static methods and instance methods (by the object's type), without a leading System. */
const DOTNET = new Map<string, (args: Value[], out: Collector, api: string, receiver?: Value) => void>([
  ['IO.File.ReadAllText', (args, out, api) => out.effect('read', api, args[0])],
  ['IO.File.ReadAllLines', (args, out, api) => out.effect('read', api, args[0])],
  ['IO.File.ReadAllBytes', (args, out, api) => out.effect('read', api, args[0])],
  ['IO.File.OpenRead', (args, out, api) => out.effect('read', api, args[0])],
  ['IO.File.WriteAllText', (args, out, api) => out.effect('write', api, args[0])],
  ['IO.File.WriteAllLines', (args, out, api) => out.effect('write', api, args[0])],
  ['IO.File.WriteAllBytes', (args, out, api) => out.effect('write', api, args[0])],
  ['IO.File.AppendAllText', (args, out, api) => out.effect('write', api, args[0])],
  ['IO.File.Delete', (args, out, api) => out.effect('delete', api, args[0])],
  ['IO.Directory.Delete', (args, out, api) => out.effect('delete', api, args[0])],
  [
    'IO.File.Copy',
    (args, out, api) => {
      out.effect('read', api, args[0]);
      out.effect('write', api, args[1]);
    },
  ],
  [
    'IO.File.Move',
    (args, out, api) => {
      out.effect('delete', api, args[0]);
      out.effect('write', api, args[1]);
    },
  ],
  [
    'Diagnostics.Process.Start',
    (args, out, api) => {
      const rest = args[1];
      out.execArgv(api, [
        args[0] ?? UNKNOWN,
        ...(rest === undefined
          ? []
          : rest.kind === 'str'
            ? rest.text.split(/\s+/).filter(Boolean).map(str)
            : [UNKNOWN]),
      ]);
    },
  ],
  ['Environment.GetEnvironmentVariable', (args, out, api) => out.envRead(api, args[0])],
  ['Environment.GetEnvironmentVariables', (_args, out, api) => out.wholeEnvironment(api)],
  [
    'Management.Automation.ScriptBlock.Create',
    (args, out) => out.evaluate('powershell', args[0], '[scriptblock]::Create'),
  ],
  ['ScriptBlock.Create', (args, out) => out.evaluate('powershell', args[0], '[scriptblock]::Create')],
  ['Reflection.Assembly.Load', (_args, out) => out.giveUp('loads an assembly')],
  ['Net.WebClient.DownloadString', (args, out, api) => out.effect('network', api, args[0])],
  ['Net.WebClient.DownloadData', (args, out, api) => out.effect('network', api, args[0])],
  ['Net.WebClient.UploadString', (args, out, api) => out.effect('network', api, args[0])],
  [
    'Net.WebClient.UploadFile',
    (args, out, api) => {
      out.effect('network', api, args[0]);
      out.effect('read', api, args[args.length - 1]);
    },
  ],
  [
    'Net.WebClient.DownloadFile',
    (args, out, api) => {
      out.effect('network', api, args[0]);
      out.effect('write', api, args[1]);
    },
  ],
  [
    'Net.Sockets.TcpClient.Connect',
    (args, out, api) => {
      const [host, port] = args;
      out.effect(
        'network',
        api,
        host?.kind === 'str' && port?.kind === 'str' ? str(`${host.text}:${port.text}`) : host,
      );
    },
  ],
]);
/** Constructors whose instances matter; New-Object of these, and of TcpClient with a host, connect. */
const CLASSES = new Set(['Net.WebClient', 'Net.Sockets.TcpClient', 'Net.Http.HttpClient']);

function typeName(text: string): string {
  return text.replace(/^\[|\]$/g, '').replace(/^System\./i, '');
}

function canonicalType(name: string): string {
  const wanted = typeName(name).toLowerCase();
  for (const known of [...CLASSES, ...[...DOTNET.keys()].map((k) => k.slice(0, k.lastIndexOf('.')))]) {
    if (known.toLowerCase() === wanted) return known;
  }
  if (wanted === 'scriptblock') return 'ScriptBlock';
  if (wanted === 'io.file' || wanted === 'environment') return typeName(name);
  return typeName(name);
}

const LIST_STOPS = new Set([' ', '\t', '\n', '\r', ',', ';', '|', '(', ')', '{', '}', "'", '"']);

/**
 * The code with each bare word of a comma list quoted (`Remove-Item ./dist, ./coverage` becomes
 * `Remove-Item './dist', './coverage'`): the grammar reads a list of strings but not of bare words,
 * and in a command's arguments the two are the same values. Parameters, variables and expressions stay.
 */
export function quoteBareListItems(code: string): string {
  const tokens: { start: number; end: number }[] = [];
  let quote: string | undefined;
  for (let at = 0; at < code.length; at++) {
    const char = code[at]!;
    if (quote) {
      if (char === quote) quote = undefined;
      continue;
    }
    if (char === "'" || char === '"') {
      quote = char;
      continue;
    }
    if (LIST_STOPS.has(char)) continue;
    const start = at;
    while (at + 1 < code.length && !LIST_STOPS.has(code[at + 1]!)) at++;
    tokens.push({ start, end: at + 1 });
  }
  const neighbour = (from: number, step: 1 | -1) => {
    let at = from;
    while (code[at] === ' ' || code[at] === '\t') at += step;
    return code[at];
  };
  let out = '';
  let from = 0;
  for (const { start, end } of tokens) {
    const word = code.slice(start, end);
    const listed = neighbour(end, 1) === ',' || neighbour(start - 1, -1) === ',';
    if (!listed || /^[-$@[]/.test(word)) continue;
    out += `${code.slice(from, start)}'${word.replace(/'/g, "''")}'`;
    from = end;
  }
  return out + code.slice(from);
}

export function readPowerShell(code: string, out: Collector): void {
  let parsed = parseCode('powershell', code, out.deadline);
  if (parsed?.hasError) {
    const quoted = quoteBareListItems(code);
    const again = quoted === code ? undefined : parseCode('powershell', quoted, out.deadline);
    if (again && !again.hasError) parsed = again;
  }
  if (!parsed) {
    out.giveUp('ran out of time parsing');
    return;
  }
  if (parsed.hasError) out.giveUp('parse error');
  new PowerShellReader(out).read(parsed.root);
}

class PowerShellReader {
  private readonly bindings = new Bindings<SyntaxNode>();

  constructor(private readonly out: Collector) {}

  read(root: SyntaxNode): void {
    walk(root, (node) => this.bind(node));
    walk(root, (node) => this.visit(node));
  }

  private bind(node: SyntaxNode): void {
    if (node.type === 'assignment_expression') {
      const target = node.namedChildren[0]?.descendantsOfType(['variable'])[0];
      const operator = node.children.find((c) => c.type === 'assignement_operator' || c.type === 'assignment_operator');
      const value = node.childForFieldName('value');
      if (!target) return;
      if (operator?.text === '=' && value) this.bindings.assign(target.text.toLowerCase(), value);
      else this.bindings.other(target.text.toLowerCase());
      return;
    }
    if (
      node.type === 'foreach_statement' ||
      node.type === 'param_block' ||
      node.type === 'parameter_list' ||
      node.type === 'script_block_expression'
    ) {
      if (node.type === 'script_block_expression') return;
      for (const variable of node.descendantsOfType(['variable'])) this.bindings.other(variable.text.toLowerCase());
    }
  }

  resolve(node: SyntaxNode | undefined): Value {
    if (!node) return UNKNOWN;
    switch (node.type) {
      case 'expandable_string_literal':
        return expandable(node.text.slice(1, -1));
      case 'verbatim_string_characters':
        return str(node.text.slice(1, -1).replace(/''/g, "'"));
      case 'expandable_here_string_literal':
        return expandable(hereBody(node.text));
      case 'verbatim_here_string_characters':
        return str(hereBody(node.text));
      case 'generic_token':
      case 'command_name':
        return node.text.includes('$') ? UNKNOWN : str(node.text);
      case 'integer_literal':
      case 'decimal_integer_literal':
        return str(node.text);
      case 'variable':
        return this.variableValue(node.text);
      case 'additive_expression':
        if (node.children.some((c) => c.type === '+')) return concat(node.namedChildren.map((c) => this.resolve(c)));
        break;
      case 'array_literal_expression':
        if (node.namedChildren.length > 1)
          return { kind: 'list', items: node.namedChildren.map((c) => this.resolve(c)) };
        break;
      case 'array_expression':
      case 'sub_expression':
        return this.resolve(node.namedChildren.find((c) => c.type === 'statement_list')?.namedChildren[0]);
      case 'invokation_expression':
      case 'member_access':
      case 'parenthesized_expression':
        if (node.type === 'parenthesized_expression') return this.resolve(node.namedChildren[0]);
        return this.invocationValue(node);
      case 'command':
        return this.commandValue(node);
      case 'pipeline':
        if (node.namedChildren.length === 1) return this.resolve(node.namedChildren[0]);
        return UNKNOWN;
    }
    const named = node.namedChildren;
    return named.length === 1 ? this.resolve(named[0]) : UNKNOWN;
  }

  private variableValue(text: string): Value {
    const lower = text.toLowerCase();
    if (lower === '$home' || lower === '$env:userprofile' || lower === '$env:home') return HOME;
    if (lower.startsWith('$env:')) return UNKNOWN;
    return this.bindings.lookup(lower, (node) => this.resolve(node)) ?? UNKNOWN;
  }

  /** New-Object Net.WebClient as a value. */
  private commandValue(node: SyntaxNode): Value {
    const name = node.childForFieldName('command_name')?.text.toLowerCase();
    if (name !== 'new-object') return UNKNOWN;
    const invocation = this.invocationOf(node, 'New-Object');
    const type = param(invocation, ['typename'], 0);
    if (type?.kind !== 'str') return UNKNOWN;
    return { kind: 'object', type: canonicalType(type.text), of: param(invocation, ['argumentlist'], 1) ?? UNKNOWN };
  }

  private invocationValue(node: SyntaxNode): Value {
    const type = node.namedChildren.find((c) => c.type === 'type_literal');
    const target = type ? undefined : node.namedChildren[0];
    const member = node.namedChildren.find((c) => c.type === 'member_name')?.text;
    if (type && member && /^(new)$/i.test(member)) {
      const canonical = canonicalType(type.text);
      return { kind: 'object', type: canonical, of: this.argumentValues(node)[0] ?? UNKNOWN };
    }
    if (target && member && !type) return UNKNOWN;
    return UNKNOWN;
  }

  private argumentValues(node: SyntaxNode): Value[] {
    const list = node.namedChildren.find((c) => c.type === 'argument_list');
    const expressions = list?.descendantsOfType(['argument_expression'], true) ?? [];
    return expressions.map((expression) => this.resolve(expression));
  }

  private invocationOf(node: SyntaxNode, api: string): Invocation {
    const args: Argument[] = [];
    let pending: string | undefined;
    for (const element of node.childForFieldName('command_elements')?.namedChildren ?? []) {
      if (element.type === 'command_argument_sep' || element.type === 'redirection' || element.type === 'comment')
        continue;
      if (element.type === 'command_parameter') {
        if (pending !== undefined) args.push({ parameter: pending, value: str('true') });
        const name = element.text.replace(/^-+/, '').replace(/:$/, '').toLowerCase();
        pending = isSwitch(name) ? undefined : name;
        if (pending === undefined) args.push({ parameter: name, value: str('true') });
        continue;
      }
      const value = this.resolve(element);
      if (pending !== undefined) args.push({ parameter: pending, value });
      else args.push({ value });
      pending = undefined;
    }
    if (pending !== undefined) args.push({ parameter: pending, value: str('true') });
    return { api, args };
  }

  private visit(node: SyntaxNode): void {
    switch (node.type) {
      case 'command':
        this.visitCommand(node);
        return;
      case 'redirection':
        this.visitRedirection(node);
        return;
      case 'invokation_expression':
        this.visitInvocation(node);
        return;
      case 'variable':
        if (node.text.toLowerCase().startsWith('$env:') && !isAssigned(node)) {
          this.out.envRead('$env', str(node.text.slice(5)));
        }
    }
  }

  private visitCommand(node: SyntaxNode): void {
    const nameNode = node.childForFieldName('command_name');
    if (!nameNode) return;
    const dotSourced = node.children.some((c) => c.type === 'command_invokation_operator' && c.text === '.');
    let name: string;
    if (nameNode.type === 'command_name_expr') {
      const value = this.resolve(nameNode);
      if (value.kind !== 'str') {
        if (!nameNode.descendantsOfType(['script_block_expression', 'script_block']).length)
          this.out.giveUp('command name known only at run time');
        return;
      }
      name = value.text;
    } else name = nameNode.text;
    const lower = name.toLowerCase();
    const canonical = ALIASES[lower] ?? lower;
    const invocation = this.invocationOf(node, name);
    // `. ./x.ps1` and `& ./x.ps1` run a script file; `. iex` and `& 'Remove-Item'` run the command.
    if (dotSourced && /[\\/]|\.ps1$/i.test(name)) {
      this.out.execArgv(name, [str(name)]);
      return;
    }
    const handler = CMDLETS.get(canonical);
    if (handler) {
      handler(invocation, this.out);
      return;
    }
    if (canonical === 'get-childitem' || canonical === 'get-item') {
      const path = param(invocation, ['path', 'literalpath'], 0);
      if (path?.kind === 'str' && /^env:/i.test(path.text)) this.out.wholeEnvironment(name);
      return;
    }
    const verb = canonical.includes('-') ? canonical.slice(0, canonical.indexOf('-')) : undefined;
    if (verb !== undefined) {
      if (!SAFE_VERBS.has(verb) && !SAFE_VERBS.has(canonical)) this.out.giveUp(`cmdlet ${name} not known`);
      return;
    }
    if (ALIASES[lower]) return;
    // Not a cmdlet: an external program, run with its words as arguments.
    const words = invocation.args
      .map((a) =>
        a.parameter !== undefined
          ? [str(`-${a.parameter}`), ...(a.value.kind === 'str' && a.value.text === 'true' ? [] : [a.value])]
          : [a.value],
      )
      .flat();
    this.out.execArgv(name, [str(name), ...words]);
  }

  private visitRedirection(node: SyntaxNode): void {
    const operator = node.namedChildren.find((c) => c.type === 'file_redirection_operator');
    const file = node.namedChildren.find((c) => c.type === 'redirected_file_name');
    if (!operator || !file) return;
    const target = this.resolve(file.namedChildren.find((c) => c.type !== 'command_argument_sep'));
    if (target.kind === 'str' && /^\$?null$/i.test(target.text)) return;
    this.out.effect('write', 'redirection', target);
  }

  private visitInvocation(node: SyntaxNode): void {
    const member = node.namedChildren.find((c) => c.type === 'member_name')?.text;
    if (!member) return;
    if (/^(InvokeScript|NewScriptBlock|Invoke)$/i.test(member) && /\$ExecutionContext|scriptblock/i.test(node.text)) {
      this.out.giveUp(`code run through ${member}`);
      return;
    }
    const type = node.namedChildren.find((c) => c.type === 'type_literal');
    let api: string;
    if (type) api = `${canonicalType(type.text)}.${member}`;
    else {
      const receiver = this.resolve(node.namedChildren[0]);
      if (receiver.kind !== 'object') return;
      api = `${receiver.type}.${member}`;
    }
    const key = [...DOTNET.keys()].find((k) => k.toLowerCase() === api.toLowerCase());
    if (key) (DOTNET.get(key) as NonNullable<ReturnType<typeof DOTNET.get>>)(this.argumentValues(node), this.out, key);
  }
}

function isAssigned(variable: SyntaxNode): boolean {
  let node: SyntaxNode | undefined = variable;
  while (node && node.type !== 'assignment_expression' && node.type !== 'pipeline') {
    if (node.parent?.type === 'assignment_expression' && node.field !== 'value')
      return node === node.parent.namedChildren[0];
    node = node.parent;
  }
  return false;
}

/** A double-quoted string: backtick escapes decoded; any $ (a variable or subexpression) makes it unknown. */
function expandable(body: string): Value {
  let text = '';
  for (let i = 0; i < body.length; i++) {
    const char = body[i] as string;
    if (char === '$') return UNKNOWN;
    if (char === '`' && i + 1 < body.length) {
      const next = body[++i] as string;
      text +=
        (
          { n: '\n', t: '\t', r: '\r', '0': '\0', a: '\x07', b: '\b', e: '\x1b', f: '\f', v: '\v' } as Record<
            string,
            string
          >
        )[next] ?? next;
      continue;
    }
    if (char === '"' && body[i + 1] === '"') i++;
    text += char;
  }
  return str(text);
}

function hereBody(text: string): string {
  const start = text.indexOf('\n');
  const end = text.lastIndexOf('\n');
  return start >= 0 && end > start ? text.slice(start + 1, end).replace(/\r$/, '') : '';
}
