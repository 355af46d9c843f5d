// Database clients and how each is handed what it runs: an option (psql -c), its operands (sqlite3 db
// "SQL"), a file (psql -f, a mongosh script), or its standard input. One table, read by the policies
// that judge the statements and by the one that judges where they came from.
import type { SimpleCommand } from '../shell';
import { HEROKU_PSQL_SUBCOMMAND, PSQL_COMMAND_OPTIONS } from '../shell/cli-options';
import { argsOf, literalStdin, optionValues, parseFlags } from './commands';
import { own } from './own';

export interface SqlClient {
  /** Options whose value is SQL. */
  short: string[];
  long: string[];
  /** The operands after the database are SQL. */
  positionalSql?: boolean;
  /** Options whose value is a file of SQL. */
  fileShort?: string[];
  fileLong?: string[];
  /** The client is one subcommand of a wider program (`wrangler d1 execute`); elsewhere its options mean other things. */
  subcommand?: string[];
  /** The client works on a local copy unless given this option (`wrangler d1 execute --remote`). */
  remoteWith?: string;
  /** Its other options that take a value (`--env staging`), so the value is not read as the database. */
  valued?: { short: string[]; long: string[] };
}

const PSQL_SQL = { short: [...PSQL_COMMAND_OPTIONS.short], long: [...PSQL_COMMAND_OPTIONS.long] };

export const SQL_CLIENTS: Readonly<Record<string, SqlClient>> = {
  psql: { ...PSQL_SQL, fileShort: ['f'], fileLong: ['file'] },
  // Cassandra's shell: CQL's DROP KEYSPACE and TRUNCATE read as SQL's.
  cqlsh: { short: ['e'], long: ['execute'], fileShort: ['f'], fileLong: ['file'] },
  mysql: { short: ['e'], long: ['execute'] },
  mariadb: { short: ['e'], long: ['execute'] },
  sqlite3: { short: [], long: [], positionalSql: true },
  sqlite: { short: [], long: [], positionalSql: true },
  duckdb: { short: ['c'], long: [], positionalSql: true },
  'clickhouse-client': { short: ['q'], long: ['query'], fileLong: ['queries-file'] },
  clickhouse: { short: ['q'], long: ['query'], fileLong: ['queries-file'] },
  cockroach: { short: ['e'], long: ['execute'], fileLong: ['file'] },
  sqlcmd: { short: ['Q', 'q'], long: [], fileShort: ['i'] },
  snowsql: { short: ['q'], long: ['query'], fileShort: ['f'], fileLong: ['filename'] },
  bq: { short: [], long: [], positionalSql: true },
  usql: { short: ['c'], long: ['command'], fileShort: ['f'], fileLong: ['file'] },
  // The warehouse and big-data shells, each with its own option for a statement and for a file of them.
  trino: { short: [], long: ['execute'], fileShort: ['f'], fileLong: ['file'] },
  presto: { short: [], long: ['execute'], fileShort: ['f'], fileLong: ['file'] },
  beeline: { short: ['e'], long: [], fileShort: ['f'], fileLong: [] },
  hive: { short: ['e'], long: [], fileShort: ['f'], fileLong: [] },
  'spark-sql': { short: ['e'], long: [], fileShort: ['f'], fileLong: [] },
  'impala-shell': { short: ['q'], long: ['query'], fileShort: ['f'], fileLong: ['query_file'] },
  vsql: { short: ['c'], long: ['command'], fileShort: ['f'], fileLong: ['file'] },
  mycli: { short: ['e'], long: ['execute'] },
  litecli: { short: ['e'], long: ['execute'] },
  'mssql-cli': { short: ['Q'], long: ['query'], fileShort: ['i'], fileLong: ['input-file'] },
  // Oracle's SQL*Plus takes its statements only on its input (or an `@script`).
  sqlplus: { short: [], long: [] },
  // `heroku pg:psql`: psql against an app's Heroku Postgres, always the deployed one.
  heroku: {
    ...PSQL_SQL,
    fileShort: ['f'],
    fileLong: ['file'],
    subcommand: [HEROKU_PSQL_SUBCOMMAND],
    valued: { short: ['a', 'r'], long: ['app', 'remote'] },
  },
  // Cloudflare D1: `--remote` reaches the deployed database, the default a local copy.
  wrangler: {
    short: [],
    long: ['command'],
    fileLong: ['file'],
    subcommand: ['d1', 'execute'],
    remoteWith: '--remote',
    valued: { short: ['c', 'e'], long: ['config', 'env', 'persist-to'] },
  },
};

const MONGO_SHELLS = new Set(['mongosh', 'mongo']);

export function sqlClientOf(name: string): SqlClient | undefined {
  return own(SQL_CLIENTS, name);
}

/** Whether the arguments run the client's subcommand, when it is one. */
function inSubcommand(client: SqlClient, args: readonly string[]): boolean {
  const wanted = client.subcommand;
  if (!wanted) return true;
  const words = parseFlags(args).positionals;
  return wanted.every((word, index) => words[index] === word);
}

/** Whether the client runs on a throwaway local copy of the database (D1 without `--remote`). */
export function onLocalCopy(client: SqlClient, args: readonly string[]): boolean {
  return client.remoteWith !== undefined && !args.includes(client.remoteWith);
}

