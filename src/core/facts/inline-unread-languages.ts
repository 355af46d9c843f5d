import { evidenceOf, optionValues } from './commands';

// R, Julia, Scala and Groovy have no reader here, so their one-liners (`Rscript -e …`, `julia -e …`) are
// code nobody read. Most of them are package housekeeping or a quick look at data. Those pass when every
// function they call is one that only reads, prints or restores the project's own packages, and they name
// no URL and no shell command. Any other call (system(), a download, an install from a URL, a request, a
// file removed) leaves code unread, which asks. This is a list of known calls, not a reader: what it
// does not know asks.

interface InlineLanguage {
  language: string;
  short: string[];
  long: string[];
  /** Calls that only read, print, or restore and check the project's own packages. */
  quiet: ReadonlySet<string>;
}

const COMMON = [
  ...['print', 'println', 'cat', 'message', 'show', 'display', 'paste', 'paste0', 'sprintf', 'format', 'string'],
  ...['nrow', 'ncol', 'dim', 'size', 'length', 'names', 'colnames', 'head', 'tail', 'first', 'last', 'summary'],
  ...['str', 'typeof', 'class', 'round', 'sum', 'mean', 'unique', 'sort', 'collect', 'c', 'seq_len', 'table'],
  // Keywords a call pattern also sees (`if (`, `function(`).
  ...['if', 'for', 'while', 'function', 'return', 'invisible', 'suppressPackageStartupMessages'],
];

const R_QUIET = new Set([
  ...COMMON,
  ...['library', 'require', 'requireNamespace', 'sessionInfo', 'packageVersion', 'getwd', 'list.files'],
  ...['file.exists', 'read.csv', 'read.table', 'readRDS', 'read_parquet', 'arrow::read_parquet', 'read_csv'],
  ...['readr::read_csv', 'data.table::fread', 'fread', 'options'],
  ...['renv::restore', 'renv::snapshot', 'renv::status', 'renv::init', 'renv::activate', 'renv::diagnostics'],
  ...['devtools::test', 'devtools::check', 'devtools::document', 'devtools::load_all', 'testthat::test_dir'],
  ...['rmarkdown::render', 'quarto::quarto_render', 'knitr::knit', 'lintr::lint', 'lintr::lint_dir'],
  ...['styler::style_file', 'styler::style_dir', 'covr::package_coverage'],
]);

const JULIA_QUIET = new Set([
  ...COMMON,
  ...['Pkg.instantiate', 'Pkg.status', 'Pkg.resolve', 'Pkg.precompile', 'Pkg.test', 'Pkg.activate'],
  ...['CSV.read', 'CSV.File', 'DataFrame', 'describe', 'versioninfo', 'Threads.nthreads', 'isfile', 'readdir'],
  ...['pwd'],
]);

const JVM_QUIET = new Set([
  ...COMMON,
  ...['System.out.println', 'println', 'count', 'printSchema', 'limit', 'select', 'where', 'filter', 'groupBy'],
  // Spark reads of a table or a file (a notebook's quick look); spark.sql is not here, its SQL may change data.
  ...['agg', 'spark.table', 'spark.range', 'spark.read.table', 'spark.read.parquet', 'spark.read.csv'],
]);

const INLINE_LANGUAGES: Record<string, InlineLanguage> = {
  rscript: { language: 'R', short: ['e'], long: [], quiet: R_QUIET },
  r: { language: 'R', short: ['e'], long: [], quiet: R_QUIET },
  julia: { language: 'Julia', short: ['e', 'E'], long: ['eval', 'print'], quiet: JULIA_QUIET },
  scala: { language: 'Scala', short: ['e'], long: [], quiet: JVM_QUIET },
  groovy: { language: 'Groovy', short: ['e'], long: [], quiet: JVM_QUIET },
};

/** The first call in `code` that is not a quiet one, or why the code is not quiet; null when all are. */
function loudPart(code: string, quiet: ReadonlySet<string>): string | null {
  if (code.includes('://')) return 'a URL';
  // Julia's and Groovy's backticks are command literals; R's name a variable, rarely needed in a one-liner.
  if (code.includes('`')) return 'a backtick';
  for (const name of calledNames(code)) if (!quiet.has(name)) return `${name}(…)`;
  return null;
}

const NAME_CHAR = /[\w.:]/;

/** The names written before each `(` (`renv::restore`, `Pkg.add`), read back from the parenthesis. */
function calledNames(code: string): string[] {
  const names: string[] = [];
  for (let open = code.indexOf('('); open >= 0; open = code.indexOf('(', open + 1)) {
    let end = open;
    while (end > 0 && /\s/.test(code[end - 1] as string)) end--;
    let start = end;
    while (start > 0 && NAME_CHAR.test(code[start - 1] as string)) start--;
    const name = code.slice(start, end).replace(/^[\d.:]+/, '');
    if (name !== '') names.push(name);
  }
  return names;
}

/**
 * Whether R or Julia runs the code it reads on its input: `Rscript -`, `R --no-save` with no script,
 * `julia` with no program file. A program file given instead is code on disk, as `Rscript x.R` is.
 */
function readsCodeFromInput(name: string, args: readonly string[], inline: InlineLanguage): boolean {
  if (optionValues(args, inline.short, inline.long).length > 0) return false;
  if (args.some((a) => a === '-f' || a.startsWith('--file'))) return false;
  const operands = args.filter((a) => a === '-' || !a.startsWith('-'));
  if (name === 'r' || name === 'julia') return operands.length === 0 || operands[0] === '-';
  return name === 'rscript' && operands[0] === '-';
}

/**
 * What an R, Julia, Scala or Groovy one-liner runs that Warden cannot read, or null for a quiet one.
 * `input` is the text the command is given on its input, when the call writes it out.
 */
export function unreadInlineCode(name: string, args: readonly string[], shown = name, input?: string): string | null {
  const inline = Object.hasOwn(INLINE_LANGUAGES, name) ? INLINE_LANGUAGES[name] : undefined;
  if (!inline) return null;
  const fed = input !== undefined && readsCodeFromInput(name, args, inline) ? [input] : [];
  for (const code of [...optionValues(args, inline.short, inline.long), ...fed]) {
    const loud = loudPart(code, inline.quiet);
    if (loud !== null)
      return `${shown} runs ${inline.language} code Warden has no reader for (${evidenceOf(code, 60)}), with ${loud}`;
  }
  return null;
}
