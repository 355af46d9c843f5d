// A mobile app's release build ships to every user's phone, and a few lines decide what anyone else on that
// phone or its network can reach: the main manifest marked debuggable (run-as and any debugger read the
// app's data), cleartext traffic or user-installed certificate authorities trusted by the whole app (its
// traffic readable on any café network or by whoever installs a profile), iOS's App Transport Security
// turned off, `FLAG_SECURE` taken away (screenshots and screen recorders see balances and documents), a
// Dart HTTP client that accepts every certificate. Debug-only source sets, test code and the settings
// that tighten pass.
import { z } from 'zod';
import { definePolicy } from '../types';
import { evidenceOf } from '../../facts/commands';
import { isTestFile } from '../../text/source-files';
import { linesAdded, textBefore } from './shared/edited-file';
import { writtenTexts } from '../../facts/compute';

/** Android source sets that only debug builds use. */
const DEBUG_SOURCE_SET = /\/src\/(debug|profile|androidTest|test)\//;
const MAIN_MANIFEST = /\/src\/main\/AndroidManifest\.xml$/;
const NETWORK_CONFIG = /\/src\/main\/res\/xml\/[^/]+\.xml$/;
const ANDROID_CODE: Pick<RegExp, 'test'> = {
  test: (file) => file.includes('/src/main/') && /\.(kt|java)$/.test(file),
};
const DART_APP_CODE: Pick<RegExp, 'test'> = { test: (file) => file.includes('/lib/') && file.endsWith('.dart') };
const INFO_PLIST = /(^|\/)Info\.plist$/;

interface Opening {
  file: string;
  what: string;
  evidence: string;
}

const ADDED_LINE_CHECKS: { file: Pick<RegExp, 'test'>; line: RegExp; what: string }[] = [
  {
    file: MAIN_MANIFEST,
    line: /android:debuggable\s*=\s*"true"/,
    what: 'marks the release app debuggable: run-as and any debugger reach its data on every phone',
  },
  {
    file: MAIN_MANIFEST,
    line: /android:usesCleartextTraffic\s*=\s*"true"/,
    what: 'lets the whole app send traffic in clear text',
  },
  {
    file: DART_APP_CODE,
    line: /\bHttpOverrides\.global\s*=/,
    what: "replaces every HTTP client's settings app-wide (the usual way to accept every certificate)",
  },
  {
    file: DART_APP_CODE,
    line: /badCertificateCallback\s*=\s*\([^)]{0,120}\)\s*(=>\s*true\b|\{\s*return\s+true\s*;)/,
    what: 'makes the HTTP client accept every certificate: its traffic is readable by anyone on the network path',
  },
];

/** `<base-config>` of a network security config that trusts user-installed CAs or allows clear text. */
function baseConfigOpened(text: string): string | undefined {
  const open = text.indexOf('<base-config');
  const tagEnd = open < 0 ? -1 : text.indexOf('>', open);
  if (tagEnd < 0) return undefined;
  const close = text.indexOf('</base-config>', tagEnd);
  const attributes = text.slice(open, tagEnd);
  const body = text.slice(tagEnd + 1, close < 0 ? undefined : close);
  if (/cleartextTrafficPermitted\s*=\s*"true"/.test(attributes)) return 'cleartextTrafficPermitted="true"';
  return /<certificates\s+src\s*=\s*"user"/.test(body) ? '<certificates src="user"/>' : undefined;
}

/** iOS's App Transport Security switched off for every host (`NSAllowsArbitraryLoads` set true). */
function transportSecurityOff(text: string): boolean {
  return /<key>NSAllowsArbitraryLoads<\/key>\s*<true\s*\/>/.test(text);
}

function openingIn(file: string, content: string, added: readonly string[], before: string): Opening | undefined {
  if (DEBUG_SOURCE_SET.test(file) || isTestFile(file)) return undefined;
  for (const check of ADDED_LINE_CHECKS) {
    if (!check.file.test(file)) continue;
    const line = added.find((text) => check.line.test(text));
    if (line !== undefined) return { file, what: check.what, evidence: line.trim() };
  }
  if (NETWORK_CONFIG.test(file)) {
    const opened = baseConfigOpened(content);
    if (opened !== undefined && baseConfigOpened(before) === undefined)
      return {
        file,
        what: 'makes every connection of the release app trust user-installed CAs or clear text',
        evidence: opened,
      };
  }
  if (INFO_PLIST.test(file) && transportSecurityOff(content) && !transportSecurityOff(before))
    return { file, what: 'turns off App Transport Security for every host', evidence: 'NSAllowsArbitraryLoads' };
  // An edit that takes FLAG_SECURE out of an activity: its screens become visible to screenshots and recorders.
  if (ANDROID_CODE.test(file) && before.includes('FLAG_SECURE') && !content.includes('FLAG_SECURE'))
    return {
      file,
      what: 'removes FLAG_SECURE: screenshots, recorders and the app switcher see its screens',
      evidence: 'FLAG_SECURE',
    };
  return undefined;
}

export const releaseAppOpened = definePolicy({
  name: 'release-app-opened',
  category: 'dangerous-commands',
  description:
    "Asks before a mobile app's release code or config is written to be debuggable, trust clear text, user CAs or every certificate, drop App Transport Security, or lose FLAG_SECURE.",
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    if (!call) return null;
    const added = new Map(linesAdded(call).map(({ file, lines }) => [file, lines]));
    for (const { file, content } of writtenTexts(call)) {
      const found = openingIn(file, content, added.get(file) ?? [], textBefore(call, file));
      if (found)
        return {
          reason: `Writes ${found.file}, which ${found.what}. Keep it to a debug build, or approve this exact call.`,
          evidence: evidenceOf(found.evidence),
        };
    }
    return null;
  },
});
