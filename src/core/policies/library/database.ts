import { z } from 'zod';
import { alwaysTrueWhere } from '../../facts/sql-where';
import type { SimpleCommand } from '../../shell';
import { definePolicy } from '../types';
import { redisToolCommand } from './shared/mcp';
import type { ToolCall } from '../types';
import { artisanArguments, djangoManageArguments } from '../../facts/programs';
import { argsOf, evidenceOf, optionValues, parseFlags, shellCommands } from '../../facts/commands';
import { writtenTexts } from '../../facts/compute';
import { yamlValues } from '../../facts/run-later-formats';
import {
  clientSql,
  mongoShellScripts,
  onLocalCopy,
  sqlClientOf,
  statementFiles,
  subcommandDatabase,
  type SqlClient,
} from '../../facts/database-clients';
import { resolvePath } from '../../shell/paths';
import {
  clientTarget,
  databaseUrlTarget,
  isThrowawayLocal,
  isLocalServer,
  isThrowawayName,
  toolInputTarget,
  urlTarget,
  type DatabaseTarget,
} from '../../facts/database-targets';

// SQL reaches a database through client flags (psql -c, mysql -e), positional
// arguments (sqlite3 db "SQL"), heredocs and pipes, or an MCP tool's query parameter.

const ECHOERS = new Set(['echo', 'printf', 'cat']);
// dbt runs its project's hooks as SQL in the warehouse, before and after every run and model.
const DBT_PROJECT = /(^|\/)dbt_project\.ya?ml$/;
const DBT_HOOKS = new Set(['on-run-start', 'on-run-end', 'pre-hook', 'post-hook', '+pre-hook', '+post-hook']);

/** SQL a call sends, with where it goes when the call says (a client's host and database, an MCP tool's URL). */
interface SqlSource {
  text: string;
  target?: DatabaseTarget;
}

// Artisan's commands that drop every table or wipe the database.
const ARTISAN_WIPE = /^(migrate:(fresh|reset|refresh)|db:wipe)$/;

/** SQL texts a call sends to a database. */
export function sqlTexts(
  call: ToolCall | undefined,
  opts: { inContainers?: boolean; writtenFiles?: boolean } = {},
): string[] {
  return sqlSources(call, opts).map((source) => source.text);
}

function sqlSources(
  call: ToolCall | undefined,
  opts: { inContainers?: boolean; writtenFiles?: boolean } = {},
): SqlSource[] {
  if (!call) return [];
  const sources: SqlSource[] = [];
  // A migration or init script written now runs on the server later: only what reaches past the
  // database is looked for there (a migration that drops a table is ordinary work).
  if (opts.writtenFiles)
    sources.push(
      ...writtenTexts(call).flatMap(({ file, content }) =>
        /\.sql$/i.test(file)
          ? [{ text: content }]
          : DBT_PROJECT.test(file)
            ? yamlValues(content, DBT_HOOKS).map((text) => ({ text }))
            : [],
      ),
    );
  if (call.toolName.startsWith('mcp__')) {
    const target = toolInputTarget(call.input);
    for (const key of ['sql', 'query', 'statement', 'command']) {
      const value = call.input[key];
      if (typeof value === 'string') sources.push({ text: value, ...(target ? { target } : {}) });
    }
  }
  const commands = shellCommands(call);
  for (const cmd of commands) {
    // A client inside the project's own container reaches its own database: only what reaches past
    // the database (a program, a file, native code) is looked for there.
    const inContainer = opts.inContainers ? clientInContainer(cmd) : undefined;
    if (inContainer) {
      sources.push(...clientSql(inContainer.client, inContainer.args).map((text) => ({ text })));
      continue;
    }
    const client = sqlClientOf(cmd.name);
    // A local copy (wrangler's D1 without --remote) is the developer's own scratch data.
    if (!client || onLocalCopy(client, argsOf(cmd))) continue;
    const named = subcommandDatabase(client, argsOf(cmd));
    const target = named !== undefined ? { local: false, database: named } : clientTarget(cmd);
    const texts = [
      ...clientSql(client, argsOf(cmd)),
      ...cmd.redirects.filter((r) => r.op === '<<' || r.op === '<<-' || r.op === '<<<').map((r) => r.target),
      // `cat > purge.sql <<EOF … EOF; psql -f purge.sql`, `psql < purge.sql`: a file this call wrote.
      ...writtenFilesRun(call, cmd),
      ...upstreamText(commands, cmd),
    ];
    sources.push(...texts.map((text) => ({ text, ...(target ? { target } : {}) })));
  }
  return sources;
}

const CONTAINER_EXECUTORS = new Set(['docker', 'podman', 'nerdctl', 'kubectl', 'oc']);

/** `docker compose exec -T db psql -c …`, `kubectl exec pod -- psql -c …`: a client run inside a container. */
function clientInContainer(cmd: SimpleCommand): { client: SqlClient; args: string[] } | undefined {
  if (!CONTAINER_EXECUTORS.has(cmd.name)) return undefined;
  const args = argsOf(cmd);
  if (!args.includes('exec')) return undefined;
  const at = args.findIndex((word, index) => index > args.indexOf('exec') && sqlClientOf(word) !== undefined);
  const client = at < 0 ? undefined : sqlClientOf(args[at]!);
  return client ? { client, args: args.slice(at + 1) } : undefined;
}

/** What a client runs from files this call writes (`echo FLUSHALL > r.txt && redis-cli < r.txt`). */
function writtenFilesRun(call: ToolCall, cmd: SimpleCommand): string[] {
  const files = statementFiles(cmd);
  if (files.length === 0) return [];
  const written = new Map(writtenTexts(call).map(({ file, content }) => [file, content]));
  return files.flatMap((file) => written.get(resolvePath(file, call.cwd, call.home)) ?? []);
}

