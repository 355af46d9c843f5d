// Aliases defined earlier in the same command text (alias ll='rm -rf'; then ll on a later line).
import type { Place } from './context';
import { shellQuote } from './quote';
import type { Word } from './words';

const DEFINITION = /^([^\s=/$`"'\\|&;()<>]+)=([\s\S]*)$/;

/** Applies `alias NAME=VALUE…` and `unalias NAME…|-a` to the shell's scope. */
export function recordAliases(name: string, words: Word[], place: Place, commandEnd: number): void {
  if (name !== 'alias' && name !== 'unalias') return;
  const source = place.frame.source;
  const newline = source.indexOf('\n', commandEnd);
  // Bash reads a whole line before running it: an alias takes effect from the next line.
  const from = newline < 0 ? Infinity : newline + 1;
  for (const word of words.slice(1)) {
    if (name === 'unalias') {
      if (!word.value.startsWith('-')) place.scope.setAlias(word.value, null);
      continue;
    }
    const definition = DEFINITION.exec(word.value);
    if (!definition) continue;
    const aliasName = definition[1] as string;
    if (word.dynamic) place.scope.setAlias(aliasName, null);
    else place.scope.setAlias(aliasName, { value: definition[2] as string, source: place.frame, from });
  }
}

/**
 * The commands `alias NAME=VALUE…` defines. They run whenever NAME is typed later, in this call or, in
 * an agent's shell that lives across calls, in a later one that reads as plain NAME: judged now.
 */
export function aliasBodies(words: Word[]): string[] {
  return words.slice(1).flatMap((word) => {
    const definition = word.dynamic ? null : DEFINITION.exec(word.value);
    return definition?.[2] ? [definition[2]] : [];
  });
}

/** The text an aliased command stands for, when its first word is an unquoted alias in effect. */
export function aliasExpansion(words: Word[], place: Place): string | undefined {
  const first = words[0];
  if (!first || first.dynamic || place.frame.source.slice(first.start, first.end) !== first.value) return undefined;
  const alias = place.scope.alias(first.value);
  if (!alias || (alias.source === place.frame && first.start < alias.from)) return undefined;
  return [alias.value, ...words.slice(1).map((w) => shellQuote(w.value))].join(' ');
}
