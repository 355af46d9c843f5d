import { z } from 'zod';
import { definePolicy } from '../types';
import { evidenceOf } from '../../facts/commands';
import { textsWrittenOrEdited } from '../../facts/compute';
import { replacedBefore } from './shared/edited-file';
import { inForeignFolder } from '../../facts/unread-programs';

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

// Cargo's config runs what it names: rustc and its wrappers, each target's runner and linker, and aliases
// that are whole cargo command lines (`t = "run --manifest-path /tmp/x/Cargo.toml"`). The build output
// folder is the one setting that names a place to write, not code.
const CARGO_CONFIG = /(^|\/)\.cargo\/config(\.toml)?$/;
const CARGO_OUTPUT_SETTING = /^[ \t]*(target-dir|build\.target-dir)[ \t]*=/;

/** A word of a cargo config's quoted values that names a file in a temporary, downloads or upload folder (and not in `before`). */
function cargoConfigFromTemp(file: string, text: string, before: string): string | undefined {
  if (!CARGO_CONFIG.test(file)) return undefined;
  for (const line of text.split('\n')) {
    if (CARGO_OUTPUT_SETTING.test(line)) continue;
    for (const quoted of line.matchAll(/"([^"\n]*)"|'([^'\n]*)'/g)) {
      const word = (quoted[1] ?? quoted[2] ?? '').split(/\s+/).find((w) => inForeignFolder(w) && !before.includes(w));
      if (word !== undefined) return `${line.trim()} (${word})`;
    }
  }
  return undefined;
}

export const hookOutsideProject = definePolicy({
  name: 'build-hook-outside-project',
  category: 'dangerous-commands',
  description:
    "Asks before a build or test config names a hook outside the project (electron-builder's afterSign, a test runner's globalSetup) or a cargo config names a program in a temporary, downloads or upload folder.",
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    if (!call) return null;
    const before = replacedBefore(call.input);
    for (const { file, content } of textsWrittenOrEdited(call)) {
      const cargo = cargoConfigFromTemp(file, content, before);
      if (cargo)
        return {
          reason: `Writes ${file}, whose ${evidenceOf(cargo, 100)} names a program or file in a temporary, downloads or upload folder: cargo runs it at every build, test or alias run. Keep tools in the project or installed, or a person decides.`,
          evidence: evidenceOf(cargo),
        };
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
