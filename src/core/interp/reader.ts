// The interpreter-code reader as the call-facts module consumes it (see facts/code.ts): language
// names as the facts module spells them, and never an exception.
import type { CodeReader, CodeReading } from '../facts/code';
import { analyzeCode, needsGrammar } from './analyze';
import { grammarsReady } from './parse';
import type { CodeLanguage } from './types';

const LANGUAGES: Record<string, CodeLanguage> = {
  python: 'python',
  javascript: 'javascript',
  node: 'javascript',
  typescript: 'javascript',
  php: 'php',
  ruby: 'ruby',
  powershell: 'powershell',
  perl: 'perl',
  awk: 'awk',
  gawk: 'awk',
  mawk: 'awk',
  nawk: 'awk',
  rust: 'rust',
};

/** The reader's language for a name the facts module uses, if it reads that language. */
export function codeLanguageOf(language: string): CodeLanguage | undefined {
  return Object.hasOwn(LANGUAGES, language) ? LANGUAGES[language] : undefined;
}

export const INTERPRETER_CODE_READER: CodeReader = {
  reads: (language) => codeLanguageOf(language) !== undefined,
  read(language, code): CodeReading {
    const known = codeLanguageOf(language);
    if (known === undefined) return { effects: [], unread: [`no reader for ${language} code`] };
    // A worker loads the grammar and reads the call again (see loadWantedGrammars).
    if (needsGrammar(known) && !grammarsReady(known)) {
      return { effects: [], unread: [`the ${known} grammar is not loaded`] };
    }
    const { effects, unread } = analyzeCode(known, code);
    return { effects, unread };
  },
};
