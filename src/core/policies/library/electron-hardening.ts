import { z } from 'zod';
import { definePolicy } from '../types';
import { evidenceOf } from '../../facts/commands';
import { textsWrittenOrEdited } from '../../facts/compute';
import { replacedBefore } from './shared/edited-file';

// Electron keeps a window's web content away from Node (context isolation, the sandbox, no Node
// integration) and a packaged app away from being run as Node or debugged (its fuses). Turning one off
// makes any script injection in a message or a page code execution on every user's machine, or lets
// anyone on it run the signed app as a plain Node. A person decides.

/** Settings whose `true` opens the window or the app, and whose `false` does. */
const OPENED_BY_TRUE = [
  ...['nodeIntegration', 'nodeIntegrationInSubFrames', 'nodeIntegrationInWorker', 'allowRunningInsecureContent'],
  ...['enableRemoteModule', 'runAsNode', 'enableNodeCliInspectArguments', 'enableNodeOptionsEnvironmentVariable'],
  ...['RunAsNode', 'EnableNodeCliInspectArguments', 'EnableNodeOptionsEnvironmentVariable'],
];
const OPENED_BY_FALSE = [
  ...['contextIsolation', 'sandbox', 'webSecurity', 'onlyLoadAppFromAsar', 'enableEmbeddedAsarIntegrityValidation'],
  ...['OnlyLoadAppFromAsar', 'EnableEmbeddedAsarIntegrityValidation'],
];
const OPENING = new RegExp(
  String.raw`\b(?:FuseV1Options\.)?(?:(${OPENED_BY_TRUE.join('|')})\]?["']?\s*[:=]\s*true|(${OPENED_BY_FALSE.join('|')})\]?["']?\s*[:=]\s*false)\b`,
);
/** Text that is an Electron window's or build's settings (`sandbox: false` elsewhere means a payment provider's test mode). */
const ELECTRON_CONTEXT = /webPreferences|BrowserWindow|electronFuses|FuseV1Options|flipFuses|\belectron\b/i;

/** The first setting the text turns off that `before` did not already have off. */
function openedSetting(after: string, before: string): string | undefined {
  for (const line of after.split('\n')) {
    const found = OPENING.exec(line);
    if (found && !before.includes(found[0])) return found[0];
  }
  return undefined;
}

export const electronProtectionOff = definePolicy({
  name: 'electron-protection-off',
  category: 'dangerous-commands',
  description:
    "Asks before a write turns off an Electron window's protections (contextIsolation, sandbox, webSecurity off; nodeIntegration on) or a packaged app's fuses (runAsNode, inspect arguments, asar-only loading).",
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    if (!call) return null;
    const before = replacedBefore(call.input);
    for (const { file, content } of textsWrittenOrEdited(call)) {
      if (!ELECTRON_CONTEXT.test(file) && !ELECTRON_CONTEXT.test(content) && !ELECTRON_CONTEXT.test(before)) continue;
      const setting = openedSetting(content, before);
      if (setting)
        return {
          reason: `Writes ${file}, setting ${setting}: Electron's protection between web content and Node (or the packaged app's fuse) is off, so a script injected into a page or a message runs with the user's rights, or anyone runs the signed app as Node. A person decides.`,
          evidence: evidenceOf(setting),
        };
    }
    return null;
  },
});
