// Shell variables as far as they can be known without running anything.

import type { RunTimeOrigin } from './types';

interface Variable {
  /** undefined: set to something only known at run time. */
  value: string | undefined;
  exported: boolean;
  /** Set by the script (not taken from the environment it started with). */
  byScript?: true;
  /** Where a run-time value came from, when one assignment surely set it. */
  origin?: RunTimeOrigin;
  /** `declare -n r=f`: r names f, and reads of r are reads of f. */
  nameref?: string;
  /** The values it may hold after a branch that may have set it (`[ -d x ] && f=a`), those known. */
  alternatives?: readonly string[];
}

/** More values than this for one variable are not followed. */
const MAX_ALTERNATIVES = 8;

/** Bash sets IFS itself at start-up; it does not take it from the environment. */
const DEFAULT_IFS = ' \t\n';

export type Lookup = { known: true; value: string } | { known: false };

/**
 * A variable scope. Children (subshells, pipeline stages, prefix assignments) see their
 * parents' variables and keep their own assignments to themselves.
 */
/** An alias definition: it applies from the next line of the source that defined it, and in any later source. */
export interface Alias {
  value: string;
  source: object;
  from: number;
}

export class Scope {
  private readonly own = new Map<string, Variable>();
  /** Aliases set (or removed: null) in this scope; subshells inherit them, new shells do not. */
  private readonly aliases = new Map<string, Alias | null>();
  /** Shell functions defined in this scope, by name: the text of their body. */
  private readonly functions = new Map<string, string>();

  constructor(private readonly parent?: Scope) {}

  static fromEnvironment(env: Record<string, string | undefined>, home: string | undefined): Scope {
    const scope = new Scope();
    scope.own.set('IFS', { value: DEFAULT_IFS, exported: false });
    for (const [name, value] of Object.entries(env)) {
      if (name === 'IFS') continue;
      if (value !== undefined) scope.own.set(name, { value, exported: true });
    }
    if (home !== undefined) scope.own.set('HOME', { value: home, exported: true });
    return scope;
  }

  child(): Scope {
    return new Scope(this);
  }

  private find(name: string): Variable | undefined {
    for (let scope: Scope | undefined = this; scope; scope = scope.parent) {
      const variable = scope.own.get(name);
      if (variable) return variable;
    }
    return undefined;
  }

  lookup(name: string): Lookup {
    const variable = this.referenced(name);
    if (!variable || variable.value === undefined) return { known: false };
    return { known: true, value: variable.value };
  }

  /** The variable `name` stands for, through a few namerefs. */
  private referenced(name: string): Variable | undefined {
    let variable = this.find(name);
    for (let hops = 0; variable?.nameref !== undefined && hops < 8; hops++) variable = this.find(variable.nameref);
    return variable?.nameref === undefined ? variable : undefined;
  }

  /** The variable an assignment to `name` sets: through namerefs (`declare -n r=f; r=x` sets f), as bash does. */
  private assignedName(name: string): string {
    let variable = this.find(name);
    for (let hops = 0; variable?.nameref !== undefined && hops < 8; hops++) {
      name = variable.nameref;
      variable = this.find(name);
    }
    return name;
  }

  /** `declare -n name=target`: name stands for target from now on. */
  setNameref(name: string, target: string): void {
    this.own.set(name, { value: undefined, exported: false, byScript: true, nameref: target });
  }

  /**
   * A region that may not run, or may run more than once (a branch, a loop body, what follows && or
   * ||): inside it, its assignments hold for the statements after them; `settle` hands them on when
   * it ends. A variable set in a branch and read in the same branch (`if …; then f=~/.ssh/id_rsa; cat
   * "$f"; fi`) is as known as one set on the line before.
   */
  branch(): Scope {
    return new Scope(this);
  }

  /** Ends a branch: what it set stays known in the enclosing scope only where that cannot be wrong. */
  settle(): void {
    const parent = this.parent;
    if (!parent) return;
    for (const [name, variable] of this.own)
      parent.assign(name, variable.value, {
        conditional: true,
        exported: variable.exported,
        ...(variable.origin ? { origin: variable.origin } : {}),
        ...(variable.alternatives ? { alternatives: variable.alternatives } : {}),
      });
    for (const [name, alias] of this.aliases) parent.aliases.set(name, alias);
    for (const [name, body] of this.functions) parent.functions.set(name, body);
  }

