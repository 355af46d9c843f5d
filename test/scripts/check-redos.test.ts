// The ReDoS check reads a RegExp built from constants (templates, String.raw, another regex's source,
// imported consts, joined lists) as the pattern it folds to, and counts one built from run-time values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../builders/process';
import { aTempDir } from '../builders/tempProject';

function check(files: Record<string, string>, t: { after(fn: () => void): void }) {
  const dir = aTempDir('redos-src', t);
  mkdirSync(join(dir, 'src'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, 'src', name), text);
  return spawnSync(process.execPath, [join(repoRoot(), 'scripts', 'check-redos.mjs'), '--src', join(dir, 'src')], {
    encoding: 'utf8',
  });
}

test('a super-linear pattern assembled from constants across files is found', (t) => {
  const result = check(
    {
      'parts.ts': 'export const WORD = String.raw`(?:\\w+\\s?)+`;\n',
      'rule.ts': [
        "import { WORD } from './parts';",
        'const TAIL = /!$/;',
        'export const RULE = new RegExp(`^${WORD}${TAIL.source}`);',
        "export const LIST = new RegExp(['a', 'b'].join('|'), 'i');",
        'export const built = (name: string) => new RegExp(`^${name}$`);',
        '',
      ].join('\n'),
    },
    t,
  );
  assert.equal(result.status, 1, result.stdout + result.stderr);
  assert.match(result.stderr, /vulnerable {2}\S*rule\.ts:3 {2}\/\^\(\?:\\w\+\\s\?\)\+!\$\//);
  assert.match(
    result.stdout,
    /ReDoS check: 3 regexes in 2 files; 1 vulnerable, 0 unchecked; 1 built from run-time values/,
  );
});

test('linear patterns pass', (t) => {
  const result = check({ 'ok.ts': "const A = '[a-z]+';\nexport const B = new RegExp(`^${A}=\\\\d+$`, 'm');\n" }, t);
  assert.equal(result.status, 0, result.stdout + result.stderr);
  assert.match(
    result.stdout,
    /ReDoS check: 1 regexes in 1 files; 0 vulnerable, 0 unchecked; 0 built from run-time values/,
  );
});
