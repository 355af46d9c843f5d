// `.gitattributes` decides how git and the code host show a file's changes: `-diff` or `binary` prints "Binary
// files differ" in place of the lines. For lock files and images that is what a team wants; for hand-written
// source, security rules, workflows or CODEOWNERS it hides every later change to them from whoever reviews.
import path from 'node:path';
import { z } from 'zod';
import { definePolicy } from '../types';
import { evidenceOf } from '../../facts/commands';
import { linesAdded } from './shared/edited-file';

/**
 * Attributes that replace a file's diff with "Binary files differ". `linguist-generated` alone only folds
 * the file in review, as teams mark their generated code, and passes.
 */
const HIDING = /(?:^|\s)(-diff|binary|diff=none)(?=\s|$)/;
/** Patterns for what tools generate or vendor, or for files that are not text. */
const GENERATED_OR_BINARY =
  /(\.g\.|\.freezed\.|\.pb\.|\.gen\.|generated|\.lock$|lock\.(json|yaml)$|\.min\.|(^|\/)(dist|build|vendor|third_party|node_modules)\/|\.snap$|\.(png|jpe?g|gif|webp|ico|pdf|zip|gz|jar|jks|keystore|so|dylib|dll|a|bin|ttf|otf|woff2?|mp[34]|wav|svg)$)/i;
/** Hand-written source, configuration and the files that govern the repository itself. */
const REVIEWED =
  /(\.(rules|ts|tsx|js|jsx|mjs|cjs|dart|kt|kts|java|swift|py|rb|go|rs|php|cs|sql|tf|sh|ya?ml|json|toml|xml|gradle|properties)$|(^|\/)(CODEOWNERS|Dockerfile|Makefile|Fastfile)$|(^|\/)\.github\/)/;

function hiddenFromReview(line: string): string | undefined {
  const [pattern = '', ...attributes] = line.trim().split(/\s+/);
  if (pattern === '' || pattern.startsWith('#')) return undefined;
  const hiding = HIDING.exec(` ${attributes.join(' ')}`)?.[1];
  if (hiding === undefined || GENERATED_OR_BINARY.test(pattern) || !REVIEWED.test(pattern)) return undefined;
  return `${pattern} ${hiding}`;
}

export const changesHiddenFromReview = definePolicy({
  name: 'changes-hidden-from-review',
  category: 'git',
  description:
    'Asks before a .gitattributes line marks hand-written source, rules, workflows or CODEOWNERS as -diff or binary: their later changes stop showing in diffs and pull-request review.',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    if (!call) return null;
    for (const { file, lines } of linesAdded(call)) {
      if (path.basename(file) !== '.gitattributes') continue;
      const hidden = lines.map(hiddenFromReview).find((found) => found !== undefined);
      if (hidden !== undefined)
        return {
          reason: `Writes ${file} with \`${hidden}\`: changes to those files show as "Binary files differ" in diffs and pull-request review. Keep such attributes for lock and binary files, or approve this exact call.`,
          evidence: evidenceOf(hidden),
        };
    }
    return null;
  },
});
