import type { SimpleCommand } from '../shell';

// Many policies ask the same question of the same command within one call. A command object lives
// as long as its call, so an answer kept beside it lives no longer: nothing is shared between calls.

/** `answer`, worked out once per command object. */
export function perCommand<T>(answer: (cmd: SimpleCommand) => T): (cmd: SimpleCommand) => T {
  const answers = new WeakMap<SimpleCommand, { value: T }>();
  return (cmd) => {
    let held = answers.get(cmd);
    if (held === undefined) {
      held = { value: answer(cmd) };
      answers.set(cmd, held);
    }
    return held.value;
  };
}
