// Reads Python code: resolves imports, aliases and literal values, then reports what each call does.
import type { SyntaxNode } from '../shell/nodes';
import type { Call } from './calls';
import type { Collector } from './collector';
import { isWatchedPythonRef, PYTHON_APIS, PYTHON_CLASSES } from './python-apis';
import { parseCode } from './parse';
import { Bindings } from './bindings';
import { concat, interpolated, RUN_TIME_PART, HOME, joinPath, ref, str, textOf, UNKNOWN, type Value } from './values';
import { walk } from './walk';
import { DJANGO_PASSWORD_SETTINGS } from '../facts/programs';

const BUILTIN_PREFIXES = ['builtins.', '__builtins__.'];
const EVALUATORS = new Set(['eval', 'exec', 'compile']);
const IMPORTERS = new Set(['__import__', 'importlib.import_module', 'importlib.__import__']);
const PASS_THROUGH = new Set([
  'os.path.expanduser',
  'os.path.abspath',
  'os.path.realpath',
  'os.path.normpath',
  'os.fsencode',
  'os.fsdecode',
  'str',
  'bytes',
]);
const NAMESPACE_CALLS = new Set(['globals', 'locals', 'vars']);
const ENVIRONMENTS = new Set(['os.environ', 'os.environb']);
const DJANGO_SETTINGS_PREFIX = 'django.conf.settings.';
/** Calls that take os.environ whole as ordinary plumbing (a child process's environment), not as a read. */
const ENV_PLUMBING = new Set(['dict', 'os.environ.copy']);
/** Methods that hand over every variable's value. */
const WHOLE_ENVIRONMENT = new Set(['os.environ.items', 'os.environ.values']);
const STRING_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '0': '\0',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '\n': '',
};
const BINDING_CONTAINERS = new Set([
  'parameters',
  'lambda_parameters',
  'as_pattern_target',
  'global_statement',
  'nonlocal_statement',
  'case_pattern',
  'pattern_list',
  'tuple_pattern',
  'list_pattern',
]);

export function readPython(code: string, out: Collector): void {
  const parsed = parseCode('python', code, out.deadline);
  if (!parsed) {
    out.giveUp('ran out of time parsing');
    return;
  }
  if (parsed.hasError) out.giveUp('parse error');
  new PythonReader(parsed.root, out).read();
}

function normalize(name: string): string {
  for (const prefix of BUILTIN_PREFIXES) if (name.startsWith(prefix)) return name.slice(prefix.length);
  return name;
}

class PythonReader {
  private readonly bindings = new Bindings<SyntaxNode>();
  private readonly starImports: string[] = [];

  constructor(
    private readonly root: SyntaxNode,
    private readonly out: Collector,
  ) {}

  read(): void {
    walk(this.root, (node) => this.bind(node));
    walk(this.root, (node) => this.visit(node));
  }

  // ---- bindings ----

  private bind(node: SyntaxNode): void {
    switch (node.type) {
      case 'assignment':
      case 'augmented_assignment': {
        const left = node.childForFieldName('left');
        const right = node.childForFieldName('right');
        if (left?.type === 'identifier' && node.type === 'assignment' && right) this.bindings.assign(left.text, right);
        else if (left) this.bindAll(left);
        return;
      }
      case 'named_expression': {
        const name = node.childForFieldName('name');
        const value = node.childForFieldName('value');
        if (name && value) this.bindings.assign(name.text, value);
        return;
      }
      case 'for_statement':
      case 'for_in_clause': {
        const left = node.childForFieldName('left');
        if (left) this.bindAll(left);
        return;
      }
      case 'function_definition':
      case 'class_definition': {
        const name = node.childForFieldName('name');
        if (name) this.bindings.other(name.text);
        return;
      }
      case 'import_statement':
        for (const item of node.childrenForFieldName('name')) this.bindImport(item, undefined);
        return;
      case 'import_from_statement': {
        const module = node.childForFieldName('module_name');
        const moduleName = module?.type === 'dotted_name' ? module.text : undefined;
        if (node.children.some((c) => c.type === 'wildcard_import')) {
          if (moduleName) this.starImports.push(moduleName);
          else this.out.giveUp('relative star import');
        }
        for (const item of node.childrenForFieldName('name')) this.bindImport(item, moduleName ?? '.');
        return;
      }
      case 'call': {
        const fn = node.childForFieldName('function');
        const object = fn?.type === 'attribute' ? fn.childForFieldName('object') : undefined;
        if (object?.type === 'identifier') this.bindings.mutate(object.text);
        return;
      }
      default:
        if (BINDING_CONTAINERS.has(node.type)) this.bindAll(node);
    }
  }

