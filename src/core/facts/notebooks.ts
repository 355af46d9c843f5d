// A Jupyter notebook's code cells, as a kernel runs them: `!cmd` lines (and `x = !cmd`), `%pip`,
// `%conda` and `%run` line magics, and `%%bash`/`%%sh` cells run in a shell; everything else in a code
// cell is Python. A notebook is run later by whoever opens it (or by papermill, nbconvert, a CI job),
// so what a call writes into one is judged when it is written, like a conftest.py.

const SHELL_CELL = /^%%(?:bash|sh|script\s+(?:ba)?sh)\b/;
/** Cell magics whose body is still Python. */
const PYTHON_CELL = /^%%(?:time|timeit|capture|prun)\b/;
const SHELL_ASSIGNMENT = /^[A-Za-z_]\w*\s*=\s*!/;

export interface NotebookCode {
  shell: string[];
  python: string;
}

/** A trimmed line that is one JSON string, with the comma that follows it in an array. */
const JSON_STRING_LINE = /^("(?:[^"\\]|\\.)*"),?$/;

/**
 * An edit of a notebook's JSON inserts lines of a cell's source array (`"!curl …\n",`): decoded, they
 * are the lines the kernel runs. Undefined unless every line that is not blank is such a string.
 */
function sourceStrings(content: string): string | undefined {
  const decoded: string[] = [];
  for (const line of content.split('\n').map((l) => l.trim())) {
    if (line === '') continue;
    const literal = JSON_STRING_LINE.exec(line)?.[1];
    if (literal === undefined) return undefined;
    try {
      decoded.push(JSON.parse(literal) as string);
    } catch {
      return undefined;
    }
  }
  return decoded.length ? decoded.join('') : undefined;
}

/** The sources of a notebook's code cells: from notebook JSON, or the text itself when it is one cell's source. */
function codeCellSources(content: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    return [sourceStrings(content) ?? content];
  }
  const cells = (parsed as { cells?: unknown } | null)?.cells;
  if (!Array.isArray(cells)) return [content];
  const sources: string[] = [];
  for (const cell of cells) {
    const { cell_type: type, source } = (cell ?? {}) as { cell_type?: unknown; source?: unknown };
    if (type !== 'code') continue;
    if (typeof source === 'string') sources.push(source);
    else if (Array.isArray(source)) sources.push(source.filter((s) => typeof s === 'string').join(''));
  }
  return sources;
}

function shellOfLine(line: string): string | undefined {
  if (line.startsWith('!')) return line.slice(1).replace(/^!/, '');
  if (SHELL_ASSIGNMENT.test(line)) return line.slice(line.indexOf('!') + 1);
  if (/^%(?:pip|conda)\s/.test(line)) return line.slice(1);
  if (/^%run\s/.test(line)) return `python3 ${line.slice('%run'.length).trim()}`;
  return undefined;
}

/** What the notebook's code cells run: shell lines, and the Python of all cells together. */
export function notebookCode(content: string): NotebookCode {
  const shell: string[] = [];
  const python: string[] = [];
  for (const source of codeCellSources(content)) {
    const lines = source.split('\n');
    const first = lines[0]?.trim() ?? '';
    if (SHELL_CELL.test(first)) {
      shell.push(lines.slice(1).join('\n'));
      continue;
    }
    // Another cell magic (%%html, %%javascript, %%writefile) does not run its body as Python.
    if (first.startsWith('%%') && !PYTHON_CELL.test(first)) continue;
    for (const line of first.startsWith('%%') ? lines.slice(1) : lines) {
      const command = shellOfLine(line.trimStart());
      if (command !== undefined) shell.push(command);
      // Other line magics (%matplotlib, %load_ext) are not Python: left out.
      else if (!line.trimStart().startsWith('%')) python.push(line);
    }
  }
  return { shell, python: python.join('\n') };
}
