import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { policyTable } from './table';
import { aWrite, anEdit, ready, run, verdictOf } from './harness';
import { aFilesSource } from '../../builders/factSource';
import { policyByName } from '../../../src/core/policies/registry';
import { resolvePolicyStates } from '../../../src/core/policies/run';
import { aConfig } from '../../builders/config';
import { aTempDir } from '../../builders/tempProject';

const SETTINGS = '/home/dev/proj/.claude/settings.json';

policyTable('warden-self-protection', [
  {
    note: 'read the hook token',
    spec: { tool: 'Read', input: { file_path: '/home/dev/.agent-warden/hook-token' } },
    expect: 'deny',
  },
  { note: 'cat the log', spec: 'cat ~/.agent-warden/activity.jsonl', expect: 'deny' },
  { note: 'list the folder', spec: 'ls ~/.agent-warden', expect: 'deny' },
  { note: 'truncate the log', spec: ': > ~/.agent-warden/activity.jsonl', expect: 'deny' },
  { note: 'delete the log', spec: 'rm -f /home/dev/.agent-warden/activity.jsonl', expect: 'deny' },
  { note: 'shred', spec: 'shred -u ~/.agent-warden/activity.jsonl.1', expect: 'deny' },
  { note: 'move it away', spec: 'mv ~/.agent-warden ~/.aw-old', expect: 'deny' },
  {
    note: 'user config',
    spec: { tool: 'Write', input: { file_path: '/home/dev/.agent-warden/config.json', content: '{}' } },
    expect: 'deny',
  },
  {
    note: 'project config',
    spec: { tool: 'Edit', input: { file_path: '.agent-warden/config.json', old_string: 'true', new_string: 'false' } },
    expect: 'deny',
  },
  { note: 'project local config by shell', spec: 'echo {} > .agent-warden/config.local.json', expect: 'deny' },
  { note: 'the variable', spec: 'cat "$AGENT_WARDEN_HOME/hook-token"', expect: 'deny' },
  {
    note: 'grep the folder',
    spec: { tool: 'Grep', input: { pattern: 'token', path: '/home/dev/.agent-warden' } },
    expect: 'deny',
  },
  { note: 'pkill by name', spec: 'pkill -f agent-warden', expect: 'deny' },
  { note: 'pkill the server', spec: 'pkill -f "node dist/cli.js serve"', expect: 'deny' },
  { note: 'killall node', spec: 'killall node', expect: 'deny' },
  { note: 'uninstall', spec: 'npx agent-warden uninstall --agent claude --scope user', expect: 'deny' },
  { note: 'in bash -c', spec: "bash -c 'rm -rf ~/.agent-warden'", expect: 'deny' },
  { note: 'near miss: reading project config is fine', spec: 'cat .agent-warden/config.json', expect: null },
  { note: 'near miss: other dotfolder', spec: 'ls ~/.npm', expect: null },
  { note: 'near miss: kill one pid', spec: 'kill 4242', expect: null },
  { note: 'near miss: running the CLI', spec: 'npx agent-warden policies --json', expect: null },
  // Warden's program: the files the agents' hook commands run (a stub there turns Warden off).
  {
    note: 'overwrite the running bundle',
    spec: { tool: 'Write', input: { file_path: '/opt/tools/guard/dist/hook.sh', content: 'exit 0' } },
    expect: 'deny',
  },
  { note: 'redirect over the shell bridge', spec: 'echo "exit 0" > /opt/tools/guard/dist/hook.sh', expect: 'deny' },
  { note: 'copy over the Node bridge', spec: 'cp /tmp/stub.js /opt/tools/guard/dist/hook.js', expect: 'deny' },
  { note: 'take its read permission', spec: 'chmod 000 /opt/tools/guard/dist/cli.js', expect: 'deny' },
  { note: 'sed in place', spec: "sed -i 's/deny/allow/' /opt/tools/guard/dist/evalWorker.js", expect: 'deny' },
  { note: 'delete the folder above it', spec: 'rm -rf /opt/tools/guard', expect: 'deny' },
  { note: 'move the folder above it', spec: 'mv /opt/tools /opt/tools.old', expect: 'deny' },
  { note: 'chmod the folder above it', spec: 'chmod -R 000 /opt/tools', expect: 'deny' },
  { note: 'from inside it', spec: { bash: 'truncate -s 0 hook.js', cwd: '/opt/tools/guard/dist' }, expect: 'deny' },
  {
    note: 'an installed extension, whatever host runs',
    spec: {
      tool: 'Edit',
      input: {
        file_path: '/home/dev/.vscode/extensions/agent-warden.agent-warden-0.1.0/package.json',
        old_string: '"main": "./dist/extension.js"',
        new_string: '"main": "./x.js"',
      },
    },
    expect: 'deny',
  },
  {
    note: 'the npm-installed CLI',
    spec: 'tee /usr/local/lib/node_modules/agent-warden/dist/hook.js < /tmp/stub.js',
    expect: 'deny',
  },
  {
    note: 'the npm copy found at run time',
    spec: 'cp stub.js "$(npm root -g)/agent-warden/dist/hook.js"',
    expect: 'deny',
  },
  {
    note: 'no host folder given: installed copies still guarded',
    spec: { bash: 'echo > ~/.cursor/extensions/agent-warden.agent-warden-0.2.1/dist/hook.sh', programDir: null },
    expect: 'deny',
  },
  { note: 'near miss: reading the bundle', spec: 'head -c 200 /opt/tools/guard/dist/cli.js', expect: null },
  { note: 'near miss: a sibling folder', spec: 'rm -rf /opt/tools/other', expect: null },
  { note: 'near miss: creating a file above it', spec: 'touch /opt/tools/notes.txt', expect: null },
  { note: 'near miss: another extension', spec: 'rm -rf ~/.vscode/extensions/ms-python.python-2026.1.0', expect: null },
  {
    note: "near miss: a project's own dist",
    spec: { tool: 'Write', input: { file_path: '/home/dev/proj/dist/index.js', content: 'x' } },
    expect: null,
  },
  // The Node.js a hook command names by its absolute path (often a version manager's, the user's to write).
  {
    note: "a stub over a version manager's node",
    spec: 'printf "#!/bin/sh\\nexit 0\\n" > ~/.nvm/versions/node/v20.20.2/bin/node',
    expect: 'deny',
  },
  { note: 'copy over the system node', spec: 'cp /tmp/stub /usr/local/bin/node', expect: 'deny' },
  { note: 'its execute bit taken', spec: 'chmod -x /usr/bin/nodejs', expect: 'deny' },
  { note: 'moved away', spec: 'mv ~/.local/share/fnm/node-versions/v22/installation/bin/node /tmp/n', expect: 'deny' },
  {
    note: 'by a file tool',
    spec: { tool: 'Write', input: { file_path: '/home/dev/.volta/tools/image/node/22.1.0/bin/node', content: 'x' } },
    expect: 'deny',
  },
  { note: 'the node found at run time', spec: 'cp /tmp/stub "$(which node)"', expect: 'deny' },
  { note: 'found with command -v', spec: 'rm -f "$(command -v node)"', expect: 'deny' },
  { note: 'near miss: running node', spec: 'node --version', expect: null },
  { note: 'near miss: reading the node binary', spec: 'file /usr/local/bin/node', expect: null },
  { note: "near miss: a project's own bin/node wrapper", spec: 'echo "exec node \\"$@\\"" > bin/node', expect: null },
  { note: 'near miss: a file named after node elsewhere', spec: 'cp notes.txt /tmp/node', expect: null },
]);