  /**
   * Records an assignment. A conditional one (a branch settling) keeps a known value only when both
   * outcomes agree: after `test -n "$CI" || D=/tmp/x`, D may still hold what the environment gave it
   * (an earlier call's `export D=~`), so `rm -rf "$D"` is not read as a delete of /tmp/x.
   */
  assign(
    name: string,
    value: string | undefined,
    options: {
      conditional?: boolean;
      exported?: boolean;
      origin?: RunTimeOrigin;
      alternatives?: readonly string[];
    } = {},
  ): void {
    name = this.assignedName(name);
    const previous = this.find(name);
    const exported = options.exported === true || previous?.exported === true;
    const agreed = options.conditional !== true || (previous !== undefined && previous.value === value);
    const variable: Variable = { value: agreed ? value : undefined, exported, byScript: true };
    // An array's elements (`a=(x y)`) are each a value it may give.
    if (value === undefined && options.alternatives?.length && options.conditional !== true)
      variable.alternatives = options.alternatives.slice(0, MAX_ALTERNATIVES);
    // Outcomes that disagree leave each known value possible: `if …; then f=a; else f=b; fi`.
    else if (!agreed) {
      const possible = new Set([
        ...knownValues(previous),
        ...knownValues({ value, alternatives: options.alternatives }),
      ]);
      if (possible.size > 0) variable.alternatives = [...possible].slice(0, MAX_ALTERNATIVES);
    }
    // A branch that may not run leaves the old value as likely as the new one.
    if (value === undefined && options.origin !== undefined && options.conditional !== true)
      variable.origin = options.origin;
    this.own.set(name, variable);
  }

  /** The known values a variable may hold when a branch left it with more than one, else undefined. */
  alternatives(name: string): readonly string[] | undefined {
    const variable = this.referenced(name);
    return variable?.value === undefined ? variable?.alternatives : undefined;
  }

  /** Where a variable's run-time value came from, when that is known. */
  origin(name: string): RunTimeOrigin | undefined {
    const variable = this.find(name);
    return variable?.value === undefined ? variable?.origin : undefined;
  }

  markExported(name: string): void {
    const previous = this.find(name);
    this.own.set(name, {
      value: previous?.value,
      exported: true,
      ...(previous?.byScript ? { byScript: true as const } : {}),
    });
  }

  /**
   * The variables the script exported with a known value (`export NODE_OPTIONS=…`): every program it
   * starts after that has them in its environment, as if they were prefix assignments.
   */
  scriptExports(): Record<string, string> {
    const chain: Scope[] = [];
    for (let scope: Scope | undefined = this; scope; scope = scope.parent) chain.unshift(scope);
    const exports: Record<string, string> = {};
    for (const scope of chain)
      for (const [name, variable] of scope.own) {
        if (variable.exported && variable.byScript && variable.value !== undefined) exports[name] = variable.value;
        else delete exports[name];
      }
    return exports;
  }

  alias(name: string): Alias | undefined {
    for (let scope: Scope | undefined = this; scope; scope = scope.parent) {
      const found = scope.aliases.get(name);
      if (found !== undefined) return found ?? undefined;
    }
    return undefined;
  }

  setAlias(name: string, alias: Alias | null): void {
    this.aliases.set(name, alias);
  }

  /** The body of the shell function `name` defined so far, if any. */
  functionBody(name: string): string | undefined {
    for (let scope: Scope | undefined = this; scope; scope = scope.parent) {
      const found = scope.functions.get(name);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  defineFunction(name: string, body: string): void {
    this.functions.set(name, body);
  }

  /** What a child process would inherit: exported variables only. */
  exportedOnly(): Scope {
    const chain: Scope[] = [];
    for (let scope: Scope | undefined = this; scope; scope = scope.parent) chain.unshift(scope);
    const result = new Scope();
    result.own.set('IFS', { value: DEFAULT_IFS, exported: false });
    for (const scope of chain) {
      for (const [name, variable] of scope.own) {
        if (variable.exported) result.own.set(name, { ...variable });
        else if (name !== 'IFS') result.own.delete(name);
      }
    }
    return result;
  }
}

function knownValues(
  variable: { value: string | undefined; alternatives?: readonly string[] | undefined } | undefined,
): readonly string[] {
  if (!variable) return [];
  return variable.value !== undefined ? [variable.value] : (variable.alternatives ?? []);
}
