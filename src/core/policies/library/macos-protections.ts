import { z } from 'zod';
import { argsOf, evidenceOf, shellCommands } from '../../facts/commands';
import { definePolicy } from '../types';
import type { ToolCall } from '../types';

// macOS asks the person before a downloaded app first runs (Gatekeeper, through the quarantine flag),
// before a program reads their files or screen (TCC, whose grants sit in TCC.db), and shows what
// starts at login. A command that strips the flag, turns Gatekeeper off, writes a grant into TCC.db
// or adds a hidden login item takes that decision from them.

interface Bypass {
  what: string;
  deny?: boolean;
}

const TCC_DB = /com\.apple\.TCC\/TCC\.db\b/;
const WRITES_SQL = /\b(insert|update|replace|delete)\b/i;

function bypassOf(name: string, args: readonly string[], text: string): Bypass | null {
  if (TCC_DB.test(text) && (name !== 'sqlite3' || args.some((a) => WRITES_SQL.test(a))))
    return { what: 'changes the TCC database, which holds the privacy grants the person gave', deny: true };
  if (name === 'xattr' && args.some((a) => a === 'com.apple.quarantine') && args.some((a) => /^-[a-z]*[dc]/.test(a)))
    return { what: 'strips the quarantine flag, so Gatekeeper never checks what was downloaded' };
  if (name === 'xattr' && args.some((a) => /^-[a-z]*c/.test(a)) && args.some((a) => /^-[a-z]*r/.test(a)))
    return { what: 'clears every extended attribute (the quarantine flag included) of a whole folder' };
  if (name === 'spctl' && args.some((a) => /^--(master|global)-disable$|^--add$|^--disable$/.test(a)))
    return { what: 'turns Gatekeeper off or exempts a program from it' };
  if (name === 'defaults' && args.includes('write') && args.some((a) => a === 'LSQuarantine'))
    return { what: 'stops macOS marking downloads for Gatekeeper' };
  if (name === 'osascript' && /\bmake\s+(new\s+)?login\s+item\b/i.test(text))
    return { what: 'adds a login item, a program that starts at every login' };
  if (name === 'osascript' && /with\s+administrator\s+privileges/i.test(text))
    return { what: "asks for the person's administrator password through a prompt the agent wrote" };
  if (name === 'csrutil' && args.includes('disable'))
    return { what: 'turns System Integrity Protection off', deny: true };
  return null;
}

function macosBypass(call: ToolCall): { bypass: Bypass; evidence: string } | null {
  for (const cmd of shellCommands(call)) {
    const bypass = bypassOf(cmd.name, argsOf(cmd), cmd.text);
    if (bypass) return { bypass, evidence: cmd.text };
  }
  return null;
}

export const macosProtectionBypass = definePolicy({
  name: 'macos-protection-bypass',
  category: 'packages-and-system',
  description:
    "Asks before a command strips Gatekeeper's quarantine flag, turns Gatekeeper off, adds a login item or prompts for the admin password; refuses writes to TCC.db and turning SIP off.",
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    if (!call?.shell) return null;
    const found = macosBypass(call);
    if (!found) return null;
    return {
      ...(found.bypass.deny ? { decision: 'deny' as const } : {}),
      reason: `This ${found.bypass.what}: macOS leaves that decision to the person, at their screen. ${found.bypass.deny ? 'Warden refuses it.' : 'Approve it only if they asked for it.'}`,
      evidence: evidenceOf(found.evidence),
    };
  },
});
