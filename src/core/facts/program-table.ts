import type { SimpleCommand } from '../shell';
import { argsOf, optionValues, parseFlags } from './commands';
import { own } from './own';
import { perCommand } from './per-command';
import { globalValueOptions } from '../shell/cli-options';

// Programs as data: the options and operands through which each one reads a file, writes one,
// sends one to another host or writes what it fetched. The facts come from the programs' manuals
// and from the public catalogues of programs that read, write, upload or download through their
// options (GTFOBins' file-read, file-write, file-upload and file-download functions; LOLBAS's Unix
// peers), used as facts. Programs with their own readers in targets.ts (cat, grep, cp, tar, curl…)
// and those that run commands through options (option-hops.ts) are not repeated here. Each row has
// its own case and near miss in test/core/facts/program-table.test.ts.

/**
 * Where a program names a file: every operand, one of them, the value of an option (`-f`, `--file`,
 * single-dash long `-batch`), or a `key=` operand (dd's `if=`).
 */
type Slot = 'operands' | 'first' | 'second' | 'rest' | 'last' | `-${string}` | `${string}=`;

export interface ProgramRow {
  /** Options that take a value, so that value is not read as an operand: `-n -c --lines`. */
  takes?: string;
  read?: readonly Slot[];
  write?: readonly Slot[];
  /** Files it sends to another host. */
  upload?: readonly Slot[];
  /** Files it writes with what it fetched from another host. */
  download?: readonly Slot[];
  /** Where an upload goes, when an operand names it (`wrangler r2 object put BUCKET/KEY`), as an address. */
  uploadTo?: { slot: Slot; scheme: string };
  /** SOURCE… DEST where either side may be remote (`s3://`, `gs://`, rclone's `name:path`). */
  transfer?: boolean;
  /** The row applies only when this word is among the arguments (git diff's `--no-index`). */
  when?: string;
  /** Its options match in any case (PowerShell's `-InFile`, `-infile`). */
  ignoreCase?: true;
}

// vim's -s is a flag in ex mode (`-es`), so it is not listed as taking a value.
const EDITOR: ProgramRow = { takes: '-c --cmd -S -u -i', read: ['operands'], write: ['operands'] };
const ROFF: ProgramRow = { takes: '-m -M -T -P -r -n -o -d -F -I -K', read: ['operands'] };
const GETTEXT: ProgramRow = { takes: '-o --output-file -D --directory -f --files-from', read: ['operands'] };
const COMPILER: ProgramRow = {
  takes: '-o -x -I -L -l -D -U -MF -MT -include -isystem -std',
  read: ['operands'],
  write: ['-o'],
};
const TRANSFER: ProgramRow = {
  transfer: true,
  takes:
    '--exclude --include --profile --region --storage-class --acl --sse --sse-kms-key-id --sse-c --endpoint-url --content-type --cache-control --metadata --metadata-directive --grants --expected-size --source-region --expires --content-encoding --content-disposition -h',
};

// rclone's options that take a value, so that `--transfers 8` is not read as the destination.
const RCLONE_TRANSFER: ProgramRow = {
  transfer: true,
  takes: [
    ...['--transfers', '--checkers', '--bwlimit', '--config', '--log-file', '--log-level', '--filter'],
    ...['--filter-from', '--exclude', '--exclude-from', '--include', '--include-from', '--files-from'],
    ...['--max-age', '--min-age', '--max-size', '--min-size', '--backup-dir', '--suffix', '--order-by'],
    ...['--retries', '--low-level-retries', '--stats', '--timeout', '--contimeout', '--max-transfer'],
    ...['--multi-thread-streams', '--buffer-size', '--tpslimit', '--user-agent', '--compare-dest'],
    ...['--copy-dest', '--max-depth', '--cutoff-mode', '--max-duration', '--track-renames-strategy'],
  ].join(' '),
};

const POWERSHELL_WEB_REQUEST: ProgramRow = {
  upload: ['-InFile'],
  download: ['-OutFile'],
  takes: '-Uri -Method -Headers -Body -ContentType -Credential -UserAgent',
  ignoreCase: true,
};

