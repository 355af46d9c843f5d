// Reads JavaScript (and TypeScript) code: resolves require/import, destructuring, aliases and literal
// values, then reports what each call does.
import type { SyntaxNode } from '../shell/nodes';
import { Bindings } from './bindings';
import type { Call } from './calls';
import type { Collector } from './collector';
import {
  GLOBAL_OBJECTS,
  isWatchedJavaScriptRef,
  JAVASCRIPT_APIS,
  JAVASCRIPT_CLASSES,
  moduleName,
  SHELL_TAGS,
  tableName,
} from './javascript-apis';
import { parseCode, type ParsedCode } from './parse';
import {
  charactersOf,
  concat,
  interpolated,
  RUN_TIME_PART,
  HOME,
  joinPath,
  ref,
  str,
  textOf,
  UNKNOWN,
  type Value,
} from './values';
import { walk } from './walk';

type Thunk = () => Value;

const STRING_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '0': '\0',
  b: '\b',
  f: '\f',
  v: '\v',
  '\n': '',
};
const REQUIRES = new Set([
  'require',
  'module.require',
  'process.mainModule.require',
  'module.constructor._load',
  'Module._load',
  'module._load',
]);
/** Modules whose loading through a callback (`import('fs').then(m => …)`) hides which member is used. */
const WATCHED_MODULES = new Set([
  'child_process',
  'fs',
  'fs.promises',
  'vm',
  'net',
  'http',
  'https',
  'worker_threads',
  'execa',
  'shelljs',
]);
const PATH_JOINS = new Set(['path.join', 'path.resolve', 'path.posix.join', 'path.posix.resolve']);
const ENVIRONMENTS = new Set(['process.env', 'Bun.env']);
const PARAMETER_CONTAINERS = new Set(['formal_parameters', 'catch_clause', 'array_pattern', 'rest_pattern']);

export function readJavaScript(code: string, out: Collector): void {
  const parsed = parseJavaScript(code, out.deadline);
  if (!parsed) {
    out.giveUp('ran out of time parsing');
    return;
  }
  if (parsed.hasError) out.giveUp('parse error');
  new JavaScriptReader(out).read(parsed.root);
}

/** JavaScript first; code the JavaScript grammar cannot read may be TypeScript (deno, bun, tsx -e). */
function parseJavaScript(code: string, deadline: number): ParsedCode | undefined {
  const plain = parseCode('javascript', code, deadline);
  if (!plain || !plain.hasError) return plain;
  const typed = parseCode('typescript', code, deadline);
  return typed && !typed.hasError ? typed : plain;
}

class JavaScriptReader {
  private readonly bindings = new Bindings<Thunk>();

  constructor(private readonly out: Collector) {}

  read(root: SyntaxNode): void {
    walk(root, (node) => this.bind(node));
    walk(root, (node) => this.visit(node));
  }

  // ---- bindings ----

