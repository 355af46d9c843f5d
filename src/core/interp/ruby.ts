// Reads Ruby code: resolves locals holding literals, then reports what each call, backtick and %x
// command does.
import type { SyntaxNode } from '../shell/nodes';
import { Bindings } from './bindings';
import { arg, copyArgs, fileArg, moveArgs, networkArg, restFrom, type Call, type Handler } from './calls';
import type { Collector } from './collector';
import { parseCode } from './parse';
import { concat, interpolated, RUN_TIME_PART, HOME, joinPath, str, textOf, UNKNOWN, type Value } from './values';
import { walk } from './walk';

const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  s: ' ',
  '0': '\0',
  e: '\x1b',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '\n': '',
};
const URL_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
const EVALUATORS = new Set(['eval', 'instance_eval', 'class_eval', 'module_eval', 'instance_exec', 'class_exec']);
const SENDERS = new Set(['send', 'public_send', '__send__', 'method']);

/** system("ls -l") is a command line; system("ls", "-l") an argument vector (a leading env hash aside). */
const kernelExec: Handler = (call, out) => {
  const words = restFrom(call, 0).filter((word) => word.kind !== 'record');
  // One string, literal or partly known (`"curl -d #{data} …"`), is a shell line.
  if (words.length === 1 && (words[0]?.kind === 'str' || words[0]?.kind === 'partial')) out.exec(call.api, words[0]);
  else if (words.length === 1 && words[0]?.kind === 'list') out.execArgv(call.api, words[0].items);
  else out.execArgv(call.api, words);
};

/**
 * Capistrano's `execute "cmd"` (and `capture`) runs a shell line on each server; `execute :rake, …` names
 * a program and its arguments as symbols, read as the words they are when literal.
 */
const remoteExec: Handler = (call, out) => {
  const first = arg(call, 0);
  if ((first.kind === 'str' || first.kind === 'partial') && call.positional.length === 1) out.exec(call.api, first);
};

/** open("|cmd") runs a command; open("http://…") (with open-uri) fetches; anything else is a file. */
const kernelOpen: Handler = (call, out) => {
  const target = arg(call, 0);
  const text = textOf(target);
  if (text?.startsWith('|')) {
    out.exec(call.api, str(text.slice(1)));
    return;
  }
  if (text !== undefined && URL_SCHEME.test(text)) {
    out.effect('network', call.api, target);
    return;
  }
  if (target.kind !== 'str') {
    out.giveUp(`${call.api} of a computed name (a leading | runs a command)`);
    return;
  }
  fileOpen(call, out);
};

const fileOpen: Handler = (call, out) => {
  const mode = arg(call, 1);
  const given = call.positional.length > 1;
  const writes = given && (mode.kind !== 'str' || /[wa+]/.test(mode.text));
  out.effect(writes ? 'write' : 'read', call.api, arg(call, 0));
};

const fileUtilsRemove: Handler = (call, out) => {
  const first = arg(call, 0);
  for (const path of first.kind === 'list' ? first.items : [first]) out.effect('delete', call.api, path);
};

const netHttp: Handler = (call, out) => {
  const first = arg(call, 0);
  out.effect('network', call.api, first.kind === 'object' ? first.of : first);
};

function evaluate(what: string): Handler {
  return (call, out) => {
    if (call.positional.length === 0) return;
    out.evaluate('ruby', arg(call, 0), what);
  };
}

