import { Evaluator, type Evaluation, type EvaluatorOptions } from '../../core/evaluator';
import type { HookEvent } from '../../core/types';
import { argumentOriginals, envelopeOriginals } from './markers';
import type { OriginalsStore, RecordOriginals } from './store';

// The extension's evaluator: the core's, plus the originals behind each new
// record's redaction markers kept in memory for the panel's reveal and
// "not a secret". Only calls that were redacted cost anything more.

export interface RevealingEvaluatorOptions extends EvaluatorOptions {
  originals: OriginalsStore;
  /** Key of the redaction allow-list hashes: the state folder's log key. */
  allowlistKey: Buffer;
  /** The environment the semantic tier redacts with. */
  semanticEnv: Record<string, string | undefined>;
}

const MARKER = '<redacted:';

export class RevealingEvaluator extends Evaluator {
  constructor(private readonly reveal: RevealingEvaluatorOptions) {
    super(reveal);
  }

  override async evaluate(event: HookEvent): Promise<Evaluation> {
    const evaluation = await super.evaluate(event);
    try {
      this.keep(evaluation);
    } catch (err) {
      this.reveal.onWarning?.(`could not keep the originals of a redacted call in memory: ${(err as Error).message}`);
    }
    return evaluation;
  }

  private keep(evaluation: Evaluation): void {
    const { record, event, config } = evaluation;
    const argsRedacted = JSON.stringify(record.toolInput ?? null).includes(MARKER);
    const envelopeRedacted = (record.redactions.spans?.length ?? 0) > 0 && record.envelope !== null;
    if (!argsRedacted && !envelopeRedacted) return;
    const allowlist = { key: this.reveal.allowlistKey, hashes: new Set(config.redactionAllowlist) };
    const args = argsRedacted
      ? argumentOriginals(event.toolInput, record.toolInput, allowlist)
      : { ok: true as const, markers: [] };
    const envelope = envelopeRedacted
      ? envelopeOriginals(evaluation, { env: this.reveal.semanticEnv, allowlistKey: this.reveal.allowlistKey })
      : new Map();
    const originals: RecordOriginals = { arguments: args.ok ? args.markers : { why: args.why }, envelope };
    this.reveal.originals.add(record.id, originals);
  }
}
