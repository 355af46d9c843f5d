// Shell structure that runs a line exactly as it was, in this shell or one it starts (a subshell,
// `bash -c`, a heredoc, an interpreter's system call): the forms the metamorphic tests wrap lines in.

/** The line as one single-quoted shell word. */
const singleQuoted = (line: string) => `'${line.replace(/'/g, `'\\''`)}'`;

/** The line as a Perl or PHP single-quoted string, where only `\\` and `'` are escaped. */
const scriptQuoted = (line: string) => `'${line.replace(/[\\']/g, (c) => `\\${c}`)}'`;

// Each form runs the line unchanged, in this shell or a shell it starts. A heredoc's body follows its
// line, so a form's closing text goes on a line of its own.
export const WRAPPERS: Record<string, (line: string) => string> = {
  subshell: (line) => `(\n${line}\n)`,
  group: (line) => `{\n${line}\n}`,
  'if true': (line) => `if true; then\n${line}\nfi`,
  'for loop': (line) => `for attempt in 1; do\n${line}\ndone`,
  'while once': (line) => `while true; do\n${line}\nbreak\ndone`,
  function: (line) => `run_it() {\n${line}\n}\nrun_it`,
  'after true &&': (line) => `true && ${line}`,
  'after echo;': (line) => `echo starting; ${line}`,
  'then echo': (line) => `${line}\necho done`,
  'bash -c': (line) => `bash -c ${singleQuoted(line)}`,
  'sh -c': (line) => `sh -c ${singleQuoted(line)}`,
  eval: (line) => `eval ${singleQuoted(line)}`,
  'bash heredoc': (line) => `bash <<'WARDEN_END'\n${line}\nWARDEN_END`,
  'piped to sh': (line) => `printf '%s\\n' ${singleQuoted(line)} | sh`,
  'here-string': (line) => `bash <<< ${singleQuoted(line)}`,
  'source <()': (line) => `source <(printf '%s\\n' ${singleQuoted(line)})`,
  'timeout bash -c': (line) => `timeout 600 bash -c ${singleQuoted(line)}`,
  'nohup &': (line) => `nohup bash -c ${singleQuoted(line)} > /dev/null 2>&1 &`,
  'xargs sh -c': (line) => `echo go | xargs -I{} sh -c ${singleQuoted(line)}`,
  'script file': (line) => `printf '%s\\n' ${singleQuoted(line)} > scripts/step.sh && bash scripts/step.sh`,
  base64: (line) => `echo ${Buffer.from(line).toString('base64')} | base64 -d | bash`,
  'python subprocess': (line) =>
    `python3 - <<'PY'\nimport subprocess\nsubprocess.run(${JSON.stringify(line)}, shell=True)\nPY`,
  'python -c os.system': (line) => `python3 -c ${singleQuoted(`import os; os.system(${JSON.stringify(line)})`)}`,
  'ruby system': (line) => `ruby -e ${singleQuoted(`system(${JSON.stringify(line).replace(/#/g, '\\#')})`)}`,
  'perl system': (line) => `perl -e ${singleQuoted(`system(${scriptQuoted(line)})`)}`,
  'php system': (line) => `php -r ${singleQuoted(`system(${scriptQuoted(line)});`)}`,
  'node execSync': (line) =>
    `node -e ${singleQuoted(`require("child_process").execSync(${JSON.stringify(line)}, { stdio: "inherit" })`)}`,
};
