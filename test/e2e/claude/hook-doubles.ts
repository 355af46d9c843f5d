// Stand-ins for a hook endpoint in end-to-end tests: a command hook script and
// an http hook server, both answering a fixed reply and recording what the
// real CLI sent them.
import { listenOnLoopback } from './loopback';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export function preToolUseDenial(reason: string): Record<string, unknown> {
  return {
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason },
  };
}

export interface CommandHook {
  /** The `command` to put in the hook settings. */
  command: string;
  /** Each input the hook got, parsed, in order. */
  inputs(): unknown[];
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** A node script that appends its stdin to a log (one JSON per line) and prints `reply`. */
export function writeCommandHook(dir: string, name: string, reply: object): CommandHook {
  const script = join(dir, `${name}.cjs`);
  const log = join(dir, `${name}.inputs.jsonl`);
  const source = [
    "const fs = require('node:fs');",
    'let input = "";',
    "process.stdin.setEncoding('utf8');",
    "process.stdin.on('data', (chunk) => (input += chunk));",
    "process.stdin.on('end', () => {",
    `  fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify(JSON.parse(input)) + '\\n');`,
    `  process.stdout.write(${JSON.stringify(JSON.stringify(reply))});`,
    '});',
    '',
  ].join('\n');
  writeFileSync(script, source);
  return {
    command: `${shellQuote(process.execPath)} ${shellQuote(script)}`,
    inputs: () =>
      existsSync(log)
        ? readFileSync(log, 'utf8')
            .split('\n')
            .filter((line) => line.length > 0)
            .map((line): unknown => JSON.parse(line))
        : [],
  };
}

export interface HookCall {
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body, or the raw text when it was not JSON. */
  body: unknown;
}

export interface HookReply {
  status: number;
  body: string;
}

export interface HookServer {
  url: string;
  calls: HookCall[];
  close(): Promise<void>;
}

function parseJsonOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** An http hook endpoint on 127.0.0.1 that records each POST and answers `reply(call)`. */
export async function startHookServer(reply: (call: HookCall) => HookReply | object): Promise<HookServer> {
  const calls: HookCall[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const call: HookCall = {
        path: request.url ?? '/',
        headers: request.headers,
        body: parseJsonOrText(Buffer.concat(chunks).toString('utf8')),
      };
      calls.push(call);
      const answer = reply(call);
      const { status, body } = isHookReply(answer) ? answer : { status: 200, body: JSON.stringify(answer) };
      response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      response.end(body);
    });
  });
  return { ...(await listenOnLoopback(server)), calls };
}

function isHookReply(value: HookReply | object): value is HookReply {
  return 'status' in value && typeof value.status === 'number' && 'body' in value && typeof value.body === 'string';
}

/** A 127.0.0.1 URL whose port nothing listens on (it was free a moment ago). */
export async function unusedLocalUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