/** The database a subcommand client names first (`wrangler d1 execute relay-prod`), if any. */
export function subcommandDatabase(client: SqlClient, args: readonly string[]): string | undefined {
  const wanted = client.subcommand;
  if (!wanted) return undefined;
  const long = [...client.long, ...(client.fileLong ?? []), ...(client.valued?.long ?? [])];
  return parseFlags(args, client.valued?.short ?? [], long).positionals[wanted.length];
}

/** The SQL a client is given in its options and operands. */
export function clientSql(client: SqlClient, args: readonly string[]): string[] {
  if (!inSubcommand(client, args)) return [];
  return [
    ...optionValues(args, client.short, client.long),
    ...(client.positionalSql
      ? parseFlags(args, ['cmd', 'init'], ['cmd', 'init', 'separator']).positionals.slice(1)
      : []),
  ];
}

/**
 * The files a database client runs: its file options (`psql -f`), a MongoDB shell's script operands and
 * `--file`, and a `<` redirect (`mysql db < dump.sql`, `redis-cli < cmds.txt`).
 */
export function statementFiles(cmd: SimpleCommand): string[] {
  const client = sqlClientOf(cmd.name);
  // A redirect into any other program is data, not statements.
  if (!client && !MONGO_SHELLS.has(cmd.name) && cmd.name !== 'redis-cli') return [];
  const args = argsOf(cmd);
  if (client && !inSubcommand(client, args)) return [];
  const options = client ? optionValues(args, client.fileShort ?? [], client.fileLong ?? []) : [];
  const scripts = MONGO_SHELLS.has(cmd.name)
    ? [...optionValues(args, [], ['file']), ...args.filter((a) => /\.js$/.test(a))]
    : [];
  const redirected = cmd.redirects
    .filter((r) => r.op === '<' && (r.fd === undefined || r.fd === 0))
    .map((r) => r.target);
  return [...options, ...scripts, ...redirected];
}

/** `curl … | psql "$URL"`: a client given no statements in its arguments runs what arrives on its input. */
export function readsStatementsFromStdin(cmd: SimpleCommand): boolean {
  const args = argsOf(cmd);
  if (MONGO_SHELLS.has(cmd.name))
    return optionValues(args, [], ['eval', 'file']).length === 0 && !args.some((a) => /\.js$/.test(a));
  const client = sqlClientOf(cmd.name);
  if (!client || client.positionalSql || client.subcommand) return false;
  return clientSql(client, args).length === 0 && statementFiles(cmd).length === 0;
}

/**
 * The JavaScript a MongoDB shell given no script reads on its input, when the call writes it out
 * (`echo 'db.x.drop()' | mongosh URL`, a heredoc): it runs as `--eval` code would.
 */
export function mongoShellInput(commands: readonly SimpleCommand[], cmd: SimpleCommand): string | undefined {
  if (!MONGO_SHELLS.has(cmd.name) || !readsStatementsFromStdin(cmd)) return undefined;
  return literalStdin(commands, cmd)?.replace(MONGO_SHELL_HELPER, '');
}

/** The shell's own commands, which are not JavaScript (`use app`, `show dbs`, `exit`): blanked before it is read. */
const MONGO_SHELL_HELPER = /^[ \t]*(?:(?:use|show)[ \t]+[^\s;]+|it|exit|quit)[ \t]*(?:;[ \t]*)?$/gm;

/** The JavaScript a MongoDB shell runs that the call shows: its `--eval` code and what it reads on its input. */
export function mongoShellScripts(commands: readonly SimpleCommand[], cmd: SimpleCommand): string[] {
  if (!MONGO_SHELLS.has(cmd.name)) return [];
  const fed = mongoShellInput(commands, cmd);
  return [...optionValues(argsOf(cmd), [], ['eval']), ...(fed === undefined ? [] : [fed])];
}

// Functions with which a database server reads a file of its machine and hands back its bytes (Postgres'
// pg_read_file and lo_import, MySQL's LOAD_FILE and LOAD DATA INFILE, SQLite's readfile). To a local
// server, that is this machine: `SELECT pg_read_file('/home/dev/.ssh/id_ed25519')` is a read of the key.
const SERVER_FILE_READERS = ['pg_read_file', 'pg_read_binary_file', 'lo_import', 'load_file', 'readfile', 'infile'];

/** The paths a client's SQL has its server read (`lo_import('/…')`), each a single-quoted literal. */
export function serverFileReads(cmd: SimpleCommand): string[] {
  const client = sqlClientOf(cmd.name);
  if (!client) return [];
  const paths: string[] = [];
  for (const sql of clientSql(client, argsOf(cmd))) {
    const lower = sql.toLowerCase();
    for (const reader of SERVER_FILE_READERS)
      for (let at = lower.indexOf(reader); at !== -1; at = lower.indexOf(reader, at + reader.length)) {
        let open = at + reader.length;
        while (open < sql.length && (sql[open] === ' ' || sql[open] === '(' || sql[open] === '\n')) open++;
        if (sql[open] !== "'") continue;
        const close = sql.indexOf("'", open + 1);
        if (close > open + 1) paths.push(sql.slice(open + 1, close));
      }
  }
  return paths;
}
