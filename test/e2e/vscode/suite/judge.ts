import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { stateDir, statePaths } from '../../../../src/core/state';
import { openState } from '../../../../src/core/root/state';

// The semantic tier inside the extension host: the vscode-lm judge talking to
// the fake language model of test/e2e/vscode/fake-lm, and an HTTP judge whose
// API key comes from the editor's secret storage ("Set Judge API Key").

export interface Endpoint {
  url: string;
  token: string;
  folder: string;
}

type Log = (message: string) => void;

interface LoggedRecord {
  type: string;
  toolInput?: { command?: string };
  decision: string;
  semantic: { status: string; reason: string | null; model: string | null };
}

// Turning the judge on is a loosening, held until a person confirms it; the suite stands in for the
// person's "Apply this change" in the editor's modal by confirming the exact text it writes.
function writeLocalConfig(folder: string, config: unknown): void {
  mkdirSync(join(folder, '.agent-warden'), { recursive: true });
  const path = join(folder, '.agent-warden', 'config.local.json');
  const text = JSON.stringify(config, null, 2);
  writeFileSync(path, text);
  openState(process.env).confirmations().confirm(path, text, 'person');
}

/** The evaluator notices config changes on a short interval; give it one. */
const settle = () => new Promise((r) => setTimeout(r, 600));

async function postBash(endpoint: Endpoint, command: string): Promise<unknown> {
  const res = await fetch(`${endpoint.url}/hooks/claude`, {
    method: 'POST',
    headers: { authorization: `Bearer ${endpoint.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      session_id: 'e2e-judge-session',
      transcript_path: join(endpoint.folder, 'no-transcript.jsonl'),
      cwd: endpoint.folder,
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command, description: 'e2e judge' },
      tool_use_id: `toolu_${Math.random().toString(36).slice(2)}`,
    }),
  });
  assert.equal(res.status, 200);
  return res.json();
}

/** The logged record of the call whose command holds `marker` (the log line is written before the reply). */
function loggedRecord(marker: string): LoggedRecord {
  const lines = readFileSync(statePaths(stateDir()).logFile, 'utf8').split('\n').filter(Boolean);
  const found = lines
    .map((l) => JSON.parse(l) as LoggedRecord)
    .filter((r) => r.type === 'record' && r.toolInput?.command?.includes(marker));
  assert.equal(found.length, 1, `one logged record for ${marker}`);
  return found[0]!;
}

export async function checkLanguageModelJudge(endpoint: Endpoint, log: Log): Promise<void> {
  writeLocalConfig(endpoint.folder, {
    semantic: { mode: 'enforce', provider: 'vscode-lm', model: 'agent-warden-test/fixed-judge', timeoutMs: 20_000 },
  });
  await settle();
  await postBash(endpoint, 'ls -la e2e-lm-judge-dir');
  const record = loggedRecord('e2e-lm-judge-dir');
  assert.equal(record.semantic.status, 'ok', `the vscode-lm judge answered: ${record.semantic.reason}`);
  assert.equal(record.semantic.model, 'agent-warden-test/fixed-judge');
  const prompts = join(endpoint.folder, '.e2e', 'lm-prompts.jsonl');
  assert.ok(existsSync(prompts), 'the fake language model was asked');
  const asked = readFileSync(prompts, 'utf8')
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { prompt: string }).prompt);
  assert.ok(
    asked.some((p) => p.includes('e2e-lm-judge-dir') && p.includes('"questions"')),
    'the prompt carried the envelope and the questions',
  );
  log(`vscode-lm judge: semantic ${record.semantic.status}, model ${record.semantic.model}, ${record.semantic.reason}`);
}

/** An OpenAI-compatible judge on loopback that answers only with the right bearer key. */
function fakeOpenAi(expectedKey: string, seen: string[]): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const auth = req.headers.authorization ?? '';
      seen.push(auth);
      if (auth !== `Bearer ${expectedKey}`) {
        res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'bad key' }));
        return;
      }
      const schema = (JSON.parse(body) as { response_format: { json_schema: { schema: { required: string[] } } } })
        .response_format.json_schema.schema;
      const content = JSON.stringify(Object.fromEntries(schema.required.map((id) => [id, 0.05])));
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ model: 'e2e-openai-model', choices: [{ message: { content } }] }));
    });
  });
  return new Promise((ok) =>
    server.listen(0, '127.0.0.1', () =>
      ok({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1/chat/completions` }),
    ),
  );
}

export async function checkStoredApiKey(endpoint: Endpoint, log: Log): Promise<void> {
  const key = `sk-e2e-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
  const seen: string[] = [];
  const { server, url } = await fakeOpenAi(key, seen);
  try {
    const stored = (await vscode.commands.executeCommand('agentWarden.setJudgeApiKey', 'openai', key)) as
      { stored: boolean } | undefined;
    assert.equal(stored?.stored, true);
    assert.equal(process.env.E2E_JUDGE_KEY, undefined, 'the key never lands in the process environment');
    writeLocalConfig(endpoint.folder, {
      semantic: {
        mode: 'enforce',
        provider: 'openai',
        url,
        model: 'e2e-openai-model',
        apiKeyEnv: 'E2E_JUDGE_KEY',
        timeoutMs: 20_000,
      },
    });
    await settle();
    await postBash(endpoint, 'ls -la e2e-keyed-judge-dir');
    const record = loggedRecord('e2e-keyed-judge-dir');
    assert.equal(
      record.semantic.status,
      'ok',
      `the openai judge answered with the stored key: ${record.semantic.reason}`,
    );
    assert.equal(record.semantic.model, 'e2e-openai-model');
    assert.deepEqual(seen, [`Bearer ${key}`]);

    await vscode.commands.executeCommand('agentWarden.setJudgeApiKey', 'openai', '');
    await postBash(endpoint, 'ls -la e2e-unkeyed-judge-dir');
    const without = loggedRecord('e2e-unkeyed-judge-dir');
    assert.equal(without.semantic.status, 'degraded', 'with the key removed the judge cannot be reached');
    assert.match(without.semantic.reason ?? '', /E2E_JUDGE_KEY/);
    log(`stored API key: semantic ${record.semantic.status} with it, ${without.semantic.status} once removed`);
  } finally {
    server.close();
    writeLocalConfig(endpoint.folder, {});
    await settle();
  }
}