  /** Every name in a target that is not a plain `name = value`; attribute and subscript targets mutate their base. */
  private bindAll(target: SyntaxNode): void {
    if (target.type === 'identifier') {
      this.bindings.other(target.text);
      return;
    }
    for (const identifier of target.descendantsOfType(['identifier'])) {
      const parent = identifier.parent;
      if (parent?.type === 'attribute' && identifier.field === 'attribute') continue;
      if (parent?.type === 'keyword_argument' && identifier.field === 'name') continue;
      if (parent?.type === 'type' || (parent?.type === 'default_parameter' && identifier.field === 'value')) continue;
      const element =
        (parent?.type === 'attribute' && identifier.field === 'object') ||
        (parent?.type === 'subscript' && identifier.field === 'value');
      if (element) this.bindings.mutate(identifier.text);
      else this.bindings.other(identifier.text);
    }
  }

  private bindImport(item: SyntaxNode, fromModule: string | undefined): void {
    const qualify = (name: string) => (fromModule === undefined ? name : `${fromModule}.${name}`);
    if (item.type === 'aliased_import') {
      const name = item.childForFieldName('name');
      const alias = item.childForFieldName('alias');
      if (name && alias) this.bindings.fixed(alias.text, ref(qualify(name.text)));
      return;
    }
    if (fromModule === undefined) {
      // `import a.b.c` binds `a`.
      const first = item.text.split('.')[0] ?? item.text;
      this.bindings.fixed(first, ref(first));
      return;
    }
    this.bindings.fixed(item.text, ref(qualify(item.text)));
  }

  private valueOfName(name: string): Value {
    const bound = this.bindings.lookup(name, (node) => this.resolve(node));
    if (bound) return bound;
    for (const module of this.starImports) {
      const qualified = `${module}.${name}`;
      if (PYTHON_APIS.has(qualified) || PYTHON_CLASSES.has(qualified)) return ref(qualified);
    }
    return ref(name);
  }

  // ---- values ----

  resolve(node: SyntaxNode | undefined): Value {
    if (!node) return UNKNOWN;
    switch (node.type) {
      case 'string':
        return this.stringValue(node);
      case 'concatenated_string':
        return concat(node.namedChildren.map((part) => this.resolve(part)));
      case 'integer':
      case 'true':
      case 'false':
      case 'none':
        return str(node.text);
      case 'identifier':
        return this.valueOfName(node.text);
      case 'parenthesized_expression':
        return this.resolve(node.namedChildren[0]);
      case 'assignment':
        return this.resolve(node.childForFieldName('right'));
      case 'named_expression':
        return this.resolve(node.childForFieldName('value'));
      case 'list':
      case 'tuple':
      case 'expression_list':
        return {
          kind: 'list',
          items: node.namedChildren.map((item) => (item.type === 'list_splat' ? UNKNOWN : this.resolve(item))),
        };
      case 'attribute':
        return this.attributeValue(node);
      case 'subscript':
        return this.subscriptValue(node);
      case 'binary_operator':
        return this.binaryValue(node);
      case 'call':
        return this.callValue(node);
      default:
        return UNKNOWN;
    }
  }

  private stringValue(node: SyntaxNode): Value {
    const start = node.children[0];
    const raw = start?.type === 'string_start' && /r/i.test(start.text);
    let text = '';
    let runTime = false;
    for (const part of node.children) {
      if (part.type === 'interpolation') {
        text += RUN_TIME_PART;
        runTime = true;
        continue;
      }
      if (part.type !== 'string_content') continue;
      if (raw) {
        text += part.text;
        continue;
      }
      let at = part.startIndex;
      for (const escape of part.children) {
        text += this.sourceBetween(part, at, escape.startIndex);
        at = escape.endIndex;
        if (escape.type === 'interpolation') {
          text += RUN_TIME_PART;
          runTime = true;
          continue;
        }
        const decoded = decodeEscape(escape.text);
        if (decoded === undefined) return UNKNOWN;
        text += decoded;
      }
      text += this.sourceBetween(part, at, part.endIndex);
    }
    return interpolated(text, runTime);
  }

