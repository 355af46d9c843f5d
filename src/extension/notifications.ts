import { z } from 'zod';
import type { AnswerResult, PendingView, ResolutionView } from '../protocol';
import { revealHidden } from '../protocol/text';
import { summarizeArgs } from '../server/rowSummary';

// A notification for each ask while the editor holds it, which goes away by
// itself the moment the ask is settled anywhere (the panel, the notification,
// a licence, the deadline). VS Code cannot close a message notification from
// code, and its buttons stay live after the fact; a progress notification is
// the one kind an extension can end. It takes no buttons of its own, so its
// answers are links in its text (notifications follow command links): Approve
// and Refuse carry the ask's id and a nonce made for this notification, so no
// link written elsewhere (a file the agent wrote, a hover) can answer an ask.

/** The command the notification's links run; registered by the extension, not offered in the palette. */
export const ANSWER_COMMAND = 'agentWarden.answerFromNotification';
const SHOW_COMMAND = 'agentWarden.showPanel';

/** What the notifications need of the editor's window. */
export interface NotificationPort {
  /** Shows a notification that stays up until `until` settles, then closes. */
  showUntil(text: string, until: Promise<void>): void;
  info(text: string): void;
  warn(text: string): void;
}

export interface AskNotificationDeps {
  answer(pending: PendingView, decision: 'approve' | 'refuse'): Promise<AnswerResult>;
  /** How an ask that is no longer open ended, if it is known. */
  settled(id: string): ResolutionView | undefined;
  nonce(): string;
  /** The deadline as the person's clock shows it. */
  clock?(iso: string): string;
}

/** The arguments of an answer link, as the command receives them. */
const linkArgsSchema = z.strictObject({
  id: z.string().min(1).max(200),
  decision: z.enum(['approve', 'refuse']),
  nonce: z.string().min(16).max(200),
});
type LinkArgs = z.infer<typeof linkArgsSchema>;

export function askMessage(p: PendingView): string {
  const summary = revealHidden(summarizeArgs(p.toolName, p.toolInput))
    .map((piece) => piece.text)
    .join('');
  return `Agent Warden: ${p.agent} wants to run ${p.toolName}: ${summary} (${p.reason})`;
}

/**
 * The agent's words cannot make a link: a notification's links are
 * `[label](target)`, so without a `[` in them no label can start in the
 * agent's text and reach into (or stand in for) Warden's own links after it.
 */
export function unlinkable(text: string): string {
  return text.replace(/\[/g, '\uFF3B').replace(/\]/g, '\uFF3D');
}

function commandLink(label: string, command: string, args?: LinkArgs): string {
  const query = args ? `?${encodeURIComponent(JSON.stringify([args]))}` : '';
  return `[${label}](command:${command}${query})`;
}

/** What became of an ask, in words, for a link followed after it was settled. */
export function settledMessage(resolution: ResolutionView | undefined): string {
  if (!resolution) return 'Agent Warden: that ask is no longer pending.';
  const by =
    resolution.answeredBy === 'vscode-panel'
      ? ' in the panel'
      : resolution.answeredBy === 'web-panel'
        ? ' in the web panel'
        : resolution.answeredBy === 'vscode-notification'
          ? ' from its notification'
          : resolution.answeredBy
            ? ` by ${resolution.answeredBy}`
            : '';
  switch (resolution.state) {
    case 'approved':
      return `Agent Warden: that ask was already approved${by}.`;
    case 'refused':
      return `Agent Warden: that ask was already refused${by}.`;
    case 'expired':
      return "Agent Warden: that ask expired and went to the agent's own prompt.";
    case 'withdrawn':
      return 'Agent Warden: that ask was withdrawn (the agent stopped waiting).';
  }
}

function defaultClock(iso: string): string {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : at.toLocaleTimeString();
}

export class AskNotifications {
  /** The notifications up now, by approval id: each with its nonce and the function that closes it. */
  private readonly open = new Map<string, { pending: PendingView; nonce: string; close: () => void }>();

  constructor(
    private readonly port: NotificationPort,
    private readonly deps: AskNotificationDeps,
  ) {}

  /** The notification's text: the ask, its deadline, and its answers as links. */
  text(p: PendingView, nonce: string): string {
    const answers = p.digest
      ? [
          commandLink('Approve', ANSWER_COMMAND, { id: p.id, decision: 'approve', nonce }),
          commandLink('Refuse', ANSWER_COMMAND, { id: p.id, decision: 'refuse', nonce }),
        ]
      : [];
    const clock = (this.deps.clock ?? defaultClock)(p.deadline);
    const bindable = p.digest ? '' : ` It cannot be approved here: ${p.notBindable ?? 'no digest to bind'}.`;
    return `${unlinkable(askMessage(p))}. Waiting for you until ${clock}, then it goes to the agent's own prompt.${bindable} ${[
      ...answers,
      commandLink('Show in the panel', SHOW_COMMAND),
    ].join(' · ')}`;
  }

  /** Offers an ask in a notification that lasts as long as the ask does. */
  offer(p: PendingView): void {
    if (this.open.has(p.id)) return;
    const nonce = this.deps.nonce();
    let close!: () => void;
    const until = new Promise<void>((resolve) => (close = resolve));
    this.open.set(p.id, { pending: p, nonce, close });
    this.port.showUntil(this.text(p, nonce), until);
  }

  /** The ask was settled (anywhere): its notification goes. */
  settle(id: string): void {
    const entry = this.open.get(id);
    if (!entry) return;
    this.open.delete(id);
    entry.close();
  }

  get showing(): number {
    return this.open.size;
  }

  /** A link of a notification was followed: answer its ask, if the link is that notification's own. */
  async followLink(raw: unknown): Promise<void> {
    const args = parseLinkArgs(raw);
    if (!args) return this.port.warn('Agent Warden: that link does not name an ask; nothing was answered.');
    const entry = this.open.get(args.id);
    if (!entry) return this.port.info(settledMessage(this.deps.settled(args.id)));
    if (entry.nonce !== args.nonce)
      return this.port.warn(
        "Agent Warden: that link was not made by this ask's notification; nothing was answered. Answer in the panel.",
      );
    const result = await this.deps.answer(entry.pending, args.decision);
    if (result.kind === 'ok') return this.settle(args.id);
    if (result.kind === 'not-pending') {
      this.settle(args.id);
      return this.port.info(settledMessage(this.deps.settled(args.id)));
    }
    this.port.warn(`Agent Warden: ${result.message}`);
  }

  /** Closes every notification (the endpoint stopped: its asks went with it). */
  closeAll(): void {
    for (const id of [...this.open.keys()]) this.settle(id);
  }
}

function parseLinkArgs(raw: unknown): LinkArgs | undefined {
  const parsed = linkArgsSchema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}
