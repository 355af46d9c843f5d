// Table-driven policy tests: each row is a call and the verdict one policy must give it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeSpec, ready, specOf, verdictOf } from './harness';
import type { Row } from './harness';

export function policyTable(name: string, rows: Row[]): void {
  test(`${name}: ${rows.length} cases`, async (t) => {
    await ready();
    for (const row of rows) {
      const spec = specOf(row);
      await t.test(`${row.expect ?? 'no finding'}: ${row.note ? `${row.note}: ` : ''}${describeSpec(spec)}`, () => {
        const outcome = verdictOf(name, spec, row.params);
        assert.equal(outcome?.verdict ?? null, row.expect, outcome ? `reason: ${outcome.reason}` : 'no finding');
        if (outcome) {
          assert.ok(
            outcome.reason.length > 20 && !outcome.reason.includes('\n'),
            'the reason is one line a person can act on',
          );
        }
      });
    }
  });
}
