// The commands a Cargo config runs, as shell text, for a written `.cargo/config.toml` and for
// `cargo --config KEY=VALUE`, which takes the same TOML one key at a time.
import { tomlStrings } from '../text/toml';
import { shellQuote } from './quote';

/** Cargo settings whose value is a program cargo runs (an array is its argv; a string, split on spaces). */
const CARGO_PROGRAM_KEYS = new Set([
  'runner',
  'linker',
  'rustc',
  'rustdoc',
  'rustc-wrapper',
  'rustc-workspace-wrapper',
  'credential-provider',
  // doc.browser: the program `cargo doc --open` opens the docs with.
  'browser',
]);

/**
 * The commands a Cargo config runs: a target's runner (every `cargo run` and `cargo test`), its linker,
 * the rustc wrappers and credential providers, written under a table (`[target.x] runner = …`) or as a
 * dotted key (`target.x.runner = …`, as `cargo --config` takes it). Arrays may span lines.
 */
export function cargoConfigCommands(text: string): string[] {
  const out: string[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const match =
      /^[ \t]*((?:[\w-]+|"[^"\n]*"|'[^'\n]*')(?:[ \t]*\.[ \t]*(?:[\w-]+|"[^"\n]*"|'[^'\n]*'))*)[ \t]*=/.exec(
        lines[i] ?? '',
      );
    if (!match) continue;
    const key =
      (match[1] ?? '')
        .replace(/["'\s]/g, '')
        .split('.')
        .at(-1) ?? '';
    const program = CARGO_PROGRAM_KEYS.has(key);
    if (!program && key !== 'global-credential-providers') continue;
    let value = (lines[i] ?? '').slice(match[0].length);
    while (value.trim().startsWith('[') && tomlStrings(value) === undefined && i + 1 < lines.length)
      value += `\n${lines[++i] ?? ''}`;
    const strings = tomlStrings(value);
    if (!strings) continue;
    if (program && value.trim().startsWith('[')) out.push(strings.map(shellQuote).join(' '));
    else out.push(...strings);
  }
  return out.filter((command) => command.trim() !== '');
}
