// An evaluator on a real worker pool whose workers spin for good on a command that says `spin-forever`
// (test/fixtures/workers/spinning.worker.ts), in a project and state folder of its own.
import { basename, dirname, join } from 'node:path';
import { Evaluator, type Evaluation } from '../../src/core/evaluator';
import { DeterministicPool, type PoolOptions } from '../../src/core/deterministic/pool';
import { aHookEvent } from './hookEvent';
import { aProjectDir, aTempDir, removeDir } from './tempProject';

export interface SpinningPool {
  pool: DeterministicPool;
  /** A Bash call of `session`, evaluated through the pool. */
  call(command: string, session: string): Promise<Evaluation>;
  close(): Promise<void>;
}

/** The spinning worker's bundle: under the `test` folder of the build this test file was bundled into. */
function spinningWorkerFile(): string {
  let dir = __dirname;
  while (basename(dir) !== 'test' && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, 'fixtures', 'workers', 'spinning.worker.js');
}

export function aSpinningPool(name: string, options: Omit<PoolOptions, 'workerFile'>): SpinningPool {
  const stateDir = aTempDir(`${name}-state`);
  const project = aProjectDir(`${name}-project`);
  const pool = new DeterministicPool({
    workerFile: spinningWorkerFile(),
    ...options,
  });
  const evaluator = new Evaluator({ stateDir, home: stateDir, deterministic: pool });
  return {
    pool,
    call: (command, session) => evaluator.evaluate(aHookEvent().bash(command).inCwd(project).session(session).build()),
    close: async () => {
      await pool.close();
      removeDir(stateDir);
      removeDir(project);
    },
  };
}
