import { z } from 'zod';
import { definePolicy } from '../types';
import { evidenceOf } from '../../facts/commands';
import { textsWrittenOrEdited } from '../../facts/compute';
import { replacedBefore } from './shared/edited-file';

// Build and test tools load modules their config names as hooks: electron-builder require()s afterSign,
// afterPack and beforeBuild while it signs and packages (the certificate's password in its environment),
// Playwright, Jest and Vitest import globalSetup and setup files before any test. A hook the project
// keeps is reviewed with it; one named by an absolute path elsewhere (a cache or downloads folder, home)
// is code nobody reviewed that runs at every build or test run.

const HOOK_KEYS = [
  ...['afterSign', 'afterPack', 'beforeBuild', 'beforePack', 'afterExtract', 'afterAllArtifactBuild'],
  ...['artifactBuildStarted', 'artifactBuildCompleted', 'onNodeModuleFile'],
  ...['globalSetup', 'globalTeardown', 'setupFiles', 'setupFilesAfterEnv', 'testEnvironment'],
];
const HOOK_SETTING = new RegExp(
  String.raw`\b(${HOOK_KEYS.join('|')})["']?[ \t]*[:=][ \t]*(?:\[[ \t]*)?["']?([~/][^"'\s,\]]*)`,
  'g',
);

/** The first hook the text names by a path outside the project (and not named so in `before`). */
export function hookOutside(text: string, before: string, projectRoot: string, home: string): string | undefined {
  for (const match of text.matchAll(HOOK_SETTING)) {
    const raw = match[2]!;
    const absolute = raw.startsWith('~/') ? `${home}${raw.slice(1)}` : raw;
    if (absolute === projectRoot || absolute.startsWith(`${projectRoot}/`) || before.includes(raw)) continue;
    return `${match[1]}: ${raw}`;
  }
  return undefined;
}

export const hookOutsideProject = definePolicy({
  name: 'build-hook-outside-project',
  category: 'dangerous-commands',
  description:
    "Asks before a build or test config names a hook module outside the project (electron-builder's afterSign or beforeBuild, a test runner's globalSetup): code nobody reviewed, run at every build.",
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    if (!call) return null;
    const before = replacedBefore(call.input);
    for (const { file, content } of textsWrittenOrEdited(call)) {
      const hook = hookOutside(content, before, call.projectRoot, call.home);
      if (hook)
        return {
          reason: `Writes ${file}, whose ${hook} names a module outside the project: the tool loads it at every build or test run, with the environment it runs in (signing passwords, tokens). Keep hooks in the project, or a person decides.`,
          evidence: evidenceOf(hook),
        };
    }
    return null;
  },
});
