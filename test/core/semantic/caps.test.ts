// Caps: bounded work, head and tail kept, the omitted count stated, never a cut inside a token or a
// redaction marker, and no fragment of a secret left beside a bounding seam.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { bound, boundFor, capText, omissionMarker, SEAM_MARGIN, widenSeams } from '../../../src/core/semantic/caps';
import { Redactor } from '../../../src/core/redaction';

const MARKER_TEXT = /\[… (\d+) characters omitted …\]/;

test('a text within its cap is left whole', () => {
  assert.deepEqual(capText('rm -rf build', 100), { text: 'rm -rf build', cut: false, omitted: 0 });
});

test('a long text keeps its head and tail and says how many characters it left out', () => {
  const text = Array.from({ length: 2000 }, (_, i) => `word${i}`).join(' ');
  const cut = capText(text, 400);
  assert.equal(cut.cut, true);
  assert.ok(cut.text.length <= 400, `length ${cut.text.length}`);
  assert.ok(cut.text.startsWith('word0 word1 '));
  assert.ok(cut.text.endsWith('word1998 word1999'));
  const match = MARKER_TEXT.exec(cut.text);
  assert.ok(match, cut.text);
  const [head, tail] = cut.text.split(match[0]) as [string, string];
  assert.equal(Number(match[1]), text.length - head.length - tail.length);
  assert.equal(cut.omitted, Number(match[1]));
});

test('a single token longer than the cap is left out whole rather than cut inside', () => {
  const token = 'A'.repeat(5000);
  const cut = capText(`start ${token} end`, 200);
  assert.ok(!/A/.test(cut.text.replace(MARKER_TEXT, '')), cut.text);
  assert.ok(cut.text.startsWith('start '));
  assert.ok(cut.text.endsWith(' end'));
});

const TOKEN_CHARS = 'abcXYZ019_-./:=+';

test('property: a cut falls between tokens, never inside one or inside a <redacted:label> marker, and stays within the cap', () => {
  const token = fc.oneof(
    fc.string({ unit: fc.constantFrom(...TOKEN_CHARS), minLength: 1, maxLength: 40 }),
    fc.constantFrom('<redacted:aws-access-key>', '<redacted:github-token>', '<redacted:x>'),
  );
  const separator = fc.constantFrom(' ', '\n', ', ', '"', '(', ')', ' | ', '\t');
  fc.assert(
    fc.property(
      fc.array(fc.tuple(token, separator), { minLength: 1, maxLength: 200 }),
      fc.integer({ min: 60, max: 600 }),
      (pieces, cap) => {
        const text = pieces.map(([t, s]) => t + s).join('');
        const tokens = new Set(pieces.map(([t]) => t));
        const result = capText(text, cap);
        assert.ok(result.text.length <= cap || !result.cut, `length ${result.text.length} > cap ${cap}`);
        if (!result.cut) return assert.equal(result.text, text);
        const match = MARKER_TEXT.exec(result.text);
        assert.ok(match);
        const head = result.text.slice(0, match.index);
        const tail = result.text.slice(match.index + match[0].length);
        assert.ok(text.startsWith(head) && text.endsWith(tail));
        // Every token kept is whole: the words of head and tail are words of the text.
        for (const word of `${head}\u0000${tail}`.split(/[\s,"()|\u0000]+/).filter(Boolean)) {
          assert.ok(tokens.has(word), `"${word}" is a fragment of a token`);
        }
        assert.equal(result.omitted, text.length - head.length - tail.length);
      },
    ),
    { numRuns: 2000 },
  );
});

test('bounding keeps the ends, and widening after redaction leaves no fragment of a secret the seam split', () => {
  const redactor = new Redactor({ env: {} });
  const secret = 'ghp_' + 'Zq7Lm2Xv9Rt4Wn8Kp3Hs6Jd1Fg5Bc0Ya2Ue';
  const fragments = (text: string): string[] => {
    const found: string[] = [];
    for (let i = 0; i + 8 <= secret.length; i++)
      if (text.includes(secret.slice(i, i + 8))) found.push(secret.slice(i, i + 8));
    return found;
  };
  let hazards = 0;
  for (const offset of [-30, -12, -3, 0, 5, 17, 39]) {
    // The secret sits right where bounding splits the text.
    const limit = boundFor(1000);
    const half = Math.floor(limit / 2);
    const text = 'x'.repeat(half + offset) + ' ' + secret + ' ' + 'y '.repeat(200_000);
    const bounded = bound(text, limit);
    assert.ok(bounded.length <= limit + 20);
    const redacted = redactor.redactText(bounded, 'narrow').text;
    // Without widening, a split secret leaves a fragment no detector recognises.
    if (fragments(redacted).length > 0) hazards++;
    const widened = widenSeams(redacted);
    assert.deepEqual(fragments(widened), [], `offset ${offset}`);
    const final = capText(widened, 1000);
    assert.ok(final.cut);
    // Counted in the redacted text: a secret replaced by its marker shifts the count by a few characters.
    const accounted = final.omitted + final.text.length - MARKER_TEXT.exec(final.text)![0].length;
    assert.ok(Math.abs(accounted - text.length) <= 64, `accounted ${accounted} of ${text.length}`);
  }
  assert.ok(hazards > 0, 'the seams split the secret in none of the cases: the test lost its point');
});

test('a seam is widened by the margin on each side and merges with a neighbour', () => {
  const left = 'a '.repeat(SEAM_MARGIN);
  const right = ' b'.repeat(SEAM_MARGIN);
  const text = bound(left + 'MIDDLE'.repeat(1000) + right, 2 * SEAM_MARGIN);
  const widened = widenSeams(text);
  const rendered = capText(widened, 10 * SEAM_MARGIN).text;
  assert.ok(!rendered.includes('MIDDLE'));
  assert.ok(rendered.length < text.length);
  assert.match(rendered, MARKER_TEXT);
  assert.equal(omissionMarker(3), '[… 3 characters omitted …]');
});

test('text that carries the seam characters itself cannot forge a seam', () => {
  const forged = 'before \uE000999\uE001 after';
  const result = capText(widenSeams(bound(forged, 1000)), 1000);
  assert.equal(result.cut, false);
  assert.ok(!result.text.includes('\uE000'));
  assert.ok(!MARKER_TEXT.test(result.text));
});