const RUBY_APIS = new Map<string, Handler>([
  ['system', kernelExec],
  ['exec', kernelExec],
  ['spawn', kernelExec],
  // Rake's `sh` (FileUtils' too) runs its command line through the shell.
  ['sh', kernelExec],
  ['FileUtils.sh', kernelExec],
  ['execute', remoteExec],
  ['capture', remoteExec],
  ['Kernel.system', kernelExec],
  ['Kernel.exec', kernelExec],
  ['Kernel.spawn', kernelExec],
  ['Process.spawn', kernelExec],
  ['Process.exec', kernelExec],
  ['IO.popen', kernelExec],
  ['PTY.spawn', kernelExec],
  ['Open3.capture2', kernelExec],
  ['Open3.capture2e', kernelExec],
  ['Open3.capture3', kernelExec],
  ['Open3.popen2', kernelExec],
  ['Open3.popen2e', kernelExec],
  ['Open3.popen3', kernelExec],
  ['Open3.pipeline', kernelExec],
  ['open', kernelOpen],
  ['Kernel.open', kernelOpen],
  ['URI.open', networkArg(0)],
  ['File.open', fileOpen],
  ['File.new', fileOpen],
  ['File.read', fileArg('read', 0)],
  ['File.readlines', fileArg('read', 0)],
  ['File.foreach', fileArg('read', 0)],
  ['File.binread', fileArg('read', 0)],
  ['IO.read', kernelOpen],
  ['IO.readlines', kernelOpen],
  ['Dir.entries', fileArg('read', 0)],
  ['Dir.children', fileArg('read', 0)],
  ['File.write', fileArg('write', 0)],
  ['File.binwrite', fileArg('write', 0)],
  ['IO.write', kernelOpen],
  ['File.chmod', fileArg('write', 1)],
  ['File.symlink', fileArg('write', 1)],
  ['File.rename', moveArgs(0, 1)],
  ['File.delete', fileUtilsRemove],
  ['File.unlink', fileUtilsRemove],
  ['Dir.rmdir', fileArg('delete', 0)],
  ['Dir.delete', fileArg('delete', 0)],
  ['Dir.unlink', fileArg('delete', 0)],
  ['Dir.mkdir', fileArg('write', 0)],
  ['FileUtils.rm', fileUtilsRemove],
  ['FileUtils.rm_f', fileUtilsRemove],
  ['FileUtils.rm_r', fileUtilsRemove],
  ['FileUtils.rm_rf', fileUtilsRemove],
  ['FileUtils.rmtree', fileUtilsRemove],
  ['FileUtils.remove', fileUtilsRemove],
  ['FileUtils.remove_dir', fileUtilsRemove],
  ['FileUtils.remove_entry', fileUtilsRemove],
  ['FileUtils.remove_entry_secure', fileUtilsRemove],
  ['FileUtils.rmdir', fileUtilsRemove],
  ['FileUtils.cp', copyArgs(0, 1)],
  ['FileUtils.cp_r', copyArgs(0, 1)],
  ['FileUtils.mv', moveArgs(0, 1)],
  ['FileUtils.touch', fileArg('write', 0)],
  ['FileUtils.mkdir_p', fileArg('write', 0)],
  ['FileUtils.ln_s', fileArg('write', 1)],
  ['FileUtils.chmod', fileArg('write', 1)],
  ['Net::HTTP.get', netHttp],
  ['Net::HTTP.get_response', netHttp],
  ['Net::HTTP.post', netHttp],
  ['Net::HTTP.post_form', netHttp],
  ['Net::HTTP.start', netHttp],
  ['Net::HTTP.new', netHttp],
  [
    'TCPSocket.new',
    (call, out) => {
      const host = arg(call, 0);
      const port = arg(call, 1);
      out.effect(
        'network',
        call.api,
        host.kind === 'str' && port.kind === 'str' ? str(`${host.text}:${port.text}`) : host,
      );
    },
  ],
  ['TCPSocket.open', networkArg(0)],
  ['Socket.tcp', networkArg(0)],
  [
    'URI.read',
    (call, out) => out.effect('network', call.api, call.receiver?.kind === 'object' ? call.receiver.of : UNKNOWN),
  ],
  ['ENV.fetch', (call, out) => out.envRead(call.api, arg(call, 0))],
  ['ENV.to_h', (call, out) => out.wholeEnvironment(call.api)],
  ['ENV.to_a', (call, out) => out.wholeEnvironment(call.api)],
  ['ENV.inspect', (call, out) => out.wholeEnvironment(call.api)],
  ['ENV.each', (call, out) => out.wholeEnvironment(call.api)],
  ['ENV.keys', (call, out) => out.wholeEnvironment(call.api)],
  ['ENV.values', (call, out) => out.wholeEnvironment(call.api)],
  ['Marshal.load', (call, out) => out.giveUp('Marshal.load of data (it can run code)')],
  ['Fiddle.dlopen', (call, out) => out.giveUp('native code through Fiddle')],
  [
    'load',
    (call, out) => {
      if (arg(call, 0).kind !== 'str') out.giveUp('load of a computed path');
    },
  ],
  [
    'Object.const_get',
    (call, out) => {
      if (arg(call, 0).kind !== 'str') out.giveUp('const_get with computed name');
    },
  ],
]);
for (const name of EVALUATORS) RUBY_APIS.set(name, evaluate(name));
RUBY_APIS.set('binding.eval', evaluate('eval'));
RUBY_APIS.set('Kernel.eval', evaluate('eval'));