  private bind(node: SyntaxNode): void {
    switch (node.type) {
      case 'variable_declarator': {
        const name = node.childForFieldName('name');
        const value = node.childForFieldName('value');
        if (name && value) this.bindTarget(name, () => this.resolve(value));
        return;
      }
      case 'assignment_expression': {
        const left = node.childForFieldName('left');
        const right = node.childForFieldName('right');
        if (left && right) this.bindTarget(left, () => this.resolve(right));
        return;
      }
      case 'augmented_assignment_expression':
      case 'update_expression': {
        const target = node.childForFieldName('left') ?? node.childForFieldName('argument');
        if (target) this.bindOther(target);
        return;
      }
      case 'for_in_statement': {
        const left = node.childForFieldName('left');
        if (left) this.bindOther(left);
        return;
      }
      case 'arrow_function':
      case 'function_expression': {
        const module = this.handedModule(node);
        const parameter = node.childForFieldName('parameter') ?? node.childForFieldName('parameters')?.namedChildren[0];
        if (module !== undefined && parameter) this.bindTarget(parameter, () => ref(module));
        else if (node.type === 'arrow_function' && parameter) this.bindOther(parameter);
        const name = node.childForFieldName('name');
        if (node.type === 'function_expression' && name) this.bindings.other(name.text);
        return;
      }
      case 'function_declaration':
      case 'generator_function_declaration':
      case 'class_declaration':
      case 'class': {
        const name = node.childForFieldName('name');
        if (name) this.bindings.other(name.text);
        return;
      }
      case 'import_statement':
        this.bindImport(node);
        return;
      case 'call_expression': {
        const fn = node.childForFieldName('function');
        const object = fn?.type === 'member_expression' ? fn.childForFieldName('object') : undefined;
        if (object?.type === 'identifier') this.bindings.mutate(object.text);
        return;
      }
      default:
        if (
          PARAMETER_CONTAINERS.has(node.type) &&
          node.parent?.type !== 'variable_declarator' &&
          !(node.parent && this.handedModule(node.parent) !== undefined)
        )
          this.bindOther(node);
    }
  }

  /**
   * The module a callback is handed: `import('m').then(c => …)` (or `require`'s), a function that is
   * the first argument of `.then` on a module loaded by a literal name, with one parameter.
   */
  private handedModule(fn: SyntaxNode): string | undefined {
    if (fn.type !== 'arrow_function' && fn.type !== 'function_expression') return undefined;
    const parameters = fn.childForFieldName('parameters')?.namedChildren ?? [];
    const parameter = fn.childForFieldName('parameter') ?? (parameters.length === 1 ? parameters[0] : undefined);
    if (parameter?.type !== 'identifier' && parameter?.type !== 'object_pattern') return undefined;
    const args = fn.parent;
    const then = args?.type === 'arguments' && args.namedChildren[0] === fn ? args.parent : undefined;
    const member = then?.type === 'call_expression' ? then.childForFieldName('function') : undefined;
    if (member?.type !== 'member_expression' || member.childForFieldName('property')?.text !== 'then') return undefined;
    const loader = member.childForFieldName('object');
    if (loader?.type !== 'call_expression') return undefined;
    const name = this.calleeOf(loader).api;
    if (name !== 'import' && !REQUIRES.has(name)) return undefined;
    const first = this.argumentsOf(loader, name).positional[0];
    return first?.kind === 'str' ? moduleName(first.text) : undefined;
  }

  /** `name = value`, `{ a, b: c } = value`, `[a, b] = value`, `obj.x = value`. */
  private bindTarget(target: SyntaxNode, value: Thunk): void {
    switch (target.type) {
      case 'identifier':
        this.bindings.assign(target.text, value);
        return;
      case 'object_pattern':
        for (const part of target.namedChildren) {
          if (part.type === 'shorthand_property_identifier_pattern') {
            this.bindings.assign(part.text, () => member(value(), part.text));
          } else if (part.type === 'pair_pattern') {
            const key = part.childForFieldName('key');
            const inner = part.childForFieldName('value');
            const keyName = key ? this.propertyName(key) : undefined;
            if (inner) this.bindTarget(inner, () => (keyName === undefined ? UNKNOWN : member(value(), keyName)));
          } else {
            this.bindOther(part);
          }
        }
        return;
      case 'member_expression':
      case 'subscript_expression': {
        const base = target.childForFieldName('object');
        if (base?.type === 'identifier') this.bindings.mutate(base.text);
        return;
      }
      default:
        this.bindOther(target);
    }
  }

  private bindOther(target: SyntaxNode): void {
    const names =
      target.type === 'identifier'
        ? [target]
        : target.descendantsOfType(['identifier', 'shorthand_property_identifier_pattern']);
    for (const name of names) {
      const parent = name.parent;
      if (parent?.type === 'assignment_pattern' && name.field === 'right') continue;
      if (parent?.type === 'member_expression' || parent?.type === 'subscript_expression') {
        if (name.field === 'object') this.bindings.mutate(name.text);
        continue;
      }
      this.bindings.other(name.text);
    }
  }

