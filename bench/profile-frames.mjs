// Names for the frames of a V8 .cpuprofile (node --cpu-prof). A minified bundle (dist/) is read
// through its source map: a frame is named by its source file and line (and its original name where
// the map keeps one), so a profile of serve reads like the source.
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

const maps = new Map();

function sourceMapOf(url) {
  if (!maps.has(url)) {
    let map = null;
    try {
      const file = url.startsWith('file:') ? fileURLToPath(url) : url;
      if (existsSync(`${file}.map`)) map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
    } catch {
      map = null;
    }
    maps.set(url, map);
  }
  return maps.get(url);
}

function originalOf(callFrame) {
  const map = callFrame.url ? sourceMapOf(callFrame.url) : null;
  const entry = map?.findEntry(callFrame.lineNumber, callFrame.columnNumber);
  return entry?.originalSource ? { ...entry, originalSource: entry.originalSource.replace(/^(\.\.\/)+/, '') } : null;
}

/** `name file:line`, through the bundle's source map when it has one. */
export function frameName(callFrame) {
  const entry = originalOf(callFrame);
  if (entry)
    return `${entry.name ?? callFrame.functionName ?? '(anonymous)'} ${entry.originalSource}:${entry.originalLine + 1}`;
  const where = callFrame.url ? callFrame.url.replace(/^.*\//, '') : '(native)';
  return `${callFrame.functionName || '(anonymous)'} ${where}:${callFrame.lineNumber + 1}`;
}

/** The source file of a frame, through the source map when there is one. */
export function frameFile(callFrame) {
  if (!callFrame.url) return '(native)';
  return originalOf(callFrame)?.originalSource ?? callFrame.url.replace(/^.*\//, '');
}
