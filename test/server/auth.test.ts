import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tokensEqual } from '../../src/server/auth';

test('tokensEqual: equal only for the same token, whichever expected token came before', () => {
  // The expected side's digest is kept between calls: a different expected token must not reuse it.
  assert.equal(tokensEqual('alpha-token', 'alpha-token'), true);
  assert.equal(tokensEqual('alpha-token', 'beta-token'), false);
  assert.equal(tokensEqual('beta-token', 'beta-token'), true);
  assert.equal(tokensEqual('alpha-token', 'alpha-token'), true);
  assert.equal(tokensEqual('', 'alpha-token'), false);
  assert.equal(tokensEqual('alpha-tokenx', 'alpha-token'), false);
  assert.equal(tokensEqual('alpha-toke', 'alpha-token'), false);
});
