// dist/hook.js: the command bridge as its own small entry. Agents run it before every tool call,
// so it loads only what forwarding needs; the evaluation core (dist/cli.js) and the code cache that
// loads it (node:vm) are loaded only when no endpoint gives a verdict. The bridge itself is not run
// through a code cache: measured over 100 interleaved runs, it saved no CPU on this 15 KB bundle.
import { join } from 'node:path';
import { parseBridgeArgs, runBridge, type InProcess } from './bridge/bridge';
import { bridgeWarn, emit, readAllStdin } from './bridge/io';

const inProcess: InProcess = async (agent, body, config) => {
  const { loadWithCodeCache } = await import('./bridge/codeCache.js');
  const cli = loadWithCodeCache(join(__dirname, 'cli.js'), process.env) as { inProcessHook?: InProcess };
  if (typeof cli.inProcessHook !== 'function') throw new Error('dist/cli.js does not export inProcessHook');
  return cli.inProcessHook(agent, body, config);
};

const args = parseBridgeArgs(process.argv.slice(2));
if ('problem' in args) {
  bridgeWarn(args.problem);
  process.exitCode = 2;
} else {
  void runBridge(args, {
    stdin: readAllStdin,
    env: process.env,
    cwd: process.cwd(),
    warn: bridgeWarn,
    loadInProcess: () => inProcess,
  }).then((reply) => {
    emit(reply);
    // A forwarded verdict leaves nothing to finish (the reply is written synchronously), so the
    // process ends now instead of closing the socket and draining the event loop first. After an
    // in-process evaluation the loop drains as usual: the activity log may still be writing.
    if (reply.forwarded) process.exit();
  });
}
