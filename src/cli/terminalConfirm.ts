import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { describeHeld, type HeldChange } from '../core/config/load';
import type { ConfirmationStore } from '../core/config/confirmations';

// serve's own terminal is where a person confirms a loosening config change:
// each held change is announced once on stderr with a fresh code, and typing
// `confirm <code>` on serve's stdin records exactly the text that was shown.
// An agent can write config files, but not type into this terminal.

export class TerminalConfirm {
  private readonly byCode = new Map<string, HeldChange>();
  private readonly announced = new Set<string>();

  constructor(
    private readonly store: ConfirmationStore,
    private readonly say: (line: string) => void,
  ) {}

  /** Reads confirmations from a stream (serve's stdin) until it ends. */
  listen(input: NodeJS.ReadableStream): void {
    const lines = createInterface({ input, terminal: false });
    lines.on('line', (line) => this.command(line.trim()));
    lines.on('error', () => undefined);
  }

  held(changes: HeldChange[]): void {
    for (const held of changes) {
      const id = `${held.path}\n${held.text ?? ''}`;
      if (this.announced.has(id)) continue;
      this.announced.add(id);
      const code = randomBytes(3).toString('hex');
      this.byCode.set(code, held);
      this.say(`${describeHeld(held)}.\n  To apply it, type here: confirm ${code}`);
    }
  }

  private command(line: string): void {
    if (line === '') return;
    const match = /^confirm\s+([0-9a-f]{6})$/.exec(line);
    const held = match ? this.byCode.get(match[1]!) : undefined;
    if (!held) {
      this.say(`"${line}" is not a pending confirmation (type: confirm <code>, with the code shown for the change)`);
      return;
    }
    this.byCode.delete(match![1]!);
    try {
      this.store.confirm(held.path, held.text, 'person');
      this.say(`confirmed: ${held.path} applies as shown from the next call on`);
    } catch (err) {
      this.say(`could not record the confirmation of ${held.path}: ${(err as Error).message}`);
    }
  }
}
