// Shared by the interpreter-code tests: a table row is code and exactly the effects and unread
// reasons expected of it (an effect is written `kind api value` or `kind api [argv…]`, `?` for dynamic).
import assert from 'node:assert/strict';
import { analyzeCode, type CodeEffect, type CodeLanguage } from '../../../src/core/interp';

export interface Row {
  code: string;
  effects?: string[];
  unread?: string[];
}

/** `exec os.system ls`, `exec subprocess.run [rm,-rf]?`, `delete fs.rmSync ~/.ssh`, `network fetch ?`. */
export function describeEffect(effect: CodeEffect): string {
  const mark = effect.dynamic ? '?' : '';
  if (effect.argv) return `${effect.kind} ${effect.api} [${effect.argv.join(',')}]${mark}`;
  return effect.value === undefined
    ? `${effect.kind} ${effect.api}${mark}`
    : `${effect.kind} ${effect.api} ${effect.value}${mark}`;
}

export function checkRows(language: CodeLanguage, rows: readonly Row[]): void {
  for (const row of rows) {
    const facts = analyzeCode(language, row.code);
    assert.equal(facts.language, language);
    assert.deepEqual(facts.effects.map(describeEffect), row.effects ?? [], `effects of ${JSON.stringify(row.code)}`);
    assert.deepEqual(facts.unread, row.unread ?? [], `unread of ${JSON.stringify(row.code)}`);
  }
}
