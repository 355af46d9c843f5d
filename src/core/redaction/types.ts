// Public shapes of the redactor, and the internal contract every detector follows.
import type { Label } from './labels';

export type RedactionMode = 'narrow' | 'blunt';

export interface RedactionFinding {
  /** Stable kebab-case name of what was found, as written in the `<redacted:label>` marker. */
  label: string;
  /** Which detector found it (for diagnostics and tests; never the value). */
  detector: string;
  /** Offsets into the original text, end exclusive. */
  start: number;
  end: number;
  valueLength: number;
}

export interface RedactionResult {
  text: string;
  count: number;
  byLabel: Record<string, number>;
  findings: RedactionFinding[];
}

export interface RedactionAllowlist {
  /** Key of the HMAC-SHA256 that produced the hashes; see allowlistHash. */
  key: Buffer;
  /** Lower-case hex HMAC-SHA256 of values known not to be secrets. */
  hashes: Set<string>;
}

export interface RedactorOptions {
  mode?: RedactionMode;
  /** Where secret-named variables are read from; default process.env. */
  env?: Record<string, string | undefined>;
  allowlist?: RedactionAllowlist;
  /** Literal values to scrub wherever they appear. */
  extraSecrets?: string[];
}

export interface JsonRedactionFinding extends RedactionFinding {
  /** Where the string sits in the walked value, e.g. `$.tool_input.command` or `$.args[2]`. */
  path: string;
}

export interface JsonRedactionResult<T> {
  value: T;
  count: number;
  byLabel: Record<string, number>;
  findings: JsonRedactionFinding[];
}

/** A finding inside the redactor, where the label is known to be one of ours. */
export interface Finding extends RedactionFinding {
  label: Label;
}

/** A span a detector claims, before allowlisting and merging. */
export interface Candidate {
  label: Label;
  detector: string;
  start: number;
  end: number;
}

/**
 * A detector scans the whole text once and reports candidate spans.
 * Every detector must run in time linear in the text's length, whatever the text.
 */
export type Detector = (text: string, mode: RedactionMode, out: Candidate[]) => void;