export function readRuby(code: string, out: Collector): void {
  const parsed = parseCode('ruby', code, out.deadline);
  if (!parsed) {
    out.giveUp('ran out of time parsing');
    return;
  }
  if (parsed.hasError) out.giveUp('parse error');
  new RubyReader(out).read(parsed.root);
}

const BINDING_CONTAINERS = new Set([
  'method_parameters',
  'block_parameters',
  'lambda_parameters',
  'left_assignment_list',
  'exception_variable',
]);

class RubyReader {
  private readonly bindings = new Bindings<SyntaxNode>();

  constructor(private readonly out: Collector) {}

  read(root: SyntaxNode): void {
    walk(root, (node) => this.bind(node));
    walk(root, (node) => this.visit(node));
  }

  private bind(node: SyntaxNode): void {
    if (node.type === 'assignment') {
      const left = node.childForFieldName('left');
      const right = node.childForFieldName('right');
      if (left && right && isLocal(left)) this.bindings.assign(left.text, right);
      else if (left) this.bindOther(left);
      return;
    }
    if (node.type === 'operator_assignment') {
      const left = node.childForFieldName('left');
      if (left) this.bindOther(left);
      return;
    }
    if (node.type === 'for') {
      const pattern = node.childForFieldName('pattern');
      if (pattern) this.bindOther(pattern);
      return;
    }
    if (node.type === 'call') {
      const receiver = node.childForFieldName('receiver');
      if (receiver && isLocal(receiver)) this.bindings.mutate(receiver.text);
      return;
    }
    if (BINDING_CONTAINERS.has(node.type)) this.bindOther(node);
  }

  private bindOther(target: SyntaxNode): void {
    if (target.type === 'element_reference' || target.type === 'call') {
      const base = target.namedChildren[0];
      if (base && isLocal(base)) this.bindings.mutate(base.text);
      return;
    }
    const names = isLocal(target)
      ? [target]
      : target.descendantsOfType(['identifier', 'instance_variable', 'global_variable', 'class_variable']);
    for (const name of names) this.bindings.other(name.text);
  }

