import { allowlistHash } from '../../core/redaction';
import type { RequestResult } from '../../protocol';
import { addAllowlistHash, localConfigPath } from '../localConfig';
import type { MarkerSource, OriginalsStore } from './store';

// What the panel may ask about one marker: its details, its original (on an
// explicit reveal only), and "not a secret", which writes a keyed hash of the
// value to the project's local config, never the value.

export interface RevealServiceOptions {
  originals: OriginalsStore;
  /** Key of the allow-list hashes: the state folder's log key, as the evaluator uses. */
  allowlistKey: Buffer;
  /** The project a record belongs to (its local config gets the hash). */
  projectRootOf: (recordId: string) => string;
}

export interface NotSecretResult {
  added: boolean;
  path: string;
  label: string;
  valueLength: number;
}

export class RevealService {
  constructor(private readonly opts: RevealServiceOptions) {}

  markerInfo(recordId: string, source: MarkerSource, index: number): RequestResult<'markerInfo'> {
    const found = this.opts.originals.lookup(recordId, source, index);
    if (!found.ok) return { available: false, why: found.why };
    const { label, detector, part, valueLength } = found.original;
    return { available: true, label, detector, part, valueLength };
  }

  reveal(recordId: string, source: MarkerSource, index: number): RequestResult<'reveal'> {
    const found = this.opts.originals.lookup(recordId, source, index);
    return found.ok ? { available: true, value: found.original.value } : { available: false, why: found.why };
  }

  notSecret(recordId: string, source: MarkerSource, index: number): NotSecretResult {
    const found = this.opts.originals.lookup(recordId, source, index);
    if (!found.ok) throw new Error(found.why);
    const path = localConfigPath(this.opts.projectRootOf(recordId));
    const added = addAllowlistHash(path, allowlistHash(this.opts.allowlistKey, found.original.value));
    return { added, path, label: found.original.label, valueLength: found.original.valueLength };
  }
}
