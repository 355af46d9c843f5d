// Text that displays other than it reads: Unicode's bidirectional controls reorder what an editor shows
// (a `return` that looks like part of a comment, the "Trojan Source" trick), and its tag characters are
// invisible yet read by a model (instructions smuggled past the person). Neither belongs in code, config,
// a command line or a note the agent writes; both hide what a reviewer would otherwise see.
import { z } from 'zod';
import { definePolicy } from '../types';
import { evidenceOf } from '../../facts/commands';
import { stringsIn } from './shared/outbound-routes';
import type { ToolCall } from '../types';

const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/u;
const HIDING = /[\u202A-\u202E\u2066-\u2069\u{E0000}-\u{E007F}]/u;
/** Past this many characters of one argument, the rest is not looked at. */
const SCANNED_CHARS = 262_144;

// Cyrillic and Greek letters drawn like Latin ones. In a word of Latin letters one of them makes a name that
// reads as another (`'@/lib/strіpe'`, a package, a host): nobody types that by accident.
const LATIN_LOOKALIKE = /[аеорсухіјѕԁһӏαορντκι]/u;
const WORD = /[\p{L}\p{N}_]+/gu;
const LATIN = /[A-Za-z]/;

/** The first word that mixes Latin letters with a Cyrillic or Greek letter drawn like one. */
function mixedScriptWord(text: string): string | undefined {
  if (!LATIN_LOOKALIKE.test(text)) return undefined;
  for (const [word] of text.matchAll(WORD)) if (LATIN.test(word) && LATIN_LOOKALIKE.test(word)) return word;
  return undefined;
}

/** The first string of the tool's arguments that holds hidden text, with what hides it (one scan of each). */
function hiddenText(input: Record<string, unknown>): { text: string; what: string } | undefined {
  for (const value of stringsIn(input)) {
    const text = value.slice(0, SCANNED_CHARS);
    const mixed = mixedScriptWord(text);
    if (mixed !== undefined)
      return { text: mixed, what: `a word whose Latin letters hide a Cyrillic or Greek one drawn alike (${mixed})` };
    if (!HIDING.test(text)) continue;
    return BIDI_CONTROL.test(text)
      ? { text, what: 'bidirectional control characters, which reorder what is shown' }
      : { text, what: 'invisible tag characters, which a model reads and a person does not see' };
  }
  return undefined;
}

// A comment Markdown and HTML never render, addressed to an AI agent and telling it what to do: the person
// reading the page sees nothing, the agent that reads the file takes it as an instruction.
const COMMENT_CHARS = 2000;

/** The bodies of a text's `<!-- … -->` comments (each read up to COMMENT_CHARS). */
function commentBodies(text: string): string[] {
  const bodies: string[] = [];
  for (let open = text.indexOf('<!--'); open !== -1; open = text.indexOf('<!--', open + 4)) {
    const close = text.indexOf('-->', open + 4);
    if (close === -1) break;
    bodies.push(text.slice(open + 4, Math.min(close, open + 4 + COMMENT_CHARS)));
  }
  return bodies;
}
const ADDRESSED_TO_AGENT =
  /\b(AI|LLMs?|language models?|(coding |AI )?(agents?|assistants?)|Claude|Copilot|Cursor|Codex|Gemini)\b/i;
const TELLS_TO_ACT =
  /\b(run|execute|curl|install|ignore|disregard|do not (tell|mention|show|report)|don't (tell|mention|show)|without (telling|asking)|always|before (any|each|every)|instead|send|upload|export)\b/i;

/** A hidden comment in written text that tells an AI agent to do something (`<!-- AI agents: run … -->`). */
function hiddenAgentInstruction(call: ToolCall): string | undefined {
  if (call.face.family !== 'write' && call.face.family !== 'edit') return undefined;
  for (const value of stringsIn(call.input)) {
    for (const body of commentBodies(value.slice(0, SCANNED_CHARS)))
      if (ADDRESSED_TO_AGENT.test(body) && TELLS_TO_ACT.test(body)) return body.trim();
  }
  return undefined;
}

export const hiddenTextInCall = definePolicy({
  name: 'hidden-text-in-call',
  category: 'dangerous-commands',
  description:
    'Asks before a call whose text displays other than it reads: bidirectional controls (Trojan Source), invisible tag characters, a Latin word with a Cyrillic or Greek letter drawn alike, or a hidden comment telling AI agents what to do.',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    const instruction = call ? hiddenAgentInstruction(call) : undefined;
    if (instruction)
      return {
        reason: `The text written holds a comment no rendered page shows, telling AI agents what to do ("${evidenceOf(instruction, 100)}"): the next agent that reads the file takes it as an instruction the person never saw. Write it as visible text, or leave it out.`,
        evidence: evidenceOf(instruction),
      };
    const found = call ? hiddenText(call.input) : undefined;
    if (!found) return null;
    const shown = found.text.replace(
      /[\u202A-\u202E\u2066-\u2069]|[\u{E0000}-\u{E007F}]/gu,
      (c) => `<U+${c.codePointAt(0)!.toString(16).toUpperCase()}>`,
    );
    return {
      reason: `The call's text holds ${found.what}: what a person reads is not what runs or what the model reads. Write it without them, or show the person the characters.`,
      evidence: evidenceOf(shown),
    };
  },
});