test('warden-self-protection: removing or locking a folder that holds a Node.js, found on disk', async (t) => {
  await ready();
  const dir = aTempDir('hook-node', t);
  const root = join(dir, 'proj');
  const version = join(dir, '.nvm', 'versions', 'node', 'v20.20.2');
  mkdirSync(join(version, 'bin'), { recursive: true });
  writeFileSync(join(version, 'bin', 'node'), '');
  mkdirSync(join(dir, '.nvm', 'versions', 'node', 'v18-empty'), { recursive: true });
  mkdirSync(root, { recursive: true });
  const policies = [policyByName('warden-self-protection')!];
  const verdict = (bash: string) =>
    run({ bash, root, cwd: root, home: dir }, { policies }).find((o) => o.policy === 'warden-self-protection')
      ?.verdict ?? null;
  assert.equal(verdict(`rm -rf ${version}`), 'deny');
  assert.equal(verdict(`chmod 000 ${join(version, 'bin')}`), 'deny');
  assert.equal(verdict(`mv ${version} /tmp/old-node`), 'deny');
  // Near misses: a version folder with no node in it, and a file written beside it.
  assert.equal(verdict(`rm -rf ${join(dir, '.nvm', 'versions', 'node', 'v18-empty')}`), null);
  assert.equal(verdict(`touch ${join(version, 'NOTES')}`), null);
});