function upstreamText(commands: readonly SimpleCommand[], cmd: SimpleCommand): string[] {
  return commands
    .filter((c) => ECHOERS.has(c.name) && c.pipeline.id === cmd.pipeline.id && c.pipeline.index < cmd.pipeline.index)
    .flatMap((c) => [
      ...argsOf(c).filter((a) => !/^-[neE]+$/.test(a)),
      ...c.redirects.filter((r) => r.op.startsWith('<<')).map((r) => r.target),
    ]);
}

/** Each closed `/* … *\/` as one space. An unclosed one stays: no later one can close either. */
function blankBlockComments(text: string): string {
  let out = '';
  let from = 0;
  for (let open = text.indexOf('/*'); open >= 0; open = text.indexOf('/*', from)) {
    const close = text.indexOf('*/', open + 2);
    if (close < 0) break;
    out += `${text.slice(from, open)} `;
    from = close + 2;
  }
  return out + text.slice(from);
}

/** Where a `"…"` (backslash escapes) that starts at `open` ends, or where the attempt failed. */
function doubleQuotedEnd(text: string, open: number): { closed: boolean; at: number } {
  let at = open + 1;
  while (at < text.length) {
    const ch = text[at];
    if (ch === '"') return { closed: true, at };
    if (ch !== '\\') at++;
    else if (at + 1 < text.length && !'\n\r\u2028\u2029'.includes(text[at + 1] as string)) at += 2;
    else return { closed: false, at };
  }
  return { closed: false, at };
}

/**
 * Each `"…"` as `""`. When one never closes, every quote it passed was escaped and would fail at the same
 * place, so the scan resumes there rather than at each of them.
 */
function blankDoubleQuoted(text: string): string {
  let out = '';
  let from = 0;
  let open = text.indexOf('"');
  while (open >= 0) {
    const end = doubleQuotedEnd(text, open);
    if (end.closed) {
      out += `${text.slice(from, open)}""`;
      from = end.at + 1;
      open = text.indexOf('"', from);
    } else {
      open = text.indexOf('"', Math.max(end.at, open + 1));
    }
  }
  return out + text.slice(from);
}

/** Statements with comments and string literals blanked out, so `'DROP TABLE'` in data is not a statement. */
export function sqlStatements(text: string): string[] {
  return [...plainStatements(text), ...immediateStatements(text).flatMap(plainStatements)];
}

/**
 * What `EXECUTE IMMEDIATE` runs when it is spelled out in literals: one string, strings joined with
 * `||` (`'GR' || 'ANT ROLE …'`), or a `$$ … $$` block (Snowflake's scripting).
 */
function immediateStatements(text: string): string[] {
  const out: string[] = [];
  const keyword = /\bEXECUTE\s+IMMEDIATE\s+/gi;
  for (let match = keyword.exec(text); match; match = keyword.exec(text)) {
    let at = keyword.lastIndex;
    if (text.startsWith('$$', at)) {
      const end = text.indexOf('$$', at + 2);
      if (end > 0) out.push(text.slice(at + 2, end));
      continue;
    }
    let joined = '';
    while (text[at] === "'") {
      const literal = /^'((?:[^']|'')*)'/.exec(text.slice(at, at + 4096));
      if (!literal) break;
      joined += (literal[1] ?? '').replace(/''/g, "'");
      at += literal[0].length;
      const joiner = /^\s*\|\|\s*/.exec(text.slice(at, at + 64));
      if (!joiner) break;
      at += joiner[0].length;
    }
    if (joined !== '') out.push(joined);
  }
  return out;
}

function plainStatements(text: string): string[] {
  const withoutLineComments = text.replace(/--[^\n]*/g, ' ');
  const withoutSingleQuoted = blankBlockComments(withoutLineComments).replace(/'(?:[^']|'')*'/g, "''");
  const cleaned = blankDoubleQuoted(withoutSingleQuoted).replace(/\$\$[\s\S]*?\$\$/g, "''");
  return cleaned
    .split(';')
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter((s) => s !== '');
}

type SqlFinding = { statement: string; what: string };

export function findStatement(
  call: ToolCall | undefined,
  test: (statement: string, target: DatabaseTarget | undefined) => string | null,
  opts: { inContainers?: boolean; writtenFiles?: boolean } = {},
): SqlFinding | null {
  for (const { text, target } of sqlSources(call, opts)) {
    for (const statement of sqlStatements(text)) {
      const what = test(statement, target);
      if (what) return { statement, what };
    }
  }
  return null;
}

/** A table whose own name says it holds scratch rows (`tmp_import_rows`, `orders_temp`, `scratch_1`). */
const SCRATCH_TABLE = /(^|[_-])(tmp|temp|scratch)([_-]|\d*$)/i;

/**
 * `DROP [TEMPORARY] TABLE [IF EXISTS] a, b` where every table is a temporary one or named as scratch:
 * an import or a report made it to throw away, wherever the server is.
 */
