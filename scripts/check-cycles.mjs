// Fails on import cycles, in two sizes:
// - between files, type-only imports included (a type cycle still ties two files' designs together);
// - between the areas of src: an area is a folder directly under src/<part>/ with all below it,
//   and a file directly in src/<part>/ stands alone (src/core/config <-> src/core/policies is a cycle
//   even when no two files import each other).
// Imports are read and resolved by TypeScript itself, with the project's tsconfig.
// Usage: node scripts/check-cycles.mjs [root]   (root defaults to this repository)
import ts from 'typescript';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
const configFile = ts.findConfigFile(root, ts.sys.fileExists, 'tsconfig.json');
if (!configFile) throw new Error(`no tsconfig.json in ${root}`);
const parsed = ts.parseJsonConfigFileContent(ts.readConfigFile(configFile, ts.sys.readFile).config, ts.sys, root);
const inRepo = (file) => !relative(root, file).startsWith('..') && !file.includes(`${sep}node_modules${sep}`);

/** Every module specifier in a file: import/export … from, import x = require, import(), require(), import types. */
function specifiersOf(file) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const found = [];
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier)
      found.push(node.moduleSpecifier);
    else if (ts.isExternalModuleReference(node)) found.push(node.expression);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) found.push(node.argument.literal);
    else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require'))
    )
      found.push(node.arguments[0]);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.filter((node) => node && ts.isStringLiteralLike(node)).map((node) => node.text);
}

/** @type {Map<string, string[]>} file -> files it imports (repository files only) */
const graph = new Map();
for (const file of parsed.fileNames.filter((f) => !f.endsWith('.d.ts'))) {
  const targets = specifiersOf(file)
    .map((name) => ts.resolveModuleName(name, file, parsed.options, ts.sys).resolvedModule?.resolvedFileName)
    .filter((target) => target !== undefined && inRepo(target) && !target.endsWith('.d.ts'));
  graph.set(resolve(file), [...new Set(targets.map((t) => resolve(t)))]);
}

/** Strongly connected components with more than one member (Tarjan), each sorted. */
function cycles(edges) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (node) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of edges.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node), low.get(to)));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node), index.get(to)));
    }
    if (low.get(node) !== index.get(node)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return found;
}

const rel = (file) => relative(root, file).split(sep).join('/');

/** src/core/policies/library/x.ts -> src/core/policies; src/cli.ts -> src/cli.ts; outside src: undefined */
function areaOf(file) {
  const parts = rel(file).split('/');
  if (parts[0] !== 'src') return undefined;
  return parts.slice(0, Math.min(parts.length, 3)).join('/');
}

const areaEdges = new Map();
const areaWitness = new Map();
for (const [from, targets] of graph) {
  const a = areaOf(from);
  if (a === undefined) continue;
  for (const to of targets) {
    const b = areaOf(to);
    if (b === undefined || a === b) continue;
    if (!areaEdges.has(a)) areaEdges.set(a, new Set());
    areaEdges.get(a).add(b);
    if (!areaWitness.has(`${a}>${b}`)) areaWitness.set(`${a}>${b}`, `${rel(from)} -> ${rel(to)}`);
  }
}

const problems = [];
for (const component of cycles(graph)) {
  const members = new Set(component);
  const links = component.flatMap((f) =>
    graph
      .get(f)
      .filter((t) => members.has(t))
      .map((t) => `${rel(f)} -> ${rel(t)}`),
  );
  problems.push(`import cycle between files:\n    ${links.join('\n    ')}`);
}
for (const component of cycles(areaEdges)) {
  const members = new Set(component);
  const links = component.flatMap((a) =>
    [...areaEdges.get(a)].filter((b) => members.has(b)).map((b) => `${a} -> ${b} (${areaWitness.get(`${a}>${b}`)})`),
  );
  problems.push(`import cycle between areas ${component.join(', ')}:\n    ${links.join('\n    ')}`);
}
if (problems.length > 0) {
  console.error(problems.join('\n'));
  console.error(`${problems.length} import cycle(s) in ${graph.size} files`);
  process.exit(1);
}
console.error(`no import cycles in ${graph.size} files`);
