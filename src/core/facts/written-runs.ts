// A file the project's own tooling runs later is code the moment it is written: a Makefile's recipes
// (make), package.json's scripts (npm run, npm install), a test or conftest file (the test runner),
// setup.py (pip install .), a git hook (git commit), a shell script, a bundler or test-runner config,
// a Gemfile or Rakefile (bundler, rake), a CI workflow's `run:` steps. The written text is read as
// the commands or code it will run, so every policy judges it at write time, not only when a later
// call runs it. Written files are named by the path they land in.
import path from 'node:path';
import { makeRecipes, scriptsOf } from './project-runs';

const PYTHON_RUN_LATER =
  /(^|\/)(conftest|setup|sitecustomize|usercustomize|noxfile|fabfile|tasks|manage)\.py$|(^|\/)test_[^/]*\.py$|_test\.py$/;
const JS_RUN_LATER =
  /(^|\/)[^/]*\.config\.[cm]?[jt]s$|\.(test|spec)\.[cm]?[jt]sx?$|(^|\/)(jest|vitest)\.setup\.[cm]?[jt]s$/;
const RUBY_RUN_LATER = /(^|\/)(Gemfile|Rakefile|[^/]+\.gemspec)$/;
const SHELL_RUN_LATER = /(^|\/)(\.git\/hooks\/[^/]+|\.husky\/[^/_][^/]*|\.envrc|[^/]+\.(sh|bash|zsh))$/;
const MAKEFILE = /(^|\/)(GNUmakefile|makefile|Makefile|[^/]+\.mk)$/;
const WORKFLOW = /(^|\/)\.github\/workflows\/[^/]+\.ya?ml$|(^|\/)\.gitlab-ci\.ya?ml$/;

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** `"build": "tsc -p ."` pairs in a fragment of package.json an Edit writes (not whole JSON). */
function scriptFragment(text: string): string[] {
  return [...text.matchAll(/"[\w:.-]+"\s*:\s*"((?:[^"\\]|\\.)*)"/g)]
    .map((m) => (m[1] ?? '').replace(/\\(.)/g, '$1'))
    .filter((value) => /\s/.test(value));
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/** The `run:` steps of a CI workflow (one line, or a block after `run: |`). */
function workflowRuns(text: string): string[] {
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const trimmed = line.trimStart();
    const step = trimmed.startsWith('-') ? trimmed.slice(1).trimStart() : trimmed;
    if (!step.startsWith('run:')) continue;
    const inline = step.slice(4).trim();
    if (inline !== '' && !/^[|>][-+]?$/.test(inline)) {
      out.push(inline);
      continue;
    }
    const indent = indentOf(line);
    for (i++; i < lines.length && (lines[i]?.trim() === '' || indentOf(lines[i] ?? '') > indent); i++)
      out.push((lines[i] ?? '').trim());
    i--;
  }
  return out.filter((l) => l !== '');
}

/** The shell text that stands for what a written file will run, or undefined for a file nothing runs. */
export function runLaterShell(file: string, content: string): string | undefined {
  const name = path.posix.basename(file);
  if (MAKEFILE.test(file)) return makeRecipes(content).join('\n');
  if (name === 'package.json') return (scriptsOf(content, 'all') ?? scriptFragment(content)).join('\n');
  if (WORKFLOW.test(file)) return workflowRuns(content).join('\n');
  if (SHELL_RUN_LATER.test(file) || /^#!\s*\/(usr\/)?bin\/(env\s+)?(ba|z|da)?sh\b/.test(content)) return content;
  if (PYTHON_RUN_LATER.test(file)) return `python3 -c ${quote(content)}`;
  if (JS_RUN_LATER.test(file)) return `node -e ${quote(content)}`;
  if (RUBY_RUN_LATER.test(file)) return `ruby -e ${quote(content)}`;
  return undefined;
}
