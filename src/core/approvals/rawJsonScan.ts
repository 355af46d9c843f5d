// What a parsed value can no longer show: an object that names the same key twice (JSON.parse
// keeps the last value, another reader may keep the first, so Warden and the tool could read
// different arguments) and a number literal too large for a double (1e400 parses to Infinity).
// One linear pass over the text with an explicit stack, so nesting depth cannot overflow it.
// Keys are compared decoded: {"a":1,"\u0061":2} names "a" twice.
//
// The scanner reads JSON, it does not validate it: callers run JSON.parse on the same text first.
// On text that is not JSON it throws a SyntaxError or reports nothing; it always terminates.

import { formatPath, type PathSegment } from './jsonPath';

export interface RawScanVisitor {
  /** A key that repeats an earlier key of the same object; `objectPath` locates that object. Return true to stop. */
  onDuplicateKey?(key: string, objectPath: readonly PathSegment[]): boolean;
  /** A number literal that does not parse to a finite double; return true to stop. */
  onNonFiniteNumber?(literal: string, path: readonly PathSegment[]): boolean;
  /**
   * A finite number literal that does not round-trip: the double it parses to prints as other
   * text (9007199254740993 reads as …992, a long decimal loses digits, 1.0 prints as 1), so a
   * reader that keeps the text and one that keeps the double see different values. Return true to stop.
   */
  onInexactNumber?(literal: string, path: readonly PathSegment[]): boolean;
}

// Most objects have a handful of keys: a short list is cheaper to search than a Set is to build.
const SMALL_OBJECT_KEYS = 12;

interface ObjectFrame {
  kind: 'object';
  keys: string[];
  keySet: Set<string> | null;
  key: string;
  expectingKey: boolean;
}

type Frame = ObjectFrame | { kind: 'array'; index: number };

/** Records `key` in its object; false when the object already named it. */
function recordKey(frame: ObjectFrame, key: string): boolean {
  if (frame.keySet !== null) {
    if (frame.keySet.has(key)) return false;
    frame.keySet.add(key);
    return true;
  }
  if (frame.keys.includes(key)) return false;
  frame.keys.push(key);
  if (frame.keys.length > SMALL_OBJECT_KEYS) frame.keySet = new Set(frame.keys);
  return true;
}

/** Visits every duplicate key and non-finite number literal of `jsonText`, in text order. */
export function scanJsonText(jsonText: string, visitor: RawScanVisitor): void {
  const frames: Frame[] = [];
  const length = jsonText.length;
  let position = 0;
  while (position < length) {
    const code = jsonText.charCodeAt(position);
    if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09 || code === 0x3a) {
      position++;
    } else if (code === 0x7b) {
      frames.push({ kind: 'object', keys: [], keySet: null, key: '', expectingKey: true });
      position++;
    } else if (code === 0x5b) {
      frames.push({ kind: 'array', index: 0 });
      position++;
    } else if (code === 0x7d || code === 0x5d) {
      if (frames.pop() === undefined) throw notJson(position);
      position++;
    } else if (code === 0x2c) {
      const top = frames[frames.length - 1];
      if (top === undefined) throw notJson(position);
      if (top.kind === 'array') top.index++;
      else top.expectingKey = true;
      position++;
    } else if (code === 0x22) {
      const end = closingQuote(jsonText, position);
      const top = frames[frames.length - 1];
      if (top !== undefined && top.kind === 'object' && top.expectingKey) {
        const key = decodeKey(jsonText, position, end);
        top.expectingKey = false;
        top.key = key;
        if (!recordKey(top, key) && visitor.onDuplicateKey?.(key, pathOf(frames, frames.length - 1)) === true) return;
      }
      position = end + 1;
    } else if (code === 0x2d || (code >= 0x30 && code <= 0x39)) {
      let end = position + 1;
      while (end < length && isNumberChar(jsonText.charCodeAt(end))) end++;
      const literal = jsonText.slice(position, end);
      if (mayOverflow(literal) && !Number.isFinite(Number(literal))) {
        if (visitor.onNonFiniteNumber?.(literal, pathOf(frames, frames.length)) === true) return;
      } else if (visitor.onInexactNumber && String(Number(literal)) !== literal) {
        if (visitor.onInexactNumber(literal, pathOf(frames, frames.length)) === true) return;
      }
      position = end;
    } else {
      position = skipLiteral(jsonText, position);
    }
  }
  if (frames.length > 0) throw notJson(length);
}

/** The first duplicate key of `jsonText` and the location of the object that repeats it, or null. */
export function findDuplicateKey(jsonText: string): { key: string; path: string } | null {
  let found: { key: string; path: string } | null = null;
  scanJsonText(jsonText, {
    onDuplicateKey(key, objectPath) {
      found = { key, path: formatPath(objectPath) };
      return true;
    },
  });
  return found;
}

/** The first number literal of `jsonText` that overflows a double, and its location, or null. */
export function findNonFiniteNumber(jsonText: string): { literal: string; path: string } | null {
  let found: { literal: string; path: string } | null = null;
  scanJsonText(jsonText, {
    onNonFiniteNumber(literal, path) {
      found = { literal, path: formatPath(path) };
      return true;
    },
  });
  return found;
}

function pathOf(frames: readonly Frame[], count: number): PathSegment[] {
  const path = new Array<PathSegment>(count);
  for (let index = 0; index < count; index++) {
    const frame = frames[index] as Frame;
    path[index] = frame.kind === 'array' ? frame.index : frame.key;
  }
  return path;
}

function closingQuote(text: string, openingQuote: number): number {
  let position = openingQuote + 1;
  while (position < text.length) {
    const code = text.charCodeAt(position);
    if (code === 0x22) return position;
    position += code === 0x5c ? 2 : 1;
  }
  throw notJson(openingQuote);
}

function decodeKey(text: string, openingQuote: number, closing: number): string {
  const raw = text.slice(openingQuote + 1, closing);
  if (!raw.includes('\\')) return raw;
  const decoded: unknown = JSON.parse(text.slice(openingQuote, closing + 1));
  if (typeof decoded !== 'string') throw notJson(openingQuote);
  return decoded;
}

function isNumberChar(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) || code === 0x2e || code === 0x65 || code === 0x45 || code === 0x2b || code === 0x2d
  );
}

/** Without an exponent, a literal needs more than 308 digits to exceed the largest double. */
function mayOverflow(literal: string): boolean {
  return literal.length > 300 || literal.includes('e') || literal.includes('E');
}

function skipLiteral(text: string, position: number): number {
  for (const literal of ['true', 'false', 'null']) {
    if (text.startsWith(literal, position)) return position + literal.length;
  }
  throw notJson(position);
}

function notJson(position: number): SyntaxError {
  return new SyntaxError(`not JSON text at offset ${position}`);
}
