// Static ReDoS check: every regular expression written in src/ (literals and `new RegExp('literal')`)
// is given to recheck, which proves a regex's matching time linear or finds an input that makes it
// super-linear. A flagged regex fails the run; the fix is a rewrite, never an ignore list.
// Usage: node scripts/check-redos.mjs [--verbose]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const ts = require('typescript');
const { checkSync } = require('recheck');
const verbose = process.argv.includes('--verbose');

// Generated files are not written by hand; nothing in src/ is generated today.
const GENERATED = [];

function sourceFiles(dir, acc = []) {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) sourceFiles(full, acc);
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) acc.push(full);
  }
  return acc;
}

/** Every regex in one file: its source, flags and line. */
function regexesOf(file) {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found = [];
  const lineOf = (node) => source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
  const visit = (node) => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const literal = node.getText();
      const end = literal.lastIndexOf('/');
      found.push({ pattern: literal.slice(1, end), flags: literal.slice(end + 1), line: lineOf(node) });
    } else if (
      ts.isNewExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'RegExp' &&
      node.arguments?.[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      const flags = node.arguments[1] && ts.isStringLiteralLike(node.arguments[1]) ? node.arguments[1].text : '';
      found.push({ pattern: node.arguments[0].text, flags, line: lineOf(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const files = sourceFiles(join(root, 'src')).filter((f) => !GENERATED.includes(relative(root, f)));
let checked = 0;
const flagged = [];
const unsure = [];
for (const file of files) {
  for (const regex of regexesOf(file)) {
    checked++;
    // The pure-JS backend, a fixed seed for the fuzzer, and step limits only (the fuzzer's own
    // wall-clock limits on incubation, seeding and attack made a loaded machine flag a pattern an
    // idle one passed): the same result on every machine and run.
    const result = checkSync(regex.pattern, regex.flags, {
      backend: 'pure',
      timeout: 30_000,
      randomSeed: 1,
      incubationTimeout: null,
      seedingTimeout: null,
      attackTimeout: null,
    });
    const where = `${relative(root, file)}:${regex.line}  /${regex.pattern}/${regex.flags}`;
    if (result.status === 'vulnerable') {
      flagged.push(`${where}\n    ${result.complexity.summary}; attack: ${JSON.stringify(result.attack.pattern)}`);
    } else if (result.status === 'unknown') {
      unsure.push(
        `${where}\n    ${result.error?.kind ?? 'unknown'}${result.error?.message ? `: ${result.error.message}` : ''}`,
      );
    } else if (verbose) {
      console.log(`safe  ${where}`);
    }
  }
}
for (const line of flagged) console.error(`vulnerable  ${line}`);
for (const line of unsure) console.error(`unchecked   ${line}`);
console.log(
  `ReDoS check: ${checked} regexes in ${files.length} files; ${flagged.length} vulnerable, ${unsure.length} unchecked`,
);
// A regex the checker could not decide is not known to be safe.
process.exit(flagged.length + unsure.length > 0 ? 1 : 0);
