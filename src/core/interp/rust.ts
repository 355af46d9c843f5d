// Reads Rust code: a build script (build.rs), a test or a proc macro runs at every `cargo build` or
// `cargo test`, and rust-analyzer runs build scripts as a project opens. Resolves `let`, `const` and
// `static` bindings holding literals (byte vectors spelled out as text included), follows `use` paths,
// and reports what std's process, file and environment APIs and the common HTTP clients do.
import type { SyntaxNode } from '../shell/nodes';
import { Bindings } from './bindings';
import type { Collector } from './collector';
import { parseCode } from './parse';
import { charactersOf, concat, HOME, joinPath, str, textOf, UNKNOWN, type Value } from './values';
import { walk } from './walk';

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '0': '\0', '\\': '\\', '"': '"', "'": "'" };

/** Paths as std and the common crates spell them, by what the reader does with a call of them. */
const READS = new Set(['fs::read_to_string', 'fs::read', 'fs::File::open', 'File::open', 'fs::read_dir']);
const WRITES = new Set(['fs::write', 'fs::File::create', 'File::create', 'fs::create_dir_all', 'fs::set_permissions']);
const DELETES = new Set(['fs::remove_file', 'fs::remove_dir_all', 'fs::remove_dir']);
const HTTP_CRATES = new Set(['reqwest', 'reqwest::blocking', 'ureq', 'attohttpc', 'minreq', 'isahc', 'surf']);
const HTTP_VERBS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'request']);
const HOME_CALLS = new Set(['dirs::home_dir', 'home::home_dir', 'env::home_dir', 'dirs_next::home_dir']);
const COMMAND_NEW = 'process::Command::new';
/** The object type an HTTP client crate's client or agent resolves to. */
const HTTP_CLIENT = 'http-client';

export function readRust(code: string, out: Collector): void {
  const parsed = parseCode('rust', code, out.deadline);
  if (!parsed) {
    out.giveUp('ran out of time parsing');
    return;
  }
  if (parsed.hasError) out.giveUp('parse error');
  new RustReader(out).read(parsed.root);
}

/** A `std::process::Command` being built: the program and the arguments added so far. */
interface Builder {
  items: Value[];
}

class RustReader {
  private readonly bindings = new Bindings<SyntaxNode>();
  /** `use` paths by the name they bring in: `Command` -> `process::Command`, `C` -> `process::Command`. */
  private readonly uses = new Map<string, string>();
  /** Commands built in a variable (`let mut cmd = Command::new("sh"); cmd.arg(…)`), by variable name. */
  private readonly builders = new Map<string, Builder>();

  constructor(private readonly out: Collector) {}

  read(root: SyntaxNode): void {
    walk(root, (node) => this.bind(node));
    walk(root, (node) => this.visit(node));
    for (const builder of this.builders.values()) this.out.execArgv('std::process::Command', builder.items);
  }

  private bind(node: SyntaxNode): void {
    if (node.type === 'use_declaration') {
      const argument = node.childForFieldName('argument');
      if (argument) this.bindUse(argument, '');
      return;
    }
    if (node.type === 'let_declaration') {
      const pattern = node.childForFieldName('pattern');
      const value = node.childForFieldName('value');
      if (pattern?.type === 'identifier' && value) this.bindings.assign(pattern.text, value);
      else for (const name of pattern?.descendantsOfType(['identifier']) ?? []) this.bindings.other(name.text);
      return;
    }
    if (node.type === 'const_item' || node.type === 'static_item') {
      const name = node.childForFieldName('name');
      const value = node.childForFieldName('value');
      if (name && value) this.bindings.assign(name.text, value);
      return;
    }
    if (node.type === 'assignment_expression' || node.type === 'compound_assignment_expr') {
      const left = node.childForFieldName('left');
      if (left?.type === 'identifier') this.bindings.other(left.text);
      return;
    }
    if (node.type === 'parameter' || node.type === 'closure_parameters' || node.type === 'for_expression') {
      const target = node.type === 'for_expression' ? node.childForFieldName('pattern') : node;
      for (const name of target?.descendantsOfType(['identifier']) ?? []) this.bindings.other(name.text);
    }
  }

