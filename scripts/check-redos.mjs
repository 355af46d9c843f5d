// Static ReDoS check: every regular expression written in src/ (literals, and `new RegExp(…)` whose
// source folds to a constant: string literals, templates and String.raw over other constants, a regex's
// `.source`, `+` and `[…].join(…)`, across imports) is given to recheck, which proves a regex's matching
// time linear or finds an input that makes it super-linear. A flagged regex fails the run; the fix is a
// rewrite, never an ignore list. A RegExp built from values known only at run time is counted apart.
// Usage: node scripts/check-redos.mjs [--verbose] [--src DIR]   (DIR: another folder to check, for its tests)
import { readdirSync, statSync } from 'node:fs';
import { join, relative, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const ts = require('typescript');
const { checkSync } = require('recheck');
const verbose = process.argv.includes('--verbose');
const srcAt = process.argv.indexOf('--src');
const srcDir = srcAt >= 0 ? process.argv[srcAt + 1] : join(root, 'src');

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

const files = sourceFiles(srcDir).filter((f) => !GENERATED.includes(relative(root, f)));
const program = ts.createProgram(files, { target: ts.ScriptTarget.ES2022, noEmit: true, skipLibCheck: true });
const checker = program.getTypeChecker();

/** The const declaration an identifier names, through imports; undefined for anything else. */
function constInitializer(identifier) {
  let symbol = checker.getSymbolAtLocation(identifier);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const declaration = symbol?.valueDeclaration;
  if (!declaration || !ts.isVariableDeclaration(declaration) || !declaration.initializer) return undefined;
  const list = declaration.parent;
  return ts.isVariableDeclarationList(list) && list.flags & ts.NodeFlags.Const ? declaration.initializer : undefined;
}

/** The text an expression always evaluates to, or undefined when a part is known only at run time. */
function fold(node, raw = false, depth = 0) {
  if (depth > 20) return undefined;
  const again = (child, asRaw = raw) => fold(child, asRaw, depth + 1);
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node)) return again(node.expression);
  if (ts.isStringLiteral(node)) return node.text;
  if (ts.isNoSubstitutionTemplateLiteral(node)) return raw ? node.rawText : node.text;
  if (ts.isTemplateExpression(node)) {
    let text = raw ? node.head.rawText : node.head.text;
    for (const span of node.templateSpans) {
      const part = again(span.expression, false);
      if (part === undefined) return undefined;
      text += part + (raw ? span.literal.rawText : span.literal.text);
    }
    return text;
  }
  if (ts.isTaggedTemplateExpression(node) && node.tag.getText() === 'String.raw') return again(node.template, true);
  if (ts.isIdentifier(node)) {
    const initializer = constInitializer(node);
    return initializer === undefined ? undefined : again(initializer, false);
  }
  if (ts.isRegularExpressionLiteral(node)) {
    const literal = node.getText();
    return literal.slice(1, literal.lastIndexOf('/'));
  }
  if (ts.isNewExpression(node) && node.expression.getText() === 'RegExp' && node.arguments?.[0])
    return again(node.arguments[0], false);
  if (ts.isPropertyAccessExpression(node) && node.name.text === 'source') return again(node.expression, false);
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = again(node.left, false);
    const right = left === undefined ? undefined : again(node.right, false);
    return right === undefined ? undefined : left + right;
  }
  if (
    ts.isCallExpression(node) &&
    ts.isPropertyAccessExpression(node.expression) &&
    node.expression.name.text === 'join' &&
    ts.isArrayLiteralExpression(node.expression.expression)
  ) {
    const separator = node.arguments[0] === undefined ? ',' : again(node.arguments[0], false);
    const items = node.expression.expression.elements.map((element) => again(element, false));
    return separator === undefined || items.some((item) => item === undefined) ? undefined : items.join(separator);
  }
  return undefined;
}

/** Every regex in one file: its source, flags and line; a RegExp built at run time has no pattern. */
function regexesOf(file) {
  const source = program.getSourceFile(file);
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
      node.arguments?.[0]
    ) {
      const flags = node.arguments[1] === undefined ? '' : fold(node.arguments[1]);
      const pattern = fold(node.arguments[0]);
      found.push({ pattern: flags === undefined ? undefined : pattern, flags: flags ?? '', line: lineOf(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

// The pure-JS backend, a fixed seed for the fuzzer, and step limits only (the fuzzer's own wall-clock
// limits on incubation, seeding and attack made a loaded machine flag a pattern an idle one passed): the
// same result on every machine and run.
const CHECK_OPTIONS = {
  backend: 'pure',
  timeout: 30_000,
  randomSeed: 1,
  incubationTimeout: null,
  seedingTimeout: null,
  attackTimeout: null,
};
const ATTEMPTS = 3;

/**
 * recheck's checkSync waits on its worker through synckit, whose wait can wake before the worker's answer
 * is on the port (it then throws reading `message` of nothing). The check itself is deterministic (fixed
 * seed, step limits), so asking again gives the answer it would have given; synckit skips the stale
 * answer by its id. A regex that fails every attempt is reported as unchecked, which fails the run.
 */
function checkWithRetries(pattern, flags) {
  let failure;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    try {
      return checkSync(pattern, flags, CHECK_OPTIONS);
    } catch (err) {
      failure = err;
      console.error(
        `recheck's worker failed on /${pattern}/${flags} (attempt ${attempt} of ${ATTEMPTS}): ${err.message}`,
      );
    }
  }
  return { status: 'unknown', error: { kind: 'worker-failure', message: failure?.message ?? 'unknown' } };
}

let checked = 0;
const builtAtRunTime = [];
const flagged = [];
const unsure = [];
for (const file of files) {
  for (const regex of regexesOf(file)) {
    if (regex.pattern === undefined) {
      builtAtRunTime.push(`${relative(root, file)}:${regex.line}`);
      continue;
    }
    checked++;
    const result = checkWithRetries(regex.pattern, regex.flags);
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
if (verbose) for (const where of builtAtRunTime) console.log(`run-time  ${where}`);
console.log(
  `ReDoS check: ${checked} regexes in ${files.length} files; ${flagged.length} vulnerable, ${unsure.length} unchecked; ${builtAtRunTime.length} built from run-time values (--verbose lists them)`,
);
// A regex the checker could not decide is not known to be safe.
process.exit(flagged.length + unsure.length > 0 ? 1 : 0);