  private sourceBetween(part: SyntaxNode, start: number, end: number): string {
    return part.text.slice(start - part.startIndex, end - part.startIndex);
  }

  private attributeValue(node: SyntaxNode): Value {
    const base = this.resolve(node.childForFieldName('object'));
    const attribute = node.childForFieldName('attribute')?.text ?? '';
    if (base.kind === 'ref') return ref(normalize(`${base.name}.${attribute}`));
    if (base.kind === 'object') return ref(`${base.type}.${attribute}`);
    return UNKNOWN;
  }

  private subscriptValue(node: SyntaxNode): Value {
    const base = this.resolve(node.childForFieldName('value'));
    const key = this.resolve(node.childForFieldName('subscript'));
    if (base.kind !== 'ref') return UNKNOWN;
    if (ENVIRONMENTS.has(base.name)) return textOf(key) === 'HOME' ? HOME : UNKNOWN;
    if (base.name === '__dict__') return key.kind === 'str' ? ref(key.text) : UNKNOWN;
    if (base.name.endsWith('.__dict__')) {
      return key.kind === 'str' ? ref(normalize(`${base.name.slice(0, -'.__dict__'.length)}.${key.text}`)) : UNKNOWN;
    }
    if (base.name === 'sys.modules' || NAMESPACE_CALLS.has(base.name)) {
      return key.kind === 'str' ? this.valueOfName(key.text) : UNKNOWN;
    }
    return UNKNOWN;
  }

  private binaryValue(node: SyntaxNode): Value {
    const operator = node.childForFieldName('operator')?.text;
    const left = this.resolve(node.childForFieldName('left'));
    const right = this.resolve(node.childForFieldName('right'));
    if (operator === '+') {
      if (left.kind === 'list' && right.kind === 'list')
        return { kind: 'list', items: [...left.items, ...right.items] };
      return concat([left, right]);
    }
    if (operator === '/' && left.kind === 'object' && left.type === 'pathlib.Path') {
      return { kind: 'object', type: 'pathlib.Path', of: joinPath([left.of, right]) };
    }
    return UNKNOWN;
  }

  private callValue(node: SyntaxNode): Value {
    const callee = this.calleeOf(node);
    const call = this.argumentsOf(node, callee.api);
    const first = call.positional[0] ?? UNKNOWN;
    if (callee.receiver?.kind === 'str' && callee.method === 'split' && call.positional.length === 0) {
      return { kind: 'list', items: callee.receiver.text.split(/\s+/).filter(Boolean).map(str) };
    }
    if (callee.receiver?.kind === 'str' && callee.method === 'join') {
      return first.kind === 'list' ? joinText(callee.receiver.text, first.items) : UNKNOWN;
    }
    if (callee.receiver?.kind === 'object' && callee.receiver.type === 'pathlib.Path') {
      if (['expanduser', 'resolve', 'absolute'].includes(callee.method ?? '')) return callee.receiver;
      if (callee.method === 'joinpath') {
        return { kind: 'object', type: 'pathlib.Path', of: joinPath([callee.receiver.of, ...call.positional]) };
      }
    }
    const name = callee.api;
    if (name === 'os.path.join' || name === 'posixpath.join') return joinPath(call.positional);
    if (PASS_THROUGH.has(name)) return first;
    if (name === 'pathlib.Path.home' || name === 'os.path.expanduser')
      return { kind: 'object', type: 'pathlib.Path', of: HOME };
    const made = PYTHON_CLASSES.get(name);
    if (made) {
      const of = made === 'pathlib.Path' ? joinPath(call.positional) : first;
      return { kind: 'object', type: made, of };
    }
    if (IMPORTERS.has(name)) return first.kind === 'str' ? ref(first.text) : UNKNOWN;
    if (NAMESPACE_CALLS.has(name)) return first.kind === 'ref' ? ref(`${first.name}.__dict__`) : ref(name);
    if (name === 'getattr') {
      const base = first;
      const attribute = call.positional[1];
      if (base.kind === 'ref' && attribute?.kind === 'str') return ref(normalize(`${base.name}.${attribute.text}`));
      return UNKNOWN;
    }
    if ((name === 'os.getenv' || name === 'os.environ.get') && textOf(first) === 'HOME') return HOME;
    return UNKNOWN;
  }