  private bindUse(node: SyntaxNode, prefix: string): void {
    const join = (path: string) => canonicalPath(prefix === '' ? path : `${prefix}::${path}`);
    switch (node.type) {
      case 'identifier':
      case 'scoped_identifier': {
        const full = join(node.text);
        this.uses.set(full.split('::').pop() ?? full, full);
        return;
      }
      case 'use_as_clause': {
        const path = node.childForFieldName('path');
        const alias = node.childForFieldName('alias');
        if (path && alias) this.uses.set(alias.text, join(path.text));
        return;
      }
      case 'scoped_use_list': {
        const path = node.childForFieldName('path')?.text ?? '';
        const list = node.childForFieldName('list');
        for (const item of list?.namedChildren ?? []) this.bindUse(item, prefix === '' ? path : `${prefix}::${path}`);
        return;
      }
      case 'use_list':
        for (const item of node.namedChildren) this.bindUse(item, prefix);
    }
  }

  /** A path as written (`Command::new`, `std::fs::write`, `C::new`) with its first segment's `use` applied. */
  private pathOf(node: SyntaxNode): string {
    const [first = '', ...rest] = node.text.replace(/\s+/g, '').replace(/^::/, '').split('::');
    const used = this.uses.get(first);
    return canonicalPath([used ?? first, ...rest].join('::'));
  }

  resolve(node: SyntaxNode | null | undefined): Value {
    if (!node) return UNKNOWN;
    switch (node.type) {
      case 'string_literal':
        return this.stringValue(node);
      case 'raw_string_literal':
        return str(node.namedChildren.find((c) => c.type === 'string_content')?.text ?? '');
      case 'integer_literal':
        return integerText(node.text);
      case 'char_literal':
        return str(node.text.slice(1, -1));
      case 'identifier':
        return this.bindings.lookup(node.text, (value) => this.resolve(value)) ?? UNKNOWN;
      case 'reference_expression':
      case 'parenthesized_expression':
      case 'type_cast_expression':
        return this.resolve(node.childForFieldName('value') ?? node.namedChildren[0]);
      case 'array_expression':
        return { kind: 'list', items: node.namedChildren.map((item) => this.resolve(item)) };
      case 'macro_invocation':
        return this.macroValue(node);
      case 'call_expression':
        return this.callValue(node);
      case 'binary_expression':
        return node.childForFieldName('operator')?.text === '+'
          ? concat([this.resolve(node.childForFieldName('left')), this.resolve(node.childForFieldName('right'))])
          : UNKNOWN;
      default:
        return UNKNOWN;
    }
  }

  private stringValue(node: SyntaxNode): Value {
    let text = '';
    for (const part of node.namedChildren) {
      if (part.type === 'string_content') text += part.text;
      else if (part.type === 'escape_sequence') {
        const body = part.text.slice(1);
        const decoded =
          ESCAPES[body] ??
          (/^x[0-9a-fA-F]{2}$/.test(body)
            ? String.fromCharCode(parseInt(body.slice(1), 16))
            : /^u\{[0-9a-fA-F]{1,6}\}$/.test(body)
              ? String.fromCodePoint(parseInt(body.slice(2, -1), 16) % 0x110000)
              : /^\n\s*$/.test(body)
                ? ''
                : undefined);
        if (decoded === undefined) return UNKNOWN;
        text += decoded;
      } else return UNKNOWN;
    }
    return str(text);
  }

  /** A macro's arguments, split at its top-level commas: a literal or a name each, anything else unknown. */
  private macroArguments(node: SyntaxNode): Value[] {
    const tree = node.namedChildren.find((c) => c.type === 'token_tree');
    if (!tree) return [];
    const groups: SyntaxNode[][] = [[]];
    for (const child of tree.children) {
      if (child.text === ',' && !child.isNamed) groups.push([]);
      else if (child.isNamed || child.text === '&') groups[groups.length - 1]?.push(child);
    }
    return groups
      .filter((group) => group.length > 0)
      .map((group) => {
        const named = group.filter((c) => c.isNamed);
        return named.length === 1 ? this.resolve(named[0]) : UNKNOWN;
      });
  }

  private macroValue(node: SyntaxNode): Value {
    const name = node.childForFieldName('macro')?.text ?? '';
    const args = this.macroArguments(node);
    switch (name) {
      case 'vec':
        return { kind: 'list', items: args };
      case 'concat':
        return concat(args);
      case 'format':
        return formatted(args);
      case 'env':
      case 'option_env':
        return textOf(args[0]) === 'HOME' ? HOME : UNKNOWN;
      default:
        return UNKNOWN;
    }
  }

