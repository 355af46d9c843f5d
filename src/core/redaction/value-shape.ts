// Judgements on a candidate value's shape: references and placeholders are not secrets.

const PLACEHOLDER_WORDS = new Set([
  'true',
  'false',
  'null',
  'nil',
  'none',
  'undefined',
  'yes',
  'no',
  'on',
  'off',
  'string',
  'str',
  'number',
  'int',
  'integer',
  'bool',
  'boolean',
  'any',
  'unknown',
  'bytes',
  'object',
  'secretstr',
  'optional',
  'required',
  'redacted',
  'hidden',
  'masked',
  'changeme',
  'changeit',
  'example',
  'sample',
  'dummy',
  'placeholder',
  // The words a template writes where a password goes (`postgres://user:password@localhost/app`).
  'password',
  'passwd',
  'secret',
  // Local emulators' fixed credentials (LocalStack takes `test` for both AWS keys).
  'test',
]);

/**
 * A value that names where a secret lives rather than holding it: `$VAR`, `${VAR}`, `%VAR%`,
 * `{{ secrets.X }}`, `process.env.X`, `os.environ[...]`, `<your-token>`, `$(cat file)`.
 */
export function isReference(value: string): boolean {
  const first = value.charAt(0);
  if (first === '$' || first === '%') return true;
  if (value.startsWith('{{') || value.startsWith('{%')) return true;
  // `<your-token>`, `<API_KEY>`: one placeholder in angle brackets, nothing after it.
  if (value.startsWith('<') && value.indexOf('>') === value.length - 1) return true;
  if (value.startsWith('process.env') || value.startsWith('os.environ') || value.startsWith('env.')) return true;
  if (value.startsWith('os.getenv') || value.startsWith('ENV[') || value.startsWith('System.getenv')) return true;
  return false;
}

/** Masks (`****`, `xxxxxx`, `...`) and type names or literals that say nothing secret. */
/** The longest of PLACEHOLDER_WORDS: longer values skip the lookup. */
const LONGEST_PLACEHOLDER_WORD = Math.max(...[...PLACEHOLDER_WORDS].map((word) => word.length));

export function isPlaceholder(value: string): boolean {
  // `change-me`, `CHANGE_ME` are `changeme` spelled with separators.
  if (value.length <= LONGEST_PLACEHOLDER_WORD + 2 && PLACEHOLDER_WORDS.has(value.toLowerCase().replace(/[-_]/g, '')))
    return true;
  const first = value.charCodeAt(0);
  for (let i = 1; i < value.length; i++) if (value.charCodeAt(i) !== first) return false;
  // A single repeated char (`********`, `xxxxxxxx`, `........`) is a mask.
  return true;
}

const CODE_WORDS = new Set([
  'await',
  'new',
  'function',
  'lambda',
  'async',
  'yield',
  'this',
  'self',
  'require',
  'typeof',
  'not',
  'match',
]);

/** A keyword that starts an expression: `token = await fetchToken()`. */
export function isCodeWord(value: string): boolean {
  return CODE_WORDS.has(value);
}

/** Code rather than a literal: a call, or an expression whose value is computed. */
export function looksLikeCode(value: string): boolean {
  return value.includes('(') || value.includes(')');
}

/** Shared by every value-bearing detector: worth redacting in narrow mode. */
export function isLiteralSecretValue(value: string, minLength: number): boolean {
  if (value.length < minLength) return false;
  return !isReference(value) && !isPlaceholder(value);
}
