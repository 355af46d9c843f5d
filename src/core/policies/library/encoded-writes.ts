import { z } from 'zod';
import { evidenceOf } from '../../facts/commands';
import { writtenTexts } from '../../facts/compute';
import {
  decodedBase64Text,
  decodedPayloads,
  embeddedCommandLines,
  isActingCommandLine,
} from '../../text/embedded-commands';
import { definePolicy } from '../types';
import { stringsIn } from './shared/outbound-routes';
import type { ToolCall } from '../types';
import { secretKindOfPath } from '../../facts/sensitive';
import { resolvePath } from '../../shell/paths';

// Code or config written with a base64 literal that decodes to a command: an initializer, a build
// phase, a Podfile hook or a user-data script that downloads and runs something, or deletes files,
// spelled so that no reviewer reads it. An encoded fixture (a JSON body, a sentence, an image) decodes
// to text that does none of this. What the shell runs decoded now is encoded-command-execution's.

/** PowerShell's download-and-run, which the command-line reading does not name: a fetch and an `iex`. */
const POWERSHELL_FETCH = /\b(?:iwr|Invoke-WebRequest|DownloadString|Net\.WebClient)\b/i;
const POWERSHELL_RUN = /\biex\b|\bInvoke-Expression\b/i;

/** A line that deletes: `rm -rf`, `find … -delete`, a file system made, a disk overwritten by dd. */
function deletingLine(line: string): boolean {
  for (const [, flags] of line.matchAll(/\brm\s+-([a-zA-Z]+)\s/g)) if (/r/i.test(flags!)) return true;
  if (/\bfind\s/.test(line) && /\s-delete\b/.test(line)) return true;
  return /\bmkfs(?:\.\w+)?\s/.test(line) || (/\bdd\s/.test(line) && /\bof=\/dev\//.test(line));
}

const PUBLIC_KEY = /^\s*(ssh-(ed25519|rsa|dss)|ecdsa-sha2-nistp\d+)\s+AAAA/;

/** A quoted base64 literal inside a decoded payload: one more level of encoding. */
const BASE64_INSIDE = /["'`][A-Za-z0-9+/]{16,}={0,2}["'`]/;

/** An encoded payload a written text carries, with what it hides when it says so itself. */
interface Payload {
  decoded: string;
  action: string | undefined;
}

/** Where the written file's paths are read from: the call's folder and home. */
interface Place {
  cwd: string;
  home: string;
}

/** The encoded payloads a written text carries: its base64 literals and words, or the whole text when it is base64. */
function payloadsOf(content: string, place: Place): Payload[] {
  const whole = content.length < 65_536 ? decodedBase64Text(content.trim()) : undefined;
  if (whole !== undefined && whole.length >= 8)
    return [{ decoded: whole, action: hiddenAction(whole, content, place) }];
  // Kept: what hides an action, or carries base64 of its own to look into. The action found while
  // choosing is kept with it, so no payload is read twice.
  const actions = new Map<string, string | undefined>();
  const worthReading = (decoded: string) => {
    const action = hiddenAction(decoded, content, place);
    actions.set(decoded, action);
    return action !== undefined || BASE64_INSIDE.test(decoded);
  };
  return decodedPayloads(content, { bareWords: true, keep: worthReading }).map((decoded) => ({
    decoded,
    action: actions.get(decoded),
  }));
}

// Programs that read or carry a file's bytes somewhere: naming a credential file, they copy or show it.
const FILE_CARRIERS =
  /^(?:sudo\s+)?(cp|cat|mv|tar|zip|scp|rsync|curl|base64|xxd|gzip|openssl|install|dd|head|tail|tee|ln)\s/;

/** A decoded command line that copies or shows a credential file (`cp ../key.properties … /tmp/`). */
function credentialFileLine(decoded: string, place: Place): string | undefined {
  for (const line of decoded.split(/\n|;|&&/)) {
    const text = line.trim();
    if (!FILE_CARRIERS.test(text)) continue;
    const named = text
      .split(/[\s'"|<>()=@]+/)
      .filter((word) => /[/.]/.test(word) && !word.startsWith('-') && !word.includes('://'));
    if (named.some((word) => secretKindOfPath(resolvePath(word, place.cwd, place.home), place.home) !== null))
      return text;
  }
  return undefined;
}

/** What the decoded text does that encoding hides, if anything. */
function hiddenAction(decoded: string, around: string, place: Place): string | undefined {
  const acting =
    decoded.split('\n').find((line) => isActingCommandLine(line.trim())) ?? embeddedCommandLines(decoded)[0];
  if (acting !== undefined) return acting.trim();
  if (POWERSHELL_FETCH.test(decoded) && POWERSHELL_RUN.test(decoded)) return decoded.trim();
  const deleting = decoded.split('\n').find(deletingLine);
  if (deleting !== undefined) return deleting.trim();
  if (PUBLIC_KEY.test(decoded) && /authorized_keys/.test(around)) return `an SSH key for authorized_keys`;
  return credentialFileLine(decoded, place);
}

/**
 * Code that hands a decoded literal straight to a call that runs it (`subprocess.run(base64.b64decode(…))`,
 * `eval(atob(…))`, `system(Base64.decode64(…))`): whatever the payload says, it is run unread.
 */
const RUNNING_CALL =
  /\b(?:exec|eval|system|popen|spawn|execSync|run|call|check_output|check_call|Popen|Function|shell)\s*\(/gi;
/** A decoder as the running call's argument, inside up to a few wrapping calls (`str(b64decode(…))`). */
const DECODER_ARGUMENT =
  /^\s*(?:[\w.]{1,80}\(\s*){0,4}[\w.]{0,80}?\b(?:b64decode|b32decode|decode64|decodebase64|atob|FromBase64String|base64_decode)\s*\(/i;
/** How far after a running call its decoder may start. */
const ARGUMENT_SPAN = 400;

function runsDecoded(content: string): string | undefined {
  for (const call of content.matchAll(RUNNING_CALL)) {
    const from = call.index + call[0].length;
    const argument = DECODER_ARGUMENT.exec(content.slice(from, from + ARGUMENT_SPAN));
    if (argument) return `${call[0]}${argument[0].trim()}…`;
  }
  return undefined;
}

/**
 * What the call writes: files, and what an MCP tool is handed to keep (a theme file's value, a stored
 * script), which its service runs or serves as a written file would be.
 */
function keptTexts(call: ToolCall): { file: string; content: string }[] {
  const kept = writtenTexts(call);
  if (call.face.builtIn || call.face.family === 'write' || call.face.family === 'edit') return kept;
  if (!call.toolName.startsWith('mcp__')) return kept;
  return [...kept, ...stringsIn(call.input).map((content) => ({ file: `what ${call.toolName} keeps`, content }))];
}

/** The first encoded command in what the call writes, one level of nesting deep. */
function encodedCommandIn(call: ToolCall): { file: string; action: string; runsDecoded?: true } | undefined {
  const place = { cwd: call.cwd, home: call.home };
  for (const { file, content } of keptTexts(call)) {
    const runs = runsDecoded(content);
    if (runs) return { file, action: runs, runsDecoded: true };
    for (const { decoded, action: hidden } of payloadsOf(content, place)) {
      const action =
        hidden ??
        decodedPayloads(decoded)
          .map((inner) => hiddenAction(inner, decoded, place))
          .find(Boolean);
      if (action !== undefined) return { file, action };
    }
  }
  return undefined;
}

export const encodedCommandWritten = definePolicy({
  name: 'encoded-command-written',
  category: 'dangerous-commands',
  description:
    'Refuses writing into a file a base64 literal that decodes to a command that downloads, sends, feeds a shell, deletes or copies a credential file, or code that runs a decoded literal: hidden from whoever reviews the file.',
  defaultEnabled: true,
  decision: 'deny',
  params: z.object({}),
  evaluate({ call }) {
    if (!call) return null;
    const found = encodedCommandIn(call);
    if (!found) return null;
    const what = found.runsDecoded
      ? `code that runs a decoded base64 payload (\`${evidenceOf(found.action, 120)}\`)`
      : `a base64 payload that decodes to \`${evidenceOf(found.action, 120)}\``;
    return {
      reason: `Writes into ${found.file} ${what}: encoding hides the command from review; write the plain command if it is what you intend.`,
      evidence: evidenceOf(found.action),
    };
  },
});
