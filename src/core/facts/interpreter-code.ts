// Interpreter code that a shell command hands over: `python3 -c CODE`, `node -e CODE`, a heredoc
// or here-string into an interpreter, or literal text piped into one.
import type { SimpleCommand } from '../shell';
import { argsOf, evidenceOf, heredocInput, optionValues, parseFlags, pipedLiteral, upstreamStage } from './commands';
import { mongoShellInput } from './database-clients';
import { languageOfInterpreter } from './code';
import {
  artisanTinkerCode,
  djangoShellCode,
  executesStdin,
  inlineCode,
  interpreterKind,
  railsRunnerOperand,
} from './programs';
import type { CodeFact, Unread } from './types';

export interface CodeSource {
  language: string;
  code: string;
  origin: CodeFact['origin'];
  source: string;
  /** Index of the command that runs it. */
  command: number;
}

const AWKS = new Set(['awk', 'gawk', 'mawk', 'nawk', 'busybox-awk']);

/** An awk command's program text (its first operand), or null when it runs a program file (-f). */
function awkProgram(cmd: SimpleCommand): string | null {
  const args = argsOf(cmd);
  if (optionValues(args, ['f'], ['file']).length) return null;
  return parseFlags(args, ['F', 'v', 'f'], ['field-separator', 'assign', 'file']).positionals[0] ?? null;
}

/** `python3 <(…)`: the index of a program file operand that is a process substitution. */
function processFileOperand(cmd: SimpleCommand): number | undefined {
  for (let at = 1; at < cmd.argv.length; at++) {
    const word = cmd.argv[at] ?? '';
    if (cmd.dynamicWords.includes(at) && word.startsWith('<(')) return at;
    if (!word.startsWith('-')) return undefined;
  }
  return undefined;
}

/** The code each interpreter command runs, and what could not be known of it. */
export function interpreterCode(commands: readonly SimpleCommand[]): { sources: CodeSource[]; unread: Unread[] } {
  const sources: CodeSource[] = [];
  const unread: Unread[] = [];
  commands.forEach((cmd, index) => {
    if (AWKS.has(cmd.name)) {
      const program = awkProgram(cmd);
      if (program === null) return;
      if (cmd.dynamicWords.includes(cmd.argv.indexOf(program)))
        unread.push({ reason: 'unread-code', detail: `${cmd.name} runs a program built at run time` });
      else sources.push({ language: 'awk', code: program, origin: 'inline', source: cmd.name, command: index });
      return;
    }
    // MongoDB's shell runs JavaScript with Node's modules (`--eval 'require("child_process")…'`).
    if (cmd.name === 'mongosh' || cmd.name === 'mongo') {
      for (const code of optionValues(argsOf(cmd), [], ['eval']))
        sources.push({ language: 'javascript', code, origin: 'inline', source: cmd.name, command: index });
      const fed = mongoShellInput(commands, cmd);
      if (fed !== undefined)
        sources.push({ language: 'javascript', code: fed, origin: 'stdin', source: cmd.name, command: index });
      return;
    }
    // Blender runs --python-expr code in its embedded Python (`blender -b --python-expr "…"`).
    if (cmd.name === 'blender') {
      for (const code of optionValues(argsOf(cmd), [], ['python-expr']))
        sources.push({ language: 'python', code, origin: 'inline', source: cmd.name, command: index });
      return;
    }
    const tinker = artisanTinkerCode(cmd);
    if (tinker !== undefined) {
      if (cmd.dynamicWords.some((i) => tinker.startsWith((cmd.argv[i] ?? '').replace(/^--execute=/, ''))))
        unread.push({ reason: 'unread-code', detail: 'artisan tinker runs PHP built at run time' });
      else sources.push({ language: 'php', code: tinker, origin: 'inline', source: 'artisan tinker', command: index });
      return;
    }
    const django = djangoShellCode(cmd);
    if (django !== undefined) {
      if (cmd.dynamicWords.some((i) => django.startsWith((cmd.argv[i] ?? '').replace(/^--command=/, ''))))
        unread.push({ reason: 'unread-code', detail: 'manage.py shell runs Python built at run time' });
      else
        sources.push({ language: 'python', code: django, origin: 'inline', source: 'manage.py shell', command: index });
      return;
    }
    const runner = railsRunnerOperand(cmd);
    if (runner !== undefined && runner !== '-') {
      // A file operand (`bin/rails runner script/backfill.rb`) is the project's script, run like any other.
      if (/\.rb$/.test(runner)) return;
      if (cmd.dynamicWords.includes(cmd.argv.indexOf(runner)))
        unread.push({ reason: 'unread-code', detail: `rails runner runs Ruby built at run time` });
      else sources.push({ language: 'ruby', code: runner, origin: 'inline', source: 'rails runner', command: index });
      return;
    }
    const kind = runner === '-' ? 'ruby' : interpreterKind(cmd.name);
    if (!kind) return;
    const language = languageOfInterpreter(kind);
    const inline = inlineCode(cmd);
    if (inline !== undefined) {
      const codeIsDynamic = cmd.dynamicWords.some((i) => inline.includes(cmd.argv[i] ?? '\u0000'));
      if (codeIsDynamic)
        unread.push({
          reason: 'unread-code',
          detail: `${cmd.name} runs ${language} code built at run time (${evidenceOf(cmd.text, 80)})`,
        });
      else sources.push({ language, code: inline, origin: 'inline', source: cmd.name, command: index });
      return;
    }
    const file = processFileOperand(cmd);
    if (file !== undefined) {
      const text = cmd.fileTexts?.[file];
      if (text !== undefined)
        sources.push({ language, code: text, origin: 'inline', source: cmd.name, command: index });
      else
        unread.push({
          reason: 'unknown-script',
          detail: `${cmd.name} runs ${language} code that ${evidenceOf(cmd.argv[file] ?? '', 60)} prints, known only at run time`,
        });
      return;
    }
    if (runner === undefined && !executesStdin(cmd)) return;
    const heredoc = heredocInput(cmd);
    if (heredoc !== undefined) {
      sources.push({ language, code: heredoc, origin: 'heredoc', source: cmd.name, command: index });
      return;
    }
    if (cmd.pipeline.index === 0) return;
    const upstream = upstreamStage(commands, cmd);
    const text = pipedLiteral(commands, cmd);
    if (text !== undefined) sources.push({ language, code: text, origin: 'stdin', source: cmd.name, command: index });
    else
      unread.push({
        reason: 'unknown-script',
        detail: `${cmd.name} runs ${language} code it reads from a pipe${upstream ? ` (the output of ${upstream.name})` : ''}, known only at run time`,
      });
  });
  return { sources, unread };
}