export const PROGRAM_TABLE: Readonly<Record<string, ProgramRow>> = {
  // Readers: print or leak the content of the files they are given.
  arp: { read: ['-f', '--file'] },
  ascii85: { read: ['operands'] },
  aspell: { read: ['operands'], takes: '--lang -d --encoding' },
  base58: { read: ['operands'] },
  bc: { read: ['operands'] },
  bridge: { read: ['-b', '-batch'] },
  cmp: { read: ['operands'], takes: '-i -n --ignore-initial --bytes' },
  comm: { read: ['operands'], takes: '--output-delimiter' },
  csplit: { read: ['first'], takes: '-f -b -n --prefix --suffix-format --digits' },
  cut: { read: ['operands'], takes: '-b -c -d -f --bytes --characters --delimiter --fields --output-delimiter' },
  date: { read: ['-f', '--file'] },
  dd: { read: ['if='] },
  dialog: { read: ['--textbox'] },
  dig: { read: ['-f'] },
  dmesg: { read: ['-F', '--file'] },
  eqn: ROFF,
  espeak: { read: ['-f'] },
  file: { read: ['-f', '--files-from'] },
  'git diff': { when: '--no-index', read: ['operands'] },
  groff: ROFF,
  highlight: { read: ['operands'], takes: '-O -S -s -o' },
  ip: { read: ['-b', '-batch'] },
  join: { read: ['operands'], takes: '-a -e -j -o -t -v -1 -2' },
  look: { read: ['second'] },
  msgattrib: GETTEXT,
  msgcat: GETTEXT,
  msgconv: GETTEXT,
  msgfilter: GETTEXT,
  msguniq: GETTEXT,
  nasm: { read: ['-@', 'operands'], write: ['-o'], takes: '-f -o -I -D' },
  nmap: { read: ['-iL'] },
  nroff: ROFF,
  pg: { read: ['operands'] },
  pic: ROFF,
  pr: { read: ['operands'], takes: '-h -l -w -o -W -N -e -i -n -s -S --header --length --width' },
  ptx: { read: ['operands'], takes: '-b -F -g -i -o -w' },
  readelf: { read: ['operands'], takes: '-x -p -R --hex-dump --string-dump' },
  shuf: { read: ['operands'], write: ['-o', '--output'], takes: '-n -i --head-count --input-range' },
  soelim: ROFF,
  sqlite3: { read: ['first'], takes: '-cmd -separator -nullvalue -newline' },
  ss: { read: ['-F', '--filter'] },
  'ssh-keyscan': { read: ['-f'] },
  tbl: ROFF,
  tic: { read: ['operands'], takes: '-o -e -R -v -w' },
  troff: ROFF,
  ul: { read: ['operands'], takes: '-t --terminal' },
  unexpand: { read: ['operands'], takes: '-t --tabs' },
  uudecode: { read: ['operands'], write: ['-o', '--output-file'] },
  uuencode: { read: ['first'] },
  w3m: { read: ['operands'], takes: '-o -T -cols -I -O' },
  wc: { read: ['--files0-from'] },
  xargs: { read: ['-a', '--arg-file'] },
  xmore: { read: ['operands'] },
  zsoelim: ROFF,
  // Editors: read the files they open and write them back.
  vim: EDITOR,
  vi: EDITOR,
  nvim: EDITOR,
  ex: EDITOR,
  rvim: EDITOR,
  rview: EDITOR,
  nano: { read: ['operands'], write: ['operands'], takes: '-T -Y -o --tabsize --syntax --operatingdir' },
  pico: { read: ['operands'], write: ['operands'] },
  emacs: { read: ['operands'], write: ['operands'], takes: '-l --load --eval -f --funcall' },
  joe: { read: ['operands'], write: ['operands'] },
  mcedit: { read: ['operands'], write: ['operands'] },
  micro: { read: ['operands'], write: ['operands'], takes: '-config-dir' },
  ed: { read: ['operands'], write: ['operands'], takes: '-p --prompt' },
  // Compilers print what they cannot parse, and write their output.
  gcc: COMPILER,
  cc: COMPILER,
  'g++': COMPILER,
  clang: COMPILER,
  'clang++': COMPILER,
  c99: COMPILER,
  // Writers: the output file of a program that otherwise reads.
  sort: { write: ['-o', '--output'] },
  iconv: { write: ['-o', '--output'] },
  gpg: { write: ['-o', '--output'] },
  openssl: { write: ['-out'] },
  // Key generators that write a new key over the file they are given: MCUboot's imgtool (-k), and, told to
  // overwrite, minisign -G -f and Tauri's updater key (--force -w). (A new key at a new path, as
  // ssh-keygen makes one, is everyday work: it overwrites only when told so at a prompt.)
  'imgtool keygen': { write: ['-k', '--key'], takes: '-t --type -p --password' },
  minisign: { write: ['-s', '-p'], when: '-f', takes: '-c -t -x -m' },
  ...Object.fromEntries(
    ['tauri', 'cargo tauri', 'pnpm tauri', 'yarn tauri', 'bun tauri'].map((cli) => [
      `${cli} signer generate`,
      { write: ['-w', '--write-keys'], when: '--force', takes: '-p --password' } satisfies ProgramRow,
    ]),
  ),
  sponge: { write: ['operands'] },
  patch: { read: ['-i', '--input'], write: ['-o', '--output', 'first'], takes: '-p -d -F -B -r -z --directory' },
  fallocate: { write: ['operands'], takes: '-l -o --length --offset' },
  xxd: { write: ['second'], when: '-r' },
  // Uploads: files sent to another host.
  mail: { upload: ['-a', '-A', '--attach'], takes: '-s -c -b -r' },
  mailx: { upload: ['-a', '-A', '--attach'], takes: '-s -c -b -r' },
  mutt: { upload: ['-a'], takes: '-s -c -b -F' },
  'gh release upload': { upload: ['rest'], takes: '-R --repo' },
  'croc send': { upload: ['operands'], takes: '--code --text' },
  'wormhole send': { upload: ['operands'], takes: '--code --text' },
  'b2 upload-file': { upload: ['second'] },
  // Cloudflare R2: the object's content is the file given (a public bucket serves it to anyone).
  'wrangler r2 object put': {
    upload: ['-f', '--file'],
    uploadTo: { slot: 'first', scheme: 'r2://' },
    takes:
      '--ct --content-type --cc --cache-control --cd --content-disposition --ce --content-encoding --content-language --expires --storage-class -j --jurisdiction',
  },
  'az storage blob upload': { upload: ['-f', '--file'], takes: '-c -n --container-name --name --account-name' },
  'az storage blob upload-batch': { upload: ['-s', '--source'], takes: '-d --destination --account-name' },
  'aws s3 cp': TRANSFER,
  'aws s3 mv': TRANSFER,
  'aws s3 sync': TRANSFER,
  'gsutil cp': TRANSFER,
  'gsutil mv': TRANSFER,
  'gsutil rsync': TRANSFER,
  'gcloud storage cp': TRANSFER,
  'gcloud storage rsync': TRANSFER,
  'rclone copy': RCLONE_TRANSFER,
  'rclone copyto': RCLONE_TRANSFER,
  'rclone sync': RCLONE_TRANSFER,
  'rclone move': RCLONE_TRANSFER,
  'azcopy copy': TRANSFER,
  'azcopy sync': TRANSFER,
  's3cmd put': TRANSFER,
  's3cmd sync': TRANSFER,
  's3cmd get': TRANSFER,
  // Downloads: files written with what was fetched.
  axel: { download: ['-o', '--output'], takes: '-n -s -H -U' },
  'lwp-download': { download: ['second'] },
  'gh release download': { download: ['-D', '--dir', '-O', '--output'], takes: '-R --repo -p --pattern' },
  'pip download': { download: ['-d', '--dest'], takes: '-r -i --index-url' },
  'pip3 download': { download: ['-d', '--dest'], takes: '-r -i --index-url' },
  'svn checkout': { download: ['second'], takes: '-r --username --password' },
  'svn export': { download: ['second'], takes: '-r --username --password' },
  'hg clone': { download: ['second'], takes: '-r -b -u --rev --branch' },
  // A Zephyr workspace from a manifest repository: `west update` then fetches every project it lists.
  'west init': { download: ['last'], when: '-m', takes: '-m --manifest-url --mr --manifest-rev --mf --manifest-file' },
  // Request bodies read from files: an object store's put, an issue's or a pull request's text.
  'aws s3api put-object': { upload: ['--body'], takes: '--bucket --key --content-type' },
  'aws s3api upload-part': { upload: ['--body'], takes: '--bucket --key --upload-id --part-number' },
  'gh issue create': { read: ['--body-file', '-F'], takes: '-R --repo -t --title -b --body -l --label' },
  split: { read: ['first'], takes: '-b -l -n -a -C -t --bytes --lines --number --suffix-length --line-bytes' },
  'gh pr create': { read: ['--body-file', '-F'], takes: '-R --repo -t --title -b --body -B --base -H --head' },
  // PowerShell's web cmdlets read as a shell command line (the powershell tool): -InFile is the request body.
  'invoke-restmethod': POWERSHELL_WEB_REQUEST,
  'invoke-webrequest': POWERSHELL_WEB_REQUEST,
  irm: POWERSHELL_WEB_REQUEST,
  iwr: POWERSHELL_WEB_REQUEST,
};

