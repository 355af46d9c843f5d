// The interpreter-code reader's speed: per language, analyzeCode on a typical one-liner and on a
// 200-line script (p50, p99 over 1,000 calls for a one-liner and 50 for a script, after a warm-up), and the time to load the grammars.
// node bench/run.mjs interp

import { performance } from 'node:perf_hooks';
import { analyzeCode, loadCodeGrammars, type CodeLanguage } from '../src/core/interp';

const CALLS = 1_000;
const WARMUP = 200;
/** A 200-line script takes about a hundred times as long: fewer rounds keep the bench short. */
const SCRIPT_CALLS = 50;
const SCRIPT_WARMUP = 10;

const ONE_LINERS: Record<CodeLanguage, string> = {
  python: 'import json, sys, os; d = json.load(sys.stdin); print(d["a"]); os.system("ls -la " + d["dir"])',
  javascript:
    'const cp = require("child_process"); for (const f of require("fs").readdirSync(".")) console.log(cp.execSync("wc -l " + f).toString())',
  php: '$d = json_decode(file_get_contents("php://stdin"), true); echo shell_exec("ls " . escapeshellarg($d["dir"]));',
  ruby: 'require "json"; d = JSON.parse(STDIN.read); puts d["a"]; system("ls", "-la", d["dir"])',
  powershell:
    'Get-ChildItem -Recurse | Where-Object { $_.Length -gt 1kb } | ForEach-Object { Remove-Item $_.FullName }',
  perl: 'while (<>) { chomp; my @f = split /,/; print join("\\t", @f), "\\n"; } system("ls", "-la")',
  awk: '{ s += $2; n++ } END { printf "%d %.2f\\n", n, s / n; print s > "/tmp/total" }',
  rust: 'fn main() { let out = std::process::Command::new("cargo").args(["metadata", "--format-version", "1"]).output().unwrap(); println!("{}", out.status); }',
};

function script(language: CodeLanguage): string {
  return Array.from({ length: 200 }, () => ONE_LINERS[language]).join('\n');
}

function figures(label: string, run: () => void, calls = CALLS, warmup = WARMUP): void {
  for (let i = 0; i < warmup; i++) run();
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => (times[Math.min(times.length - 1, Math.floor(q * times.length))] as number).toFixed(3);
  console.log(`figure: interp ${label}: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`);
}

async function main(): Promise<void> {
  const start = performance.now();
  await loadCodeGrammars();
  console.log(`figure: interp loadCodeGrammars: ${(performance.now() - start).toFixed(0)} ms`);
  for (const language of Object.keys(ONE_LINERS) as CodeLanguage[]) {
    const line = ONE_LINERS[language];
    const long = script(language);
    figures(`${language} one-liner`, () => analyzeCode(language, line));
    figures(`${language} 200-line script`, () => analyzeCode(language, long), SCRIPT_CALLS, SCRIPT_WARMUP);
  }
}

void main();
