// What some build and deploy files run, once written: each line of a .bazelrc is the options of the bazel
// command it names (a status command, a credential helper, a remote cache or a run_under among them); a
// genrule's `cmd` is shell run at the next build; a Conan recipe's `self.run()` is a command line at every
// package build; a cron file's lines are commands run on its schedule where it is installed.

import { QUOTED_STRING_SOURCE as QUOTED } from '../text/quoted';

// `build:release --opt …`, `test --opt …`, `common --opt …`: the command (and config) then its options.
const BAZELRC_LINE = /^[ \t]*([a-z]+)(?::[\w.-]+)?[ \t]+(\S.*)$/;

/** A .bazelrc's lines as the bazel commands they add their options to (`common` as `build`). */
export function bazelrcCommands(text: string): string[] {
  const found: string[] = [];
  for (const line of text.split('\n')) {
    const match = BAZELRC_LINE.exec(line);
    if (!match || line.trimStart().startsWith('#') || match[1] === 'import' || match[1] === 'try') continue;
    const command = match[1] === 'common' || match[1] === 'always' ? 'build' : match[1];
    found.push(`bazel ${command} ${match[2]}`);
  }
  return found;
}

const GENRULE_COMMAND = new RegExp(`\\bcmd(?:_bash)?\\s*=\\s*${QUOTED}`, 'g');

/** A BUILD file's genrule commands, Bazel's `$$` read as the shell's `$`. */
export function genruleCommands(text: string): string[] {
  return [...text.matchAll(GENRULE_COMMAND)].map((m) =>
    (m[1] ?? m[2] ?? '').replace(/\\(["'\\])/g, '$1').replace(/\$\$/g, '$'),
  );
}

const CONAN_RUN = new RegExp(`\\bself\\.run\\(\\s*[fr]?${QUOTED}`, 'g');

/** The command lines a Conan recipe hands to `self.run()`. */
export function conanRunCommands(text: string): string[] {
  return [...text.matchAll(CONAN_RUN)].map((m) => (m[1] ?? m[2] ?? '').replace(/\\(["'\\])/g, '$1'));
}

/**
 * The commands of a crontab's lines: five time fields or an `@reboot`-style nickname, then (in a system
 * crontab or a cron.d file) the user, then the command. Variable lines (`MAILTO=…`) and comments run nothing.
 */
export function cronCommands(text: string, withUser: boolean): string[] {
  const found: string[] = [];
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#') || /^[A-Za-z_]\w*\s*=/.test(trimmed)) continue;
    const fields = (trimmed.startsWith('@') ? 1 : 5) + (withUser ? 1 : 0);
    // The command as written after its fields, its own spacing and quotes kept.
    let at = 0;
    for (let field = 0; field < fields && at < trimmed.length; field++) {
      while (at < trimmed.length && !/\s/.test(trimmed[at]!)) at++;
      while (at < trimmed.length && /\s/.test(trimmed[at]!)) at++;
    }
    if (at < trimmed.length) found.push(trimmed.slice(at));
  }
  return found;
}
