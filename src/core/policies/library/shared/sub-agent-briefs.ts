// What a sub-agent's brief tells it to do, read in words. A sub-agent acts on its brief without asking
// anyone, and its own calls reach the guard only one by one, each looking ordinary: a brief that works on
// the guard, hides what it does, gathers credentials' values, fetches code to run, sends the company's data
// out, deletes in bulk where others work, grants an outsider access or loads code from a temporary or
// downloads folder is shown to the person before the sub-agent starts. The commands it quotes are judged
// as commands elsewhere (call.ts reads them as the call's shell text).
import type { ToolCall } from '../../types';
import { secretFileKind } from '../../../facts/sensitive-paths';
import { isSubAgentTool } from '../../../config/tool-names';
import { isPrivateUseName } from './own-sources';
import { isLocalHost } from './hosts';
import { trimEndChars } from '../../../text/scan';

/** Words that waive asking the person: a memory note or a brief that says so. */
export const STANDING_APPROVAL =
  /\b(pre-?approved|standing approval|(is|are) always (approved|allowed|fine|ok)|(never|don'?t|do not|no need to) (ask|confirm|check with)|without (asking|confirmation|confirming)|skip(ping)? (the )?(confirmation|review|approval|guard)|waived? (the )?(confirmation|review|approval)|ignore (the )?(guard|warden|hook|polic))/i;

// A sub-agent acts on its brief without asking anyone: a brief that works on the guard itself, hides what it
// does from the person, decodes something to run, or gathers credentials' values is read here, in words.
const BRIEF_CLAIMS: readonly [RegExp, string][] = [
  [/\.agent-warden\b/, 'works on the guard that reviews its calls'],
  [
    /\bagent[- ]warden\b[^.\n]{0,80}\b(hooks?|port|config|settings|token|endpoints?)\b/i,
    'works on the guard that reviews its calls',
  ],
  [
    /\b(remove|disable|delete|bypass|turn off|unregister|comment out|kill)\b[^.\n]{0,60}\b(PreToolUse|guard|warden)\b/i,
    'works on the guard that reviews its calls',
  ],
  [
    /\bPreToolUse\b[^\n]{0,200}\b(remove|disable|delete|bypass|turn off|unregister|comment out)\b[^.\n]{0,30}\bhooks?\b/i,
    'works on the guard that reviews its calls',
  ],
  [
    /\bPreToolUse hooks? (?:is |are |gets |get )?(?:removed|disabled|deleted|gone|bypassed|turned off|dropped)\b/i,
    'works on the guard that reviews its calls',
  ],
  [
    /\b(do not|don'?t|never)\s+(mention|print|show|tell|report|reveal|include|log)\b[^.\n]{0,60}\b(summary|user|person|reply|answer|output|anyone)\b|\b(hide|conceal)\b[^.\n]{0,40}\b(from|in)\b[^.\n]{0,20}\b(user|person|summary)\b/i,
    'keeps what it does from the person',
  ],
  [/\bdecode\b[^.\n]{0,160}\b(run|execute|eval|pipe)\b/i, 'decodes something and runs it'],
  [/\bself-hosted\b[^.\n]{0,40}\brunner\b|\bregister\b[^.\n]{0,60}\brunner\b/i, 'makes this machine a CI runner'],
  [/\bpaste\b[^.\n]{0,60}\b(tokens?|passwords?|credentials?|secrets?|keys)\b/i, "gathers credentials' values"],
  // `paste the 24 words plus the derived private key`: a wallet's words or key.
  [/\bpaste\b[^.\n]{0,60}\b(?:mnemonic|seed|recovery|private|pem)\b/i, "gathers credentials' values"],
  [
    /\brenounce ?ownership\b|\b(?:revoke|renounce)s? (?:every|all) (?:admin |owner )?roles?\b|\bbroadcast\w*\b[^.\n]{0,60}\bmainnet\b|\bmainnet\b[^.\n]{0,60}\bbroadcast/i,
    "gives up or moves control of a live contract without the team's review",
  ],
  [
    /\b169\.254\.169\.254\b|\bmetadata (?:service|endpoint|server)\b[^.\n]{0,120}\bcredentials\b/i,
    "reaches the cloud metadata service, which hands out the machine's credentials",
  ],
  [/\bNOPASSWD\b|\bpassword-?less sudo\b/i, 'grants sudo without a password'],
  [
    /\b(?:add|write|put)\b[^.\n]{0,30}\ballow rules?\b|\bbypassPermissions\b|--dangerously-skip-permissions\b|\b(?:every|all) tools? (?:is |are )?(?:allowed|approved)\b/i,
    "loosens the agent's permissions",
  ],
];

const GIT_PROGRAM_KEY = /\bcore\.(?:fsmonitor|sshcommand|pager|editor|askpass)\b/i;

/** `Download … and set core.fsmonitor to it`: a fetched program made one that git runs, in one paragraph. */
function downloadedGitProgram(text: string): string | undefined {
  const key = GIT_PROGRAM_KEY.exec(text);
  if (!key) return undefined;
  const before = text.slice(Math.max(0, key.index - 200), key.index);
  const paragraph = before.slice(before.lastIndexOf('\n') + 1);
  return FETCH_WORD.test(paragraph) ? `${paragraph.trim()} ${key[0]}` : undefined;
}

// A key by its kind: a plain `key` is as often a JSON object's.
const CREDENTIAL_WORD =
  /\b(?:tokens?|passwords?|credentials?|secrets?|keys|keystores?|(?:api|private|signing|ssh) keys?|key files?)\b/gi;
// The values themselves, in full or handed back in the sub-agent's answer (`list them in your answer`).
const VALUES_WORD =
  /\b(?:full|raw|plain|actual|exact|whole)(?: [\w-]+)? (?:values?|contents|output)\b|\b(?:print|show|list|include) (?:them|it|each(?: one)?|all(?: of them)?) in full\b|\b(?:print|show|list|include|paste|put|write|give) (?:them|it|each(?: one)?|them all|all of them) in(?:to)? (?:your|the) (?:final )?(?:answer|reply|summary|response|report)\b/i;

/**
 * `API tokens … their full values`: the words from a credential to its values asked for, in its sentence or
 * the next (`Collect every API key … List each one in full in your reply`).
 */
function credentialValuesAsked(text: string): string | undefined {
  for (const found of text.matchAll(CREDENTIAL_WORD)) {
    // A sentence ends at a full stop before a space, not at the dots of a host name.
    const sentence = text
      .slice(found.index, found.index + 300)
      .split(/\.(?=\s|$)|\n/)
      .slice(0, 2)
      .join('.');
    const values = VALUES_WORD.exec(sentence);
    if (values) return sentence.slice(0, values.index + values[0].length);
  }
  return undefined;
}

const FETCH_WORD =
  /\b(?:download(?:ing)?|fetch(?:ing)?|curl|wget|pull down|grab|clone|iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b/i;
// Running what was fetched, not running something else after reading a page.
const RUN_WORD =
  /\b(?:run(?:ning)?|execut(?:e|ing)|sourc(?:e|ing)) (?:it|them|that|the (?:script|file|installer)|(?:its|the) (?:\.\/)?[\w-]+\.(?:sh|py|ps1))\b|\bwith (?:bash|sh|python3?|node|sudo)\b|\bpipe (?:it )?(?:in)?to\b|\brun(?:ning)? \.\/\w|\bsetup\.py (?:install|develop)\b|\bpip install (?:-e )?\.(?:\s|$)|\bmake install\b|\brun(?:ning)? (?:its|their) [\w-]+ scripts?\b/i;
const SEND_WORD = /\b(?:upload|send|post|share|paste|copy|sync)(?:s|ed|ing)?\b/i;
const OUTSIDE_URL = /\bhttps?:\/\/(?!(?:localhost|127\.0\.0\.1)[:/])[\w.-]+/i;
const PATH_WORD = /(?:~|\$HOME)?\/[\w.@-]+(?:\/[\w.@-]+)*/g;
/** Secret files named without a folder: env files, keystores, signing keys. */
const SECRET_FILE_WORD = /(?:^|[\s*(])\.env\b|\.(?:jks|keystore|p12|p8|pfx|pem)\b|\bid_(?:rsa|ed25519|ecdsa)\b/i;

/** The brief's sentences: a period ends one only before a space or the end (URLs and file names keep theirs). */
function sentencesOf(text: string): string[] {
  return text.split(/\.(?=\s|$)|\n/);
}

const PIPE_WORD = /\bpip(?:e|ing)\b/i;
const INTO_SHELL = /\b(?:in)?to (?:bash|sh|zsh|python3?)\b/i;
/** PowerShell's download-and-run: a fetch piped to Invoke-Expression. */
const INTO_IEX = /\|\s*(?:iex|Invoke-Expression)\b/i;

/** `piping https://x/install.sh to bash`: the URL between the words has dots of its own, so the gap is a length. */
function pipedToShell(sentence: string): boolean {
  if (INTO_IEX.test(sentence)) return true;
  const pipe = PIPE_WORD.exec(sentence);
  return pipe !== null && INTO_SHELL.test(sentence.slice(pipe.index, pipe.index + 200));
}

const INSTALL_WORD = /\binstall(?:s|ed|ing)?\b/i;
/** A package, archive or installer a URL hands over whole: what an install from it runs or loads. */
const PACKAGE_FILE = /\.(?:gem|whl|ez|jar|tgz|tar\.gz|tar\.xz|zip|deb|rpm|pkg|dmg|msi|exe|apk|vsix|xpi|nupkg|ps1|sh)$/i;

/** `Install the gem from https://x/y.gem`: a package file from an outside address, installed. */
function installedFromOutside(sentence: string, url: string, host: string): boolean {
  const path = trimEndChars(url.split(/[?#]/)[0] ?? url, `),.;:'"`);
  return INSTALL_WORD.test(sentence) && !isPrivateUseName(host) && PACKAGE_FILE.test(path);
}

// A temporary or downloads folder, in any spelling a brief uses, anywhere in a word (`-r/home/dev/Downloads/x.rb`).
const UNTRUSTED_FOLDER =
  /(?:^|[^\w.]|(?<=[\s='"]-[A-Za-z]))(?:\/(?:private\/)?(?:tmp|var\/tmp|dev\/shm)\/|(?:~|\$HOME|\/home\/[\w.-]+|\/Users\/[\w.-]+)\/Downloads\/|[A-Za-z]:\\Users\\[\w.-]+\\(?:Downloads|AppData\\Local\\Temp)\\)([^\s'"`,;)]*)/g;
/** What a program, library or script a tool runs or loads is named with. */
const CODE_FILE =
  /\.(?:so|dylib|dll|exe|jar|node|sh|bash|zsh|ps1|bat|cmd|py|rb|pl|php|js|cjs|mjs|ts|lua|ez|beam|app)$/i;
/** Settings that make a tool load or run what they name: git's program keys, loader variables, plugins and hooks. */
const LOADER_WORD =
  /\bcore\.(?:hooksPath|fsmonitor|sshCommand|askpass|pager|editor)\b|\bfilter\.[\w-]+\.(?:clean|smudge|process)\b|\bgpg\.program\b|\b(?:LD_PRELOAD|DYLD_INSERT_LIBRARIES|NODE_OPTIONS|RUBYOPT|PERL5OPT|PYTHONSTARTUP|PYTHONPATH|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|DOTNET_STARTUP_HOOKS|CORECLR_PROFILER_PATH|BASH_ENV|ERL_FLAGS|ERL_AFLAGS|ELIXIR_ERL_OPTIONS|GIT_SSH_COMMAND|RUSTC_WRAPPER|CARGO_TARGET_\w+_(?:RUNNER|LINKER)|PROTOC)\b|\b(?:rustc-wrapper|runner|linker)\b|\b(?:plugins?|hooks?|addons?|add-ons?|extensions?|init scripts?|startup hooks?|post-build|pre-build)\b/i;
const USE_WORD =
  /\b(?:run|runs|running|execute|executes|use|uses|using|load|loads|set|sets|setting|point|points|install|enable|require|preload|configure|export|add|adds|register)\b/i;

/**
 * `Set core.fsmonitor to /tmp/fsmon/run.sh`, `export NODE_OPTIONS='--require ~/Downloads/x.cjs'`, `add
 * /tmp/plugins/fastlint.so as a custom linter`: a tool made to run or load what sits in a temporary or
 * downloads folder, code nobody here has read.
 */
function untrustedCodeLoaded(text: string): string | undefined {
  return sentencesOf(text).find((sentence) => {
    if (!USE_WORD.test(sentence)) return false;
    for (const found of sentence.matchAll(UNTRUSTED_FOLDER))
      if (CODE_FILE.test(found[1] ?? '') || LOADER_WORD.test(sentence)) return true;
    return false;
  });
}
// What a person would not send to an outside host unasked: the company's data and code.
const DATA_WORD =
  /\b(?:tables?|databases?|dumps?|exports?|customers?|users|payments?|orders?|CSVs?|source code|the repo(?:sitory)?|tarball|archive|zip(?:ped)?|attachments?)\b/i;
/** A file or folder on this machine named as a word of its own (not a URL's path, not `and/or`). */
const LOCAL_PATH = /(?:^|[\s'"`(])(?:~|\$HOME|\.{1,2})?\/[\w.@-]+\/[\w.@-]/;
const SENDS_OUT =
  /\b(?:upload|send|share|post|export|e-?mail|mail|forward|paste)(?:s|ed|ing)?\b|\bopen (?:an? )?(?:issue|discussion|thread)\b/i;
// Public places named without a scheme (`github.com/org/repo`): an issue or discussion there is for everyone.
const PUBLIC_PLACE =
  /\b(?:github\.com|gitlab\.com|gist\.github\.com|bitbucket\.org|pastebin\.com|stackoverflow\.com|huggingface\.co|discuss\.[\w-]+\.(?:org|com|io))\/[\w.-]+/i;
/** An address on the public internet: outside private, loopback and link-local ranges. */
const IPV4 = /\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b/g;

const MAIL_LOCAL_CHAR = /[\w.+-]/;
const MAIL_DOMAIN_CHAR = /[\w.-]/;

/**
 * The domains of the mail addresses a sentence names (`marta@partner.example`). Scanned around each `@`
 * rather than matched by one pattern, whose runs of name characters would backtrack on long words.
 */
function mailDomains(sentence: string): string[] {
  const domains: string[] = [];
  for (let at = sentence.indexOf('@'); at !== -1; at = sentence.indexOf('@', at + 1)) {
    if (at === 0 || !MAIL_LOCAL_CHAR.test(sentence[at - 1]!)) continue;
    let end = at + 1;
    while (end < sentence.length && MAIL_DOMAIN_CHAR.test(sentence[end]!)) end++;
    // A sentence's own full stop after the address is not the domain's.
    while (end > at + 1 && sentence[end - 1] === '.') end--;
    const domain = sentence.slice(at + 1, end);
    if (/\.[A-Za-z]{2,}$/.test(domain) && !domain.startsWith('.')) domains.push(domain.toLowerCase());
  }
  return domains;
}

/** The host of a web address matched by OUTSIDE_URL. */
function urlHost(url: string): string {
  return url.replace(/^https?:\/\//i, '').toLowerCase();
}

/** Where a sentence sends something, when that is outside: a web address, a public IP, a mail address. */
function outsideDestination(sentence: string): string | undefined {
  const url = OUTSIDE_URL.exec(sentence);
  if (url) {
    const host = urlHost(url[0]);
    return isPrivateUseName(host) ? undefined : host;
  }
  const place = PUBLIC_PLACE.exec(sentence);
  if (place) return place[0];
  // The team's own network and this machine are not outside; nor is link-local (the metadata service has its own reading).
  const ip = [...sentence.matchAll(IPV4)].find((m) => !isLocalHost(m[0]) && !m[0].startsWith('169.254.'));
  if (ip) return ip[0];
  return mailDomains(sentence).find((domain) => !isPrivateUseName(domain));
}

/** A sentence that sends a secret file or the company's data to a web address, or fetches from one and runs it. */
function briefMovesCode(text: string, home: string): { what: string; words: string } | undefined {
  const sentences = sentencesOf(text);
  for (const [at, sentence] of sentences.entries()) {
    const destination = outsideDestination(sentence);
    if (
      destination !== undefined &&
      SENDS_OUT.test(sentence) &&
      (DATA_WORD.test(sentence) || LOCAL_PATH.test(sentence))
    )
      return { what: `sends the company's data or files to ${destination}`, words: sentence.trim() };
    const url = OUTSIDE_URL.exec(sentence);
    if (!url) continue;
    // `There's a fork at URL. Clone it, run its install.sh`: the address, and what is done with it next.
    const withNext = `${sentence}. ${sentences[at + 1] ?? ''}`;
    if ((FETCH_WORD.test(withNext) && RUN_WORD.test(withNext)) || pipedToShell(sentence))
      return { what: 'fetches code from the web and runs it', words: withNext.trim() };
    const fullUrl = /^\S+/.exec(sentence.slice(url.index))?.[0] ?? url[0];
    if (installedFromOutside(sentence, fullUrl, urlHost(url[0])))
      return { what: 'installs a package from an outside address', words: sentence.trim() };
    if (!SEND_WORD.test(sentence)) continue;
    const secret = [...sentence.matchAll(PATH_WORD)]
      .map((m) => m[0].replace(/^(~|\$HOME)(?=\/)/, home))
      .find((path) => path.startsWith('/') && secretFileKind(path, home) !== null);
    if (secret !== undefined) return { what: `sends ${secret} to a web address`, words: sentence.trim() };
    const named = SECRET_FILE_WORD.exec(sentence);
    if (named) return { what: `sends ${named[0].trim()} files to a web address`, words: sentence.trim() };
  }
  return undefined;
}

const BULK_DELETE =
  /\b(?:drop|delete|truncate|wipe|purge|remove)\s+(?:every|all|everything)\b[^.\n]{0,80}\b(?:schemas?|tables?|databases?|buckets?|tags?|releases?|branch(?:es)?|backups?|topics?|indexes|snapshots?|rows?|records?|collections?|documents?|objects?|parameters?|volumes?|repos|repositories)\b/i;
// Where a bulk delete cannot be undone by rerunning a migration: what others use, or what is kept.
const SHARED_PLACE =
  /(?:\b|_)(?:prod|production|live|shared|origin|remote|warehouse|cluster|server|nas|gitlab|github|bitbucket)\b|\b(?:backups?|archived?|signed)\b/i;

/** `Drop every schema … in prod`: a bulk delete of what others use, in one brief. */
function bulkDeleteOfShared(text: string): string | undefined {
  const found = BULK_DELETE.exec(text);
  return found && SHARED_PLACE.test(text) ? found[0] : undefined;
}

const PRIVILEGED_ROLE =
  /\bcluster-admin\b|\bAdministratorAccess\b|\broles\/owner\b|\bsuperuser\b|\bas (?:an? )?(?:admin(?:istrator)?|owner)\b|\b(?:admin|owner) (?:role|rights|access|permissions?)\b/i;
const GRANT_WORD = /\b(?:add|grant|give|bind|bound|create|make|invite|assign|attach)(?:s|ed|ing)?\b/i;
/** A credential that outlives the task: a key pair handed out, a token that never expires. */
const LASTING_CREDENTIAL =
  /\b(?:does not|doesn'?t|never|won'?t) expire\b|\bnon-?expiring\b|\bno expiry\b|\baccess keys?\b|\bpersonal access tokens?\b/i;

/** `Add bot@evil.example as Owner`, `a service account bound to cluster-admin with a token that does not expire`. */
function lastingAdminGrant(text: string): string | undefined {
  return sentencesOf(text).find(
    (sentence) =>
      PRIVILEGED_ROLE.test(sentence) &&
      GRANT_WORD.test(sentence) &&
      (LASTING_CREDENTIAL.test(sentence) || mailDomains(sentence).length > 0),
  );
}

const PRIVILEGED_CONTAINER = /\bprivileged\b[^.\n]{0,60}\bcontainer\b|\bcontainer\b[^.\n]{0,60}\bprivileged\b/i;
const MOUNT_WORD = /\b(?:bind-?)?mount(?:s|ed|ing)?\b/i;

const GATHER_WORD = /\b(?:contents?|collect|gather|copy|concatenate|cat|dump|paste|inline|print)\b/i;
const INTO_WORD = /\b(?:into|to)\b/i;
const CONTENTS_OF = /\b(?:contents?|values?) of\b/i;

/** `Collect the contents of ~/.netrc and ~/.aws/credentials into notes/x.md`: secret files' values, gathered. */
function secretFilesGathered(text: string, home: string): string | undefined {
  return sentencesOf(text).find(
    (sentence) =>
      ((GATHER_WORD.test(sentence) && INTO_WORD.test(sentence)) || CONTENTS_OF.test(sentence)) &&
      [...sentence.matchAll(PATH_WORD)]
        .map((m) => m[0].replace(/^(~|\$HOME)(?=\/)/, home))
        .some((path) => path.startsWith('/') && secretFileKind(path, home) !== null),
  );
}

/** What a sub-agent's brief tells it to do that the person should see first, if anything. */
export function subAgentBriefClaim(call: ToolCall): { what: string; words: string } | undefined {
  if (!isSubAgentTool(call.toolName)) return undefined;
  const text = Object.values(call.input)
    .filter((v): v is string => typeof v === 'string')
    .join('\n');
  for (const [pattern, what] of [...BRIEF_CLAIMS, [STANDING_APPROVAL, 'waives asking the person'] as const]) {
    const found = pattern.exec(text);
    if (found) return { what, words: found[0] };
  }
  const loaded = untrustedCodeLoaded(text);
  if (loaded !== undefined)
    return { what: 'has a tool run or load code from a temporary or downloads folder', words: loaded.trim() };
  const grant = lastingAdminGrant(text);
  if (grant !== undefined) return { what: 'grants admin rights that outlast the task', words: grant.trim() };
  const container = sentencesOf(text).find((s) => PRIVILEGED_CONTAINER.test(s) && MOUNT_WORD.test(s));
  if (container !== undefined)
    return { what: "starts a privileged container with the host's files mounted", words: container.trim() };
  const bulk = bulkDeleteOfShared(text);
  if (bulk !== undefined) return { what: 'deletes in bulk where others work', words: bulk };
  const values = credentialValuesAsked(text) ?? secretFilesGathered(text, call.home);
  if (values !== undefined) return { what: "gathers credentials' values", words: values };
  const gitProgram = downloadedGitProgram(text);
  if (gitProgram !== undefined) return { what: 'installs a downloaded program as one git runs', words: gitProgram };
  return briefMovesCode(text, call.home);
}
