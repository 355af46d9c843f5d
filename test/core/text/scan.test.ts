// The one-pass scans say what the regexes they replaced said, on every short input fast-check tries.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  firstFencedBody,
  followedBy,
  joinLines,
  trailingRun,
  trimEndChars,
  withoutLastSegmentFrom,
} from '../../../src/core/text/scan';

const alphabet = (chars: string) => fc.string({ unit: fc.constantFrom(...chars.split('')), maxLength: 24 });

test('trimEndChars strips what /[\\\\/]+$/ stripped', () => {
  fc.assert(
    fc.property(alphabet('a/\\ x'), (text) => {
      assert.equal(trimEndChars(text, '\\/'), text.replace(/[\\/]+$/, ''));
    }),
  );
});

test('followedBy answers what first.*then answered on one line', () => {
  fc.assert(
    fc.property(alphabet('cli.js serve'), (text) => {
      assert.equal(followedBy(text, /cli\.js\b/, /\bserve\b/), /cli\.js\b.*\bserve\b/.test(text));
    }),
  );
});

test('withoutLastSegmentFrom cuts what /@[^/]*$/ cut', () => {
  fc.assert(
    fc.property(alphabet('a@/:'), (text) => {
      assert.equal(withoutLastSegmentFrom(text, '@'), text.replace(/@[^/]*$/, ''));
      assert.equal(withoutLastSegmentFrom(text, ':'), text.replace(/:(?!\/\/)[^/]*$/, ''));
    }),
  );
});

test('trailingRun and the bfg jar test agree with /bfg[\\w.-]*\\.jar$/', () => {
  fc.assert(
    fc.property(alphabet('bfg.jar/ -'), (text) => {
      const tail = trailingRun(text, /[\w.-]/);
      assert.equal(tail.endsWith('.jar') && tail.slice(0, -4).includes('bfg'), /bfg[\w.-]*\.jar$/.test(text));
    }),
  );
});

test('joinLines puts a text on one line as /\\s*[\\r\\n]+\\s*/g did', () => {
  fc.assert(
    fc.property(alphabet('a \t\n\r\u00a0'), (text) => {
      assert.equal(joinLines(text), text.replace(/\s*[\r\n]+\s*/g, ' '));
    }),
  );
});

test('firstFencedBody finds the body /```(?:json)?\\s*([\\s\\S]*?)```/i found', () => {
  fc.assert(
    fc.property(alphabet('`json {}\n'), (text) => {
      const old = /```(?:json)?\s*([\s\S]*?)```/i.exec(text)?.[1]?.trim();
      assert.equal(firstFencedBody(text) || undefined, old || undefined);
    }),
  );
});

test('each scan stays fast on a 100 KB input built to make the old regexes retry', () => {
  const slashes = `${'/'.repeat(100_000)}x`;
  assert.equal(trimEndChars(slashes, '/'), slashes);
  assert.equal(joinLines(`a${'\t'.repeat(100_000)}b`), `a${'\t'.repeat(100_000)}b`);
  assert.equal(firstFencedBody(`\`\`\`${'\t'.repeat(100_000)}`), undefined);
  assert.equal(followedBy('cli.js '.repeat(20_000), /cli\.js\b/, /\bserve\b/), false);
});
