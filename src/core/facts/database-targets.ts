// Where a database command connects: its server (this machine unless a host says otherwise) and its
// database. A throwaway database on this machine (`app_test`, `ledgerly_e2e`, `scratch`) is what test
// suites drop, truncate and recreate before every run; wiping one loses nothing a person keeps.
import type { SimpleCommand } from '../shell';
import { argsOf, optionValues, parseFlags } from './commands';

export interface DatabaseTarget {
  /** The server is this machine: a loopback host, a socket folder, or no host named at all. */
  local: boolean;
  /** The database, when the command names one. */
  database?: string;
}

const LOCAL_SERVER = /^(localhost|127\.0\.0\.1|::1|\[::1\]|\/\S*)$/;
/** Names that say a database is for tests or scratch work: a whole word of the name, `_` or `-` apart. */
const THROWAWAY_NAME = /(^|[_-])(test|tests|testing|e2e|spec|scratch|tmp|temp)([_-]|\d*$)/i;

/** A host naming this machine's server: loopback, or a socket folder. */
export function isLocalServer(host: string): boolean {
  return LOCAL_SERVER.test(host);
}

/** Whether a database is a throwaway one on this machine, which tests wipe as a matter of course. */
export function isThrowawayLocal(target: DatabaseTarget | undefined): boolean {
  return target !== undefined && target.local && target.database !== undefined && isThrowawayName(target.database);
}

// A name a person gives what they build to try things (`ANALYTICS_DEV.DBT_ME.X`, `scratch.t`, `tmp_orders`).
const WORKING_COPY_NAME = /(^|[_.:-])(dev|test|tests|testing|tmp|temp|scratch|sandbox|ci)([_.:-]|\d*$)/i;

/** A table, dataset or database named as a working copy: replacing or expiring it loses nothing shared. */
export function isWorkingCopyName(name: string): boolean {
  return WORKING_COPY_NAME.test(name.replace(/["`]/g, ''));
}

export function isThrowawayName(name: string): boolean {
  return THROWAWAY_NAME.test(name.replace(/^["'`]|["'`]$/g, ''));
}

/** Host and database of a connection URL (`postgresql://u:p@host:5432/db?x`, `mongodb://host/db`, `mysql://…`). */
export function urlTarget(url: string): DatabaseTarget | undefined {
  const match =
    /^(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?):\/\/(?:[^@/\s]*@)?([^/?\s]*)(?:\/([^?\s]*))?/i.exec(url);
  if (!match) return undefined;
  const hosts = (match[1] ?? '').split(',').map((h) => h.replace(/:\d+$/, ''));
  const database = decodeURIComponent(match[2] ?? '');
  return {
    local: hosts.every((h) => h === '' || LOCAL_SERVER.test(h)),
    ...(database ? { database } : {}),
  };
}

interface ClientShape {
  /** Options that take a value (so their value is not the database operand). */
  valued: string[];
  valuedLong: string[];
  hostShort: string[];
  databaseShort: string[];
  databaseLong: string[];
  /** Variables the client reads as its host and database. */
  hostVariables: string[];
  databaseVariables: string[];
}

const POSTGRES: ClientShape = {
  valued: ['h', 'p', 'U', 'd', 'c', 'f', 'v', 'o', 'F', 'R', 'T', 'L', 'P'],
  valuedLong: ['host', 'port', 'username', 'dbname', 'command', 'file', 'set', 'variable', 'maintenance-db'],
  hostShort: ['h'],
  databaseShort: ['d'],
  databaseLong: ['dbname'],
  hostVariables: ['PGHOST'],
  databaseVariables: ['PGDATABASE'],
};

const MYSQL: ClientShape = {
  valued: ['h', 'u', 'P', 'D', 'e', 'S'],
  valuedLong: ['host', 'user', 'port', 'database', 'execute', 'socket'],
  hostShort: ['h'],
  databaseShort: ['D'],
  databaseLong: ['database'],
  hostVariables: ['MYSQL_HOST'],
  databaseVariables: [],
};

const MONGO: ClientShape = {
  valued: [],
  valuedLong: ['host', 'port', 'eval', 'file', 'username', 'password', 'authenticationDatabase'],
  hostShort: [],
  databaseShort: [],
  databaseLong: [],
  hostVariables: [],
  databaseVariables: [],
};

const SHAPES: Record<string, ClientShape> = {
  psql: POSTGRES,
  dropdb: POSTGRES,
  createdb: POSTGRES,
  pg_restore: POSTGRES,
  mysql: MYSQL,
  mariadb: MYSQL,
  mongosh: MONGO,
  mongo: MONGO,
};

/**
 * Where a database client or command connects, or undefined when it is not one or a word that decides it
 * is only known at run time. A `DATABASE_URL` set for the command counts as its connection.
 */
export function clientTarget(cmd: SimpleCommand): DatabaseTarget | undefined {
  const shape = Object.hasOwn(SHAPES, cmd.name) ? SHAPES[cmd.name] : undefined;
  if (!shape || cmd.dynamicWords.length) return undefined;
  const args = argsOf(cmd);
  const operands = parseFlags(args, shape.valued, shape.valuedLong).positionals;
  const url = [...operands, ...optionValues(args, shape.databaseShort, shape.databaseLong)]
    .map(urlTarget)
    .find(Boolean);
  if (url) return url;
  const host =
    optionValues(args, shape.hostShort, ['host'])[0] ??
    shape.hostVariables.map((name) => cmd.assignments[name]).find((v) => v !== undefined);
  const hostIsUrl = host !== undefined ? urlTarget(host) : undefined;
  if (hostIsUrl) return hostIsUrl;
  const database =
    optionValues(args, shape.databaseShort, shape.databaseLong)[0] ??
    operands[0] ??
    shape.databaseVariables.map((name) => cmd.assignments[name]).find((v) => v !== undefined);
  const local = host === undefined || LOCAL_SERVER.test(host.replace(/:\d+$/, ''));
  return { local, ...(database !== undefined ? { database } : {}) };
}

/**
 * The connection a command is given through `DATABASE_URL` (Prisma, Rails, Django and most ORMs read
 * it), set for it or for the wrappers it runs under (`DATABASE_URL=… npx prisma …`: npx passes it on).
 */
export function databaseUrlTarget(cmd: SimpleCommand, commands: readonly SimpleCommand[]): DatabaseTarget | undefined {
  for (let at: SimpleCommand | undefined = cmd; at;) {
    const url = at.assignments['DATABASE_URL'];
    if (url !== undefined) return urlTarget(url);
    at = at.via[at.via.length - 1] === 'wrapper' && at.parent !== undefined ? commands[at.parent] : undefined;
  }
  return undefined;
}

/** An MCP database tool's connection, when its input names one (`database_url`, `connection_string`, `url`). */
export function toolInputTarget(input: Record<string, unknown>): DatabaseTarget | undefined {
  for (const key of ['database_url', 'databaseUrl', 'connection_string', 'connectionString', 'url', 'dsn']) {
    const value = input[key];
    if (typeof value === 'string') return urlTarget(value);
  }
  return undefined;
}
