// What a pipeline stage writes when that is known from its words alone, so that a shell reading
// it further down the pipe (echo 'rm -rf ~' | sh) can be analyzed too.
import { decodeAnsiC } from './ansi-c';
import { trimEndChars } from '../text/scan';
import type { ArgvView } from './options';

export const LITERAL_WRITERS: ReadonlySet<string> = new Set([
  'echo',
  'printf',
  'cat',
  'base64',
  'dirname',
  'basename',
  'ls',
  'find',
  'realpath',
  'readlink',
]);

function echoOutput(args: string[]): string {
  let newline = true;
  let escapes = false;
  while (args[0] !== undefined && /^-[neE]+$/.test(args[0])) {
    const flags = args.shift() as string;
    if (flags.includes('n')) newline = false;
    if (flags.includes('e')) escapes = true;
  }
  let text = args.join(' ');
  // echo -e decodes the escapes printf and $'…' do (\x72, \0162, \n): `echo -e '\x72m'` prints `rm`.
  if (escapes) text = decodeAnsiC(text.replace(/\\0([0-7]{1,3})/g, '\\$1'));
  return newline ? text + '\n' : text;
}

/**
 * printf's output when its format holds no conversion but `%s` (each taking the next argument, the
 * format reused while arguments remain, as printf does); undefined for any other conversion.
 */
function printfOutput(format: string, args: readonly string[]): string | undefined {
  const pieces = format.split('%%');
  if (pieces.some((piece) => /%(?!s)/.test(piece))) return undefined;
  const conversions = pieces.reduce((n, piece) => n + (piece.match(/%s/g)?.length ?? 0), 0);
  if (conversions === 0 && args.length > 0) return undefined;
  let next = 0;
  let text = '';
  do {
    // printf decodes its format's escapes (\x72, \162, \n) before a shell downstream reads them.
    text += pieces.map((piece) => decodeAnsiC(piece).replace(/%s/g, () => args[next++] ?? '')).join('%');
  } while (next < args.length && text.length < 65_536);
  return text;
}

/**
 * The paths a command prints back for the paths it is given: `ls -d P`, `find P -maxdepth 0`,
 * `realpath P`, `readlink -f P` print P (resolved, for the last two, which the facts do for any path),
 * or nothing when P does not exist; `dirname` and `basename` cut it. A hostile line names a file so
 * (`cat $(ls -d ~/.aws/credentials)`), and it is judged as the file it names.
 */
function pathEcho(name: string, args: readonly string[]): string[] | undefined {
  const options = args.filter((a) => a.startsWith('-'));
  const paths = args.filter((a) => !a.startsWith('-'));
  if (name === 'ls')
    return options.some((o) => o.includes('d')) && options.every((o) => /^-[1aAd]+$/.test(o)) ? paths : undefined;
  if (name === 'find') {
    const [first, ...rest] = args.slice(args.findIndex((a) => a.startsWith('-')));
    const roots = args.slice(0, args.length - rest.length - 1);
    return first === '-maxdepth' && rest[0] === '0' && rest.slice(1).every((a) => a === '-print') && roots.length
      ? roots
      : undefined;
  }
  // A relative path is resolved against the folder the command runs in, which the words alone do not say.
  if (name === 'realpath' || name === 'readlink') {
    const resolving =
      name === 'realpath' ? options.every((o) => /^-[esqzL]+$/.test(o)) : options.some((o) => /^-[fem]+$/.test(o));
    return resolving && paths.every((p) => /^(?:\/|~\/|~$)/.test(p)) ? paths : undefined;
  }
  if (options.length) return undefined;
  if (name === 'dirname') return paths.map(dirnameOf);
  if (name === 'basename' && paths.length >= 1 && paths.length <= 2) {
    const [path = '', suffix] = paths;
    const base = trimEndChars(path, '/').split('/').pop() || (path.startsWith('/') ? '/' : '');
    return [suffix && base !== suffix && base.endsWith(suffix) ? base.slice(0, -suffix.length) : base];
  }
  return undefined;
}

/** What `dirname` prints for a path: `.` for a bare name, `/` for the root. */
function dirnameOf(path: string): string {
  const trimmed = trimEndChars(path, '/');
  if (trimmed === '') return path === '' ? '.' : '/';
  const at = trimmed.lastIndexOf('/');
  if (at < 0) return '.';
  return trimEndChars(trimmed.slice(0, at), '/') || '/';
}

/**
 * The exact output of echo, printf without conversions, cat of its stdin, and base64 -d of its
 * stdin; undefined otherwise. `stdin` is what the command reads, when known.
 */
export function literalOutput(name: string, view: ArgvView, stdin: string | undefined): string | undefined {
  const { argv, dynamic } = view;
  if (name === 'echo' && dynamic.size === 0) return echoOutput(argv.slice(1));
  const paths = dynamic.size === 0 ? pathEcho(name, argv.slice(1)) : undefined;
  if (paths?.length) return paths.map((p) => `${p}\n`).join('');
  if (name === 'printf' && dynamic.size === 0 && argv[1] !== undefined && !argv[1].startsWith('-'))
    return printfOutput(argv[1], argv.slice(2));
  // `cat`, `cat -`, `cat -n`, `cat -vET`: its stdin, as written or marked up line by line; what a file or a
  // shell downstream gets is read as that text (`cat -n > Makefile <<EOF` writes the recipe, numbered).
  if (name === 'cat' && dynamic.size === 0 && argv.slice(1).every((a) => a === '-' || /^--?[A-Za-z][\w-]*$/.test(a)))
    return stdin;
  if (
    name === 'base64' &&
    stdin !== undefined &&
    argv.slice(1).some((a) => a === '-d' || a === '-D' || a === '--decode')
  ) {
    // echo cm0gLXJmIH4K | base64 -d | sh: the shell reads the decoded text.
    return Buffer.from(stdin, 'base64').toString('utf8');
  }
  return undefined;
}