  resolve(node: SyntaxNode | undefined): Value {
    if (!node) return UNKNOWN;
    switch (node.type) {
      case 'string':
      case 'subshell':
      case 'heredoc_body':
      case 'bare_string':
        return this.stringValue(node);
      case 'heredoc_beginning':
        return UNKNOWN;
      case 'simple_symbol':
        return str(node.text.slice(1));
      case 'delimited_symbol':
      case 'bare_symbol':
        return this.stringValue(node);
      case 'integer':
      case 'true':
      case 'false':
      case 'nil':
        return str(node.text);
      case 'identifier':
      case 'instance_variable':
      case 'global_variable':
      case 'class_variable':
        return (
          this.bindings.lookup(node.text, (value) => this.resolve(value)) ??
          (node.type === 'identifier' ? UNKNOWN : UNKNOWN)
        );
      case 'constant':
        return { kind: 'ref', name: node.text };
      case 'element_reference':
        return this.environmentValue(node);
      case 'scope_resolution':
        return { kind: 'ref', name: node.text.replace(/^::/, '') };
      case 'parenthesized_statements':
        return this.resolve(node.namedChildren[node.namedChildren.length - 1]);
      case 'array':
      case 'string_array':
        return {
          kind: 'list',
          items: node.namedChildren.map((item) => (item.type === 'splat_argument' ? UNKNOWN : this.resolve(item))),
        };
      case 'binary':
        return node.childForFieldName('operator')?.text === '+'
          ? concat([this.resolve(node.childForFieldName('left')), this.resolve(node.childForFieldName('right'))])
          : UNKNOWN;
      case 'hash':
        return { kind: 'record', fields: new Map() };
      case 'call':
        return this.callValue(node);
      default:
        return UNKNOWN;
    }
  }

