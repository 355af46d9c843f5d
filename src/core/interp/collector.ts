// Gathers the effects and the unread reasons of one analysis, including code it reads recursively
// (eval of a literal), and keeps that recursion bounded.
import { classifySecretName } from '../redaction/secret-names';
import { isSecretEnvName } from '../redaction/literals';
import type { CodeEffect, CodeEffectKind, CodeLanguage } from './types';
import { literalPrefix, RUN_TIME_PART, type Value } from './values';
import { shellQuote } from '../shell/quote';

/** A URL whose scheme and host are written out, whatever follows them. */
const KNOWN_HOST = /^[a-z][\w+.-]*:\/\/[\w.-]+(?::\d+)?(?:[/?#]|$)/i;

/** A path whose last piece is written out: `…/../.env`, not `…/` + a run-time name. */
const WRITTEN_FILE_TAIL = /\/[^/$]+$/;

/** How deep eval-of-literal code is followed before the rest counts as unread. */
export const MAX_EVAL_DEPTH = 4;
/** Effects kept per analysis; a flood of them says nothing more and costs memory. */
const MAX_EFFECTS = 500;

export type NestedReader = (language: CodeLanguage, code: string, into: Collector) => void;

export class Collector {
  readonly effects: CodeEffect[] = [];
  readonly unread: string[] = [];
  private readonly seen = new Set<string>();
  private depth = 0;

  constructor(
    private readonly readNested: NestedReader,
    readonly deadline: number,
  ) {}

  add(effect: CodeEffect): void {
    const key = JSON.stringify(effect);
    if (this.seen.has(key)) return;
    if (this.effects.length >= MAX_EFFECTS) {
      this.giveUp('too many effects to list');
      return;
    }
    this.seen.add(key);
    this.effects.push(effect);
  }

  giveUp(reason: string): void {
    if (!this.unread.includes(reason)) this.unread.push(reason);
  }

  /** An effect whose argument is `value`: literal text becomes its value, anything else makes it dynamic. */
  effect(kind: CodeEffectKind, api: string, value: Value | undefined): void {
    if (value?.kind === 'str') this.add({ kind, api, value: value.text, dynamic: false });
    // A command or a URL only partly known is still read for its known pieces (see values.ts).
    else if (value?.kind === 'partial' && (kind === 'exec' || (kind === 'network' && KNOWN_HOST.test(value.text))))
      this.add({ kind, api, value: value.text, dynamic: true });
    // A file read at a path built from run-time pieces (`__dirname + '/../.env'`) is judged by the
    // file its written tail names, as the shell's `cat "$DIR/../.env"` is.
    else if (value?.kind === 'partial' && kind === 'read' && WRITTEN_FILE_TAIL.test(value.text))
      this.add({ kind, api, value: value.text, dynamic: true });
    else this.add({ kind, api, dynamic: true });
  }

  /** A process run from shell text (a string) or from an argument vector (a list). */
  exec(api: string, command: Value | undefined): void {
    if (command?.kind === 'list') this.execArgv(api, command.items);
    else this.effect('exec', api, command);
  }

  execArgv(api: string, items: readonly Value[]): void {
    const { argv, complete } = literalPrefix(items);
    // The program is written out but a later word is not (`["psql", os.environ["URL"], "-c", "TRUNCATE t"]`):
    // read as a command line with a run-time word there, as the shell's `psql "$URL" -c …` is.
    if (!complete && argv.length > 0) {
      const words = items.map((item) => (item.kind === 'str' ? shellQuote(item.text) : `"${RUN_TIME_PART}"`));
      this.add({ kind: 'exec', api, value: words.join(' '), dynamic: true });
      return;
    }
    this.add({ kind: 'exec', api, argv, dynamic: !complete || argv.length === 0 });
  }

  /** An environment read: reported when the name looks secret, could not be read, or is the whole environment. */
  envRead(api: string, name: Value | undefined): void {
    if (name?.kind === 'str') {
      if (isSecretLookingName(name.text)) this.add({ kind: 'env-read', api, value: name.text, dynamic: false });
      return;
    }
    this.add({ kind: 'env-read', api, dynamic: true });
  }

  /** A stored credential fetched by an API (an Airflow connection, a keychain item): `what` names it. */
  secretRead(api: string, what: string): void {
    this.add({ kind: 'secret-read', api, value: what, dynamic: false });
  }

  wholeEnvironment(api: string): void {
    this.add({ kind: 'env-read', api, value: '*', dynamic: false });
  }

  /** Code handed to eval and the like: literal code is read in turn (to a bound), anything else is unread. */
  evaluate(language: CodeLanguage, code: Value | undefined, what = 'eval'): void {
    if (code?.kind !== 'str') {
      this.giveUp(`${what} of computed code`);
      return;
    }
    if (this.depth >= MAX_EVAL_DEPTH) {
      this.giveUp(`${what} nested more than ${MAX_EVAL_DEPTH} deep`);
      return;
    }
    this.depth++;
    try {
      this.readNested(language, code.text, this);
    } finally {
      this.depth--;
    }
  }
}

export function isSecretLookingName(name: string): boolean {
  return isSecretEnvName(name) || classifySecretName(name) !== null;
}
