import { test } from 'node:test';
import assert from 'node:assert/strict';
import { expandHome, isInside, relatePath, resolvePath } from '../../../src/core/shell/paths';
import { agentConfigKind } from '../../../src/core/policies/library/shared/agent-paths';
import { secretFileKind } from '../../../src/core/facts/sensitive-paths';

test('POSIX forms: ~, $HOME, relative, .. and the project relation', () => {
  const home = '/home/dev';
  const root = '/home/dev/proj';
  assert.equal(expandHome('~/x', home), '/home/dev/x');
  assert.equal(expandHome('$HOME', home), '/home/dev');
  assert.equal(resolvePath('src/../lib/a.ts', root, home), '/home/dev/proj/lib/a.ts');
  assert.equal(resolvePath('../other', root, home), '/home/dev/other');
  assert.equal(relatePath(resolvePath('.', root, home), root, home), 'project-root');
  assert.equal(relatePath('/home/dev/proj/src', root, home), 'inside-project');
  assert.equal(relatePath('/home/dev/proj-old', root, home), 'outside-project-in-home');
  assert.equal(relatePath('/home/dev', root, home), 'home');
  assert.equal(relatePath('/etc', root, home), 'system');
  assert.equal(secretFileKind('/home/dev/.aws/credentials', home), 'AWS credentials');
  assert.equal(agentConfigKind('/home/dev/proj/.claude/settings.json', root, home), 'Claude Code settings');
});

test('Windows forms: drive letters, backslashes, case and UNC paths', () => {
  const home = 'C:\\Users\\dev';
  const root = 'C:\\Users\\dev\\proj';
  assert.equal(resolvePath('src\\a.ts', root, home), 'C:\\Users\\dev\\proj\\src\\a.ts');
  assert.equal(resolvePath('..\\other', root, home), 'C:\\Users\\dev\\other');
  assert.equal(resolvePath('~\\.ssh\\id_rsa', root, home), 'C:\\Users\\dev\\.ssh\\id_rsa');
  assert.equal(resolvePath('D:\\data', root, home), 'D:\\data');
  assert.equal(
    relatePath('c:\\users\\DEV\\proj\\src', root, home),
    'inside-project',
    'drive paths compare without case',
  );
  assert.equal(relatePath('C:\\Users\\dev\\proj', root, home), 'project-root');
  assert.equal(relatePath('C:\\Users\\dev\\Documents', root, home), 'outside-project-in-home');
  assert.equal(relatePath('C:\\Windows\\System32', root, home), 'system');
  assert.equal(relatePath('/home/dev/proj', root, home), 'system', 'a POSIX path is never inside a drive path');
  assert.equal(isInside('\\\\server\\share\\x', '\\\\server\\share'), true);
  assert.equal(secretFileKind('C:\\Users\\dev\\.ssh\\id_ed25519', home), 'an SSH private key');
  assert.equal(secretFileKind('C:\\Users\\dev\\.aws\\credentials', home), 'AWS credentials');
  assert.equal(agentConfigKind('C:\\Users\\dev\\proj\\.Claude\\Settings.json', root, home), 'Claude Code settings');
});
