// A child process for the concurrent-append test: waits for a go file, then
// appends COUNT lines tagged TAG through a real ActivityLog with rotation on.
// Bundled at test time (it is not a *.test.ts file, so the build skips it).
import { existsSync } from 'node:fs';
import { ActivityLog } from '../../../src/core/activity/log';

const [logPath, keyHex, countText, tag, maxBytesText, keepText, goFile] = process.argv.slice(2);
if (!logPath || !keyHex || !countText || !tag || !maxBytesText || !keepText || !goFile) {
  process.stderr.write('usage: log-writer LOG KEYHEX COUNT TAG MAXBYTES KEEP GOFILE\n');
  process.exit(2);
}

const pause = new Int32Array(new SharedArrayBuffer(4));
const deadline = Date.now() + 20_000;
while (!existsSync(goFile)) {
  if (Date.now() > deadline) {
    process.stderr.write('no go file within 20 s\n');
    process.exit(3);
  }
  Atomics.wait(pause, 0, 0, 1);
}

const log = new ActivityLog({
  path: logPath,
  key: Buffer.from(keyHex, 'hex'),
  maxBytes: Number(maxBytesText),
  keep: Number(keepText),
});
const count = Number(countText);
for (let seq = 0; seq < count; seq++) {
  log.append({ type: 'record', tag, seq, pad: 'x'.repeat(40 + (seq % 17)) });
}
log.close();
