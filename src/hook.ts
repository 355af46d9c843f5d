// dist/hook.js: the command bridge as its own small entry. Agents run it before
// every tool call, so it loads only what forwarding needs; the evaluation core
// (dist/cli.js) is loaded only when no endpoint gives a verdict.
import { join } from 'node:path';
import { parseBridgeArgs, runBridge, type InProcess } from './bridge/bridge';
import { bridgeWarn, emit, readAllStdin } from './bridge/io';
import { loadWithCodeCache } from './bridge/codeCache';

function loadInProcess(): InProcess {
  const cli = loadWithCodeCache(join(__dirname, 'cli.js'), process.env) as { inProcessHook?: InProcess };
  if (typeof cli.inProcessHook !== 'function') throw new Error('dist/cli.js does not export inProcessHook');
  return cli.inProcessHook;
}

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
    loadInProcess,
  }).then(emit);
}
