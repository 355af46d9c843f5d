// What a pipeline stage writes when that is known from its words alone, so that a shell reading
// it further down the pipe (echo 'rm -rf ~' | sh) can be analyzed too.
import { decodeAnsiC } from './ansi-c';
import type { ArgvView } from './options';

export const LITERAL_WRITERS: ReadonlySet<string> = new Set(['echo', 'printf', 'cat', 'base64']);

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
 * The exact output of echo, printf without conversions, cat of its stdin, and base64 -d of its
 * stdin; undefined otherwise. `stdin` is what the command reads, when known.
 */
export function literalOutput(name: string, view: ArgvView, stdin: string | undefined): string | undefined {
  const { argv, dynamic } = view;
  if (name === 'echo' && dynamic.size === 0) return echoOutput(argv.slice(1));
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
