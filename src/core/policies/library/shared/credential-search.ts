import type { SimpleCommand } from '../../../shell';
import { argsOf, optionValues, parseFlags } from '../../../facts/commands';
import { gitInvocation } from '../../../facts/git-invocation';
import { classifySecretName } from '../../../redaction/secret-names';

// A search for a credential's own shape (`sk_live_`, `AKIA`, `ghp_`, Shopify's `shpat_`, Doppler's
// `dp.st.`, a private key's header) finds credentials and prints them: each matching line, or each diff
// that added one, goes into the transcript. A search that prints only names, counts or commits shows no
// value.

/** The start of a credential's value in the formats issuers give them. */
const CREDENTIAL_PREFIX =
  /(^|[^A-Za-z0-9])(sk_live_|rk_live_|sk-(proj|ant)-|AKIA|ASIA|gh[pousr]_|github_pat_|xox[abpr]-|glpat-|AIza|npm_|pypi-|hf_|shp(at|ca|pa|ss)_|whsec_|dp\\?\.(st|pt|ct)\\?\.)|BEGIN( [A-Z]+)? PRIVATE KEY/;

const GREPS = new Set(['grep', 'egrep', 'fgrep', 'zgrep', 'rg', 'ag', 'ack']);

/** The pattern of a search that prints the lines it finds, or undefined for one that prints names or counts. */
function printedLinesPattern(cmd: SimpleCommand): string | undefined {
  const git = gitInvocation(cmd);
  const gitGrep = git?.sub === 'grep';
  if (!GREPS.has(cmd.name) && !gitGrep) return undefined;
  const args = gitGrep ? git.args : argsOf(cmd);
  const flags = parseFlags(args, ['e', 'f', 'A', 'B', 'C', 'm', 'g', 't', 'T'], ['regexp', 'file', 'glob', 'type']);
  if (['l', 'L', 'c', 'q'].some((f) => flags.short.has(f)) || flags.long.has('files-with-matches')) return undefined;
  const explicit = optionValues(args, ['e'], ['regexp']);
  return explicit.length ? explicit.join(' ') : flags.positionals[0];
}

/** `git log -S KEY -p`: the commits that added or removed the string, with their diffs printed. */
function historyPattern(cmd: SimpleCommand): string | undefined {
  const git = gitInvocation(cmd);
  if (git?.sub !== 'log' && git?.sub !== 'show') return undefined;
  const patch = git.args.some((a) => a === '-p' || a === '-u' || a === '--patch' || a.startsWith('-p'));
  if (!patch) return undefined;
  return optionValues(git.args, ['S', 'G'], []).join(' ') || undefined;
}

/** Whether a search pattern looks for credentials by the format their issuer gives them. */
export function seeksCredentialValues(pattern: string): boolean {
  return CREDENTIAL_PREFIX.test(pattern);
}

/**
 * A secret's variable name (`AWS_SECRET_ACCESS_KEY`): the history's diffs that add or remove it are mostly
 * the lines that set it, value and all. A search of the working tree for it finds the code that reads it.
 */
function namesSecretVariable(pattern: string): boolean {
  return /^[A-Za-z_]\w*$/.test(pattern) && classifySecretName(pattern) !== null;
}

/** The pattern of a search that prints credentials of a known format, or undefined. */
export function credentialValueSearch(cmd: SimpleCommand): string | undefined {
  const printed = printedLinesPattern(cmd);
  if (printed !== undefined) return seeksCredentialValues(printed) ? printed : undefined;
  const history = historyPattern(cmd);
  return history !== undefined && (seeksCredentialValues(history) || namesSecretVariable(history))
    ? history
    : undefined;
}