  // ---- calls ----

  private calleeOf(node: SyntaxNode): { api: string; receiver?: Value; method?: string } {
    const fn = node.childForFieldName('function');
    if (fn?.type === 'attribute') {
      const receiver = this.resolve(fn.childForFieldName('object'));
      const method = fn.childForFieldName('attribute')?.text ?? '';
      if (receiver.kind === 'ref') return { api: normalize(`${receiver.name}.${method}`), receiver, method };
      if (receiver.kind === 'object') return { api: `${receiver.type}.${method}`, receiver, method };
      return { api: `?.${method}`, receiver, method };
    }
    const value = this.resolve(fn ?? undefined);
    return { api: value.kind === 'ref' ? normalize(value.name) : '?' };
  }

  private argumentsOf(node: SyntaxNode, api: string): Call {
    const call: Call = { api, positional: [], named: new Map(), namedSpread: false };
    const list = node.childForFieldName('arguments');
    if (list?.type === 'generator_expression') {
      call.positional.push(UNKNOWN);
      return call;
    }
    for (const item of list?.namedChildren ?? []) {
      if (item.type === 'keyword_argument') {
        const name = item.childForFieldName('name')?.text ?? '';
        call.named.set(name, this.resolve(item.childForFieldName('value')));
      } else if (item.type === 'list_splat') {
        call.spreadAt ??= call.positional.length;
      } else if (item.type === 'dictionary_splat') {
        call.namedSpread = true;
      } else if (item.type !== 'comment') {
        call.positional.push(this.resolve(item));
      }
    }
    return call;
  }

  private visit(node: SyntaxNode): void {
    if (node.type === 'call') this.visitCall(node);
    else if (node.type === 'subscript') this.visitSubscript(node);
    else if (node.type === 'attribute' || node.type === 'identifier') {
      this.visitEnvironment(node);
      this.visitFunctionValue(node);
      if (node.type === 'attribute') this.visitDjangoSetting(node);
    }
  }

  /**
   * `settings.STRIPE_SECRET_KEY` of django.conf: a setting, most often read from the environment variable of
   * that name; `settings.DATABASES` and `settings.CACHES` hold the services' passwords.
   */
  private visitDjangoSetting(node: SyntaxNode): void {
    // Only a chain's outermost attribute: `settings.DATABASES.keys` names the setting once, not twice.
    if (node.parent?.type === 'attribute' && node.field === 'object') return;
    if (isAssignmentTarget(node)) return;
    const value = this.resolve(node);
    if (value.kind !== 'ref' || !value.name.startsWith(DJANGO_SETTINGS_PREFIX)) return;
    const setting = value.name.slice(DJANGO_SETTINGS_PREFIX.length).split('.')[0] ?? '';
    if (DJANGO_PASSWORD_SETTINGS.has(setting))
      this.out.secretRead('django.conf.settings', `Django's ${setting} setting`);
    else this.out.envRead('django.conf.settings', str(setting));
  }

  private visitCall(node: SyntaxNode): void {
    const callee = this.calleeOf(node);
    const call = this.argumentsOf(node, callee.api);
    if (callee.receiver) call.receiver = callee.receiver;
    const name = callee.api;
    const first = call.positional[0] ?? (call.spreadAt === 0 ? UNKNOWN : (call.named.get('source') ?? UNKNOWN));
    if (EVALUATORS.has(name)) {
      this.out.evaluate('python', first, name);
      return;
    }
    if (IMPORTERS.has(name)) {
      if (first.kind !== 'str') this.out.giveUp('dynamic import');
      return;
    }
    if (name === 'getattr' || name === 'setattr') {
      const base = call.positional[0];
      const attribute = call.positional[1];
      if (base?.kind === 'ref' && isWatchedPythonRef(base.name) && attribute?.kind !== 'str') {
        this.out.giveUp('getattr with computed name');
      }
      // Every setting a computed name can pick, secrets among them.
      if (base?.kind === 'ref' && base.name === 'django.conf.settings' && attribute?.kind !== 'str')
        this.out.secretRead('getattr', "Django's settings by computed name, secrets included");
      return;
    }
    if (name.startsWith('ctypes.') || name === 'ctypes') {
      this.out.giveUp('native code through ctypes');
      return;
    }
    if (WHOLE_ENVIRONMENT.has(name)) {
      this.out.wholeEnvironment('os.environ');
      return;
    }
    const handler = PYTHON_APIS.get(name);
    if (handler) handler(call, this.out);
  }