  private bindImport(node: SyntaxNode): void {
    const source = node.childForFieldName('source');
    const specifier = source ? textOf(this.resolve(source)) : undefined;
    if (specifier === undefined) return;
    const module = moduleName(specifier);
    for (const clause of node.namedChildren.filter((c) => c.type === 'import_clause')) {
      for (const part of clause.namedChildren) {
        if (part.type === 'identifier') this.bindings.fixed(part.text, ref(module));
        else if (part.type === 'namespace_import') {
          const alias = part.namedChildren.find((c) => c.type === 'identifier');
          if (alias) this.bindings.fixed(alias.text, ref(module));
        } else if (part.type === 'named_imports') {
          for (const item of part.namedChildren.filter((c) => c.type === 'import_specifier')) {
            const name = item.childForFieldName('name');
            const alias = item.childForFieldName('alias') ?? name;
            if (!name || !alias) continue;
            const imported = textOf(this.resolve(name)) ?? name.text;
            this.bindings.fixed(alias.text, imported === 'default' ? ref(module) : ref(`${module}.${imported}`));
          }
        }
      }
    }
  }

  private valueOfName(name: string): Value {
    const bound = this.bindings.lookup(name, (thunk) => thunk());
    if (bound) return bound;
    if (GLOBAL_OBJECTS.has(name)) return ref('globalThis');
    return ref(name);
  }

  // ---- values ----

  resolve(node: SyntaxNode | undefined | null): Value {
    if (!node) return UNKNOWN;
    switch (node.type) {
      case 'string':
        return this.stringValue(node);
      case 'template_string':
        return this.stringValue(node);
      case 'number':
      case 'true':
      case 'false':
      case 'null':
        return str(node.text);
      case 'identifier':
        return node.text === 'undefined' ? str('undefined') : this.valueOfName(node.text);
      case 'parenthesized_expression':
      case 'await_expression':
      case 'non_null_expression':
      case 'as_expression':
      case 'satisfies_expression':
        return this.resolve(node.namedChildren[0]);
      case 'assignment_expression':
        return this.resolve(node.childForFieldName('right'));
      case 'sequence_expression':
        return this.resolve(node.namedChildren[node.namedChildren.length - 1]);
      case 'array':
        return {
          kind: 'list',
          items: node.namedChildren.map((item) => (item.type === 'spread_element' ? UNKNOWN : this.resolve(item))),
        };
      case 'object':
        return this.objectValue(node);
      case 'member_expression':
        return this.memberValue(node);
      case 'subscript_expression':
        return this.subscriptValue(node);
      case 'binary_expression':
        return node.childForFieldName('operator')?.text === '+'
          ? concat([this.resolve(node.childForFieldName('left')), this.resolve(node.childForFieldName('right'))])
          : UNKNOWN;
      case 'call_expression':
        return this.callValue(node);
      case 'new_expression':
        return this.newValue(node);
      default:
        return UNKNOWN;
    }
  }

  private stringValue(node: SyntaxNode): Value {
    let text = '';
    let runTime = false;
    for (const part of node.namedChildren) {
      if (part.type === 'string_fragment') text += part.text;
      else if (part.type === 'escape_sequence') {
        const decoded = decodeEscape(part.text);
        if (decoded === undefined) return UNKNOWN;
        text += decoded;
      } else if (part.type === 'template_substitution') {
        text += RUN_TIME_PART;
        runTime = true;
      } else if (part.type !== 'comment') return UNKNOWN;
    }
    return interpolated(text, runTime);
  }

