// Data opened to everyone at the database's own door: Firebase security rules that allow without a
// condition (`allow read, write: if true;`, `".read": true`) or only until a date (the console's test
// mode), and Postgres row-level security turned off
// on a table (Supabase ships its anon key inside every app, so RLS is all that stands between it and
// the rows). Each reaches production on the next routine deploy, or at once through a tool. An Android
// app's content provider exported with no permission opens the user's data to every app on the phone, and
// a Tauri app's capability granted to remote pages opens the user's machine to them.
import { z } from 'zod';
import { definePolicy } from '../types';
import type { ToolCall } from '../types';
import { evidenceOf } from '../../facts/commands';
import { inPlaceEdits, writtenTexts } from '../../facts/compute';
import { stringsIn } from './shared/outbound-routes';

const RULES_FILE = /(^|\/)[^/]*\.rules$|(^|\/)database\.rules\.json$/;
/**
 * A Firestore or Storage rule that allows with no condition, with one that is always true, or with only a
 * deadline (the console's "test mode": everything open to everyone until the date).
 */
const OPEN_RULE =
  /\ballow\s+[a-z, ]{3,40}(?::\s*if\s+(?:true|request\.time\s*<\s*timestamp\.date\([\d\s,]{1,30}\))\s*)?;/;
/** A Realtime Database rule of plain `true` for reading or writing, or only a deadline (`"now < 1767225600000"`). */
const OPEN_DATABASE_RULE = /"\.(?:read|write)"\s*:\s*(?:true\b|"now\s*<\s*\d+")/;
const RLS_OFF = /\bdisable\s+row\s+level\s+security\b/i;
const ANDROID_MANIFEST = /(^|\/)AndroidManifest\.xml$/;
/** An Android content provider's tag that exports it to every app on the phone with no permission to hold. */
function exportedProvider(manifest: string): string | undefined {
  for (let at = manifest.indexOf('<provider'); at >= 0; at = manifest.indexOf('<provider', at + 1)) {
    const end = manifest.indexOf('>', at);
    const tag = manifest.slice(at, end < 0 ? undefined : end + 1);
    if (/android:exported\s*=\s*"true"/.test(tag) && !/android:(?:read|write)?[Pp]ermission\s*=/.test(tag)) return tag;
  }
  return undefined;
}

// A Tauri capability granted to remote pages (`"remote": { "urls": ["https://*"] }`) with the app's shell or
// file commands: any page the window loads can run programs or touch the user's files.
const TAURI_CAPABILITY = /(^|\/)capabilities\/[^/]+\.json5?$/;

const SHELL_OR_FS_PERMISSION = /"(?:shell|fs):[\w-]+"|"identifier"\s*:\s*"(?:shell|fs):[\w-]+"/;

/** The `"remote": { … "urls" … }` object of a capability, found by its key and read to its closing brace. */
function remoteUrlsGrant(content: string): string | undefined {
  for (let at = content.indexOf('"remote"'); at >= 0; at = content.indexOf('"remote"', at + 1)) {
    const open = content.indexOf('{', at);
    const close = open < 0 ? -1 : content.indexOf('}', open);
    if (close < 0 || content.slice(at + '"remote"'.length, open).trim() !== ':') continue;
    const grant = content.slice(at, close + 1);
    if (grant.includes('"urls"')) return grant;
  }
  return undefined;
}

function remoteCapability(content: string): string | undefined {
  const remote = remoteUrlsGrant(content);
  const permission = SHELL_OR_FS_PERMISSION.exec(content);
  return remote !== undefined && permission ? `${remote} … ${permission[0]}` : undefined;
}

function openRule(text: string): string | undefined {
  return OPEN_RULE.exec(text)?.[0] ?? OPEN_DATABASE_RULE.exec(text)?.[0] ?? unverifiedEmailGrant(text);
}

/** A rule condition on the signed-in user's email address (`token.email.matches('.*@acme[.]com$')`). */
const EMAIL_CONDITION = /request\.auth\.token\.email\s*(?:\.\s*(?:matches|endsWith|lower)\s*\(|==)[^\n;]{0,120}/;

/**
 * Access granted by the user's email address where the rules never ask whether it is verified: with
 * email sign-up, anyone can register `ceo@acme.com` and pass.
 */
function unverifiedEmailGrant(text: string): string | undefined {
  if (/email_verified/.test(text)) return undefined;
  return EMAIL_CONDITION.exec(text)?.[0];
}

interface Opening {
  what: string;
  evidence: string;
  /** Who it is open to, when not the database's public key holders. */
  harm?: string;
}

function opened(call: ToolCall): Opening | undefined {
  // A whole file written, or the text an in-place edit (`sed -i 's/…/allow read, write: if true;/'`) brings in.
  for (const { file, content } of [...writtenTexts(call), ...inPlaceEdits(call)]) {
    const rule = RULES_FILE.test(file) ? openRule(content) : undefined;
    if (rule) return { what: `writes ${file} with a rule that lets anyone in (${rule})`, evidence: rule };
    const rls = RLS_OFF.exec(content)?.[0];
    if (rls) return { what: `writes ${file}, which turns row-level security off`, evidence: rls };
    const provider = ANDROID_MANIFEST.test(file) ? exportedProvider(content) : undefined;
    if (provider)
      return { what: `writes ${file} with a content provider every app on the phone may read`, evidence: provider };
    const capability = TAURI_CAPABILITY.test(file) ? remoteCapability(content) : undefined;
    if (capability)
      return {
        what: `writes ${file}, which gives remote web pages the app's shell or file commands`,
        evidence: capability,
        harm: "any page the app's window loads could run programs or read and write the user's files.",
      };
  }
  const rls = RLS_OFF.exec(call.command ?? '')?.[0];
  if (rls) return { what: 'turns row-level security off on a table', evidence: evidenceOf(call.command ?? rls) };
  if (!call.toolName.startsWith('mcp__')) return undefined;
  for (const text of stringsIn(call.input)) {
    if (RLS_OFF.test(text))
      return { what: `${call.toolName} turns row-level security off`, evidence: evidenceOf(text) };
    const rule = /rule/i.test(call.toolName) ? openRule(text) : undefined;
    if (rule) return { what: `${call.toolName} deploys a rule that lets anyone in (${rule})`, evidence: rule };
  }
  return undefined;
}

export const dataOpenedToEveryone = definePolicy({
  name: 'data-opened-to-everyone',
  category: 'database',
  description:
    'Asks before Firebase rules that allow without a condition or only until a date, Postgres row-level security off, an Android provider exported with no permission, or a Tauri capability giving remote pages shell or fs.',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    const found = call ? opened(call) : undefined;
    if (!found) return null;
    return {
      reason: `The call ${found.what}: ${found.harm ?? "every user's rows or documents become open to anyone who has the app's public key."} Keep the rule's condition, or approve this exact change.`,
      evidence: evidenceOf(found.evidence),
    };
  },
});
