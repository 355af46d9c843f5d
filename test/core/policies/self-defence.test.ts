// Self-defence on the call's facts: stopping or freezing Warden by pid, pattern,
// port or signal; starting another endpoint or re-pointing hooks; deleting or
// renaming folders that hold agent or Warden configuration; reaching the state
// folder through globs, symlinks, /proc, ~user and run-time paths. A deny when
// the call certainly hits Warden, an ask when only run time can tell.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Evaluator } from '../../../src/core/evaluator';
import { toolCallOf } from '../../../src/core/policies/call';
import { FaceBook } from '../../../src/core/config/faces';
import { runPolicies, resolvePolicyStates } from '../../../src/core/policies/run';
import { wardenSelfDefence } from '../../../src/core/policies/library/self-defence';
import { INTERPRETER_CODE_READER as interpCodeReader } from '../../../src/core/interp/reader';
import type { FactSource } from '../../../src/core/facts/io';
import { SessionStore } from '../../../src/core/policies/session';
import { aConfig } from '../../builders/config';
import { aHookEvent } from '../../builders/hookEvent';
import { policyTable } from './table';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { policyByName } from '../../../src/core/policies/registry';
import { aTempDir } from '../../builders/tempProject';
import { ready, run } from './harness';

const HOME = '/home/dev';
const ROOT = '/home/dev/proj';
const STATE = '/home/dev/.agent-warden';
const PID = '4242';
const PORT = '50123';

const FILES: Record<string, string> = {
  [`${STATE}/endpoints/${PID}-${PORT}.json`]: JSON.stringify({ pid: Number(PID), url: `http://127.0.0.1:${PORT}` }),
  [`/proc/${PID}/cmdline`]: ['node', '/opt/aw/dist/cli.js', 'serve', '--port', '0'].join('\0'),
  [`/proc/${PID}/comm`]: 'node\n',
  '/opt/aw/package.json': '{ "name": "agent-warden", "version": "0.1.0" }',
};
const DIRS = [
  STATE,
  `${STATE}/endpoints`,
  `${ROOT}/.claude`,
  `${HOME}/.claude`,
  `${ROOT}/.github/hooks`,
  `${ROOT}/.github`,
];
const LINKS: Record<string, string> = { [`${ROOT}/link`]: STATE };

/** The machine as this table sees it: a running serve with its record, two .claude folders, one symlink. */
const source: FactSource = {
  realpath: (p) => {
    for (const [link, target] of Object.entries(LINKS))
      if (p === link || p.startsWith(`${link}/`)) return target + p.slice(link.length);
    return FILES[p] !== undefined || DIRS.includes(p) ? p : null;
  },
  exists: (p) => FILES[p] !== undefined || DIRS.includes(p) || LINKS[p] !== undefined,
  readText: (p, max) => FILES[p]?.slice(0, max) ?? null,
  listDir: (p) => {
    const names = Object.keys(FILES)
      .filter((f) => f.startsWith(`${p}/`))
      .map((f) => f.slice(p.length + 1).split('/')[0]!);
    return names.length ? [...new Set(names)] : DIRS.includes(p) ? [] : null;
  },
  git: () => null,
};

function verdict(command: string): string | null {
  const event = aHookEvent().bash(command).session('s').inCwd(ROOT).build();
  const config = aConfig().build();
  const call = toolCallOf(event, {
    projectRoot: ROOT,
    home: HOME,
    faces: new FaceBook(new Map()),
    source,
    reader: interpCodeReader,
  });
  const outcomes = runPolicies(resolvePolicyStates([wardenSelfDefence], config), {
    event,
    call: call!,
    session: new SessionStore().memoryFor('s'),
    stateDir: STATE,
    io: call!.io,
  });
  const outcome = outcomes.find((o) => o.policy === 'warden-self-defence');
  if (outcome) assert.match(outcome.reason, /^Warden self-defence: /, 'its own reason');
  return outcome?.verdict ?? null;
}