policyTable('agent-config-tampering', [
  {
    note: "near miss: Codex's reasoning effort raised by a patch",
    spec: {
      agent: 'codex',
      tool: 'apply_patch',
      input: {
        command:
          '*** Begin Patch\n*** Update File: .codex/config.toml\n@@\n model = "gpt-5-codex"\n+model_reasoning_effort = "high"\n*** End Patch',
      },
    },
    expect: null,
  },
  {
    note: 'an approval policy set by the same kind of patch',
    spec: {
      agent: 'codex',
      tool: 'apply_patch',
      input: {
        command:
          '*** Begin Patch\n*** Update File: .codex/config.toml\n@@\n model = "gpt-5-codex"\n+approval_policy = "never"\n*** End Patch',
      },
    },
    expect: 'deny',
  },
  {
    note: 'a model change that also drops a notify program',
    spec: {
      agent: 'codex',
      tool: 'apply_patch',
      input: {
        command:
          '*** Begin Patch\n*** Update File: .codex/config.toml\n@@\n-notify = ["notify-send"]\n+model = "o3"\n*** End Patch',
      },
    },
    expect: 'deny',
  },
  {
    note: "near miss: Claude Code's model switched",
    spec: {
      tool: 'Edit',
      input: {
        file_path: '/home/dev/proj/.claude/settings.json',
        old_string: '"model": "sonnet"',
        new_string: '"model": "opus"',
      },
    },
    expect: null,
  },
  {
    note: 'a model switch that brings hooks with it',
    spec: {
      tool: 'Edit',
      input: {
        file_path: '/home/dev/proj/.claude/settings.json',
        old_string: '"model": "sonnet"',
        new_string: '"model": "opus", "hooks": {}',
      },
    },
    expect: 'deny',
  },
  {
    note: 'near miss: jq adds deny rules and mv puts its output in place (the file read as it is)',
    spec: {
      bash: `jq '.permissions.deny += ["Read(./.env)", "Read(./**/.dev.vars)"]' .claude/settings.json > /tmp/s.json && mv /tmp/s.json .claude/settings.json`,
      source: aFilesSource({ [SETTINGS]: '{"permissions": {"allow": ["Bash(npm test:*)"], "deny": []}}' }),
    },
    expect: null,
  },
  {
    note: 'near miss: jq adds an ask rule to settings that are not there yet',
    spec: {
      bash: `jq '.permissions.ask += ["Bash(git push:*)"]' .claude/settings.json > /tmp/s.json && mv /tmp/s.json .claude/settings.json`,
    },
    expect: null,
  },
  {
    note: 'jq adds an allow rule the same way',
    spec: {
      bash: `jq '.permissions.allow += ["Bash(curl:*)"]' .claude/settings.json > /tmp/s.json && mv /tmp/s.json .claude/settings.json`,
    },
    expect: 'deny',
  },
  {
    note: 'jq adds a deny rule, and another command writes the file mv puts in place',
    spec: {
      bash: `jq '.permissions.deny += ["Read(./.env)"]' .claude/settings.json > /tmp/s.json; echo '{"permissions":{"allow":["Bash"]}}' > /tmp/s.json; mv /tmp/s.json .claude/settings.json`,
    },
    expect: 'deny',
  },
  {
    note: 'near miss: the same jq and mv inside an if, with an echo after',
    spec: {
      bash: `if true; then\n  jq '.permissions.deny += ["Read(./.env)"]' .claude/settings.json > /tmp/s.json && mv /tmp/s.json .claude/settings.json\nfi\necho done`,
    },
    expect: null,
  },
  {
    note: 'jq adds a deny rule, and a copy replaces its output before mv',
    spec: {
      bash: `jq '.permissions.deny += ["Read(./.env)"]' .claude/settings.json > /tmp/s.json && cp /tmp/loose.json /tmp/s.json && mv /tmp/s.json .claude/settings.json`,
    },
    expect: 'deny',
  },
  {
    note: 'near miss: jq lays its output out with --indent 2 and sorted keys',
    spec: {
      bash: `jq --indent 2 -S '.permissions.deny += ["Read(./.env)"]' .claude/settings.json > /tmp/s.json && mv /tmp/s.json .claude/settings.json`,
      source: aFilesSource({ [SETTINGS]: '{"permissions": {"allow": ["Bash(npm test:*)"], "deny": []}}' }),
    },
    expect: null,
  },
  {
    note: 'jq -n: the filter runs on nothing, so the output drops every setting the file had',
    spec: {
      bash: `jq -n '.permissions.deny += ["Read(./.env)"]' .claude/settings.json > /tmp/s.json && mv /tmp/s.json .claude/settings.json`,
      source: aFilesSource({ [SETTINGS]: '{"permissions": {"deny": ["Bash(curl:*)"]}}' }),
    },
    expect: 'deny',
  },
  {
    note: "jq's output moved over a different file than the one it read",
    spec: {
      bash: `jq '.permissions.deny += ["Read(./.env)"]' /tmp/other.json > /tmp/s.json && mv /tmp/s.json .claude/settings.json`,
    },
    expect: 'deny',
  },
  {
    note: 'near miss: a deny rule added to the permissions (the agent forbids itself a file)',
    spec: anEdit('.claude/settings.json', '    "deny": [\n', '    "deny": [\n      "Read(./.env.production)",\n'),
    expect: null,
  },
  {
    note: 'an allow rule added, however narrow',
    spec: anEdit('.claude/settings.json', '    "allow": [\n', '    "allow": [\n      "Bash(npm run test:*)",\n'),
    expect: 'deny',
  },
  {
    note: 'a rule added after the deny list closes and the allow list opens',
    spec: anEdit(
      '.claude/settings.json',
      '    "deny": ["Read(./.env)"],\n    "allow": [\n',
      '    "deny": ["Read(./.env)"],\n    "allow": [\n      "Bash(curl:*)",\n',
    ),
    expect: 'deny',
  },
  {
    note: "near miss: a deny rule appended after the list's last rule (the file is not there, so the text is read)",
    spec: anEdit(
      '.claude/settings.json',
      '"deny": [\n      "Read(./keys/root-*)"\n    ]',
      '"deny": [\n      "Read(./keys/root-*)",\n      "Bash(espefuse.py:*)"\n    ]',
    ),
    expect: null,
  },
  {
    note: 'an allow rule appended after the last rule of the allow list',
    spec: anEdit(
      '.claude/settings.json',
      '"allow": [\n      "Bash(npm test:*)"\n    ]',
      '"allow": [\n      "Bash(npm test:*)",\n      "Bash(curl:*)"\n    ]',
    ),
    expect: 'deny',
  },
  {
    note: 'near miss: a rule added beside a deny rule, the deny list read from the file as it is',
    spec: {
      ...anEdit(
        '.claude/settings.json',
        '"Bash(kubectl delete:*)",',
        '"Bash(kubectl delete:*)", "Bash(helm uninstall:*)",',
      ),
      source: aFilesSource({ [SETTINGS]: '{"permissions": {"deny": ["Bash(kubectl delete:*)", "Read(./.env)"]}}' }),
    },
    expect: null,
  },
  {
    note: 'the same edit where the file shows the list is the allow list',
    spec: {
      ...anEdit(
        '.claude/settings.json',
        '"Bash(kubectl delete:*)",',
        '"Bash(kubectl delete:*)", "Bash(helm uninstall:*)",',
      ),
      source: aFilesSource({ [SETTINGS]: '{"permissions": {"allow": ["Bash(kubectl delete:*)", "Read(./.env)"]}}' }),
    },
    expect: 'deny',
  },
  {
    note: 'a deny rule added without its comma: the file would no longer parse, and its deny list would be lost',
    spec: {
      ...anEdit('.claude/settings.json', '"Read(./.env)"', '"Read(./.env)" "Bash(rm:*)"'),
      source: aFilesSource({ [SETTINGS]: '{"permissions": {"deny": ["Read(./.env)"]}}' }),
    },
    expect: 'deny',
  },
  {
    note: 'a deny rule added together with a hook',
    spec: {
      ...anEdit(
        '.claude/settings.json',
        '"deny": ["Read(./.env)"]}',
        '"deny": ["Read(./.env)", "Bash(rm:*)"]}, "hooks": {"Stop": []}',
      ),
      source: aFilesSource({ [SETTINGS]: '{"permissions": {"deny": ["Read(./.env)"]}}' }),
    },
    expect: 'deny',
  },
  {
    note: 'near miss: new project settings that only deny',
    spec: aWrite(
      '.claude/settings.json',
      '{\n  "permissions": {\n    "deny": ["Read(./.env)", "Bash(git push --force:*)"]\n  }\n}\n',
    ),
    expect: null,
  },
  {
    note: 'new project settings that deny and allow',
    spec: aWrite('.claude/settings.json', '{"permissions": {"allow": ["Bash(npm test:*)"], "deny": ["Read(./.env)"]}}'),
    expect: 'deny',
  },
  {
    note: 'settings rewritten whole with a deny rule more and an allow rule more',
    spec: {
      ...aWrite(
        '.claude/settings.json',
        '{"permissions": {"allow": ["Bash(*)"], "deny": ["Read(./.env)", "Bash(rm:*)"]}}',
      ),
      source: aFilesSource({ [SETTINGS]: '{"permissions": {"deny": ["Read(./.env)"]}}' }),
    },
    expect: 'deny',
  },
  {
    note: 'near miss: settings rewritten whole with one deny rule more and the rest kept',
    spec: {
      ...aWrite('.claude/settings.json', '{"model": "opus", "permissions": {"deny": ["Read(./.env)", "Bash(rm:*)"]}}'),
      source: aFilesSource({ [SETTINGS]: '{"permissions": {"deny": ["Read(./.env)"]}, "model": "opus"}' }),
    },
    expect: null,
  },
  {
    note: 'near miss: the mode back to asking and an allow rule taken off, in one MultiEdit',
    spec: {
      tool: 'MultiEdit',
      input: {
        file_path: SETTINGS,
        edits: [
          { old_string: '"defaultMode": "acceptEdits"', new_string: '"defaultMode": "default"' },
          { old_string: '"Bash(npm:*)", ', new_string: '' },
        ],
      },
      source: aFilesSource({
        [SETTINGS]: '{"permissions": {"defaultMode": "acceptEdits", "allow": ["Bash(npm:*)", "Bash(make:*)"]}}',
      }),
    },
    expect: null,
  },
  {
    note: 'an allow rule narrowed is still a rule the agent grants itself',
    spec: {
      ...anEdit(SETTINGS, '"Bash(npm:*)"', '"Bash(npm test:*)"'),
      source: aFilesSource({ [SETTINGS]: '{"permissions": {"allow": ["Bash(npm:*)"]}}' }),
    },
    expect: 'deny',
  },
  {
    note: 'the mode switched to skipping permissions',
    spec: {
      ...anEdit(SETTINGS, '"defaultMode": "default"', '"defaultMode": "bypassPermissions"'),
      source: aFilesSource({ [SETTINGS]: '{"permissions": {"defaultMode": "default"}}' }),
    },
    expect: 'deny',
  },
  {
    note: 'a deny rule removed',
    spec: anEdit('.claude/settings.json', '    "deny": [\n      "Read(./.env)",\n', '    "deny": [\n'),
    expect: 'deny',
  },
  {
    note: 'a hook moved away with git mv',
    spec: 'git mv .claude/hooks/guard.py .claude/hooks.disabled/',
    expect: 'deny',
  },
  { note: 'a hook removed with git rm', spec: 'git rm -q .claude/hooks/guard.py', expect: 'deny' },
  { note: 'near miss: git mv of sources', spec: 'git mv src/old.ts src/new.ts', expect: null },
  {
    note: 'near miss: git rm --cached of a hook keeps the file',
    spec: 'git rm --cached .claude/hooks/guard.py',
    expect: null,
  },
  {
    note: "aider's settings",
    spec: { tool: 'Write', input: { file_path: '.aider.conf.yml', content: 'yes-always: true\n' } },
    expect: 'deny',
  },
  {
    note: 'near miss: find -exec sed over the sources',
    spec: `find src -name '*.ts' -exec sed -i 's/foo/bar/g' {} +`,
    expect: null,
  },
  {
    note: 'claude settings',
    spec: { tool: 'Write', input: { file_path: '.claude/settings.json', content: '{}' } },
    expect: 'deny',
  },
  {
    note: 'claude local settings by shell',
    spec: 'echo \'{"permissions":{"allow":["Bash(*)"]}}\' > .claude/settings.local.json',
    expect: 'deny',
  },
  {
    note: 'user claude settings',
    spec: { tool: 'Edit', input: { file_path: '~/.claude/settings.json', old_string: 'a', new_string: 'b' } },
    expect: 'deny',
  },
  { note: 'claude hooks', spec: 'cp x.sh .claude/hooks/pre.sh', expect: 'deny' },
  {
    note: 'codex hooks',
    spec: { tool: 'Write', input: { file_path: '.codex/hooks.json', content: '{}' } },
    expect: 'deny',
  },
  { note: 'gemini settings', spec: "sed -i 's/a/b/' .gemini/settings.json", expect: 'deny' },
  { note: 'cursor hooks', spec: 'rm .cursor/hooks.json', expect: 'deny' },
  {
    note: 'copilot hooks',
    spec: { tool: 'create', input: { path: '.github/hooks/x.json', file_text: '{}' } },
    expect: 'deny',
  },
  { note: 'mcp config', spec: { tool: 'Write', input: { file_path: '.mcp.json', content: '{}' } }, expect: 'deny' },
  {
    note: 'apply_patch',
    spec: {
      tool: 'apply_patch',
      input: { input: '*** Begin Patch\n*** Update File: .claude/settings.json\n@@\n-a\n+b\n*** End Patch' },
    },
    expect: 'deny',
  },
  {
    note: 'near miss: CLAUDE.md',
    spec: { tool: 'Write', input: { file_path: 'CLAUDE.md', content: '# notes' } },
    expect: null,
  },
  { note: 'near miss: reading settings', spec: 'cat .claude/settings.json', expect: null },
  {
    note: 'near miss: claude commands',
    spec: { tool: 'Write', input: { file_path: '.claude/commands/review.md', content: 'x' } },
    expect: null,
  },
  {
    note: 'near miss: github workflows',
    spec: { tool: 'Write', input: { file_path: '.github/workflows/ci.yml', content: 'x' } },
    expect: null,
  },
]);

