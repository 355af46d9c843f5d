// ssh's words read once (shell/ssh-args.ts): flags, valued options, the destination, options after it, the command.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSshArgs, sshHost } from '../../../src/core/shell/ssh-args';

test('flags, clustered values and the destination are told apart', () => {
  const ssh = parseSshArgs(['-fNA', '-L', '0.0.0.0:8080:web:80', '-oForwardAgent=yes', 'deploy@bastion.example.com']);
  assert.deepEqual([...ssh.flags].sort(), ['A', 'N', 'f']);
  assert.deepEqual(ssh.values, [
    { letter: 'L', value: '0.0.0.0:8080:web:80' },
    { letter: 'o', value: 'ForwardAgent=yes' },
  ]);
  assert.equal(ssh.destination, 'deploy@bastion.example.com');
  assert.deepEqual(ssh.command, []);
});

test('options after the destination are read as options, up to the remote command', () => {
  const ssh = parseSshArgs(['box', '-p', '2222', '-g', 'uptime', '-g']);
  assert.equal(ssh.destination, 'box');
  assert.deepEqual(ssh.values, [{ letter: 'p', value: '2222' }]);
  assert.ok(ssh.flags.has('g'));
  assert.deepEqual(ssh.command, ['uptime', '-g'], "a word after the command is the command's");
});

test('-- ends the options, and a value glued to its letter is one word', () => {
  const ssh = parseSshArgs(['-i~/.ssh/id_work', '--', '-host-like', 'ls']);
  assert.deepEqual(ssh.values, [{ letter: 'i', value: '~/.ssh/id_work' }]);
  assert.equal(ssh.destination, '-host-like');
  assert.deepEqual(ssh.command, ['ls']);
});

test('a destination names its host without user, scheme or port', () => {
  assert.equal(sshHost('deploy@203.0.113.12'), '203.0.113.12');
  assert.equal(sshHost('ssh://git@git.example.com:2222'), 'git.example.com');
  assert.equal(sshHost('bastion'), 'bastion');
});