  /** os.system handed to map(), a thread or a variable's caller: it runs, with arguments unknown here. */
  private visitFunctionValue(node: SyntaxNode): void {
    const parent = node.parent;
    if (!parent || (parent.type === 'call' && node.field === 'function')) return;
    if (parent.type === 'attribute' && node.field === 'object') return;
    if (parent.type === 'attribute' || parent.type === 'assignment' || parent.type === 'import_statement') return;
    if (
      parent.type !== 'argument_list' &&
      parent.type !== 'keyword_argument' &&
      parent.type !== 'list' &&
      parent.type !== 'tuple'
    ) {
      return;
    }
    const value = this.resolve(node);
    if (value.kind !== 'ref') return;
    const name = normalize(value.name);
    if (EVALUATORS.has(name)) this.out.giveUp(`${name} passed as a value`);
    else if (PYTHON_APIS.has(name) && !name.startsWith('os.environ') && name !== 'os.getenv') {
      PYTHON_APIS.get(name)?.(
        { api: name, positional: [], spreadAt: 0, named: new Map(), namedSpread: true },
        this.out,
      );
    }
  }

  private visitSubscript(node: SyntaxNode): void {
    const base = this.resolve(node.childForFieldName('value'));
    if (base.kind !== 'ref') return;
    const key = this.resolve(node.childForFieldName('subscript'));
    if (ENVIRONMENTS.has(base.name)) {
      if (!isAssignmentTarget(node)) this.out.envRead(base.name, key);
      return;
    }
    const namespace =
      base.name === 'sys.modules' ||
      base.name === '__dict__' ||
      base.name.endsWith('.__dict__') ||
      NAMESPACE_CALLS.has(base.name);
    if (namespace && key.kind !== 'str') this.out.giveUp('name looked up by a computed key');
  }

  /** os.environ handed over whole (printed, dumped) rather than read by name. */
  private visitEnvironment(node: SyntaxNode): void {
    const parent = node.parent;
    if (node.type === 'identifier' && parent?.type === 'attribute') return;
    if (parent?.type === 'subscript' && node.field === 'value') return;
    if (parent?.type === 'attribute' && node.field === 'object') return;
    if (parent?.type === 'keyword_argument' || isAssignmentTarget(node)) return;
    if (node.field !== 'arguments' && parent?.type !== 'argument_list') return;
    const value = this.resolve(node);
    if (value.kind !== 'ref' || !ENVIRONMENTS.has(value.name)) return;
    const call = parent?.parent;
    if (call?.type === 'call' && ENV_PLUMBING.has(this.calleeOf(call).api)) return;
    this.out.wholeEnvironment(value.name);
  }
}

function isAssignmentTarget(node: SyntaxNode): boolean {
  const parent = node.parent;
  return (parent?.type === 'assignment' || parent?.type === 'augmented_assignment') && node.field === 'left';
}

function joinText(separator: string, items: readonly Value[]): Value {
  const texts: string[] = [];
  for (const item of items) {
    if (item.kind !== 'str') return UNKNOWN;
    texts.push(item.text);
  }
  return str(texts.join(separator));
}

/** A Python escape sequence's text; undefined for the ones not worth decoding (\N{…}). */
function decodeEscape(escape: string): string | undefined {
  const body = escape.slice(1);
  const simple = STRING_ESCAPES[body];
  if (simple !== undefined) return simple;
  if (/^x[0-9a-fA-F]{2}$/.test(body) || /^u[0-9a-fA-F]{4}$/.test(body) || /^U[0-9a-fA-F]{8}$/.test(body)) {
    return String.fromCodePoint(parseInt(body.slice(1), 16));
  }
  if (/^[0-7]{1,3}$/.test(body)) return String.fromCharCode(parseInt(body, 8));
  return undefined;
}