  private objectValue(node: SyntaxNode): Value {
    const fields = new Map<string, Value>();
    for (const part of node.namedChildren) {
      if (part.type === 'pair') {
        const key = part.childForFieldName('key');
        const name = key ? this.propertyName(key) : undefined;
        if (name === undefined) return UNKNOWN;
        fields.set(name, this.resolve(part.childForFieldName('value')));
      } else if (part.type === 'shorthand_property_identifier') {
        fields.set(part.text, this.valueOfName(part.text));
      } else if (part.type !== 'comment') {
        return UNKNOWN;
      }
    }
    return { kind: 'record', fields };
  }

  /** A property key's name: `a`, `'a'`, `[k]` with k literal. */
  private propertyName(key: SyntaxNode): string | undefined {
    if (key.type === 'property_identifier' || key.type === 'identifier') return key.text;
    if (key.type === 'computed_property_name') return textOf(this.resolve(key.namedChildren[0]));
    return textOf(this.resolve(key));
  }

  private memberValue(node: SyntaxNode): Value {
    const base = this.resolve(node.childForFieldName('object'));
    const property = node.childForFieldName('property')?.text ?? '';
    if (base.kind === 'ref' && ENVIRONMENTS.has(base.name) && property === 'HOME') return HOME;
    return member(base, property);
  }

  private subscriptValue(node: SyntaxNode): Value {
    const base = this.resolve(node.childForFieldName('object'));
    const key = this.resolve(node.childForFieldName('index'));
    if (key.kind !== 'str') return UNKNOWN;
    if (base.kind === 'list' && /^\d+$/.test(key.text)) return base.items[Number(key.text)] ?? UNKNOWN;
    if (base.kind === 'ref' && ENVIRONMENTS.has(base.name) && key.text === 'HOME') return HOME;
    return member(base, key.text);
  }

  private calleeOf(node: SyntaxNode): { api: string; receiver?: Value; method?: string } {
    const fn = node.childForFieldName('function') ?? node.childForFieldName('constructor');
    if (fn?.type === 'member_expression' || fn?.type === 'subscript_expression') {
      const receiver = this.resolve(fn.childForFieldName('object'));
      const key =
        fn.type === 'member_expression'
          ? fn.childForFieldName('property')?.text
          : textOf(this.resolve(fn.childForFieldName('index')));
      if (key === undefined) return { api: '?', receiver };
      if (key === 'require' || key === '_load') return { api: 'require', receiver, method: key };
      if (key === 'constructor' && receiver.kind === 'ref' && receiver.name === '?constructor')
        return { api: 'Function' };
      if (receiver.kind === 'ref') return { api: tableName(`${receiver.name}.${key}`), receiver, method: key };
      if (receiver.kind === 'object') return { api: `${receiver.type}.${key}`, receiver, method: key };
      return { api: `?.${key}`, receiver, method: key };
    }
    if (fn?.type === 'import') return { api: 'import' };
    const value = this.resolve(fn);
    return { api: value.kind === 'ref' ? tableName(value.name) : '?' };
  }

  private argumentsOf(node: SyntaxNode, api: string): Call {
    const call: Call = { api, positional: [], named: new Map(), namedSpread: false };
    const list = node.childForFieldName('arguments');
    if (list?.type === 'template_string') {
      call.positional.push(this.resolve(list));
      return call;
    }
    for (const item of list?.namedChildren ?? []) {
      if (item.type === 'spread_element') call.spreadAt ??= call.positional.length;
      else if (item.type !== 'comment') call.positional.push(this.resolve(item));
    }
    return call;
  }