type FoundRow = { row: ProgramRow; args: readonly string[] };

/** The row for a command: `program sub sub`, `program sub`, then `program`, with the words it consumed. */
const rowOf: (cmd: SimpleCommand) => FoundRow | undefined = perCommand(findRow);

function findRow(cmd: SimpleCommand): FoundRow | undefined {
  const name = cmd.name.toLowerCase();
  const args = argsOf(cmd);
  // `git -c color.ui=false diff --no-index …`: a global option's value is not a subcommand word.
  const globals = globalValueOptions(name);
  const words = parseFlags(args, globals?.short, globals?.long).positionals;
  for (const depth of [3, 2, 1, 0]) {
    const sub = words.slice(0, depth);
    if (sub.length < depth) continue;
    const row = own(PROGRAM_TABLE, [name, ...sub].join(' '));
    if (!row) continue;
    if (row.when !== undefined && !args.includes(row.when)) return undefined;
    // Drop the subcommand words from the front so operand slots count from the first real operand.
    const rest = [...args];
    for (const word of sub) rest.splice(rest.indexOf(word), 1);
    return { row, args: rest };
  }
  return undefined;
}

function valueOptions(row: ProgramRow): { short: string[]; long: string[]; single: string[] } {
  const short: string[] = [];
  const long: string[] = [];
  const single: string[] = [];
  const slots = [...(row.read ?? []), ...(row.write ?? []), ...(row.upload ?? []), ...(row.download ?? [])];
  for (const option of [...(row.takes ?? '').split(' '), ...slots]) {
    if (option.startsWith('--')) long.push(option.slice(2));
    else if (/^-[^-]$/.test(option)) short.push(option.slice(1));
    else if (option.startsWith('-') && option.length > 2) single.push(option);
  }
  return { short, long, single };
}

