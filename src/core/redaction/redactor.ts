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
import { applySpans, countByLabel, cutOutMarkers, findMarkers, mergeSpans } from './spans';
import type {
  Candidate,
  Detector,
  JsonRedactionResult,
  RedactionAllowlist,
  RedactionFinding,
  RedactionMode,
  RedactionResult,
  RedactorOptions,
} from './types';

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

  private find(text: string, mode: RedactionMode, keyName?: string): RedactionFinding[] {
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
    return mergeSpans(cutOutMarkers(text, allowed, findMarkers(text)));
  }
}
