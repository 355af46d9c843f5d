// From candidate spans to the redacted text: leave existing markers alone, merge overlaps
// (the largest span names the merged one), and write `<redacted:label>` in place of each.
import { isSpace } from './charset';
import { isLabel } from './labels';
import type { Candidate, RedactionFinding } from './types';

const MARKER_OPEN = '<redacted:';
const MAX_MARKER_LABEL = 64;
/** What is left of a span once markers are cut out of it is kept only if it could still be a secret. */
const MIN_RESIDUE = 8;

export function marker(label: string): string {
  return `${MARKER_OPEN}${label}>`;
}

function isLabelChar(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 45;
}

/** The `<redacted:label>` markers already in the text, in order; only the redactor's own labels count. */
export function findMarkers(text: string): Array<[number, number]> {
  const markers: Array<[number, number]> = [];
  let from = 0;
  for (;;) {
    const at = text.indexOf(MARKER_OPEN, from);
    if (at < 0) return markers;
    let i = at + MARKER_OPEN.length;
    const stop = Math.min(text.length, i + MAX_MARKER_LABEL);
    while (i < stop && isLabelChar(text.charCodeAt(i))) i++;
    if (text.charAt(i) === '>' && isLabel(text.slice(at + MARKER_OPEN.length, i))) {
      markers.push([at, i + 1]);
      from = i + 1;
    } else {
      from = at + 1;
    }
  }
}

function substantial(text: string, start: number, end: number): boolean {
  let count = 0;
  for (let i = start; i < end && count < MIN_RESIDUE; i++) if (!isSpace(text.charCodeAt(i))) count++;
  return count >= MIN_RESIDUE;
}

/**
 * A marker is never matched as (part of) a secret, so redacting twice changes nothing. What a
 * span holds besides markers survives only when it is long enough to be a secret of its own.
 */
export function cutOutMarkers(text: string, candidates: Candidate[], markers: Array<[number, number]>): Candidate[] {
  if (markers.length === 0) return candidates;
  const kept: Candidate[] = [];
  for (const candidate of candidates) {
    let lo = 0;
    let hi = markers.length;
    // The first marker that ends after the candidate starts.
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (markers[mid]![1] <= candidate.start) lo = mid + 1;
      else hi = mid;
    }
    let start = candidate.start;
    let touched = false;
    for (let m = lo; m < markers.length && markers[m]![0] < candidate.end; m++) {
      const [markerStart, markerEnd] = markers[m]!;
      touched = true;
      if (markerStart > start && substantial(text, start, markerStart)) kept.push({ ...candidate, start, end: markerStart });
      start = Math.max(start, markerEnd);
    }
    if (!touched) kept.push(candidate);
    else if (start < candidate.end && substantial(text, start, candidate.end)) kept.push({ ...candidate, start, end: candidate.end });
  }
  return kept;
}

/** Sorts and merges overlapping spans; spans that only touch stay apart. */
export function mergeSpans(candidates: Candidate[]): RedactionFinding[] {
  const sorted = candidates
    .map((candidate, order) => ({ candidate, order }))
    .sort((a, b) => a.candidate.start - b.candidate.start || b.candidate.end - a.candidate.end || a.order - b.order);
  const merged: RedactionFinding[] = [];
  let group: { start: number; end: number; best: Candidate } | null = null;
  const flush = (): void => {
    if (!group) return;
    const { start, end, best } = group;
    merged.push({ label: best.label, detector: best.detector, start, end, valueLength: end - start });
  };
  for (const { candidate } of sorted) {
    if (candidate.end <= candidate.start) continue;
    if (group && candidate.start < group.end) {
      if (candidate.end - candidate.start > group.best.end - group.best.start) group.best = candidate;
      group.end = Math.max(group.end, candidate.end);
      continue;
    }
    flush();
    group = { start: candidate.start, end: candidate.end, best: candidate };
  }
  flush();
  return merged;
}

export function applySpans(text: string, findings: readonly RedactionFinding[]): string {
  if (findings.length === 0) return text;
  const parts: string[] = [];
  let cursor = 0;
  for (const finding of findings) {
    parts.push(text.slice(cursor, finding.start), marker(finding.label));
    cursor = finding.end;
  }
  parts.push(text.slice(cursor));
  return parts.join('');
}

export function countByLabel(findings: readonly RedactionFinding[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const finding of findings) counts[finding.label] = (counts[finding.label] ?? 0) + 1;
  return counts;
}