/** The operands: words that are not options, option values or an editor's `+cmd`. */
function operandsOf(row: ProgramRow, args: readonly string[]): string[] {
  const { short, long, single } = valueOptions(row);
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (single.includes(args[i] ?? '')) i++;
    else kept.push(args[i] ?? '');
  }
  return parseFlags(kept, short, long).positionals.filter((w) => !w.startsWith('+'));
}

function slotFiles(row: ProgramRow, args: readonly string[], slots: readonly Slot[] | undefined): string[] {
  const files: string[] = [];
  const operands = operandsOf(row, args);
  for (const slot of slots ?? []) {
    // A URL operand is where the program fetches from, not a file it names.
    if (slot === 'operands') files.push(...operands.filter((w) => !w.includes('://')).map((w) => w.replace(/^@/, '')));
    else if (slot === 'first') files.push(...operands.slice(0, 1));
    else if (slot === 'second') files.push(...operands.slice(1, 2));
    else if (slot === 'rest') files.push(...operands.slice(1));
    else if (slot === 'last') files.push(...operands.slice(-1));
    else if (slot.endsWith('=')) files.push(...args.filter((a) => a.startsWith(slot)).map((a) => a.slice(slot.length)));
    else if (slot.startsWith('--')) files.push(...optionValues(args, [], [slot.slice(2)]));
    else if (/^-[A-Za-z]$/.test(slot)) files.push(...optionValues(args, [slot.slice(1)], []));
    else
      for (let i = 0; i < args.length - 1; i++)
        if (args[i] === slot || (row.ignoreCase && args[i]?.toLowerCase() === slot.toLowerCase()))
          files.push(args[i + 1] ?? '');
  }
  return files.filter((f) => f !== '' && f !== '-');
}

