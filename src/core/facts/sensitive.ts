// Whether a path a call names is a credential file, as the system would resolve it: under any
// account's home folder, through a glob that could match one, or through a symlink's real path.
import {
  globCouldMatch,
  isGlobWord,
  literalChars,
  prefixCouldMatch,
  runTimePartsAsGlob,
  segmentMatcher,
  segmentsOf,
} from './globs';
import { HOME_SECRETS, SYSTEM_SECRETS, secretBasenameKind, secretFileKind } from './sensitive-paths';
import { homeFolderOf } from './system-paths';

/** Names a credential file commonly has; a glob that could match one counts as reading it. */
const SECRET_NAME_SAMPLES = [
  '.env',
  '.env.local',
  '.env.production',
  '.netrc',
  '.git-credentials',
  '.pgpass',
  '.my.cnf',
  '.vault-token',
  '.envrc',
  'id_rsa',
  'id_dsa',
  'id_ecdsa',
  'id_ed25519',
  'credentials.json',
  'service-account.json',
  'terraform.tfstate',
  'secrets.yml',
  'secrets.yaml',
  'secrets.json',
  'server.pem',
  'server.key',
  'cert.p12',
  'cert.pfx',
  'store.jks',
  'app.keystore',
  'vault.kdbx',
  'putty.ppk',
];

/** Files in ~/.ssh that hold private keys or host settings (not known_hosts, not *.pub). */
const SSH_PRIVATE_SAMPLES = ['id_rsa', 'id_dsa', 'id_ecdsa', 'id_ed25519', 'identity', 'config'];

/** The credential kind of a literal absolute path under the current home or any other account's. */
export function secretKindOfPath(absolute: string, home: string): string | null {
  const kind = secretFileKind(absolute, home);
  if (kind) return kind;
  const other = homeFolderOf(absolute);
  return other && other !== home ? secretFileKind(absolute, other) : null;
}

function homesAGlobCouldBeIn(glob: readonly string[], home: string): string[][] {
  const homes = [segmentsOf(home)];
  if ((glob[0] === 'home' || glob[0] === 'Users') && glob.length > 2) homes.push(glob.slice(0, 2));
  if (glob[0] === 'root' || (glob[0] !== undefined && segmentMatcher(glob[0])('root'))) homes.push(['root']);
  return homes;
}

function entryCouldMatch(glob: readonly string[], base: readonly string[], entry: string): boolean {
  const entrySegments = [...base, ...segmentsOf(entry)];
  if (!entry.endsWith('/')) return globCouldMatch(glob, entrySegments);
  if (glob.length < entrySegments.length && !glob.includes('**')) return false;
  if (!prefixCouldMatch(glob, entrySegments)) return false;
  if (entry === '.ssh/' && glob.length > entrySegments.length) {
    const last = segmentMatcher(glob[glob.length - 1] ?? '');
    return SSH_PRIVATE_SAMPLES.some(last);
  }
  return true;
}

/** The credential kind a glob could match (`~/.a?s/cred*`, `/home/*\/.ssh/id_*`, `*.pem`), or null. */
export function secretKindOfGlob(absoluteGlob: string, home: string): string | null {
  const glob = segmentsOf(absoluteGlob);
  for (const base of homesAGlobCouldBeIn(glob, home)) {
    if (!prefixCouldMatch(glob, base)) continue;
    for (const [entry, kind] of HOME_SECRETS) if (entryCouldMatch(glob, base, entry)) return kind;
  }
  for (const [entry, kind] of SYSTEM_SECRETS) if (entryCouldMatch(glob, [], entry)) return kind;
  // /proc/[0-9]*/environ, /proc/*/environ: every process's environment.
  if (glob.length === 3 && glob[0] === 'proc' && segmentMatcher(glob[2] ?? '')('environ'))
    return 'process environments';
  const last = glob[glob.length - 1] ?? '';
  // `~/.mozilla/firefox/*/logins.json`: a file named outright, in folders a pattern picks.
  if (!isGlobWord(last)) {
    const named = secretBasenameKind(last);
    if (named) return named;
  }
  // A bare `*` could match anything; it takes a few plain characters to point at credentials.
  // `*.json` or `*.yml` alone only names a file type: it points at credentials when that type
  // marks them (`*.pem`), not because credentials.json is also a .json file.
  const typeOnly = /^\*+(\.[\w-]+)$/.exec(last);
  if (typeOnly) return secretBasenameKind(`x${typeOnly[1]}`);
  if (literalChars(last) >= 2) {
    const matches = segmentMatcher(last);
    const sample = SECRET_NAME_SAMPLES.find(matches);
    if (sample) return secretBasenameKind(sample);
  }
  return null;
}

/** The credential kind of a path as written, as resolved lexically, or as its real path. */
export function secretKindOf(target: { absolute: string; real?: string }, home: string): string | null {
  if (isGlobWord(target.absolute)) return secretKindOfGlob(target.absolute, home);
  const asGlob = runTimePartsAsGlob(target.absolute);
  if (asGlob !== target.absolute) return secretKindOfGlob(asGlob, home) ?? secretKindOfPath(target.absolute, home);
  return secretKindOfPath(target.absolute, home) ?? (target.real ? secretKindOfPath(target.real, home) : null);
}