  private callValue(node: SyntaxNode): Value {
    const callee = this.calleeOf(node);
    const call = this.argumentsOf(node, callee.api);
    const first = call.positional[0] ?? UNKNOWN;
    const name = callee.api;
    if (REQUIRES.has(name) || name === 'import') return first.kind === 'str' ? ref(moduleName(first.text)) : UNKNOWN;
    if (name === 'module.createRequire') return ref('require');
    if (PATH_JOINS.has(name)) return joinPath(call.positional);
    if (name === 'os.homedir') return HOME;
    if (name === 'String' || name === 'path.normalize') return first;
    // `String.fromCharCode(101, 118, …)`: text spelled out as character codes.
    if (name === 'String.fromCharCode') return charactersOf(call.positional);
    if (callee.method === 'join' && callee.receiver?.kind === 'list') {
      const separator = call.positional.length === 0 ? ',' : textOf(first);
      const texts = callee.receiver.items.map(textOf);
      if (separator === undefined || texts.some((t) => t === undefined)) return UNKNOWN;
      return str(texts.join(separator));
    }
    if (callee.method === 'concat' && callee.receiver?.kind === 'str')
      return concat([callee.receiver, ...call.positional]);
    if (JAVASCRIPT_CLASSES.has(name)) return { kind: 'object', type: name, of: first };
    if (name === 'Reflect.get' && first.kind === 'ref') {
      const key = textOf(call.positional[1]);
      return key === undefined ? UNKNOWN : member(first, key);
    }
    return UNKNOWN;
  }

  private newValue(node: SyntaxNode): Value {
    const callee = this.calleeOf(node);
    if (JAVASCRIPT_CLASSES.has(callee.api)) {
      return { kind: 'object', type: callee.api, of: this.argumentsOf(node, callee.api).positional[0] ?? UNKNOWN };
    }
    return UNKNOWN;
  }

  // ---- effects ----

  private visit(node: SyntaxNode): void {
    switch (node.type) {
      case 'call_expression':
      case 'new_expression':
        this.visitCall(node);
        return;
      case 'member_expression':
      case 'subscript_expression':
        this.visitMember(node);
        this.visitFunctionValue(node);
        return;
      case 'identifier':
        this.visitEnvironment(node);
        this.visitFunctionValue(node);
        return;
      case 'variable_declarator':
        this.visitEnvironmentPattern(node);
    }
  }

  /** const { AWS_SECRET_ACCESS_KEY } = process.env, and `...rest` for all the others. */
  private visitEnvironmentPattern(node: SyntaxNode): void {
    const pattern = node.childForFieldName('name');
    if (pattern?.type !== 'object_pattern') return;
    const value = this.resolve(node.childForFieldName('value'));
    if (value.kind !== 'ref' || !ENVIRONMENTS.has(value.name)) return;
    for (const part of pattern.namedChildren) {
      if (part.type === 'shorthand_property_identifier_pattern') this.out.envRead(value.name, str(part.text));
      else if (part.type === 'pair_pattern' || part.type === 'object_assignment_pattern') {
        const key = part.childForFieldName('key') ?? part.childForFieldName('left');
        this.out.envRead(
          value.name,
          key ? (this.propertyName(key) === undefined ? UNKNOWN : str(this.propertyName(key) as string)) : UNKNOWN,
        );
      } else if (part.type === 'rest_pattern') this.out.wholeEnvironment(value.name);
    }
  }

  /** execSync handed to forEach or a variable's caller: it runs, with arguments unknown here. */
  private visitFunctionValue(node: SyntaxNode): void {
    const container = node.parent;
    if (container?.type !== 'arguments' && container?.type !== 'array') return;
    const value = this.resolve(node);
    if (value.kind !== 'ref') return;
    const name = tableName(value.name);
    if (name === 'eval' || name === 'Function') this.out.giveUp(`${name} passed as a value`);
    else if (name.startsWith('child_process.')) {
      JAVASCRIPT_APIS.get(name)?.(
        { api: name, positional: [], spreadAt: 0, named: new Map(), namedSpread: false },
        this.out,
      );
    }
  }