/** A remote end of a transfer: a URL (`s3://b/k`, `https://…`) or rclone's `remote:path`. */
function isRemote(word: string): boolean {
  // rclone's on-the-fly remotes: `:webdav,url=https://host:path`, `:s3:bucket/key`.
  return /^[a-z][\w+.-]*:\/\//i.test(word) || /^[A-Za-z][\w.-]+:(?!\/\/)/.test(word) || /^:[a-z][\w-]*[,:]/i.test(word);
}

function transferEnds(row: ProgramRow, args: readonly string[]): { sources: string[]; dest: string } | undefined {
  const { short, long } = valueOptions(row);
  const words = parseFlags(args, short, long).positionals;
  const dest = words[words.length - 1];
  return dest === undefined || words.length < 2 ? undefined : { sources: words.slice(0, -1), dest };
}

export type TableAccess = 'read' | 'write' | 'upload' | 'download';

/** The files a command reads, writes, uploads or downloads according to its row, if it has one. */
export function tableFiles(cmd: SimpleCommand, access: TableAccess): string[] {
  const found = rowOf(cmd);
  if (!found) return [];
  const { row, args } = found;
  if (row.transfer) {
    const ends = transferEnds(row, args);
    if (!ends) return [];
    const uploading = isRemote(ends.dest) && ends.sources.some((s) => !isRemote(s));
    const downloading = !isRemote(ends.dest) && ends.sources.some(isRemote);
    if ((access === 'read' || access === 'upload') && uploading) return ends.sources.filter((s) => !isRemote(s));
    if ((access === 'write' || access === 'download') && downloading) return [ends.dest];
    return [];
  }
  if (access === 'read') return [...slotFiles(row, args, row.read), ...slotFiles(row, args, row.upload)];
  if (access === 'write') return [...slotFiles(row, args, row.write), ...slotFiles(row, args, row.download)];
  return slotFiles(row, args, access === 'upload' ? row.upload : row.download);
}

/** Files the command fetches from another host into the file system. */
export function tableDownloads(cmd: SimpleCommand): string[] {
  return tableFiles(cmd, 'download');
}

/** The bucket or host a remote end names: `s3://b/k` is `s3://b`, rclone's `r:path` is `r:`. */
function placeOf(remote: string): string {
  const url = /^([a-z][\w+.-]*:\/\/[^/]*)/i.exec(remote);
  if (url) return url[1]!.toLowerCase();
  return remote.slice(0, remote.indexOf(':') + 1);
}

/** A transfer from one remote place to another (`aws s3 cp s3://a/x s3://b/`): the data moves between them. */
export function tableRemoteCopy(cmd: SimpleCommand): { from: string; to: string } | undefined {
  const found = rowOf(cmd);
  const ends = found?.row.transfer ? transferEnds(found.row, found.args) : undefined;
  if (!ends || !isRemote(ends.dest) || !ends.sources.every(isRemote)) return undefined;
  const to = placeOf(ends.dest);
  const from = ends.sources.find((source) => placeOf(source) !== to);
  return from === undefined ? undefined : { from, to: ends.dest };
}

/** Where a command with a table row sends files, when it does: the remote end or the program. */
export function tableUpload(cmd: SimpleCommand): { files: string[]; to: string } | undefined {
  const files = tableFiles(cmd, 'upload');
  if (!files.length) return undefined;
  const found = rowOf(cmd);
  const ends = found?.row.transfer ? transferEnds(found.row, found.args) : undefined;
  const named = found?.row.uploadTo && slotFiles(found.row, found.args, [found.row.uploadTo.slot])[0];
  return { files, to: ends?.dest ?? (named ? `${found.row.uploadTo!.scheme}${named}` : cmd.name) };
}