  private stringValue(node: SyntaxNode): Value {
    const single = node.text.startsWith("'") || node.text.startsWith('%q') || node.text.startsWith('%w');
    let text = '';
    let runTime = false;
    for (const part of node.namedChildren) {
      if (part.type === 'string_content') text += single ? part.text.replace(/\\([\\'])/g, '$1') : part.text;
      else if (part.type === 'interpolation') {
        // `#{ENV['HOME']}` is known: the home folder, as the shell would write it.
        const inner = part.namedChildren[part.namedChildren.length - 1];
        const known = textOf(this.resolve(inner));
        if (known !== undefined) text += known;
        else {
          // `#{ENV['API_KEY']}` holds what the shell's `${API_KEY}` does: a command line that sends it
          // is read as sending that variable.
          const name = inner?.type === 'element_reference' ? textOf(this.environmentKey(inner)) : undefined;
          text += name !== undefined && /^[A-Za-z_]\w*$/.test(name) ? `\${${name}}` : RUN_TIME_PART;
          runTime = true;
        }
      } else if (part.type === 'escape_sequence') {
        const body = part.text.slice(1);
        const decoded =
          ESCAPES[body] ??
          (/^x[0-9a-fA-F]{1,2}$/.test(body)
            ? String.fromCharCode(parseInt(body.slice(1), 16))
            : body.length === 1
              ? body
              : undefined);
        if (decoded === undefined) return UNKNOWN;
        text += decoded;
      } else if (part.type === 'heredoc_content' || part.type === 'heredoc_end') {
        if (part.type === 'heredoc_content') text += part.text;
      } else return UNKNOWN;
    }
    return interpolated(text, runTime);
  }

  private calleeOf(node: SyntaxNode): { api: string; receiver?: Value } {
    const method = node.childForFieldName('method')?.text ?? '';
    const receiverNode = node.childForFieldName('receiver');
    if (!receiverNode) return { api: method };
    const receiver = this.resolve(receiverNode);
    if (receiver.kind === 'ref') return { api: `${receiver.name}.${method}`, receiver };
    if (receiver.kind === 'object') return { api: `${receiver.type}.${method}`, receiver };
    if (receiverNode.type === 'identifier' && receiverNode.text === 'binding') return { api: `binding.${method}` };
    return { api: `?.${method}`, receiver };
  }

  private argumentsOf(node: SyntaxNode, api: string): Call {
    const call: Call = { api, positional: [], named: new Map(), namedSpread: false };
    for (const item of node.childForFieldName('arguments')?.namedChildren ?? []) {
      if (item.type === 'splat_argument' || item.type === 'hash_splat_argument')
        call.spreadAt ??= call.positional.length;
      else if (item.type === 'pair') call.positional.push({ kind: 'record', fields: new Map() });
      else if (item.type === 'block_argument') continue;
      else call.positional.push(this.resolve(item));
    }
    return call;
  }

  private callValue(node: SyntaxNode): Value {
    const callee = this.calleeOf(node);
    const call = this.argumentsOf(node, callee.api);
    const first = call.positional[0] ?? UNKNOWN;
    if (callee.api === 'URI' || callee.api === 'URI.parse') return { kind: 'object', type: 'URI', of: first };
    if (callee.api === 'File.join') return joinPath(call.positional);
    if (callee.api === 'File.expand_path') return first;
    if (callee.api === 'Dir.home') return HOME;
    if (callee.api === 'Object.const_get' || callee.api === 'Kernel.const_get') {
      return first.kind === 'str' ? { kind: 'ref', name: first.text } : UNKNOWN;
    }
    if (callee.api === '?.join' && callee.receiver?.kind === 'list') {
      const separator = call.positional.length === 0 ? '' : textOf(first);
      const texts = callee.receiver.items.map(textOf);
      if (separator === undefined || texts.some((t) => t === undefined)) return UNKNOWN;
      return str(texts.join(separator));
    }
    return UNKNOWN;
  }

  private visit(node: SyntaxNode): void {
    switch (node.type) {
      case 'call':
        this.visitCall(node);
        return;
      case 'identifier':
        // A bare `system` or `exec` with no arguments and no parentheses is a call too.
        if (node.parent?.type !== 'call' && !this.bindings.has(node.text) && RUBY_APIS.has(node.text)) {
          RUBY_APIS.get(node.text)?.(
            { api: node.text, positional: [], named: new Map(), namedSpread: false },
            this.out,
          );
        }
        return;
      case 'subshell':
        this.out.exec('backticks', this.resolve(node));
        return;
      case 'element_reference':
        this.visitEnvironment(node);
        return;
      case 'constant':
        if (node.text === 'ENV' && node.parent?.type === 'argument_list') this.out.wholeEnvironment('ENV');
    }
  }

  private visitCall(node: SyntaxNode): void {
    const callee = this.calleeOf(node);
    const call = this.argumentsOf(node, callee.api);
    if (callee.receiver) call.receiver = callee.receiver;
    const method = node.childForFieldName('method')?.text ?? '';
    if (SENDERS.has(method)) {
      const target = call.positional[0];
      if (target?.kind !== 'str') {
        this.out.giveUp(`${method} with computed method name`);
        return;
      }
      const prefix = callee.api.slice(0, callee.api.length - method.length);
      const sent = prefix === '' || prefix === '?.' ? target.text : `${prefix}${target.text}`;
      const handler = RUBY_APIS.get(sent);
      if (handler)
        handler(
          {
            ...call,
            api: sent,
            positional: call.positional.slice(1),
            spreadAt: call.spreadAt === undefined ? undefined : call.spreadAt - 1,
          },
          this.out,
        );
      return;
    }
    RUBY_APIS.get(callee.api)?.(call, this.out);
  }

  /** The key of `ENV[key]`, resolved, or undefined for another element reference. */
  private environmentKey(node: SyntaxNode): Value | undefined {
    const base = node.childForFieldName('object') ?? node.namedChildren[0];
    if (base?.type !== 'constant' || base.text !== 'ENV') return undefined;
    return this.resolve(node.namedChildren.find((c) => c !== base));
  }

  /** `ENV['HOME']` is the home folder; other variables are known only at run time. */
  private environmentValue(node: SyntaxNode): Value {
    return textOf(this.environmentKey(node)) === 'HOME' ? HOME : UNKNOWN;
  }

  private visitEnvironment(node: SyntaxNode): void {
    if (node.parent?.type === 'assignment' && node.field === 'left') return;
    const key = this.environmentKey(node);
    if (key !== undefined) this.out.envRead('ENV', key);
  }
}

function isLocal(node: SyntaxNode): boolean {
  return ['identifier', 'instance_variable', 'global_variable', 'class_variable'].includes(node.type);
}