  private visitCall(node: SyntaxNode): void {
    const callee = this.calleeOf(node);
    const call = this.argumentsOf(node, callee.api);
    if (callee.receiver) call.receiver = callee.receiver;
    const name = callee.api;
    const first = call.spreadAt === 0 ? UNKNOWN : (call.positional[0] ?? UNKNOWN);
    if (name === 'import' || REQUIRES.has(name)) {
      if (first.kind !== 'str') {
        this.out.giveUp(name === 'import' ? 'dynamic import' : 'dynamic require');
        return;
      }
      const module = moduleName(first.text);
      const handedOn =
        node.parent?.type === 'member_expression' && node.parent.childForFieldName('property')?.text === 'then';
      // A callback whose one parameter is the module is read (handedModule); any other hides the member used.
      const callback = handedOn ? node.parent?.parent?.childForFieldName('arguments')?.namedChildren[0] : undefined;
      const read = callback !== undefined && this.handedModule(callback) !== undefined;
      if (handedOn && !read && WATCHED_MODULES.has(module)) this.out.giveUp(`${module} used through a callback`);
      return;
    }
    if (node.childForFieldName('arguments')?.type === 'template_string') {
      if (SHELL_TAGS.has(name)) this.out.exec(name === '$' ? 'zx.$' : name, first);
      return;
    }
    const handler = JAVASCRIPT_APIS.get(name);
    if (handler) handler(call, this.out);
  }

  /** process.env.X, process.env[k]; a computed member of a watched module is unread. */
  private visitMember(node: SyntaxNode): void {
    const base = this.resolve(node.childForFieldName('object'));
    if (base.kind !== 'ref') return;
    const key =
      node.type === 'member_expression'
        ? str(node.childForFieldName('property')?.text ?? '')
        : this.resolve(node.childForFieldName('index'));
    if (ENVIRONMENTS.has(base.name)) {
      if (!isAssignmentTarget(node)) this.out.envRead(base.name, key);
      return;
    }
    if (key.kind !== 'str' && isWatchedJavaScriptRef(base.name)) this.out.giveUp('computed property name');
  }

  /** process.env handed over whole (printed, serialized) rather than read by name. */
  private visitEnvironment(node: SyntaxNode): void {
    if (node.text !== 'process' && node.text !== 'Bun') return;
    const parent = node.parent;
    if (parent?.type !== 'member_expression' || node.field !== 'object') return;
    const whole = this.resolve(parent);
    if (whole.kind !== 'ref' || !ENVIRONMENTS.has(whole.name)) return;
    const holder = parent.parent;
    if (holder?.type === 'arguments') this.out.wholeEnvironment(whole.name);
  }
}

function member(base: Value, property: string): Value {
  // Any value's constructor's constructor is Function: [].constructor.constructor('code').
  if (property === 'constructor')
    return base.kind === 'ref' && base.name === '?constructor' ? ref('Function') : ref('?constructor');
  if (base.kind === 'ref') return ref(base.name === 'globalThis' ? property : `${base.name}.${property}`);
  if (base.kind === 'record') return base.fields.get(property) ?? UNKNOWN;
  if (base.kind === 'object') return ref(`${base.type}.${property}`);
  return UNKNOWN;
}

function isAssignmentTarget(node: SyntaxNode): boolean {
  const parent = node.parent;
  return (
    (parent?.type === 'assignment_expression' || parent?.type === 'augmented_assignment_expression') &&
    node.field === 'left'
  );
}

/** A JavaScript escape sequence's text; undefined for the ones not worth decoding. */
function decodeEscape(escape: string): string | undefined {
  const body = escape.slice(1);
  const simple = STRING_ESCAPES[body];
  if (simple !== undefined) return simple;
  if (/^x[0-9a-fA-F]{2}$/.test(body) || /^u[0-9a-fA-F]{4}$/.test(body))
    return String.fromCharCode(parseInt(body.slice(1), 16));
  if (/^u\{[0-9a-fA-F]{1,6}\}$/.test(body)) {
    const code = parseInt(body.slice(2, -1), 16);
    return code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
  }
  if (body.length === 1 && !/[0-9xu]/.test(body)) return body;
  return undefined;
}
