// The bridge reads the endpoint's reply off a plain socket: a body sized by
// Content-Length, chunked, or ended by the close; a reply that arrives in
// pieces waits for the rest; anything else is malformed, never a verdict.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readHttpReply } from '../../src/bridge/httpReply';

const bytes = (text: string) => Buffer.from(text, 'utf8');
const head = (...lines: string[]) => ['HTTP/1.1 200 OK', ...lines, '', ''].join('\r\n');

function complete(text: string, ended = false) {
  const reply = readHttpReply(bytes(text), ended);
  assert.equal(reply.state, 'complete', JSON.stringify(reply));
  return reply as Extract<typeof reply, { state: 'complete' }>;
}

test('a Content-Length body is whole once that many bytes arrived, counted in bytes not characters', () => {
  const body = '{"reason":"ü ✓"}';
  const text = head(`Content-Length: ${Buffer.byteLength(body)}`, 'X-Warden-Reply-Mac: ab') + body;
  const reply = complete(text);
  assert.equal(reply.status, 200);
  assert.equal(reply.body.toString('utf8'), body);
  assert.equal(reply.headers.get('x-warden-reply-mac'), 'ab', 'header names are case-insensitive');
  for (let cut = 0; cut < Buffer.byteLength(text); cut++)
    assert.equal(readHttpReply(bytes(text).subarray(0, cut), false).state, 'incomplete', `cut at ${cut}`);
  assert.equal(complete(text + 'trailing').body.toString('utf8'), body, 'bytes past the length are not the body');
});

test('a chunked body is joined; it is whole only after the last chunk', () => {
  const text = head('Transfer-Encoding: chunked') + '5\r\n{"a":\r\n3;ext=1\r\n"b"\r\n1\r\n}\r\n0\r\n\r\n';
  assert.equal(complete(text).body.toString('utf8'), '{"a":"b"}');
  assert.equal(readHttpReply(bytes(text.slice(0, -4)), false).state, 'incomplete');
  assert.equal(readHttpReply(bytes(text.slice(0, -4)), true).state, 'malformed');
});

test('without a length, the body is what arrived before the connection closed', () => {
  const text = head('Content-Type: application/json') + '{}';
  assert.equal(readHttpReply(bytes(text), false).state, 'incomplete');
  assert.equal(complete(text, true).body.toString('utf8'), '{}');
});

test('the status is read from the status line', () => {
  const reply = complete('HTTP/1.1 401 Unauthorized\r\nContent-Length: 2\r\n\r\n{}');
  assert.equal(reply.status, 401);
});

test('what is not an HTTP/1.1 reply is malformed, with a reason', () => {
  const malformed: [string, boolean, RegExp][] = [
    ['SSH-2.0-OpenSSH_9.6\r\n\r\n', false, /status line/],
    ['HTTP/1.1 200 OK\r\nno colon here\r\n\r\n{}', false, /no name/],
    [head('Content-Length: 2', 'Content-Length: 3') + '{}', false, /appears twice/],
    [head('X-Warden-Reply-Mac: aa', 'x-warden-reply-mac: bb') + '{}', true, /appears twice/],
    [head('Content-Length: -1') + '{}', false, /content-length/],
    [head('Content-Length: 2x') + '{}', false, /content-length/],
    [head('Transfer-Encoding: gzip') + '{}', false, /transfer-encoding/],
    [head('Transfer-Encoding: chunked') + 'zz\r\n{}\r\n0\r\n\r\n', false, /not hex/],
    [head('Content-Length: 10') + '{}', true, /before the whole body/],
    ['HTTP/1.1 200 OK\r\nContent-Length: 2\r\n', true, /before a whole reply/],
    ['', true, /before a whole reply/],
  ];
  for (const [text, ended, reason] of malformed) {
    const reply = readHttpReply(bytes(text), ended);
    assert.equal(reply.state, 'malformed', JSON.stringify(text));
    assert.match((reply as { problem: string }).problem, reason, JSON.stringify(text));
  }
  assert.equal(readHttpReply(Buffer.alloc(70 * 1024, 0x41), false).state, 'malformed', 'endless headers');
});
