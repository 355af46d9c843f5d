// A WHERE clause that holds for every row, whatever else it says: one OR branch that is always true
// makes the whole clause true; AND with a real condition, strings that merely contain `or 1=1`, and
// literals that differ are real conditions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alwaysTrueWhere } from '../../../src/core/facts/sql-where';

test('an OR branch that always holds makes the clause hold for every row', () => {
  assert.equal(alwaysTrueWhere('DELETE FROM users WHERE id = $1 OR 1=1'), '1=1');
  assert.equal(alwaysTrueWhere("UPDATE accounts SET balance = 0 WHERE owner = 'x' OR 'a' = 'a'"), "'a' = 'a'");
  assert.equal(alwaysTrueWhere('DELETE FROM t WHERE (id = 4 OR (1 = 1))'), '(1 = 1)');
  assert.equal(alwaysTrueWhere('DELETE FROM t WHERE TRUE;'), 'TRUE');
  assert.equal(alwaysTrueWhere('delete from t where 1=1 returning *'), '1=1');
  assert.equal(alwaysTrueWhere('DELETE FROM t WHERE id = 3 or not false'), 'not false');
});

test('a clause that can be false is not always true', () => {
  assert.equal(alwaysTrueWhere('DELETE FROM t WHERE 1=1 AND id = 5'), undefined, 'AND with a real condition');
  assert.equal(alwaysTrueWhere("DELETE FROM t WHERE note = 'x or 1=1'"), undefined, 'inside a string');
  assert.equal(alwaysTrueWhere("DELETE FROM t WHERE id = 2 OR 'a' = 'b'"), undefined, 'different literals');
  assert.equal(
    alwaysTrueWhere('DELETE FROM t WHERE a = a'),
    undefined,
    'a column compared with itself is null-sensitive',
  );
  assert.equal(alwaysTrueWhere('DELETE FROM orders WHERE created_at < now() - interval 1 day'), undefined);
  assert.equal(alwaysTrueWhere('DELETE FROM t'), undefined, 'no WHERE at all is another check');
  assert.equal(alwaysTrueWhere('DELETE FROM t WHERE color = 1 ORDER BY id LIMIT 1'), undefined);
});

test('a column every existing row satisfies holds for every row: a creation stamp before now, a serial key above zero', () => {
  assert.equal(alwaysTrueWhere('DELETE FROM orders WHERE created_at < now();'), 'created_at < now()');
  assert.equal(
    alwaysTrueWhere('delete from o where o."createdAt" <= CURRENT_TIMESTAMP'),
    'o."createdAt" <= CURRENT_TIMESTAMP',
  );
  assert.equal(alwaysTrueWhere('UPDATE users SET plan = 0 WHERE now() > updated_at'), 'now() > updated_at');
  assert.equal(alwaysTrueWhere('DELETE FROM invoices WHERE id > 0'), 'id > 0');
  assert.equal(alwaysTrueWhere('DELETE FROM invoices WHERE id IS NOT NULL'), 'id IS NOT NULL');
  // Near misses: a retention window, a column that is not a creation stamp, a key above a real value.
  assert.equal(alwaysTrueWhere("DELETE FROM orders WHERE created_at < now() - interval '30 days'"), undefined);
  assert.equal(alwaysTrueWhere('DELETE FROM sessions WHERE expires_at < now()'), undefined);
  assert.equal(alwaysTrueWhere('DELETE FROM orders WHERE created_at > now()'), undefined);
  assert.equal(alwaysTrueWhere('DELETE FROM invoices WHERE id > 100'), undefined);
  assert.equal(alwaysTrueWhere('DELETE FROM invoices WHERE customer_id IS NOT NULL AND id = 4'), undefined);
});
