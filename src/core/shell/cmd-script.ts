// cmd.exe's command lines (`cmd /c LINE`, a .cmd or .bat file), rewritten as the POSIX shell line they
// amount to so the one shell analysis reads them: its builtins as their POSIX kin (`rd /s` is `rm -r`,
// `copy` is `cp`, `type` is `cat`), `%NAME%` as `${NAME}` (the profile's folders spelled from HOME),
// `set NAME=VALUE` as an assignment, `call` and `start` as the program they run, `^` escapes dropped,
// and backslashes as forward slashes (Windows takes either; the POSIX parser would eat them). What this
// does not rewrite (blocks of `if` and `for`) parses as what it looks like or not at all, and what does
// not parse is unread: never a pass.

/** Where a Windows profile keeps what these variables name, below the home folder. */
const PROFILE_FOLDERS: Record<string, string> = {
  USERPROFILE: '',
  HOMEPATH: '',
  APPDATA: '/AppData/Roaming',
  LOCALAPPDATA: '/AppData/Local',
  TEMP: '/AppData/Local/Temp',
  TMP: '/AppData/Local/Temp',
};

/** Builtins as the POSIX program that does the same, and what their switches become. */
const BUILTINS: Record<string, { program: string; switches: Record<string, string> }> = {
  rd: { program: 'rm', switches: { s: '-r', q: '-f' } },
  rmdir: { program: 'rm', switches: { s: '-r', q: '-f' } },
  del: { program: 'rm', switches: { s: '-r', q: '-f', f: '-f' } },
  erase: { program: 'rm', switches: { s: '-r', q: '-f', f: '-f' } },
  copy: { program: 'cp', switches: {} },
  xcopy: { program: 'cp', switches: { s: '-r', e: '-r' } },
  robocopy: { program: 'cp', switches: { s: '-r', e: '-r', mir: '-r' } },
  move: { program: 'mv', switches: {} },
  type: { program: 'cat', switches: {} },
};

/** The statements of a line and the operators between them (`&&`, `||`, `&`, `|`), outside double quotes. */
function statements(line: string): { text: string; after: string }[] {
  const out: { text: string; after: string }[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch === '"') quoted = !quoted;
    if (quoted || (ch !== '&' && ch !== '|')) continue;
    const op = line[i + 1] === ch ? ch + ch : ch;
    out.push({ text: line.slice(start, i), after: op });
    i += op.length - 1;
    start = i + 1;
  }
  out.push({ text: line.slice(start), after: '' });
  return out;
}

/** One cmd statement as a POSIX command. */
function statementAsShell(statement: string): string {
  let text = statement.trim().replace(/^@/, '');
  const lower = text.toLowerCase();
  if (lower === '' || /^(rem(\s|$)|::|:\w|echo off|setlocal|endlocal|goto\s|exit(\s|$))/.test(lower)) return ':';
  const set = /^set\s+"?([A-Za-z_]\w*)=([^"]*)"?$/i.exec(text);
  if (set) return `${set[1]}='${(set[2] ?? '').replace(/'/g, `'\\''`)}'`;
  text = text.replace(/^(call|start(\s+\/\w+)*(\s+""?)?)\s+/i, '');
  const words = text.split(/\s+/);
  const builtin = BUILTINS[(words[0] ?? '').toLowerCase()];
  if (!builtin) return text;
  const flags = new Set<string>();
  const operands: string[] = [];
  for (const word of words.slice(1)) {
    const option = /^\/(\w+)(:.*)?$/.exec(word)?.[1]?.toLowerCase();
    if (option === undefined) operands.push(word);
    else if (builtin.switches[option]) flags.add(builtin.switches[option]);
  }
  return [builtin.program, ...flags, ...operands].join(' ');
}

/** A cmd.exe command line (or a batch file's text) as the POSIX shell text it amounts to. */
export function cmdAsShell(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => {
      const plain = line
        .replace(/\^(.)/g, '$1')
        .replace(/\\/g, '/')
        .replace(/%([A-Za-z_]\w*)%/g, (_, name: string) => {
          const below = PROFILE_FOLDERS[name.toUpperCase()];
          return below === undefined ? `\${${name}}` : `\${HOME}${below}`;
        });
      return statements(plain)
        .map(({ text: part, after }) => {
          const command = statementAsShell(part);
          // `set x=1&& …` always goes on: the assignment is a statement of its own.
          const op = after === '&&' && /^[A-Za-z_]\w*=/.test(command) ? ';' : after;
          return `${command}${op ? ` ${op} ` : ''}`;
        })
        .join('');
    })
    .join('\n');
}

/** `cmd /c LINE`, `cmd.exe /K LINE`: the line cmd runs, from the words after the switch. */
export function cmdCommandLine(argv: readonly string[]): string | undefined {
  const at = argv.findIndex((word, i) => i > 0 && /^\/[ck]$/i.test(word));
  if (at < 0) return undefined;
  const rest = argv.slice(at + 1);
  return rest.length ? rest.join(' ') : undefined;
}
