import { z } from 'zod';
import { definePolicy } from '../types';
import type { Unread, UnreadReason } from '../../facts';

// Opacity is never consent: a call whose effect the analysis cannot read waits for a person,
// with a reason that says what could not be read. No depth, size or time limit turns into an allow.

const WHAT: Record<UnreadReason, string> = {
  truncated: 'it goes deeper or longer than the analysis follows',
  'parse-error': 'part of it does not parse',
  'dynamic-command': 'a program name is known only at run time',
  'unknown-script': 'it runs a script, or puts one where a tool runs it, whose text is known only at run time',
  'unread-code': 'it runs interpreter code Warden could not read',
  'unresolvable-path': 'it changes a path known only at run time',
  budget: 'reading it ran out of its budget',
};

const MAX_LISTED = 3;

function describe(unread: Unread[]): string {
  const listed = unread.slice(0, MAX_LISTED).map((u) => u.detail);
  const more = unread.length - listed.length;
  return listed.join('; ') + (more > 0 ? `; and ${more} more` : '');
}

export const unreadCall = definePolicy({
  name: 'unread-call',
  category: 'agent-integrity',
  description:
    'Always on: asks a person about any call whose effect Warden cannot read (nesting past its limits, parse errors, program names or scripts known only at run time, unread interpreter code, paths it cannot resolve, a spent budget).',
  defaultEnabled: true,
  alwaysOn: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    const unread = call?.facts.unread ?? [];
    const first = unread[0];
    if (!first) return null;
    return {
      reason: `Warden cannot read what this call will do (${WHAT[first.reason]}): ${describe(unread)}. A person must look at it; a plainer command that spells out what it runs would not need this.`,
      evidence: [...new Set(unread.map((u) => u.reason))].join(', '),
    };
  },
});