const ROWS: [string, 'deny' | 'ask' | null][] = [
  // Stopping or freezing Warden
  [`kill -9 ${PID}`, 'deny'],
  [`kill -STOP ${PID}`, 'deny'],
  [`kill -s STOP ${PID}`, 'deny'],
  [`kill -SIGTSTP ${PID}`, 'deny'],
  ['kill -9 -1', 'deny'],
  [`fuser -k ${PORT}/tcp`, 'deny'],
  [`fuser -k -n tcp ${PORT}`, 'deny'],
  [`lsof -t -i :${PORT} | xargs kill`, 'deny'],
  [`lsof -t -i tcp:${PORT} | xargs kill -STOP`, 'deny'],
  [`kill $(lsof -t -i :${PORT})`, 'deny'],
  ["pkill -f 'cli.js serve'", 'deny'],
  ['pkill -f serve', 'deny'],
  ['pkill node', 'deny'],
  ['killall node', 'deny'],
  ['kill $(cat /tmp/server.pid)', 'ask'],
  ['kill -STOP $PID', 'ask'],
  ['pgrep node | xargs kill', 'deny'],
  ['kill -STOP $(pidof node)', 'deny'],
  ['kill $(pgrep -f "cli.js serve")', 'deny'],
  ['lsof -ti:3000 | xargs kill -9', null],
  ['kill $(lsof -t -i:3000)', null],
  ['pgrep -f vite | xargs kill', null],
  // Pids in a variable: its origin decides, as for a substitution in place.
  ['PID=$(lsof -tiTCP:3000 -sTCP:LISTEN || true)\nif [ -n "$PID" ]; then kill "$PID"; fi', null],
  ['npm run dev & DEV=$!\nsleep 5; curl -s localhost:3000 >/dev/null; kill "$DEV"', null],
  [`PID=$(lsof -t -i :${PORT}); kill "$PID"`, 'deny'],
  ['P=$(pgrep -f "cli.js serve"); kill -STOP $P', 'deny'],
  ['PID=$(cat /tmp/server.pid); kill "$PID"', 'ask'],
  ['if [ -f x ]; then PID=$(lsof -ti:3000); fi; kill "$PID"', 'ask'],
  ['xargs kill < pids.txt', 'ask'],
  ['fuser -k $PORT/tcp', 'ask'],
  ["pkill -f '(['", 'ask'],
  ['kill 4243', null],
  // Looking for the guard's process or port asks; looking for another's does not.
  ["lsof -nP -iTCP -sTCP:LISTEN | grep -iE 'warden|node'", 'ask'],
  ['pgrep -fl agent-warden', 'ask'],
  ['lsof -nP -iTCP -sTCP:LISTEN | grep 8545', null],
  ['grep -rn warden docs/', null],
  ['fuser -k 8080/tcp', null],
  ["pkill -f 'python app.py'", null],
  ['killall python3', null],
  // Another endpoint, hooks re-pointed, the bridge by hand
  ['agent-warden install --agent claude --scope local --url http://127.0.0.1:9999', 'deny'],
  ['npx agent-warden install --agent claude --scope user', 'deny'],
  ['npx agent-warden serve --port 0', 'deny'],
  ['node /opt/aw/dist/cli.js serve --port 0', 'deny'],
  ['agent-warden hook --agent claude < event.json', 'deny'],
  ['agent-warden env', 'deny'],
  ['nohup agent-warden serve > /dev/null 2>&1 &', 'deny'],
  ['agent-warden policies --json', null],
  ['agent-warden digest --tool Bash', null],
  ['node dist/cli.js serve', null],
  // Folders that hold agent or Warden configuration
  ['rm -rf .claude', 'deny'],
  ['mv .claude .claude-old', 'deny'],
  ['rm -rf ~/.claude', 'deny'],
  ['mv .github .gh', 'deny'],
  ['rm -rf ~/.agent-warden', 'deny'],
  ['rm -rf .c*', 'ask'],
  ['rm -rf .gemini', null],
  ['rm -rf build', null],
  ['mv notes.txt docs/', null],
  // The state folder through globs, links, /proc, ~user, run time
  ['cat ~/.agent-warden/hook-token', 'deny'],
  ['cat ~dev/.agent-warden/hook-token', 'deny'],
  ['cat /proc/self/root/home/dev/.agent-warden/hook-token', 'deny'],
  ['cat link/hook-token', 'deny'],
  ['cat ~/.agent-w?rden/hook-token', 'ask'],
  ['cat /home/*/.agent-warden/endpoint-key', 'ask'],
  ['D=$(ls -d ~/.agent-w*); cat "$D/hook-token"', 'ask'],
  ['ls -d ~/.agent-*/* | while read -r f; do cat "$f"; done', 'ask'],
  ['for f in tests/fixtures/*.json; do jq empty "$f"; done', null],
  ['for f in $(find . -name \'*.orig\'); do rm "$f"; done', null],
  // A run-time part under a relative folder, or a pipe to a command, aims nowhere in particular…
  ['for p in $(ls packages); do jq -r .name "packages/$p/package.json"; done', null],
  ['diff <(cut -d= -f1 "$1" | sort) <(cut -d= -f1 "$2" | sort)', null],
  ['curl -s "https://api.example.test$path" | sed -E \'s/^\\]\\(//; s/\\)$//\'', null],
  ['echo "rewriting ${#files[@]} files"; for f in "${files[@]}"; do sed -i s/a/b/ "$f"; done', null],
  // …unless the call aims it at the state folder by other means.
  ['D=~/.agent-w*; for p in $(ls $D); do cat "sub/../$p"; done', 'ask'],
  ['cat <(cat ~/.agent-warden/hook-token)', 'deny'],
  [`python3 -c "open('/home/dev/.agent-warden/activity.jsonl', 'a').write('forged')"`, 'deny'],
  ['cat README.md', null],
  ['cat ~/.bashrc', null],
];

