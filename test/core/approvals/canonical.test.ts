import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { canonicalJson, CanonicalJsonError } from '../../../src/core/approvals/canonical';

// RFC 8785 section 3.2.2: the example object, written with the literal forms the RFC uses.
const RFC_EXAMPLE_INPUT = String.raw`{
  "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
  "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
  "literals": [null, true, false]
}`;
const RFC_EXAMPLE_OUTPUT = String.raw`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`;

test('RFC 8785 §3.2.2: the example object canonicalizes to the published bytes', () => {
  assert.equal(canonicalJson(JSON.parse(RFC_EXAMPLE_INPUT)), RFC_EXAMPLE_OUTPUT);
});

test('RFC 8785 §3.2.3: members sort by UTF-16 code units, emoji (a surrogate pair) before U+FB33', () => {
  const input = String.raw`{
    "\u20ac": "Euro Sign",
    "\r": "Carriage Return",
    "\ufb33": "Hebrew Letter Dalet With Dagesh",
    "1": "One",
    "\ud83d\ude00": "Emoji: Grinning Face",
    "\u0080": "Control",
    "\u00f6": "Latin Small Letter O With Diaeresis"
  }`;
  const canonical = canonicalJson(JSON.parse(input));
  assert.equal(
    canonical,
    '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
  );
});

// RFC 8785 appendix B: IEEE 754 bit patterns and their canonical text.
const NUMBER_VECTORS: Array<[string, string]> = [
  ['0000000000000000', '0'],
  ['8000000000000000', '0'],
  ['0000000000000001', '5e-324'],
  ['8000000000000001', '-5e-324'],
  ['7fefffffffffffff', '1.7976931348623157e+308'],
  ['ffefffffffffffff', '-1.7976931348623157e+308'],
  ['4340000000000000', '9007199254740992'],
  ['c340000000000000', '-9007199254740992'],
  ['4430000000000000', '295147905179352830000'],
  ['44b52d02c7e14af5', '9.999999999999997e+22'],
  ['44b52d02c7e14af6', '1e+23'],
  ['44b52d02c7e14af7', '1.0000000000000001e+23'],
  ['444b1ae4d6e2ef4e', '999999999999999700000'],
  ['444b1ae4d6e2ef4f', '999999999999999900000'],
  ['444b1ae4d6e2ef50', '1e+21'],
  ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
  ['3eb0c6f7a0b5ed8d', '0.000001'],
  ['41b3de4355555553', '333333333.3333332'],
  ['41b3de4355555554', '333333333.33333325'],
  ['41b3de4355555555', '333333333.3333333'],
  ['41b3de4355555556', '333333333.3333334'],
  ['41b3de4355555557', '333333333.33333343'],
  ['becbf647612f3696', '-0.0000033333333333333333'],
  ['43143ff3c1cb0959', '1424953923781206.2'],
];

test('RFC 8785 appendix B: number serialization for each published bit pattern', () => {
  for (const [bits, expected] of NUMBER_VECTORS) {
    const value = Buffer.from(bits, 'hex').readDoubleBE(0);
    assert.equal(canonicalJson(value), expected, `bits ${bits}`);
    assert.equal(canonicalJson([value]), `[${expected}]`, `bits ${bits} inside an array`);
  }
});

test('number literals written in other forms canonicalize to the ECMAScript form', () => {
  const cases: Array<[string, string]> = [
    ['1e21', '1e+21'],
    ['1E21', '1e+21'],
    ['1e20', '100000000000000000000'],
    ['1e-7', '1e-7'],
    ['0.0000001', '1e-7'],
    ['0.000001', '0.000001'],
    ['-0', '0'],
    ['-0.0', '0'],
    ['4.50', '4.5'],
    ['2e-3', '0.002'],
    ['333333333.33333329', '333333333.3333333'],
    ['100', '100'],
    ['1.0', '1'],
  ];
  for (const [literal, expected] of cases) assert.equal(canonicalJson(JSON.parse(literal)), expected, literal);
});

test('NaN and the infinities have no canonical form', () => {
  for (const value of [NaN, Infinity, -Infinity]) {
    assert.throws(() => canonicalJson({ n: value }), CanonicalJsonError);
  }
});

test('strings: short escapes, lowercase \\u00xx for other controls, everything else literal', () => {
  assert.equal(canonicalJson('\b\t\n\f\r'), '"\\b\\t\\n\\f\\r"');
  assert.equal(canonicalJson('\u0000\u000f\u001f'), '"\\u0000\\u000f\\u001f"');
  assert.equal(canonicalJson('\u007f\u0080\u2028\u2029'), '"\u007f\u0080\u2028\u2029"');
  assert.equal(canonicalJson('"\\/'), '"\\"\\\\/"');
  assert.equal(canonicalJson('€😀'), '"€😀"');
});

test('a lone surrogate, high or low, has no canonical form', () => {
  assert.throws(() => canonicalJson('a\ud800'), CanonicalJsonError);
  assert.throws(() => canonicalJson('\udc00b'), CanonicalJsonError);
  assert.throws(() => canonicalJson({ ['\ud800']: 1 }), CanonicalJsonError);
  assert.equal(canonicalJson('\ud83d\ude00'), '"😀"');
});

test('nested structures: no whitespace, nested members sorted, arrays keep their order', () => {
  const value = { b: [3, { z: 1, a: [] }, 'x'], a: { d: null, c: true }, '': {} };
  assert.equal(canonicalJson(value), '{"":{},"a":{"c":true,"d":null},"b":[3,{"a":[],"z":1},"x"]}');
});

test('an own "__proto__" member from JSON.parse is kept as data', () => {
  const value: unknown = JSON.parse('{"__proto__":{"x":1},"a":2}');
  assert.equal(canonicalJson(value), '{"__proto__":{"x":1},"a":2}');
});

test('non-plain values are rejected rather than serialized differently', () => {
  assert.throws(() => canonicalJson(new Date(0)), CanonicalJsonError);
  // eslint-disable-next-line no-sparse-arrays -- the hole is the input under test
  assert.throws(() => canonicalJson([1, , 3]), CanonicalJsonError);
  assert.throws(() => canonicalJson({ a: undefined }), CanonicalJsonError);
  assert.throws(() => canonicalJson(new Map()), CanonicalJsonError);
});

test('property: canonical text parses back to the same data and is a fixed point', () => {
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      const canonical = canonicalJson(value);
      const reparsed: unknown = JSON.parse(canonical);
      assert.equal(canonicalJson(reparsed), canonical);
      assert.deepEqual(reparsed, JSON.parse(JSON.stringify(value)));
    }),
    { numRuns: 300 },
  );
});

test('property: member order in the input never changes the canonical text', () => {
  fc.assert(
    fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 })), (record) => {
      const reversed = Object.fromEntries(Object.entries(record).reverse());
      assert.equal(canonicalJson(reversed), canonicalJson(record));
    }),
    { numRuns: 200 },
  );
});
