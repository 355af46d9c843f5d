// From candidate spans to the redacted text: leave existing markers alone, merge overlaps
// (the largest span names the merged one), and write `<redacted:label>` in place of each.
import { isLabel } from './labels';
import type { Candidate, Finding } from './types';

const MARKER_OPEN = '<redacted:';
const MAX_MARKER_LABEL = 64;

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

/**
 * A marker is never matched as (part of) a secret: a span that touches one is dropped. A value
 * holding a marker was redacted already, and judging it again could only differ from the first
 * time because the marker hides what was judged; so redacting twice changes nothing.
 */
export function withoutMarkerOverlaps(candidates: Candidate[], markers: Array<[number, number]>): Candidate[] {
  if (markers.length === 0) return candidates;
  return candidates.filter((candidate) => {
    let lo = 0;
    let hi = markers.length;
    // The first marker that ends after the candidate starts.
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (markers[mid]![1] <= candidate.start) lo = mid + 1;
      else hi = mid;
    }
    return lo >= markers.length || markers[lo]![0] >= candidate.end;
  });
}

/** Sorts and merges overlapping spans; spans that only touch stay apart. */
export function mergeSpans(candidates: Candidate[]): Finding[] {
  const sorted = candidates
    .map((candidate, order) => ({ candidate, order }))
    .sort((a, b) => a.candidate.start - b.candidate.start || b.candidate.end - a.candidate.end || a.order - b.order);
  const merged: Finding[] = [];
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

/**
 * Findings made in the redacted text, moved to offsets in the text it came from. They never touch
 * a marker, so each lies in a stretch that redaction kept as it was.
 */
export function toOriginalOffsets(later: readonly Finding[], earlier: readonly Finding[]): Candidate[] {
  const moved: Candidate[] = [];
  let shift = 0;
  let next = 0;
  let redactedEnd = 0;
  for (const finding of later) {
    while (next < earlier.length) {
      const marked = earlier[next]!;
      const markerStart = marked.start - shift;
      if (markerStart >= finding.start) break;
      shift += marked.end - marked.start - marker(marked.label).length;
      redactedEnd = marked.end;
      next++;
    }
    const start = finding.start + shift;
    if (start < redactedEnd) continue;
    moved.push({ label: finding.label, detector: finding.detector, start, end: finding.end + shift });
  }
  return moved;
}

/**
 * The lines of the redacted text that hold the markers of `fresh` findings, as [from, to) ranges,
 * in order and apart. Findings are sorted, so each range is found by scanning only between the
 * previous range and the marker: linear in the text.
 */
export function linesWithMarkers(
  redacted: string,
  findings: readonly Finding[],
  fresh: ReadonlySet<Finding>,
): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  let shift = 0;
  for (const finding of findings) {
    const markerStart = finding.start - shift;
    const markerEnd = markerStart + marker(finding.label).length;
    shift += finding.end - finding.start - (markerEnd - markerStart);
    if (!fresh.has(finding)) continue;
    const last = ranges[ranges.length - 1];
    if (last && markerStart <= last[1]) {
      if (markerEnd > last[1]) last[1] = lineEnd(redacted, markerEnd);
      continue;
    }
    ranges.push([redacted.lastIndexOf('\n', markerStart - 1) + 1, lineEnd(redacted, markerEnd)]);
  }
  return ranges;
}

function lineEnd(text: string, from: number): number {
  const newline = text.indexOf('\n', from);
  return newline < 0 ? text.length : newline;
}

export function applySpans(text: string, findings: readonly Finding[]): string {
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

export function countByLabel(findings: readonly Finding[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const finding of findings) counts[finding.label] = (counts[finding.label] ?? 0) + 1;
  return counts;
}