test(`warden-self-defence: ${ROWS.length} cases`, async (t) => {
  await Evaluator.ready({ warmUp: false });
  for (const [command, expected] of ROWS)
    await t.test(`${expected ?? 'no finding'}: ${command}`, () => assert.equal(verdict(command), expected));
});

test('warden-self-defence is always on: a config cannot switch it off', () => {
  const config = aConfig().policy('warden-self-defence', {}, { enabled: false }).build();
  const [state] = resolvePolicyStates([wardenSelfDefence], config);
  assert.equal(state?.enabled, true);
});

policyTable('editor-code-config', [
  { spec: 'code --install-extension evil.publisher-ext', expect: 'ask' },
  { spec: 'code-server --install-extension ./agent.vsix', expect: 'ask' },
  { spec: 'cursor --uninstall-extension ms-python.python', expect: 'ask' },
  { spec: 'echo "{}" > .vscode/tasks.json', expect: 'ask' },
  {
    spec: {
      tool: 'Write',
      input: { file_path: '/home/dev/proj/.vscode/settings.json', content: '{"python.defaultInterpreterPath": "./x"}' },
    },
    expect: 'ask',
  },
  {
    note: 'a terminal profile runs its program when a terminal opens',
    spec: {
      tool: 'Write',
      input: {
        file_path: '/home/dev/proj/.vscode/settings.json',
        content: '{"editor.tabSize": 2, "terminal.integrated.profiles.linux": {"x": {"path": "/tmp/x"}}}',
      },
    },
    expect: 'ask',
  },
  {
    note: 'a setting of a display family that names a program',
    spec: {
      tool: 'Write',
      input: { file_path: '/home/dev/proj/.vscode/settings.json', content: '{"workbench.externalBrowser": "/tmp/b"}' },
    },
    expect: 'ask',
  },
  {
    note: 'a language block holding a tool setting',
    spec: {
      tool: 'Write',
      input: {
        file_path: '/home/dev/proj/.vscode/settings.json',
        content: '{"[python]": {"python.linting.pylintPath": "/tmp/p"}}',
      },
    },
    expect: 'ask',
  },
  {
    note: 'settings with comments are not read as display-only',
    spec: {
      tool: 'Write',
      input: { file_path: '/home/dev/proj/.vscode/settings.json', content: '{\n  // tabs\n  "editor.tabSize": 2\n}' },
    },
    expect: 'ask',
  },
  {
    note: 'an edit of a settings file that cannot be read (only a fragment is known)',
    spec: {
      tool: 'Edit',
      input: { file_path: '/home/dev/proj/.vscode/settings.json', old_string: '4', new_string: '2' },
    },
    expect: 'ask',
  },
  {
    note: 'display settings in the user settings, which apply to every folder, still ask',
    spec: {
      tool: 'Write',
      input: { file_path: '/home/dev/.config/Code/User/settings.json', content: '{"editor.tabSize": 2}' },
    },
    expect: 'ask',
  },
  { spec: `echo '{"editor.tabSize": 2}' > .vscode/settings.json`, expect: 'ask' },
  { spec: 'cp -r ext ~/.vscode/extensions/', expect: 'ask' },
  { spec: 'tee ~/.config/Code/User/settings.json < s.json', expect: 'ask' },
  { note: 'near miss: listing extensions', spec: 'code --list-extensions', expect: null },
  { note: 'near miss: opening a file', spec: 'code README.md', expect: null },
  { note: 'near miss: reading settings', spec: 'cat .vscode/settings.json', expect: null },
  {
    note: 'near miss: workspace settings that only change display and formatting',
    spec: {
      tool: 'Write',
      input: {
        file_path: '/home/dev/proj/.vscode/settings.json',
        content: JSON.stringify({
          'editor.formatOnSave': true,
          'editor.tabSize': 2,
          'files.exclude': { '**/dist': true },
          '[typescript]': { 'editor.defaultFormatter': 'esbenp.prettier-vscode' },
        }),
      },
    },
    expect: null,
  },
]);