function dropsOnlyScratchTables(statement: string): boolean {
  const words = statement.trim().replace(/;$/, '').split(/\s+/);
  const upper = (at: number) => words[at]?.toUpperCase();
  if (upper(0) !== 'DROP') return false;
  let at = 1;
  if (upper(at) === 'TEMP' || upper(at) === 'TEMPORARY') return upper(at + 1) === 'TABLE';
  if (upper(at++) !== 'TABLE') return false;
  if (upper(at) === 'IF' && upper(at + 1) === 'EXISTS') at += 2;
  const rest = words.slice(at);
  if (['CASCADE', 'RESTRICT'].includes(rest[rest.length - 1]?.toUpperCase() ?? '')) rest.pop();
  const tables = rest
    .join(' ')
    .split(',')
    .map((name) =>
      name
        .trim()
        .replace(/^.*\./, '')
        .replace(/^["`[]|["`\]]$/g, ''),
    );
  return tables.length > 0 && tables.every((name) => /^\w+$/.test(name) && SCRATCH_TABLE.test(name));
}

/**
 * A DROP or TRUNCATE that wipes only a throwaway database on this machine: `DROP DATABASE app_test`
 * on a local server, or any table of a local database whose name says it is for tests or scratch.
 */
function wipesOnlyThrowaway(statement: string, target: DatabaseTarget | undefined): boolean {
  if (dropsOnlyScratchTables(statement)) return true;
  if (!target?.local) return false;
  const dropped = /^DROP\s+DATABASE\s+(?:IF\s+EXISTS\s+)?(\S+)/i.exec(statement)?.[1];
  return dropped !== undefined ? isThrowawayName(dropped) : isThrowawayLocal(target);
}

export const sqlDropOrTruncate = definePolicy({
  name: 'sql-drop-or-truncate',
  category: 'database',
  description:
    "Refuses DROP TABLE / DATABASE / SCHEMA (and CQL's KEYSPACE) and TRUNCATE sent to a database client or an MCP query tool.",
  defaultEnabled: true,
  decision: 'deny',
  params: z.object({}),
  evaluate({ call }) {
    const found = findStatement(call, (s, target) => {
      const m = /^(DROP\s+(TABLE|DATABASE|SCHEMA|KEYSPACE)|TRUNCATE)\b/i.exec(s);
      if (!m || wipesOnlyThrowaway(s, target)) return null;
      return (m[1] ?? '').toUpperCase().replace(/\s+/, ' ');
    });
    if (!found) return null;
    return {
      reason: `${found.what} deletes a whole table or database and its data; write a migration the person reviews, or back up first and ask.`,
      evidence: evidenceOf(found.statement),
    };
  },
});

export const sqlWriteWithoutWhere = definePolicy({
  name: 'sql-write-without-where',
  category: 'database',
  description:
    'Asks before DELETE or UPDATE statements without a WHERE clause, or with one that holds for every row (OR 1=1).',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    const found = findStatement(call, (s) => {
      if (/^DELETE\s+FROM\b/i.test(s) && !/\bWHERE\b/i.test(s)) return 'DELETE without WHERE';
      if (/^UPDATE\s+\S+\s+SET\b/i.test(s) && !/\bWHERE\b/i.test(s)) return 'UPDATE without WHERE';
      const always = /^(DELETE|UPDATE)\b/i.test(s) ? alwaysTrueWhere(s) : undefined;
      if (always !== undefined) return `${s.slice(0, 6).toUpperCase()} whose WHERE holds for every row (${always})`;
      return null;
    });
    if (!found) return null;
    return {
      reason: `${found.what} changes every row of the table; add a WHERE clause that selects the rows you mean, or ask.`,
      evidence: evidenceOf(found.statement),
    };
  },
});

export const sqlSchemaChange = definePolicy({
  name: 'sql-schema-change',
  category: 'database',
  description:
    'Asks before schema changes that lose data: ALTER TABLE … DROP, DROP COLUMN/INDEX/VIEW/FUNCTION, RENAME, an expiration set on a table.',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    const found = findStatement(call, (s) => {
      if (/^ALTER\s+TABLE\b.*\bDROP\b/i.test(s)) return 'ALTER TABLE … DROP';
      if (/^ALTER\s+TABLE\b.*\bRENAME\b/i.test(s)) return 'ALTER TABLE … RENAME';
      // BigQuery's table options under which rows or the table itself delete themselves.
      if (
        /^ALTER\s+(TABLE|SCHEMA)\b.*\b(expiration_timestamp|partition_expiration_days|default_table_expiration_days|default_partition_expiration_days)\s*=/i.test(
          s,
        )
      )
        return 'ALTER … SET OPTIONS (an expiration: data deletes itself)';
      const m =
        /^DROP\s+(INDEX|VIEW|MATERIALIZED VIEW|FUNCTION|PROCEDURE|TRIGGER|SEQUENCE|TYPE|COLUMN|USER|ROLE)\b/i.exec(s);
      return m ? `DROP ${(m[1] ?? '').toUpperCase()}` : null;
    });
    if (!found) return null;
    return {
      reason: `${found.what} changes the schema in place; put it in a reviewed migration with a way back, or ask.`,
      evidence: evidenceOf(found.statement),
    };
  },
});

/**
 * pg_restore into this machine's server (see facts/database-targets). With neither a host nor a
 * database named it restores nothing: it writes the dump's SQL to its output.
 */
function restoresLocally(cmd: SimpleCommand): boolean {
  const namesWhere = optionValues(argsOf(cmd), ['h', 'd'], ['host', 'dbname']).length > 0;
  return namesWhere && clientTarget(cmd)?.local === true;
}

/** A JDBC URL's connection (`jdbc:postgresql://host:5432/db`), as the same URL without `jdbc:` reads. */
function jdbcTarget(args: readonly string[], option: RegExp): DatabaseTarget | undefined {
  for (const arg of args) {
    const value = option.exec(arg)?.[1];
    if (value !== undefined) return urlTarget(value.replace(/^jdbc:/i, ''));
  }
  return undefined;
}

const FLYWAY_URL = /^-(?:[DP]?flyway\.)?url=(.*)$/;
const LIQUIBASE_URL = /^--?(?:D?liquibase\.)?url=(.*)$/;

/**
 * Schema tools' wipes: Flyway's clean, Liquibase's drop-all (through their own CLIs or Maven's and
 * Gradle's plugins), Entity Framework's `database drop`, Ecto's drop and reset. A throwaway database on
 * this machine, or Ecto's test environment, passes.
 */
function migrationToolReset(cmd: SimpleCommand, commands: readonly SimpleCommand[]): string | null {
  const args = argsOf(cmd);
  const program = cmd.name.slice(cmd.name.lastIndexOf('/') + 1);
  const local = (target: DatabaseTarget | undefined) => isThrowawayLocal(target ?? databaseUrlTarget(cmd, commands));
  switch (program) {
    case 'flyway':
      return args.includes('clean') && !local(jdbcTarget(args, FLYWAY_URL)) ? 'flyway clean' : null;
    case 'liquibase':
      return args.some((a) => a === 'drop-all' || a === 'dropAll') && !local(jdbcTarget(args, LIQUIBASE_URL))
        ? 'liquibase drop-all'
        : null;
    case 'mvn':
    case 'mvnw':
    case 'gradle':
    case 'gradlew': {
      // A Gradle task may carry its project's path (`:backend:flywayClean`).
      const goal = args.find((a) => /^(?::?[\w-]+:)*(flyway:clean|flywayClean|liquibase:dropAll|dropAll)$/.test(a));
      return goal && !local(jdbcTarget(args, FLYWAY_URL) ?? jdbcTarget(args, LIQUIBASE_URL))
        ? `${program} ${goal}`
        : null;
    }
    case 'dotnet':
      return args[0] === 'ef' && args[1] === 'database' && args[2] === 'drop' ? 'dotnet ef database drop' : null;
    case 'mix': {
      const task = args.find((a) => a === 'ecto.drop' || a === 'ecto.reset');
      const testEnvironment = cmd.assignments['MIX_ENV'] === 'test';
      return task && !testEnvironment && !local(undefined) ? `mix ${task}` : null;
    }
    default:
      return null;
  }
}

/** Rails and Rake tasks that wipe a database's data (`db:seed:replant` truncates every table first). */
function railsDatabaseWipe(program: string, args: readonly string[]): string | null {
  const task = args.find((a) => /^db:(drop|reset|schema:load|purge|truncate_all|seed:replant)/.test(a));
  return task === undefined ? null : `${program} ${task}`;
}

/**
 * `manage.py createsuperuser --settings=…prod…` (or DJANGO_SETTINGS_MODULE naming production): an admin
 * account made in the production database, often with a password given on the command line.
 */
function djangoProductionSuperuser(call: ToolCall | undefined): SimpleCommand | undefined {
  if (!call?.shell) return undefined;
  return shellCommands(call).find((cmd) => {
    const manage = djangoManageArguments(cmd.name, argsOf(cmd));
    if (manage?.[0] !== 'createsuperuser') return false;
    const settings = [...optionValues(manage, [], ['settings']), cmd.assignments['DJANGO_SETTINGS_MODULE'] ?? ''];
    return settings.some((module) => /(^|[._])prod(uction)?($|[._])/i.test(module));
  });
}

/**
 * Django's management commands that wipe data: `flush` (and django-extensions' `reset_db`) empty the
 * database; `migrate APP zero` unapplies every migration of the app, dropping its tables.
 */
function djangoWipe(cmd: SimpleCommand): string | null {
  const manage = djangoManageArguments(cmd.name, argsOf(cmd));
  if (manage === null) return null;
  const words = manage.filter((word) => !word.startsWith('-'));
  if (words[0] === 'flush' || words[0] === 'reset_db') return `manage.py ${words[0]}`;
  return words[0] === 'migrate' && words[2] === 'zero' ? `manage.py migrate ${words[1]} zero` : null;
}

/** FLUSHALL or FLUSHDB given to a Redis client as a word or on its input (`printf 'FLUSHALL\\n' | redis-cli`). */
function redisFlush(cmd: SimpleCommand, commands: readonly SimpleCommand[], client: string): string | null {
  const told = [...argsOf(cmd), ...upstreamText(commands, cmd).flatMap((text) => text.split(/\s+|\\n/))];
  const flush = told.find((word) => /^flush(all|db)$/i.test(word));
  return flush === undefined ? null : `${client} ${flush}`;
}

/** A MongoDB shell script that drops a database or collection, or deletes every document of one. */
const MONGO_WIPE = /dropDatabase\(|\.drop\(\)|(deleteMany|remove)\(\s*\{\s*\}\s*\)/;

function resetCommand(cmd: SimpleCommand, commands: readonly SimpleCommand[]): string | null {
  const schemaToolWipe = migrationToolReset(cmd, commands) ?? djangoWipe(cmd);
  if (schemaToolWipe) return schemaToolWipe;
  const args = argsOf(cmd);
  const line = args.join(' ');
  switch (cmd.name) {
    case 'dropdb':
      return isThrowawayLocal(clientTarget(cmd)) ? null : 'dropdb';
    // --clean drops every object of the dump from the target before restoring it.
    case 'pg_restore':
      return args.some((a) => a === '--clean' || (/^-[a-zA-Z]+$/.test(a) && a.includes('c'))) && !restoresLocally(cmd)
        ? 'pg_restore --clean'
        : null;
    case 'rabbitmqadmin':
      return args.some((a) => a === 'purge') || (args.includes('delete') && args.includes('queue'))
        ? `rabbitmqadmin ${args.includes('purge') ? 'purge' : 'delete'} queue`
        : null;
    // Celery's purge empties the broker's queues: every task waiting in them (a charge, an email) is dropped.
    case 'celery':
      return args.includes('purge') ? 'celery purge' : null;
    case 'redis-cli':
      return redisFlush(cmd, commands, 'redis-cli');
    // `heroku redis:cli` opens redis-cli on the app's deployed Redis.
    case 'heroku':
      return args[0] === 'redis:cli' ? redisFlush(cmd, commands, 'heroku redis:cli') : null;
    case 'mongo':
    case 'mongosh':
      return [line, ...mongoShellScripts(commands, cmd)].some((script) => MONGO_WIPE.test(script)) &&
        !isThrowawayLocal(clientTarget(cmd))
        ? `${cmd.name} drop`
        : null;
    case 'rails':
    case 'rake':
    case 'bin/rails':
      return railsDatabaseWipe(cmd.name, args);
    case 'prisma':
      if (isThrowawayLocal(databaseUrlTarget(cmd, commands))) return null;
      return (args[0] === 'migrate' && args[1] === 'reset') ||
        (args[0] === 'db' && args[1] === 'push' && args.some((a) => /--force-reset|--accept-data-loss/.test(a)))
        ? `prisma ${args.slice(0, 2).join(' ')}`
        : null;
    case 'npx':
    case 'pnpm':
    case 'bunx':
    case 'yarn':
      if (isThrowawayLocal(databaseUrlTarget(cmd, commands))) return null;
      return args.includes('prisma') &&
        ((args.includes('migrate') && args.includes('reset')) ||
          args.some((a) => /--force-reset|--accept-data-loss/.test(a)))
        ? 'prisma reset'
        : null;
    case 'sqlx':
    case 'cargo':
      return sqlxWipe(cmd, commands);
    case 'php': {
      const task = artisanArguments(cmd.name, args)?.[0] ?? '';
      return ARTISAN_WIPE.test(task) ? `artisan ${task}` : null;
    }
    // `vapor command production --command="migrate:fresh --force"` runs artisan in that environment.
    case 'vapor': {
      const command = args[0] === 'command' ? optionValues(args, [], ['command'])[0] : undefined;
      return command !== undefined && ARTISAN_WIPE.test(command.split(/\s+/)[0] ?? '')
        ? `artisan ${command.split(/\s+/)[0]} through vapor command`
        : null;
    }

    // A dbt macro is SQL the project wrote; one named for dropping or truncating does that, on the target's warehouse.
    case 'dbt':
      return args[0] === 'run-operation' && /^(drop|truncate|purge|delete|clean|wipe)(_|$)/i.test(args[1] ?? '')
        ? `dbt run-operation ${args[1]}`
        : null;
    case 'sequelize':
    case 'knex':
      return args.some((a) => /^(db:drop|migrate:rollback|migrate:undo:all)$/.test(a)) &&
        (cmd.name === 'sequelize' || args.includes('--all'))
        ? `${cmd.name} ${args[0]}`
        : null;
    default:
      return null;
  }
}

/**
 * sqlx-cli (`sqlx …`, `cargo sqlx …`): `database reset` and `database drop` drop the database; `migrate revert`
 * runs down migrations, which drop what they made, on a database named by URL that is not on this machine.
 */
function sqlxWipe(cmd: SimpleCommand, commands: readonly SimpleCommand[]): string | null {
  const words = argsOf(cmd).filter((a) => !a.startsWith('-'));
  const [group, action] = cmd.name === 'cargo' ? (words[0] === 'sqlx' ? words.slice(1) : []) : words;
  const flagged = optionValues(argsOf(cmd), ['D'], ['database-url'])[0];
  const target = flagged !== undefined ? urlTarget(flagged) : databaseUrlTarget(cmd, commands);
  // A database on this machine is the developer's own copy; a dry run changes nothing.
  if (target?.local || argsOf(cmd).includes('--dry-run')) return null;
  if (group === 'database' && (action === 'reset' || action === 'drop')) return `sqlx database ${action}`;
  if (group === 'migrate' && action === 'revert' && target !== undefined && !target.local) return 'sqlx migrate revert';
  return null;
}

/** `echo FLUSHALL > r.txt && redis-cli < r.txt`, a mongosh script written first: the reset is in that file. */
function fedReset(call: ToolCall, cmd: SimpleCommand): string | null {
  if (!['redis-cli', 'mongosh', 'mongo'].includes(cmd.name)) return null;
  const text = writtenFilesRun(call, cmd).join('\n');
  if (cmd.name === 'redis-cli' && /^[ \t]*flush(all|db)\b/im.test(text))
    return 'redis-cli FLUSHALL (from a file written now)';
  if (cmd.name !== 'redis-cli' && MONGO_WIPE.test(text)) return `${cmd.name} drop (from a script written now)`;
  return null;
}

/** FLUSHALL or FLUSHDB handed to a Redis server's MCP tool, as redis-cli would send it. */
function redisToolFlush(call: ToolCall | undefined): string | undefined {
  const told = call ? redisToolCommand(call) : undefined;
  const verb = told ? /^(FLUSHALL|FLUSHDB)\b/i.exec(told.statement)?.[1] : undefined;
  return told && verb ? `${told.server}'s ${verb.toUpperCase()}` : undefined;
}

export const databaseCliReset = definePolicy({
  name: 'database-cli-reset',
  category: 'database',
  description:
    'Asks before CLI commands that wipe a database: dropdb, pg_restore --clean, RabbitMQ purge, redis FLUSHALL, rails db:drop, prisma migrate reset, artisan migrate:fresh, manage.py flush or migrate APP zero, flyway clean, a dbt drop macro.',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    const flush = redisToolFlush(call);
    if (flush)
      return {
        reason: `${flush} wipes the database's data; make sure it is a disposable local database, or ask.`,
        evidence: evidenceOf(flush),
      };
    const commands = shellCommands(call);
    for (const cmd of commands) {
      const what = resetCommand(cmd, commands) ?? (call ? fedReset(call, cmd) : null);
      if (what)
        return {
          reason: `${what} wipes the database's data; make sure it is a disposable local database, or ask.`,
          evidence: evidenceOf(cmd.text),
        };
    }
    return null;
  },
});

// Statements that reach past the database into the server's machine: a program run by the server's
// account, a file written where the server can write (a web root, ~/.ssh), a file read back, or an
// account that can do all of that later.
const SERVER_PROGRAM = /\b(TO|FROM)\s+PROGRAM\b|\bxp_cmdshell\b|\bsys_exec\b|\bsys_eval\b|\bload_extension\s*\(/i;
// Native code or an untrusted language in the server: `LOAD 'x.so'`, a function in plpython3u or C.
const SERVER_CODE =
  /^LOAD\s+''|\bLANGUAGE\s+'?(plpython\d*u|plperlu|pltclu|plsh|plr|c)\b|^CREATE\s+EXTENSION\b.*\b(plpython\d*u|plperlu|pltclu|plsh)\b/i;
// MySQL's query logs moved to a path the caller chose: the server then writes each statement there (a .php
// file in a web root, with a statement that is PHP).
const SERVER_FILE =
  /\bINTO\s+(OUT|DUMP)FILE\b|\blo_export\s*\(|\bpg_write_file\s*\(|\bLOAD_FILE\s*\(|\bpg_read_file\s*\(|\bSET\s+(?:GLOBAL\s+|@@GLOBAL\.)(?:general_log_file|slow_query_log_file)\b/i;
// Supabase hands its anon role to every visitor of the app; every right on every table is everyone's.
const ANONYMOUS_GRANT = {
  test: (s: string) => /^GRANT\s+ALL\b/i.test(s) && /\bON\s+ALL\s+TABLES\b/i.test(s) && /\bTO\s+anon\b/i.test(s),
};
const PUBLIC_BUCKET = /^UPDATE\s+storage\.buckets\s+SET\b.*\bpublic\s*=\s*true\b/i;
const SUPERUSER_GRANT =
  /^(CREATE|ALTER)\s+(ROLE|USER)\b.*\bSUPERUSER\b|^GRANT\s+ALL\b.*\bWITH\s+GRANT\s+OPTION\b|^GRANT\b.*\bTO\s+(ROLE\s+)?PUBLIC\b/i;
// An application's account made its administrator in the database itself (Django's is_superuser, an
// is_admin flag): whoever holds that login runs the app's admin, past every review of who may. (Literals
// are blanked in a statement, so a role named in a string is not told apart here.)
const APP_ADMIN_SET = /\b(is_superuser|is_staff|is_admin|superuser|admin)\s*=\s*(true|1)\b/i;
const ACCOUNT_TABLE = /(user|account|member|admin|staff|profile)/i;

const APP_ADMIN_COLUMN = /^"?(is_superuser|is_staff|is_admin|superuser|admin)"?$/i;
const INSERT_ROW = /^INSERT\s+INTO\s+([^\s(]+)\s*\(([^)]*)\)\s*VALUES\s*\(/i;

/** The values of the first row an INSERT gives, split at its top-level commas (literals are blanked already). */
function firstRowValues(statement: string, from: number): string[] {
  const values: string[] = [];
  let depth = 0;
  let start = from;
  for (let i = from; i < statement.length; i++) {
    const c = statement[i];
    if (c === '(') depth++;
    else if (c === ')' && depth-- === 0) return [...values, statement.slice(start, i).trim()];
    else if (c === ',' && depth === 0) {
      values.push(statement.slice(start, i).trim());
      start = i + 1;
    }
  }
  return values;
}

/** `INSERT INTO accounts_user (email, is_superuser, …) VALUES (…, true, …)`: an account made its app's admin. */
function insertsAppAdmin(statement: string): boolean {
  const insert = INSERT_ROW.exec(statement);
  if (insert === null || !ACCOUNT_TABLE.test(insert[1] ?? '')) return false;
  const columns = (insert[2] ?? '').split(',').map((column) => column.trim());
  const values = firstRowValues(statement, insert[0].length);
  return columns.some((column, i) => APP_ADMIN_COLUMN.test(column) && /^(true|1)$/i.test(values[i] ?? ''));
}

function makesAppAdmin(statement: string): boolean {
  const update = /^UPDATE\s+(\S+)\s+SET\s/i.exec(statement);
  if (update === null) return insertsAppAdmin(statement);
  return ACCOUNT_TABLE.test(update[1] ?? '') && APP_ADMIN_SET.test(statement.slice(update[0].length));
}
// A warehouse's administrator roles (Snowflake's), which can read every table and grant anything.
const ADMIN_ROLE_GRANT = /^GRANT\s+ROLE\s+(ACCOUNTADMIN|SECURITYADMIN|SYSADMIN|ORGADMIN|USERADMIN)\s+TO\b/i;
// SQL that decodes the statements it runs (`DO $$ … EXECUTE convert_from(decode('…', 'base64'), …)`).
const DECODER_CALL = /\b(decode|convert_from|from_base64|unhex|chr|(try_)?base64_decode_(string|binary))\s*\(/i;

function executesDecoded(text: string): boolean {
  const upper = text.toUpperCase();
  for (let at = upper.indexOf('EXECUTE'); at >= 0; at = upper.indexOf('EXECUTE', at + 7)) {
    const rest = text.slice(at + 7, at + 207);
    const end = rest.indexOf(';');
    if (DECODER_CALL.test(end < 0 ? rest : rest.slice(0, end))) return true;
  }
  return false;
}

// MongoDB's shell: a user given a role over the whole server.
const MONGO_USER_CALL = /\b(createUser|grantRolesToUser|updateUser)\s*\(/;
const MONGO_SERVER_ROLE = /["'](root|__system|userAdminAnyDatabase|dbAdminAnyDatabase|clusterAdmin)["']/;

function mongoRootUser(call: ToolCall | undefined): SqlFinding | null {
  // A MongoDB server's MCP tool handed the command document itself.
  const asked = call?.toolName.startsWith('mcp__') ? JSON.stringify(call.input) : '';
  if (/"(createUser|grantRolesToUser|updateUser)"/.test(asked) && MONGO_SERVER_ROLE.test(asked.replace(/\\"/g, '"')))
    return { statement: asked, what: 'a MongoDB user with a server-wide role' };
  const commands = shellCommands(call);
  for (const cmd of commands) {
    const script = mongoShellScripts(commands, cmd).find(
      (text) => MONGO_USER_CALL.test(text) && MONGO_SERVER_ROLE.test(text),
    );
    if (script) return { statement: script, what: 'a MongoDB user with a server-wide role' };
  }
  return null;
}

/**
 * Access to a shared database's accounts: a Redis user for everything or its password read
 * (`ACL SETUSER u on >pw allcommands allkeys`, `CONFIG GET requirepass`), MongoDB's user table read,
 * an account's password changed on a server that is not this machine's.
 */
// Roles whose holder administers the database or reads and writes all of it: the cloud providers'
// administrator roles, Postgres's all-data roles, and the organisation's own `*_admin`, `*_owner`.
const POWERFUL_BUILT_IN_ROLE = /^(pg_(write|read)_all_data|pg_execute_server_program|cloudsqlsuperuser)$/i;
const POWERFUL_ROLE_WORD = /admin|owner|root|dba|superuser/i;
const isPowerfulRole = (role: string) =>
  POWERFUL_BUILT_IN_ROLE.test(role) || (/^\w+$/.test(role) && POWERFUL_ROLE_WORD.test(role));
const CREATED_LOGIN = /^CREATE\s+(USER|ROLE)\s+("?)(\w+)\2(.*)$/is;

/** `GRANT a, b TO c`: the roles granted and who to (a grant of rights ON something names no role). */
function roleGrant(statement: string): { roles: string[]; to: string } | undefined {
  const words = statement.trim().replace(/;$/, '').split(/\s+/);
  const to = words.findIndex((word) => word.toUpperCase() === 'TO');
  if (words[0]?.toUpperCase() !== 'GRANT' || to < 2) return undefined;
  const granted = words.slice(1, to);
  if (granted.some((word) => word.toUpperCase() === 'ON')) return undefined;
  const roles = granted
    .join(' ')
    .split(',')
    .map((role) => role.trim().replace(/"/g, ''));
  return { roles, to: (words[to + 1] ?? '').replace(/"/g, '').toLowerCase() };
}

/**
 * A login made in the same call that is then given an administrator's role (`CREATE ROLE support
 * LOGIN PASSWORD '…'; GRANT fleet_admin TO support`): a new standing way in, with a password now in
 * the transcript. A login made and given one table's rights is ordinary set-up.
 */
function newLoginMadeAdmin(call: ToolCall | undefined): { what: string; text: string } | null {
  // A migration that does it does it on the next deploy, whoever runs that.
  for (const { text } of sqlSources(call, { writtenFiles: true })) {
    const statements = sqlStatements(text);
    const logins = new Set(
      statements.flatMap((statement) => {
        const made = CREATED_LOGIN.exec(statement.trim());
        if (!made) return [];
        const login = made[1]!.toUpperCase() === 'USER' || /\b(LOGIN|PASSWORD)\b/i.test(made[4] ?? '');
        return login ? [made[3]!.toLowerCase()] : [];
      }),
    );
    if (logins.size === 0) continue;
    for (const statement of statements) {
      const grant = roleGrant(statement);
      if (!grant || !logins.has(grant.to)) continue;
      const powerful = grant.roles.find(isPowerfulRole);
      if (powerful) return { what: `Makes the login ${grant.to} and gives it ${powerful}`, text: statement };
    }
  }
  return null;
}

function accountAccess(call: ToolCall | undefined): { what: string; text: string } | null {
  const admin = newLoginMadeAdmin(call);
  if (admin) return admin;
  const commands = shellCommands(call);
  for (const cmd of commands) {
    if ([cmd.text, ...mongoShellScripts(commands, cmd)].some((text) => /\bsystem\.users\b/.test(text)))
      return { what: "Reads MongoDB's user table (its password hashes)", text: cmd.text };
    const host =
      cmd.name === 'psql' || cmd.name === 'mysql' ? optionValues(argsOf(cmd), ['h'], ['host'])[0] : undefined;
    if (host !== undefined && !isLocalServer(host)) {
      const changed = clientSql(sqlClientOf(cmd.name)!, argsOf(cmd))
        .flatMap(sqlStatements)
        .find((statement) => /^ALTER\s+(USER|ROLE)\b.*\bPASSWORD\b/i.test(statement));
      if (changed) return { what: `Changes an account's password on ${host}`, text: cmd.text };
    }
    if (cmd.name !== 'redis-cli') continue;
    const words = parseFlags(argsOf(cmd), ['h', 'p', 'a', 's', 'u', 'n', 'r', 'i', 'd'], ['user', 'pass']).positionals;
    const line = words.join(' ');
    if (/^ACL\s+SETUSER\b/i.test(line) && /\b(allcommands|allkeys)\b|\+@all\b|~\*/i.test(line))
      return { what: 'Makes a Redis user with every command or every key', text: cmd.text };
    if (/^CONFIG\s+GET\s+\S*(pass|auth)/i.test(line))
      return { what: "Reads Redis's own password from its configuration", text: cmd.text };
  }
  return null;
}

export const sqlServerSideEffects = definePolicy({
  name: 'sql-server-side-effects',
  category: 'database',
  description:
    'Refuses SQL that runs a program or reads or writes files on the database server (COPY … TO PROGRAM, INTO OUTFILE, LOAD_FILE, lo_export, xp_cmdshell); asks before making a superuser, a MongoDB server-wide role or an app admin.',
  defaultEnabled: true,
  decision: 'deny',
  params: z.object({}),
  evaluate({ call }) {
    const program = findStatement(call, (s) => SERVER_PROGRAM.exec(s)?.[0] ?? null, {
      inContainers: true,
      writtenFiles: true,
    });
    if (program)
      return {
        reason: `${program.what.toUpperCase()} has the database server run a program with the server's account: that is a shell on the machine, not a query. Run the command directly if it is needed.`,
        evidence: evidenceOf(program.statement),
      };
    const code = findStatement(call, (s) => SERVER_CODE.exec(s)?.[0] ?? null, {
      inContainers: true,
      writtenFiles: true,
    });
    if (code)
      return {
        reason: `${code.what.replace("''", '').trim()} runs native code or an untrusted language inside the database server, with the server's account: a way to run programs on its machine. Put it in a migration a person reviews.`,
        evidence: evidenceOf(code.statement),
      };
    const file = findStatement(call, (s) => SERVER_FILE.exec(s)?.[0] ?? null);
    if (file)
      return {
        reason: `${file.what.replace('(', '').trim()} reads or writes a file on the database server's machine with the server's account (a web root, a key, its own config). Export through the client instead (\\copy, a SELECT into the terminal).`,
        evidence: evidenceOf(file.statement),
      };
    // A migration written now runs its decoded statements at the next migrate, unreviewed as on a command line.
    const decoded = sqlTexts(call, { writtenFiles: true }).find(executesDecoded);
    if (decoded)
      return {
        reason: `Runs SQL that it decodes at run time (EXECUTE of a decoded string): nobody can review what the server will run. Write the statements out.`,
        evidence: evidenceOf(decoded),
        decision: 'ask',
      };
    const keyLogin = findStatement(call, (s) =>
      /^ALTER\s+USER\b.*\bSET\s+RSA_PUBLIC_KEY(_2)?\s*=/i.test(s) ? 'Adds a key-pair login to a warehouse user' : null,
    );
    if (keyLogin)
      return {
        reason: `${keyLogin.what}, which keeps working after its password changes: a person decides who gets the keys to a shared database.`,
        evidence: evidenceOf(keyLogin.statement),
        decision: 'ask',
      };
    const account = accountAccess(call);
    if (account)
      return {
        reason: `${account.what}: a person decides who gets the keys to a shared database.`,
        evidence: evidenceOf(account.text),
        decision: 'ask',
      };
    const grant =
      findStatement(
        call,
        (s) =>
          SUPERUSER_GRANT.test(s)
            ? /\bTO\s+(ROLE\s+)?PUBLIC\b/i.test(s)
              ? 'a grant to every role (PUBLIC)'
              : 'a superuser'
            : ADMIN_ROLE_GRANT.test(s)
              ? `a grant of the ${(ADMIN_ROLE_GRANT.exec(s)?.[1] ?? '').toUpperCase()} role`
              : ANONYMOUS_GRANT.test(s)
                ? "a grant of every right to Supabase's anon role (anyone holding the public key)"
                : PUBLIC_BUCKET.test(s)
                  ? 'a storage bucket readable by anyone'
                  : null,
        // A grant written into a migration or a dbt hook is made on the next run, whoever runs it.
        { writtenFiles: true },
      ) ?? mongoRootUser(call);
    if (grant)
      return {
        reason: `Makes ${grant.what} on the database: access far beyond what the work needs (a superuser can run programs and read files on the server). A person decides.`,
        evidence: evidenceOf(grant.statement),
        decision: 'ask',
      };
    const productionAdmin = djangoProductionSuperuser(call);
    if (productionAdmin)
      return {
        reason: `Makes a Django superuser with production settings (${evidenceOf(productionAdmin.text, 80)}): a person decides who gets the app's admin.`,
        evidence: evidenceOf(productionAdmin.text),
        decision: 'ask',
      };
    const appAdmin = findStatement(call, (s) => (makesAppAdmin(s) ? 'an administrator' : null), {
      writtenFiles: true,
    });
    if (appAdmin)
      return {
        reason: `Makes accounts an administrator of the application in its database (${evidenceOf(appAdmin.statement, 80)}): a person decides who gets the app's admin.`,
        evidence: evidenceOf(appAdmin.statement),
        decision: 'ask',
      };
    return null;
  },
});
