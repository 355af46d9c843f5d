// The interpreter-code reader (src/core/interp) behind the facts' CodeReader seam.
import { analyzeCode, type CodeLanguage } from '../interp';
import type { CodeReader } from './code';

const READ: ReadonlySet<string> = new Set<CodeLanguage>([
  'python',
  'javascript',
  'php',
  'ruby',
  'powershell',
  'perl',
  'awk',
]);

/** TypeScript is read with the JavaScript reader: type syntax it cannot parse leaves the code unread. */
function readerLanguage(language: string): CodeLanguage | null {
  const name = language === 'typescript' ? 'javascript' : language;
  return READ.has(name) ? (name as CodeLanguage) : null;
}

export const interpCodeReader: CodeReader = {
  reads: (language) => readerLanguage(language) !== null,
  read(language, code) {
    const name = readerLanguage(language);
    if (!name) return { effects: [], unread: [`in ${language}, which Warden has no reader for`] };
    try {
      const facts = analyzeCode(name, code);
      return { effects: facts.effects, unread: facts.unread };
    } catch (error) {
      // The grammars not loaded yet: the code stays unread rather than passing unseen.
      return { effects: [], unread: [`could not be read (${(error as Error).message})`] };
    }
  },
};
