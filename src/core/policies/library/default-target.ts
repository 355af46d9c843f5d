// Tools and scripts pick a target when none is named: `.firebaserc`'s default project, a deploy script's
// `${1:-uat}`, a fastlane lane's store track. Switching that default to production turns every later bare
// run (an emulator reset, a quick `./deploy.sh`, `fastlane beta`) into a change to production, far from the
// edit that did it.
import { z } from 'zod';
import { definePolicy } from '../types';
import { evidenceOf } from '../../facts/commands';
import { writtenTexts } from '../../facts/compute';
import { textBefore } from './shared/edited-file';
import { PRODUCTION_NAME } from './production-sql';

/** `.firebaserc`'s default project alias. */
function firebaseDefault(text: string): string | undefined {
  return /"default"\s*:\s*"([^"]+)"/.exec(text)?.[1];
}

// A shell parameter's default (`${1:-uat}`, `${TARGET:=staging}`, `${ENV-dev}`), where the value is one word.
const PARAMETER_DEFAULT = /\$\{\w+:?[-=]["']?([\w.-]+)["']?\}/g;

function parameterDefaults(text: string): string[] {
  return [...text.matchAll(PARAMETER_DEFAULT)].map((match) => match[1]!);
}

const SHELL_SCRIPT = /\.(sh|bash|zsh)$/;

/** The production default the written text brings in where the file had none, if any. */
function newProductionDefault(file: string, content: string, before: string): string | undefined {
  if (/(^|\/)\.firebaserc$/.test(file)) {
    const now = firebaseDefault(content);
    const then = firebaseDefault(before);
    // Only where the file names another project to default to (`"dev": "app-dev"`): a project with
    // production alone has nothing else to run on.
    const others = [...content.matchAll(/"[\w-]+"\s*:\s*"([^"]+)"/g)].some(([, id]) => !PRODUCTION_NAME.test(id!));
    return now !== undefined &&
      PRODUCTION_NAME.test(now) &&
      others &&
      (then === undefined || !PRODUCTION_NAME.test(then))
      ? `"default": "${now}"`
      : undefined;
  }
  // A fastlane lane's store track: a lane that shipped to testers now ships to every user.
  if (/(^|\/)Fastfile$/.test(file)) {
    const production = /\btrack\s*:\s*["']production["']/;
    return production.test(content) && !production.test(before)
      ? 'a lane that uploads to the production track'
      : undefined;
  }
  if (!SHELL_SCRIPT.test(file)) return undefined;
  const had = parameterDefaults(before).some((value) => PRODUCTION_NAME.test(value));
  const found = had ? undefined : parameterDefaults(content).find((value) => PRODUCTION_NAME.test(value));
  return found === undefined ? undefined : `a default of ${found}`;
}

export const defaultTargetProduction = definePolicy({
  name: 'default-target-production',
  category: 'infrastructure',
  description:
    "Asks before a tool's or script's default target becomes production (`.firebaserc`'s default project, a deploy script's `${1:-prod}`, a fastlane lane's track): every later run of it then changes production.",
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    if (!call) return null;
    for (const { file, content } of writtenTexts(call)) {
      const found = newProductionDefault(file, content, textBefore(call, file));
      if (found !== undefined)
        return {
          reason: `Writes ${file} with ${found}: every run that names no target now works on production. Name production where it is meant, or approve this exact call.`,
          evidence: evidenceOf(found),
        };
    }
    return null;
  },
});
