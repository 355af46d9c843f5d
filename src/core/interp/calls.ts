// A call as the readers hand it to the API tables, and the handlers those tables are made of.
import type { Collector } from './collector';
import type { CodeEffectKind } from './types';
import { UNKNOWN, type Value } from './values';

export interface Call {
  /** The API's qualified name, as reported in effects. */
  api: string;
  positional: Value[];
  /** Positions from here on come from a spread (`*args`, `...args`) and are unknown. */
  spreadAt?: number;
  named: Map<string, Value>;
  /** Whether a `**kwargs` spread may hold any keyword. */
  namedSpread: boolean;
  /** The object a method was called on (a Path, a socket), if any. */
  receiver?: Value;
}

export type Handler = (call: Call, out: Collector) => void;

/** The argument at `index`, or the keyword `name` when given that way. */
export function arg(call: Call, index: number, name?: string): Value {
  if (name !== undefined) {
    const named = call.named.get(name);
    if (named) return named;
  }
  if (call.spreadAt !== undefined && index >= call.spreadAt) return UNKNOWN;
  return call.positional[index] ?? UNKNOWN;
}

/** The positional arguments from `index` on, with a spread as one unknown item. */
export function restFrom(call: Call, index: number): Value[] {
  const rest = call.positional.slice(index, call.spreadAt);
  if (call.spreadAt !== undefined) rest.push(UNKNOWN);
  return rest;
}

/** The path an object stands for (a Path made from text), or the value itself. */
export function pathOf(value: Value): Value {
  return value.kind === 'object' ? value.of : value;
}

/** Runs shell text (or an argument vector, when given a list) from argument `index`. */
export function execArg(index: number, name?: string): Handler {
  return (call, out) => out.exec(call.api, arg(call, index, name));
}

/** Runs the argument vector made of the positional arguments from `index` on. */
export function execRest(index: number): Handler {
  return (call, out) => out.execArgv(call.api, restFrom(call, index));
}

/** A file effect on the path in argument `index` (or the receiver, for a method of a path object). */
export function fileArg(kind: CodeEffectKind, index: number, name?: string): Handler {
  return (call, out) => out.effect(kind, call.api, pathOf(arg(call, index, name)));
}

export function fileReceiver(kind: CodeEffectKind): Handler {
  return (call, out) => out.effect(kind, call.api, pathOf(call.receiver ?? UNKNOWN));
}

/** Copying reads the source and writes the target. */
export function copyArgs(from: number, to: number): Handler {
  return (call, out) => {
    out.effect('read', call.api, pathOf(arg(call, from)));
    out.effect('write', call.api, pathOf(arg(call, to)));
  };
}

/** Moving removes the source and writes the target. */
export function moveArgs(from: number, to: number): Handler {
  return (call, out) => {
    out.effect('delete', call.api, pathOf(arg(call, from)));
    out.effect('write', call.api, pathOf(arg(call, to)));
  };
}

export function networkArg(index: number, name?: string): Handler {
  return (call, out) => out.effect('network', call.api, networkTarget(arg(call, index, name)));
}

/** A URL or host: text as is, a (host, port) pair as host:port, a request object as its URL. */
export function networkTarget(value: Value): Value {
  if (value.kind === 'object') return networkTarget(value.of);
  if (value.kind === 'list') {
    const [host, port] = value.items;
    if (host?.kind !== 'str') return UNKNOWN;
    return port?.kind === 'str' ? { kind: 'str', text: `${host.text}:${port.text}` } : host;
  }
  if (value.kind === 'record') {
    const host = value.fields.get('host') ?? value.fields.get('hostname') ?? value.fields.get('url');
    return host ? networkTarget(host) : UNKNOWN;
  }
  return value;
}

export function envArg(index: number): Handler {
  return (call, out) => out.envRead(call.api, arg(call, index));
}

/** Combines handlers that each report part of one call. */
export function both(...handlers: Handler[]): Handler {
  return (call, out) => {
    for (const handler of handlers) handler(call, out);
  };
}
