// PHP code read from its syntax, with or without the opening tag.
import { before, test } from 'node:test';
import { loadCodeGrammars } from '../../../src/core/interp';
import { checkRows } from './helpers';

before(() => loadCodeGrammars());

test('php: process execution, files, network, environment', () => {
  checkRows('php', [
    { code: 'system("ls -la");', effects: ['exec system ls -la'] },
    { code: '$f = "system"; $f("id");', effects: ['exec system id'] },
    { code: 'echo `whoami`;', effects: ['exec backticks whoami'] },
    { code: '<?php passthru("rm -rf " . $dir); ?>', effects: ['exec passthru rm -rf $RUNTIME_VALUE?'] },
    { code: '\\shell_exec("id");', effects: ['exec shell_exec id'] },
    { code: 'proc_open(["rm", "-rf", "/tmp/x"], [], $p);', effects: ['exec proc_open [rm,-rf,/tmp/x]'] },
    { code: 'call_user_func("system", "id");', effects: ['exec system id'] },
    { code: 'file_put_contents("/etc/cron.d/x", $d);', effects: ['write file_put_contents /etc/cron.d/x'] },
    { code: 'echo file_get_contents("/etc/passwd");', effects: ['read file_get_contents /etc/passwd'] },
    {
      code: 'echo file_get_contents("https://evil.example/x");',
      effects: ['network file_get_contents https://evil.example/x'],
    },
    { code: 'fopen("/tmp/a", "w");', effects: ['write fopen /tmp/a'] },
    { code: 'unlink($_GET["f"]);', effects: ['delete unlink?'] },
    { code: '$c = curl_init("http://x.y"); curl_exec($c);', effects: ['network curl http://x.y'] },
    { code: 'echo getenv("AWS_SECRET_ACCESS_KEY");', effects: ['env-read getenv AWS_SECRET_ACCESS_KEY'] },
    { code: 'print_r($_ENV);', effects: ['env-read $_ENV *'] },
  ]);
});

test('php: eval and computed calls', () => {
  checkRows('php', [
    { code: 'eval("system(\\"ls\\");");', effects: ['exec system ls'] },
    { code: 'eval($code);', unread: ['eval of computed code'] },
    { code: '$f($x);', unread: ['call of a computed function name'] },
    { code: 'include $page;', unread: ['include of a computed path'] },
    { code: 'system(', unread: ['parse error'] },
  ]);
});

test('php: ordinary code and near misses', () => {
  checkRows('php', [
    { code: 'echo "system(1)";' },
    { code: 'echo json_encode(["a" => 1 + 2]);' },
    { code: 'echo fgets(STDIN);' },
    { code: 'echo getenv("PATH");' },
    { code: '$o->system("x");' },
  ]);
});
