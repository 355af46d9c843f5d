// Home expansion, resolution and how a path relates to the project and the home folder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { expandHome, isInside, relatePath, resolvePath, type PathRelation } from '../../../src/core/shell/paths';

const HOME = '/home/dev';
const ROOT = '/home/dev/proj';

const EXPAND: [string, string][] = [
  ['~', HOME],
  ['~/x/y', `${HOME}/x/y`],
  ['$HOME', HOME],
  ['$HOME/x', `${HOME}/x`],
  ['${HOME}/x', `${HOME}/x`],
  ['~user/x', '~user/x'],
  ['$HOMEX/y', '$HOMEX/y'],
  ['a/~/b', 'a/~/b'],
  ['/abs', '/abs'],
];

for (const [input, expected] of EXPAND) {
  test(`expandHome ${input}`, () => assert.equal(expandHome(input, HOME), expected));
}

test('expandHome with a trailing slash on home', () => assert.equal(expandHome('~/x', '/home/dev/'), '/home/dev/x'));

const RESOLVE: [string, string, string][] = [
  ['src/a.ts', ROOT, `${ROOT}/src/a.ts`],
  ['./src/../lib//b.ts', ROOT, `${ROOT}/lib/b.ts`],
  ['..', ROOT, HOME],
  ['../../..', ROOT, '/'],
  ['/etc/passwd', ROOT, '/etc/passwd'],
  ['/a/b/../c/', ROOT, '/a/c'],
  ['~/.ssh/id_rsa', ROOT, `${HOME}/.ssh/id_rsa`],
  ['${HOME}/.aws', '/tmp', `${HOME}/.aws`],
  ['x', 'relative/cwd', '/relative/cwd/x'],
  ['C:\\Users\\dev\\a.txt', ROOT, 'C:\\Users\\dev\\a.txt'],
  ['C:/Users/dev/../x', ROOT, 'C:\\Users\\x'],
  ['src\\a.ts', 'C:\\work\\proj', 'C:\\work\\proj\\src\\a.ts'],
  ['..\\..\\x', 'D:\\a\\b\\c', 'D:\\a\\x'],
  ['\\\\server\\share\\f', ROOT, '\\\\server\\share\\f'],
  // Git Bash's drive spelling, on a Windows host only.
  ['/c/Users/dev/.claude', 'C:\\work\\proj', 'C:\\Users\\dev\\.claude'],
  ['/d', 'C:\\work', 'D:\\'],
  ['/c/Users/dev/.claude', ROOT, '/c/Users/dev/.claude'],
  ['/cd/x', 'C:\\work', '/cd/x'],
];

for (const [input, cwd, expected] of RESOLVE) {
  test(`resolvePath ${input} from ${cwd}`, () => assert.equal(resolvePath(input, cwd, HOME), expected));
}

const RELATE: [string, PathRelation][] = [
  [ROOT, 'project-root'],
  [`${ROOT}/`, 'project-root'],
  [`${ROOT}/src/a.ts`, 'inside-project'],
  [HOME, 'home'],
  [`${HOME}/.bashrc`, 'outside-project-in-home'],
  [`${ROOT}-old/x`, 'outside-project-in-home'],
  ['/home/devil', 'system'],
  ['/etc', 'system'],
  ['/', 'system'],
];

for (const [input, expected] of RELATE) {
  test(`relatePath ${input}`, () => assert.equal(relatePath(input, ROOT, HOME), expected));
}

test('relatePath on Windows paths ignores case and separators', () => {
  const home = 'C:\\Users\\Dev';
  const root = 'C:\\Users\\Dev\\proj';
  assert.equal(relatePath('c:/users/dev/PROJ/src', root, home), 'inside-project');
  assert.equal(relatePath('C:\\Users\\Dev', root, home), 'home');
  assert.equal(relatePath('C:\\Users\\Dev\\Desktop', root, home), 'outside-project-in-home');
  assert.equal(relatePath('D:\\Users\\Dev\\proj', root, home), 'system');
});

test('a project that is the home folder itself', () => {
  assert.equal(relatePath(HOME, HOME, HOME), 'project-root');
  assert.equal(relatePath(`${HOME}/x`, HOME, HOME), 'inside-project');
});

const INSIDE: [string, string, boolean][] = [
  ['/a/b', '/a/b', true],
  ['/a/b/c', '/a/b', true],
  ['/a/bc', '/a/b', false],
  ['/a', '/a/b', false],
  ['/anything', '/', true],
  ['/a/b/', '/a/b', true],
  ['C:\\a\\b', 'c:\\A', true],
  ['C:\\a', '/a', false],
];

for (const [child, parent, expected] of INSIDE) {
  test(`isInside ${child} in ${parent}`, () => assert.equal(isInside(child, parent), expected));
}
