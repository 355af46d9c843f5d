// Shared by the shell analyzer tests: a fixed home so that no result depends on this machine.
import assert from 'node:assert/strict';
import { analyzeShell, type ShellAnalysis, type SimpleCommand } from '../../../src/core/shell';

export const HOME = '/home/dev';

export function analyze(source: string, maxDepth?: number): ShellAnalysis {
  return analyzeShell(source, { home: HOME, env: { HOME }, ...(maxDepth === undefined ? {} : { maxDepth }) });
}

/** The fields of a command a case cares about; the others are not compared. */
export type CommandShape = Partial<Omit<SimpleCommand, 'parent'>> & { parent?: number | null };

/** The commands named `name`, in order. */
export function named(analysis: ShellAnalysis, name: string): SimpleCommand[] {
  return analysis.commands.filter((c) => c.name === name);
}

/** Asserts that some command has every field of `shape` (parent: null means none). */
export function assertHasCommand(analysis: ShellAnalysis, shape: CommandShape, message: string): SimpleCommand {
  const matches = analysis.commands.filter((command) =>
    Object.entries(shape).every(([key, expected]) => {
      const actual = (command as unknown as Record<string, unknown>)[key];
      if (key === 'parent' && expected === null) return actual === undefined;
      try {
        assert.deepEqual(actual, expected);
        return true;
      } catch {
        return false;
      }
    }),
  );
  assert.ok(
    matches.length > 0,
    `${message}: no command matches ${JSON.stringify(shape)} in ${JSON.stringify(analysis.commands, null, 1)}`,
  );
  return matches[0] as SimpleCommand;
}