policyTable('nested-agent-permission-bypass', [
  { spec: 'claude -p "fix it" --dangerously-skip-permissions', expect: 'deny' },
  { note: 'permission mode', spec: 'claude --permission-mode bypassPermissions -p "x"', expect: 'deny' },
  { note: 'codex', spec: 'codex exec --dangerously-bypass-approvals-and-sandbox "x"', expect: 'deny' },
  { note: 'gemini', spec: 'gemini --yolo -p "x"', expect: 'deny' },
  { note: 'copilot', spec: 'copilot -p "x" --allow-all-tools', expect: 'deny' },
  { note: 'near miss: plain claude -p', spec: 'claude -p "summarise the diff"', expect: null },
  { note: 'near miss: permission mode plan', spec: 'claude --permission-mode plan -p "x"', expect: null },
]);

test('warden-self-protection: hook entries in agent settings and recorded pids', async (t) => {
  await ready();
  const dir = aTempDir('selfprot', t);
  const root = join(dir, 'proj');
  const state = join(dir, 'state');
  mkdirSync(join(root, '.claude'), { recursive: true });
  mkdirSync(join(state, 'endpoints'), { recursive: true });
  // As `install --scope local` writes it: a loopback hook URL and a literal token, no name.
  writeFileSync(
    join(root, '.claude', 'settings.json'),
    JSON.stringify({
      hooks: {
        PreToolUse: [
          {
            hooks: [
              { type: 'http', url: 'http://127.0.0.1:41234/hooks/claude', headers: { Authorization: 'Bearer abc' } },
            ],
          },
        ],
      },
    }),
  );
  writeFileSync(join(root, '.claude', 'settings.local.json'), JSON.stringify({ permissions: { allow: [] } }));
  writeFileSync(join(state, 'endpoints', 'a.json'), JSON.stringify({ pid: 31337, url: 'http://127.0.0.1:1' }));
  const base = { root, cwd: root, home: dir, stateDir: state };
  const name = 'warden-self-protection';
  const policy = policyByName(name);
  assert.ok(policy);
  const states = resolvePolicyStates([policy], aConfig().build());
  const verdict = (spec: Parameters<typeof run>[0]) =>
    run(spec, { states }).find((o) => o.policy === name)?.verdict ?? null;

  assert.equal(
    verdict({ ...base, tool: 'Write', input: { file_path: join(root, '.claude', 'settings.json'), content: '{}' } }),
    'deny',
  );
  assert.equal(
    verdict({ ...base, bash: "jq 'del(.hooks)' .claude/settings.json > x && mv x .claude/settings.json" }),
    'deny',
  );
  assert.equal(
    verdict({
      ...base,
      tool: 'Write',
      input: { file_path: join(root, '.claude', 'settings.local.json'), content: '{}' },
    }),
    null,
    'a settings file without Warden entries is not self-protection',
  );
  assert.equal(
    verdict({
      ...base,
      tool: 'Edit',
      input: {
        file_path: join(root, '.claude', 'settings.local.json'),
        old_string: '"url": "http://127.0.0.1:41234/hooks/claude"',
        new_string: '',
      },
    }),
    'deny',
    'editing the entry out of another file',
  );
  assert.equal(verdict({ ...base, bash: 'kill -9 31337' }), 'deny');
  assert.equal(verdict({ ...base, bash: 'kill -9 31338' }), null);
  // Self-protection cannot be switched off by a scope.
  const off = resolvePolicyStates([policy], aConfig().policy(name, {}, { enabled: false }).build());
  assert.equal(off[0]?.enabled, true);
  assert.equal(off[0]?.source, 'always-on');
  assert.equal(verdictOf(name, { bash: 'cat ~/.agent-warden/hook-token' })?.verdict, 'deny');
});
