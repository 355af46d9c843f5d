// Shared by the two leak suites (the judge's and Cloud's): a fake server on loopback and a
// throwaway project for the whole file, a transcript and calls that carry the planted secrets
// in every part a request is built from, and the search of the captured bytes for any of them.
import { after, before } from 'node:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HookEvent } from '../../../src/core/types';
import { aHookEvent } from '../../builders/hookEvent';
import { aTempProject, type TempProject } from '../../builders/tempProject';
import { FakeJudgeServer, jsonl, line, ready, type CapturedRequest } from './helpers';
import { plantedCommand, plantedFileContent, plantedSecrets, SECRETS } from './planted-secrets';

export interface LeakWorld {
  fake: FakeJudgeServer;
  project: TempProject;
}

/** Starts the fake server and makes the project before the file's tests; removes both after. */
export function leakWorld(): LeakWorld {
  const world = {} as LeakWorld;
  before(async () => {
    await ready();
    world.fake = await FakeJudgeServer.start();
    world.project = aTempProject({ name: 'leak', projectInHome: true });
  });
  after(async () => {
    await world.fake.close();
    world.project.dispose();
  });
  return world;
}

/** A transcript whose turns and agent message name secrets in prose; gives its path. */
export function plantedTranscript(project: TempProject): string {
  const path = join(project.root, 'transcript.jsonl');
  const s = SECRETS;
  writeFileSync(
    path,
    jsonl([
      line.human(`the deploy key is ${s.envApiKey}, and the old token ${s.githubOauth} is revoked`),
      line.human(`here is the CI secret ${s.highEntropy}; use mysql password ${s.mysqlPassword} if asked`),
      line.humanBlocks(
        'set it up with',
        `the sshpass password ${s.sshpassPassword}, the ${s.agentEcho} account and ${s.slackBot}`,
      ),
      line.assistantText(
        'm1',
        `I'll log in with ${s.agentEcho}, the docker password ${s.dockerPassword}, connect using ${s.postgresPassword} and push with ${s.githubClassic}.`,
      ),
      line.toolUse('m1', 'Bash', { command: 'true' }),
    ]),
  );
  return path;
}

/**
 * One session's calls, in this order: a shell command full of secrets, a read of paths named by
 * secrets, a file write of secrets, an MCP call with a token; all in `cwd` with the transcript.
 */
export function plantedCalls(project: TempProject, cwd: string, transcriptPath: string): HookEvent[] {
  const inputs: Array<[string, Record<string, unknown>]> = [
    ['Bash', { command: plantedCommand(), description: 'deploy' }],
    ['Bash', { command: `cat /tmp/${SECRETS.huggingFace}/notes.txt ~/keys/${SECRETS.googleApi}.json` }],
    ['Write', { file_path: project.path('.env.production'), content: plantedFileContent() }],
    ['mcp__vault__store', { apiToken: SECRETS.jsonToken, note: `rotated ${SECRETS.envApiKey}` }],
  ];
  return inputs.map(([tool, input]) => aHookEvent().tool(tool, input).inCwd(cwd).transcript(transcriptPath).build());
}

/** The longest stretch of `secret` found in `text`, when 12 characters or more. */
function fragmentIn(text: string, secret: string): string | undefined {
  const width = Math.min(12, secret.length);
  for (let i = 0; i + width <= secret.length; i++) {
    const piece = secret.slice(i, i + width);
    if (text.includes(piece)) return piece;
  }
  return undefined;
}

/**
 * Everything the requests carried, in every form a secret could hide in: the raw bytes, the bodies
 * re-serialized (JSON escapes such as \n in a PEM block or \" around a value undone), and every
 * string value, with JSON texts inside strings read in turn.
 */
export function capturedText(received: CapturedRequest[]): string {
  const bodies = received.map((r) => JSON.parse(r.body.toString('utf8')) as unknown);
  const strings: string[] = [];
  const collect = (v: unknown): void => {
    if (typeof v === 'string') {
      strings.push(v);
      if (v.startsWith('{')) {
        try {
          collect(JSON.parse(v));
        } catch {
          /* a cut JSON text: its raw form is checked as it is */
        }
      }
    } else if (v && typeof v === 'object') Object.values(v).forEach(collect);
  };
  bodies.forEach(collect);
  return [
    ...received.map((r) => r.body.toString('utf8')),
    ...bodies.map((body) => JSON.stringify(body)),
    ...strings,
  ].join('\n');
}

/** The kinds of planted secret of which a stretch of 12 characters or more is in `text`. */
export function survivingSecrets(text: string): string[] {
  return plantedSecrets()
    .filter((s) => fragmentIn(text, s.value) !== undefined)
    .map((s) => s.kind);
}
