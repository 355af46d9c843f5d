import { readFileSync } from 'node:fs';
import { Evaluator } from '../src/core/evaluator';
import { toolCallOf } from '../src/core/policies/call';
import { INTERPRETER_CODE_READER } from '../src/core/interp/reader';
import { nodeFactSource } from '../src/core/facts/io-node';
import { defaultConfig } from '../src/core/config/load';
async function main() {
  await Evaluator.ready({ warmUp: false });
  const { tool, input } = JSON.parse(readFileSync('/tmp/zz-call.json', 'utf8'));
  const event = { agent: 'claude', event: 'PreToolUse', rawEventName: 'PreToolUse', sessionId: 's', cwd: '/home/dev/project', raw: {}, toolName: tool, toolInput: input } as never;
  const call = toolCallOf(event, { projectRoot: '/home/dev/project', home: '/home/dev', faces: defaultConfig().faces, source: nodeFactSource, reader: INTERPRETER_CODE_READER });
  console.log(JSON.stringify({ runsLater: call?.runsLater, commands: call?.shell?.commands.map((c) => c.text), facts: call?.facts }, null, 1).slice(0, 3000));
}
void main();
