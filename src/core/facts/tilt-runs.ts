// A Tiltfile is Starlark that Tilt evaluates at every `tilt up` and on every change to it: `local()` runs
// its command then, and a resource's `cmd` or `serve_cmd` runs as the resource updates or serves.

import { QUOTED_STRING_SOURCE as QUOTED } from '../text/quoted';

const LOCAL_CALL = new RegExp(`\\blocal\\(\\s*(?:command\\s*=\\s*)?${QUOTED}`, 'g');
const COMMAND_KEYWORD = new RegExp(`\\b(?:serve_cmd|cmd|command)\\s*=\\s*${QUOTED}`, 'g');
// `local_resource('name', 'cmd', …)`: the second positional argument.
const RESOURCE_COMMAND = new RegExp(`\\blocal_resource\\(\\s*(?:"[^"\\n]*"|'[^'\\n]*')\\s*,\\s*${QUOTED}`, 'g');

/** The command lines a Tiltfile runs. */
export function tiltfileCommands(text: string): string[] {
  const found = new Set<string>();
  for (const pattern of [LOCAL_CALL, COMMAND_KEYWORD, RESOURCE_COMMAND])
    for (const m of text.matchAll(pattern)) {
      const command = m[1] ?? m[2] ?? '';
      if (command.trim() !== '') found.add(command.replace(/\\(["'\\])/g, '$1'));
    }
  return [...found];
}
