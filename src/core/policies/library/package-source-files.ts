// Package managers read where to fetch from, and what to load first, from files: .npmrc, .yarnrc,
// bunfig.toml, pip.conf, requirements files, pyproject's index tables, cargo's source tables. A
// write that points them elsewhere makes every later install take code from there, with no
// command line that shows it.
import path from 'node:path';

interface SourceRule {
  file: RegExp;
  /** The line that redirects the package manager, and what it does, for the reason. */
  lines: { pattern: RegExp; what: string }[];
}

const URL_VALUE = String.raw`\s*[=:]?\s*["']?(https?|git\+\w+|file):`;

const RULES: SourceRule[] = [
  {
    file: /(^|\/)\.npmrc$/,
    lines: [
      {
        pattern: new RegExp(String.raw`^\s*(@[\w.-]+:)?registry${URL_VALUE}`, 'm'),
        what: 'points npm at another registry',
      },
      {
        pattern: /^[ \t]*node-options[ \t]*=.*(--require|-r[ \t]|--import|--loader|--experimental-loader)/m,
        what: 'makes every node process npm starts load a module first (node-options)',
      },
      {
        pattern: /^[ \t]*(script-shell|shell|onload-script|init-module)[ \t]*=/m,
        what: 'makes npm run another program',
      },
      { pattern: /^[ \t]*strict-ssl[ \t]*=[ \t]*false/m, what: "turns off npm's certificate checks" },
    ],
  },
  {
    file: /(^|\/)\.yarnrc(\.ya?ml)?$/,
    lines: [
      {
        pattern: new RegExp(String.raw`^\s*(npmRegistryServer|registry)${URL_VALUE}`, 'm'),
        what: 'points yarn at another registry',
      },
      // yarnPath normally names the release under .yarn/releases; elsewhere it is any program run as yarn.
      {
        pattern: /^[ \t]*yarnPath[ \t]*:[ \t]*["']?(?!\.?\/?\.yarn\/releases\/)\S/m,
        what: 'makes yarn run another program as itself (yarnPath)',
      },
      {
        pattern: /^[ \t]*(enableStrictSsl[ \t]*:[ \t]*false|unsafeHttpWhitelist[ \t]*:)/m,
        what: "turns off yarn's certificate checks",
      },
    ],
  },
  {
    file: /(^|\/)(bunfig\.toml|\.bunfig\.toml)$/,
    lines: [{ pattern: new RegExp(String.raw`^\s*registry${URL_VALUE}`, 'm'), what: 'points bun at another registry' }],
  },
  {
    file: /(?<=^|\/)(pip\.conf|pip\.ini|uv\.toml|pyproject\.toml|(?=[^/]*requirements)[^/]*\.(txt|in)|constraints[^/]*\.txt)$/,
    lines: [
      {
        pattern: /^[ \t]*(--)?(index-url|extra-index-url|find-links|index_url|extra_index_url)\b|^[ \t]*-[if][ \t]+\S/m,
        what: 'points pip at another package index',
      },
      { pattern: /^[ \t]*(--)?trusted-host\b/m, what: "turns off pip's certificate checks (trusted-host)" },
      {
        pattern: /^[ \t]*\[\[[ \t]*tool\.(poetry\.source|uv\.index|pdm\.source)[ \t]*\]\]/m,
        what: 'points the project at another package index',
      },
      {
        pattern: /^[\w.-]+(\[[^\]\r\n\u2028\u2029]*\])?[ \t]*@[ \t]*(git\+|https?:|file:)/m,
        what: 'installs a package straight from a URL',
      },
    ],
  },
  {
    file: /(^|\/)\.cargo\/config(\.toml)?$/,
    lines: [
      {
        pattern: /^[ \t]*\[(source|registries)\.[^\]\r\n\u2028\u2029]+\]|^[ \t]*replace-with[ \t]*=/m,
        what: 'points cargo at another crate source',
      },
    ],
  },
];

/** What a file write makes a package manager do, if it redirects where packages come from or what it runs. */
export function packageSourceWrite(file: string, content: string): string | null {
  const base = path.posix.basename(file);
  for (const rule of RULES) {
    if (!rule.file.test(file) && !rule.file.test(base)) continue;
    const hit = rule.lines.find((l) => l.pattern.test(content));
    if (hit) return hit.what;
  }
  return null;
}