test('editor-code-config: an edit of workspace settings is judged on the file it leaves', async (t) => {
  await ready();
  const root = aTempDir('editor-settings', t);
  mkdirSync(join(root, '.vscode'));
  const settings = join(root, '.vscode', 'settings.json');
  const policies = [policyByName('editor-code-config')!];
  const edit = (old_string: string, new_string: string) =>
    run(
      { tool: 'Edit', input: { file_path: settings, old_string, new_string }, root, cwd: root, home: root },
      { policies },
    ).find((o) => o.policy === 'editor-code-config')?.verdict ?? null;
  writeFileSync(settings, '{\n  "editor.formatOnSave": false,\n  "editor.tabSize": 2\n}\n');
  assert.equal(edit('"editor.formatOnSave": false', '"editor.formatOnSave": true'), null);
  // The edit brings in a setting that runs a program.
  assert.equal(
    edit(
      '"editor.tabSize": 2',
      '"editor.tabSize": 2,\n  "terminal.integrated.profiles.linux": {"x": {"path": "/tmp/x"}}',
    ),
    'ask',
  );
  // The text to replace is not in the file: what the edit leaves is unknown.
  assert.equal(edit('"editor.wordWrap": "on"', '"editor.wordWrap": "off"'), 'ask');
  // The file already holds a setting that runs a program: the edit leaves it there.
  writeFileSync(settings, '{"editor.formatOnSave": false, "python.defaultInterpreterPath": "./venv/bin/python"}');
  assert.equal(edit('"editor.formatOnSave": false', '"editor.formatOnSave": true'), 'ask');
});
