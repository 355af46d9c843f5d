// Reads interpreter code in any supported language into CodeFacts, within fixed bounds, never throwing
// on the code itself.
import { Collector } from './collector';
import { readJavaScript } from './javascript';
import { readPhp } from './php';
import { readPowerShell } from './powershell';
import { readPython } from './python';
import { readRuby } from './ruby';
import { readPerl } from './perl';
import { readAwk } from './awk';
import { readRust } from './rust';
import { assertGrammarsReady, type GrammarLanguage } from './parse';
import type { AnalyzeCodeOptions, CodeFacts, CodeLanguage } from './types';

/** Code longer than this (in UTF-16 units, about bytes for ASCII) is not read at all. */
export const MAX_CODE_SIZE = 256 * 1024;

const READERS: Record<CodeLanguage, (code: string, out: Collector) => void> = {
  python: readPython,
  javascript: readJavaScript,
  php: readPhp,
  ruby: readRuby,
  powershell: readPowerShell,
  perl: readPerl,
  awk: readAwk,
  rust: readRust,
};

const NEEDS_GRAMMAR = new Set<CodeLanguage>(['python', 'javascript', 'php', 'ruby', 'powershell', 'rust']);

export function needsGrammar(language: CodeLanguage): language is GrammarLanguage {
  return NEEDS_GRAMMAR.has(language);
}

function readInto(language: CodeLanguage, code: string, out: Collector): void {
  if (code.length > MAX_CODE_SIZE) {
    out.giveUp('code too large');
    return;
  }
  try {
    READERS[language](code, out);
  } catch (error) {
    out.giveUp(`the ${language} reader failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** What `code` does when run by `language`'s interpreter. Throws only when its grammars are not loaded. */
export function analyzeCode(language: CodeLanguage, code: string, options: AnalyzeCodeOptions = {}): CodeFacts {
  if (!(language in READERS)) throw new Error(`analyzeCode: unknown language ${JSON.stringify(language)}`);
  if (needsGrammar(language)) assertGrammarsReady(language);
  const out = new Collector(readInto, options.deadline ?? Infinity);
  readInto(language, typeof code === 'string' ? code : String(code), out);
  return { language, effects: out.effects, unread: out.unread };
}
