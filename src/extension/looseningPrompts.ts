import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { ConfirmationStore } from '../core/config/confirmations';
import type { HeldChange } from '../core/config/load';

// In VS Code a loosening config change is confirmed in the editor's own UI: a
// notification, then a modal that shows exactly what loosens. Changes the person
// makes through the panel (a policy switch, "not a secret") are confirmed as
// they are written, since the panel is the editor's UI too.

export class LooseningPrompts {
  private readonly offered = new Set<string>();

  constructor(
    private readonly store: () => ConfirmationStore,
    private readonly log: { info(m: string): void; warn(m: string): void },
  ) {}

  held(changes: HeldChange[]): void {
    for (const held of changes) {
      const id = `${held.path}\n${held.text ?? ''}`;
      if (this.offered.has(id)) continue;
      this.offered.add(id);
      this.log.warn(`held: ${held.path} would loosen protection: ${what(held)}`);
      void this.offer(held);
    }
  }

  /** The person changed this file through the editor's UI: its new text is confirmed as written. */
  confirmWritten(path: string): void {
    this.store().confirm(path, existsSync(path) ? readFileSync(path, 'utf8') : null, 'person');
  }

  private async offer(held: HeldChange): Promise<void> {
    const review = 'Review…';
    const pick = await vscode.window.showWarningMessage(
      `Agent Warden: a change to ${basename(held.path)} would loosen protection. It is held until you confirm it.`,
      review,
    );
    if (pick !== review) return;
    const apply = 'Apply this change';
    const answer = await vscode.window.showWarningMessage(
      `Loosen Warden's protection as ${held.path} now says?`,
      {
        modal: true,
        detail: `${held.scope} config: ${what(held)}\n\nIf you did not make this change, an agent may have: keep it held and look at the file.`,
      },
      apply,
    );
    if (answer !== apply) return;
    this.store().confirm(held.path, held.text, 'person');
    this.log.info(`confirmed in the editor: ${held.path} applies as shown`);
  }
}

function what(held: HeldChange): string {
  return (
    held.problem ??
    held.changes
      .filter((c) => c.effect === 'loosens')
      .map((c) => c.detail)
      .join('; ')
  );
}