  private callValue(node: SyntaxNode): Value {
    const fn = node.childForFieldName('function');
    const args = this.callArguments(node);
    if (fn?.type === 'field_expression') {
      const method = fn.childForFieldName('field')?.text ?? '';
      const receiver = this.resolve(fn.childForFieldName('value'));
      // What only re-wraps or converts its receiver's text.
      if (
        [
          'unwrap',
          'expect',
          'to_string',
          'to_owned',
          'into',
          'clone',
          'as_str',
          'to_vec',
          'unwrap_or_default',
        ].includes(method)
      )
        return receiver;
      if (method === 'join') return joinPath([receiver, args[0]]);
      // `Client::builder().timeout(…).build()`: still the client.
      if (receiver.kind === 'object' && receiver.type === HTTP_CLIENT) return receiver;
      return UNKNOWN;
    }
    const path = fn ? this.pathOf(fn) : '';
    if (
      /(^|::)(Client::(new|builder)|agent|AgentBuilder::new)$/.test(path) &&
      HTTP_CRATES.has(path.split('::')[0] ?? '')
    )
      return { kind: 'object', type: HTTP_CLIENT, of: UNKNOWN };
    if (HOME_CALLS.has(path)) return HOME;
    if (path === 'env::var' || path === 'env::var_os') return textOf(args[0]) === 'HOME' ? HOME : UNKNOWN;
    if (['String::from', 'path::PathBuf::from', 'PathBuf::from', 'path::Path::new', 'Path::new'].includes(path))
      return args[0] ?? UNKNOWN;
    // Bytes spelled out as numbers, read back as text: `String::from_utf8(vec![99, 117, …])`.
    if (['String::from_utf8', 'String::from_utf8_lossy', 'str::from_utf8'].includes(path)) {
      const bytes = args[0];
      if (bytes?.kind === 'list') return charactersOf(bytes.items);
      return bytes ?? UNKNOWN;
    }
    return UNKNOWN;
  }

  private callArguments(node: SyntaxNode): Value[] {
    return (node.childForFieldName('arguments')?.namedChildren ?? []).map((arg) => this.resolve(arg));
  }

  private visit(node: SyntaxNode): void {
    if (node.type === 'macro_invocation') {
      this.visitMacro(node);
      return;
    }
    if (node.type !== 'call_expression') return;
    const fn = node.childForFieldName('function');
    if (!fn) return;
    if (fn.type === 'field_expression') {
      this.visitMethod(node, fn);
      return;
    }
    const path = this.pathOf(fn);
    const args = this.callArguments(node);
    const api = `std::${path}`;
    if (path === COMMAND_NEW) {
      const builder: Builder = { items: [args[0] ?? UNKNOWN] };
      const holder = node.parent?.type === 'let_declaration' ? node.parent.childForFieldName('pattern') : undefined;
      if (holder?.type === 'identifier') this.builders.set(holder.text, builder);
      else this.out.execArgv(api, this.chainArguments(node, builder).items);
      return;
    }
    if (READS.has(path)) this.out.effect('read', api, args[0]);
    else if (WRITES.has(path)) this.out.effect('write', api, args[0]);
    else if (DELETES.has(path)) this.out.effect('delete', api, args[0]);
    else if (path === 'fs::copy') {
      this.out.effect('read', api, args[0]);
      this.out.effect('write', api, args[1]);
    } else if (path === 'fs::rename') {
      this.out.effect('delete', api, args[0]);
      this.out.effect('write', api, args[1]);
    } else if (path === 'os::unix::fs::symlink' || path === 'fs::hard_link') this.out.effect('write', api, args[1]);
    else if (path === 'env::var' || path === 'env::var_os') this.out.envRead(api, args[0]);
    else if (path === 'env::vars' || path === 'env::vars_os') this.out.wholeEnvironment(api);
    else if (path === 'net::TcpStream::connect' || path === 'TcpStream::connect')
      this.out.effect('network', api, args[0]);
    else if (HTTP_CRATES.has(path.slice(0, path.lastIndexOf('::'))) && HTTP_VERBS.has(path.split('::').pop() ?? ''))
      this.out.effect('network', path, args[path.endsWith('::request') ? 1 : 0]);
    else if (path === 'libloading::Library::new') this.out.giveUp('native code loaded through libloading');
  }

