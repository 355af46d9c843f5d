// The browser side (run.test.ts, memory.ts) and the extension-host suite hand each other JSON files
// in a shared folder, each polling for the other's. A file is written whole under another name and
// then renamed, so the side that polls never reads one half written.
import { renameSync, writeFileSync } from 'node:fs';

export function writeHandshake(file: string, value: unknown): void {
  writeFileSync(`${file}.tmp`, JSON.stringify(value));
  renameSync(`${file}.tmp`, file);
}
