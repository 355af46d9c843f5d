// Known secret values scrubbed wherever they appear: this process's secret-named environment
// variables, and secrets found in another part of the same envelope.
import { wordBoundaryAfter, wordBoundaryBefore } from './charset';
import type { Label } from './labels';
import type { Candidate } from './types';

/** Environment values shorter than this are too likely to occur by chance (`true`, `1`, `dev`). */
export const MIN_ENV_SECRET_LENGTH = 8;
/** Shorter extra secrets match only as whole words; under this they are ignored. */
export const MIN_EXTRA_SECRET_LENGTH = 4;

const SECRET_NAME_SUFFIXES = ['KEY', 'TOKEN', 'SECRET', 'PASSWORD', 'PASSWD', 'PASS', 'CREDENTIALS', 'CREDENTIAL'];

/** `…KEY`, `…TOKEN`, `…SECRET`, `…PASSWORD`, `…PASS`, `…CREDENTIALS`, `AUTH…` (not `AUTHOR…`). */
export function isSecretEnvName(name: string): boolean {
  const upper = name.toUpperCase();
  if (upper.startsWith('AUTH') && !upper.startsWith('AUTHOR')) return true;
  return SECRET_NAME_SUFFIXES.some((suffix) => upper.endsWith(suffix));
}

/** A file path names where a credential is, and is needed to judge a call that reads it. */
function isFilePath(value: string): boolean {
  return (value.startsWith('/') || value.startsWith('~/') || /^[A-Za-z]:\\/.test(value)) && !/\s/.test(value);
}

/** The values to scrub, longest first so that a value containing another wins the merge. */
export function envSecretValues(env: Record<string, string | undefined>): string[] {
  const values = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value.length < MIN_ENV_SECRET_LENGTH || !isSecretEnvName(name)) continue;
    if (isFilePath(value) || value.includes('<redacted:')) continue;
    values.add(value);
  }
  return [...values].sort((a, b) => b.length - a.length);
}

export function usableExtraSecrets(extra: readonly string[]): string[] {
  return [
    ...new Set(extra.filter((value) => value.length >= MIN_EXTRA_SECRET_LENGTH && !value.includes('<redacted:'))),
  ].sort((a, b) => b.length - a.length);
}

/** Every non-overlapping occurrence of each value; `indexOf` moves forward only, so this is linear per value. */
export function scanLiterals(text: string, values: readonly string[], label: Label, out: Candidate[]): void {
  for (const value of values) {
    const wholeWordOnly = value.length < MIN_ENV_SECRET_LENGTH;
    let from = 0;
    while (from <= text.length - value.length) {
      const at = text.indexOf(value, from);
      if (at < 0) break;
      const end = at + value.length;
      if (!wholeWordOnly || (wordBoundaryBefore(text, at) && wordBoundaryAfter(text, end))) {
        out.push({ label, detector: label, start: at, end });
        from = end;
      } else {
        from = at + 1;
      }
    }
  }
}
