// The redactor: every detector over the text, then allowlist, markers and merge, then the markers written.
import { isAllowlisted } from './allowlist';
import { detectAuthSchemes } from './detectors/auth-schemes';
import { detectCliFlags } from './detectors/cli-flags';
import { detectHighEntropy } from './detectors/high-entropy';
import { detectJwts } from './detectors/jwt';
import { detectNamedValues, keyedValueCandidates } from './detectors/named-values';
import { detectPrefixedTokens } from './detectors/prefixed-tokens';
import { detectPrivateKeys } from './detectors/private-key';
import { detectUrlCredentials } from './detectors/urls';
import { redactJsonValue } from './json-walk';
import { envSecretValues, scanLiterals, usableExtraSecrets } from './literals';
import {
  applySpans,
  countByLabel,
  findMarkers,
  linesWithMarkers,
  mergeSpans,
  toOriginalOffsets,
  withoutMarkerOverlaps,
} from './spans';
import type {
  Candidate,
  Detector,
  JsonRedactionResult,
  RedactionAllowlist,
  Finding,
  RedactionMode,
  RedactionResult,
  RedactorOptions,
} from './types';

/** Rounds of reading the redacted text again; in practice the second finds nothing. */
const MAX_ROUNDS = 4;

/** Specific formats first: at equal spans the first detector names the finding. */
const DETECTORS: readonly Detector[] = [
  detectPrivateKeys,
  detectPrefixedTokens,
  detectJwts,
  detectUrlCredentials,
  detectCliFlags,
  detectNamedValues,
  detectAuthSchemes,
  detectHighEntropy,
];

export class Redactor {
  private readonly mode: RedactionMode;
  private readonly envValues: string[];
  private readonly extraValues: string[];
  private readonly allowlist: RedactionAllowlist | undefined;

  constructor(options: RedactorOptions = {}) {
    this.mode = options.mode ?? 'narrow';
    this.envValues = envSecretValues(options.env ?? process.env);
    this.extraValues = usableExtraSecrets(options.extraSecrets ?? []);
    this.allowlist = options.allowlist;
  }

  redactText(text: string, mode: RedactionMode = this.mode): RedactionResult {
    const findings = this.find(text, mode);
    return { text: applySpans(text, findings), count: findings.length, byLabel: countByLabel(findings), findings };
  }

  redactJson<T>(value: T, mode: RedactionMode = this.mode): JsonRedactionResult<T> {
    return redactJsonValue(value, (text, keyName) => {
      const findings = this.find(text, mode, keyName);
      return { text: applySpans(text, findings), count: findings.length, byLabel: countByLabel(findings), findings };
    });
  }

  /** The raw values found, distinct, for scrubbing the same secrets from other texts. Never log these. */
  secretsIn(text: string, mode: RedactionMode = this.mode): string[] {
    return [...new Set(this.find(text, mode).map((finding) => text.slice(finding.start, finding.end)))];
  }

  /**
   * Findings in `text`, offsets into it. Replacing a secret with a marker changes the text next to
   * it (words that were glued come apart, values get shorter), so the lines that got a marker are
   * read again, and what that round finds joins the findings, until a round finds nothing: the
   * result then redacts to itself. What a detector decides depends on the line it reads only: its
   * readers stop at line ends, and those that do not (a PEM block, a literal value, the AWS secret
   * after a key id) do not depend on the text around them. So other lines need no new round, and a
   * text with no secret costs one round.
   */
  private find(text: string, mode: RedactionMode, keyName?: string): Finding[] {
    let findings = this.findOnce(text, mode, keyName);
    let fresh = new Set(findings);
    for (let round = 1; round < MAX_ROUNDS && fresh.size > 0; round++) {
      const redacted = applySpans(text, findings);
      const more: Finding[] = [];
      for (const [from, to] of linesWithMarkers(redacted, findings, fresh)) {
        for (const found of this.findOnce(redacted.slice(from, to), mode))
          more.push({ ...found, start: found.start + from, end: found.end + from });
      }
      if (more.length === 0) break;
      const moved = toOriginalOffsets(more, findings);
      findings = mergeSpans([...findings, ...moved]);
      const movedStarts = new Set(moved.map((candidate) => candidate.start));
      fresh = new Set(findings.filter((finding) => movedStarts.has(finding.start)));
    }
    return findings;
  }

  private findOnce(text: string, mode: RedactionMode, keyName?: string): Finding[] {
    if (text.length === 0) return [];
    const candidates: Candidate[] = [];
    for (const detect of DETECTORS) detect(text, mode, candidates);
    // The member name's reading comes after the formats, so that an equal span keeps the format's name.
    if (keyName !== undefined) candidates.push(...keyedValueCandidates(keyName, text, mode));
    scanLiterals(text, this.envValues, 'env-secret', candidates);
    scanLiterals(text, this.extraValues, 'known-secret', candidates);
    const allowed = this.allowlist
      ? candidates.filter((candidate) => !isAllowlisted(this.allowlist, text.slice(candidate.start, candidate.end)))
      : candidates;
    return mergeSpans(withoutMarkerOverlaps(allowed, findMarkers(text)));
  }
}
