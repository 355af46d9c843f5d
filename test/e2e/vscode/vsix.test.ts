import assert from 'node:assert/strict';
import { readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { packageVsix } from './package-vsix';

// `npm run package` end to end, in a copy of the sources (so the clone's dist/
// is not rebuilt under tests running beside this one): the .vsix it makes
// holds the bundles, the panel, the icon, the schema and the metadata, and
// nothing else (no source maps, no sources, no node_modules).

const root = process.cwd();

/** Entry names of a zip file, read from its central directory. */
function zipEntries(zip: Buffer): string[] {
  const EOCD = 0x06054b50;
  let end = -1;
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at--) {
    if (zip.readUInt32LE(at) === EOCD) {
      end = at;
      break;
    }
  }
  assert.ok(end >= 0, 'the .vsix is a zip (its end-of-central-directory record is there)');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    assert.equal(zip.readUInt32LE(at), 0x02014b50, `central directory entry ${i}`);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    names.push(zip.subarray(at + 46, at + 46 + nameLength).toString('utf8'));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

/** What the package may hold: vsce's own two files and the extension's shipped files. */
const ALLOWED = [
  /^\[Content_Types\]\.xml$/,
  /^extension\.vsixmanifest$/,
  /^extension\/package\.json$/,
  /^extension\/readme\.md$/,
  /^extension\/changelog\.md$/,
  /^extension\/LICENSE\.txt$/,
  /^extension\/dist\/(extension|cli|evalWorker|hook)\.js$/,
  /^extension\/dist\/hook\.sh$/,
  /^extension\/dist\/[a-z-]+\.wasm$/,
  /^extension\/dist\/webview\/panel\.(js|css)$/,
  /^extension\/media\/icon\.png$/,
  /^extension\/media\/walkthrough\/(connect|panel|terminal|blocked)\.svg$/,
  /^extension\/schemas\/config\.schema\.json$/,
];

const REQUIRED = [
  'extension/package.json',
  'extension/dist/extension.js',
  'extension/dist/cli.js',
  'extension/dist/evalWorker.js',
  // The command bridge that Connect Another Agent writes into the other agents' hook files.
  'extension/dist/hook.js',
  // The shell bridge it writes where sh, curl and openssl can run it (it hands off to hook.js).
  'extension/dist/hook.sh',
  'extension/dist/webview/panel.js',
  'extension/dist/webview/panel.css',
  'extension/media/icon.png',
  'extension/media/walkthrough/connect.svg',
  'extension/media/walkthrough/blocked.svg',
  'extension/schemas/config.schema.json',
  'extension/readme.md',
  'extension/changelog.md',
  'extension/LICENSE.txt',
];

test(
  'npm run package makes a .vsix with only the bundles, the panel, the icon, the schema and the metadata',
  { timeout: 240_000 },
  () => {
    const { copy, vsix } = packageVsix(root);
    try {
      const entries = zipEntries(readFileSync(vsix));
      const stray = entries.filter((name) => !ALLOWED.some((pattern) => pattern.test(name)));
      assert.deepEqual(stray, [], 'nothing outside the shipped set is inside');
      for (const name of REQUIRED) assert.ok(entries.includes(name), `${name} is inside`);
      assert.ok(!entries.some((name) => name.endsWith('.map')), 'no source maps');
      const manifest = JSON.parse(readFileSync(join(copy, 'package.json'), 'utf8')) as { main: string; icon: string };
      assert.ok(entries.includes(`extension/${manifest.main.replace(/^\.\//, '')}`), 'the manifest main is inside');
      assert.ok(entries.includes(`extension/${manifest.icon}`), 'the manifest icon is inside');
      const bytes = statSync(vsix).size;
      console.log(
        `figure: agent-warden.vsix ${(bytes / 1024 / 1024).toFixed(2)} MB (${bytes} bytes), ${entries.length} entries: ${entries.join(', ')}`,
      );
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  },
);