  private visitMacro(node: SyntaxNode): void {
    const name = node.childForFieldName('macro')?.text ?? '';
    const args = this.macroArguments(node);
    if (name === 'include_str' || name === 'include_bytes') this.out.effect('read', `${name}!`, args[0]);
    else if (name === 'env' || name === 'option_env') this.out.envRead(`${name}!`, args[0]);
  }

  /** `cmd.arg(…)` on a builder held in a variable; an HTTP client's `.post(url)`; `OpenOptions`' `.open(path)`. */
  private visitMethod(node: SyntaxNode, fn: SyntaxNode): void {
    const receiver = fn.childForFieldName('value');
    const method = fn.childForFieldName('field')?.text ?? '';
    const args = this.callArguments(node);
    if (receiver?.type === 'identifier' && receiver.parent === fn) {
      const builder = this.builders.get(receiver.text);
      if (builder && (method === 'arg' || method === 'args')) {
        this.chainArguments(receiver, builder);
        return;
      }
    }
    if (HTTP_VERBS.has(method) && method !== 'request') {
      const client = this.resolve(receiver);
      if (
        (client.kind === 'object' && client.type === HTTP_CLIENT) ||
        /\b(Client|client|agent)\b/.test(receiver?.text ?? '')
      )
        this.out.effect('network', `Client.${method}`, args[0]);
    }
    if (method === 'open' && /OpenOptions/.test(receiver?.text ?? '')) {
      const writes = /\.(write|append|create|truncate)\s*\(\s*true/.test(receiver?.text ?? '');
      this.out.effect(writes ? 'write' : 'read', 'std::fs::OpenOptions', args[0]);
    }
  }

  /** Adds the `.arg(x)` and `.args([…])` chained on `start` to the builder, ascending the method chain. */
  private chainArguments(start: SyntaxNode, builder: Builder): Builder {
    let at: SyntaxNode = start;
    for (;;) {
      const field = at.parent;
      const call = field?.parent;
      if (
        field?.type !== 'field_expression' ||
        field.childForFieldName('value') !== at ||
        call?.type !== 'call_expression'
      )
        return builder;
      const method = field.childForFieldName('field')?.text ?? '';
      const args = this.callArguments(call);
      if (method === 'arg') builder.items.push(args[0] ?? UNKNOWN);
      else if (method === 'args') {
        const list = args[0];
        if (list?.kind === 'list') builder.items.push(...list.items);
        else builder.items.push(UNKNOWN);
      }
      at = call;
    }
  }
}

/** `std::fs::write` and `::std::fs::write` as `fs::write`; `core::` likewise. */
function canonicalPath(path: string): string {
  return path.replace(/^(std|core|alloc)::/, '');
}

/** An integer literal's decimal text (`0x2a` is 42, `99u8` is 99), or unknown. */
function integerText(literal: string): Value {
  const body = literal.replace(/_/g, '').replace(/(u|i)(8|16|32|64|128|size)$/, '');
  const value = /^0x[0-9a-f]+$/i.test(body)
    ? parseInt(body.slice(2), 16)
    : /^0o[0-7]+$/i.test(body)
      ? parseInt(body.slice(2), 8)
      : /^0b[01]+$/i.test(body)
        ? parseInt(body.slice(2), 2)
        : /^\d+$/.test(body)
          ? Number(body)
          : NaN;
  return Number.isFinite(value) ? str(String(value)) : UNKNOWN;
}

/** `format!("{}/x{home}", a)`: positional `{}` take the arguments in turn; a named or formatted one is a run-time part. */
function formatted(args: readonly Value[]): Value {
  const template = textOf(args[0]);
  if (template === undefined) return UNKNOWN;
  const parts: Value[] = [];
  let next = 1;
  let literal = '';
  for (let i = 0; i < template.length; i++) {
    const ch = template[i];
    if ((ch === '{' || ch === '}') && template[i + 1] === ch) {
      literal += ch;
      i++;
      continue;
    }
    if (ch !== '{') {
      literal += ch;
      continue;
    }
    const close = template.indexOf('}', i);
    if (close === -1) return UNKNOWN;
    parts.push(str(literal));
    literal = '';
    const inside = template.slice(i + 1, close);
    parts.push(inside === '' ? (args[next++] ?? UNKNOWN) : UNKNOWN);
    i = close;
  }
  parts.push(str(literal));
  return concat(parts);
}
