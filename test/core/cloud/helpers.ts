// Shared by the Cloud suites: a call in a throwaway project with a transcript, a tier whose
// config turns the Cloud review on, and a fake Cloud endpoint (real node:http on loopback) that
// answers with replies built from the contract's shapes.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ResolvedConfig } from '../../../src/core/config/load';
import { CLOUD_REVIEW_PATH } from '../../../src/core/cloud/contract';
import { createSemanticTier, type SemanticTierOptions } from '../../../src/core/review/tier';
import type { SemanticStartInput } from '../../../src/core/review/tier';
import { callFor, FakeJudgeServer, jsonl, line, sendJson, type FakeBehaviour } from '../semantic/helpers';
import { reply, type CapturedReview } from './contract-shapes';
import { aHookEvent } from '../../builders/hookEvent';
import { aConfig } from '../../builders/config';
import { type TempProject, aTempProject } from '../../builders/tempProject';

export const MACHINE_KEY = 'cloud-machine-key-Hq7Lm2Np9Rt4';
export const CLOUD_ENV = { CLOUD_KEY: MACHINE_KEY };

export interface CloudCallOptions {
  cloud?: Partial<ResolvedConfig['cloud']>;
  semantic?: ResolvedConfig['semantic'];
  tool?: string;
  input?: Record<string, unknown>;
  humanTurns?: string[];
  agentMessage?: string;
}

export function cloudCall(
  fake: FakeJudgeServer,
  worlds: string[],
  opts: CloudCallOptions = {},
): { input: SemanticStartInput; world: TempProject } {
  const world = aTempProject({ name: 'world', projectInHome: true });
  worlds.push(world.root);
  const transcriptPath = join(world.root, 'transcript.jsonl');
  const tool = opts.tool ?? 'Bash';
  const toolInput = opts.input ?? { command: 'kubectl apply -f deploy/prod.yaml' };
  writeFileSync(
    transcriptPath,
    jsonl([
      ...(opts.humanTurns ?? ['roll out the new build']).map((t) => line.human(t)),
      line.assistantText('m1', opts.agentMessage ?? 'Applying the manifest now.'),
      line.toolUse('m1', tool, toolInput),
    ]),
  );
  const event = aHookEvent().tool(tool, toolInput).inCwd(world.dir).transcript(transcriptPath).build();
  const config: ResolvedConfig = {
    ...aConfig()
      .semantic(opts.semantic ?? { mode: 'enforce' })
      .trusted()
      .build(),
    cloud: { mode: 'enforce', url: fake.url(''), machineId: 'machine-7f3a', keyEnv: 'CLOUD_KEY', ...opts.cloud },
  };
  return {
    world,
    input: { event, call: callFor(event, world.dir, world.home), config, projectRoot: world.dir },
  };
}

export function cloudTier(options: SemanticTierOptions = {}) {
  return createSemanticTier({ env: { ...CLOUD_ENV }, ...options });
}

export function captured(fake: FakeJudgeServer): CapturedReview {
  return fake.lastJson() as unknown as CapturedReview;
}

/** Answers every review with `blockFor(request)` as its `cloud` block, on the contract's path only. */
export function answering(
  blockFor: (request: CapturedReview) => unknown,
  answerFor?: (id: string) => number | undefined,
): FakeBehaviour {
  return (req, res) => {
    if (req.path !== CLOUD_REVIEW_PATH) {
      res.writeHead(404).end();
      return;
    }
    const request = JSON.parse(req.body.toString('utf8')) as CapturedReview;
    sendJson(res, reply(request, blockFor(request), answerFor));
  };
}
