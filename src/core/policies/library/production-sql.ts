// Statements that change rows, schema or roles on a database named as production. Deleting last year's
// orders or promoting a user is an ordinary WHERE-clause statement; run by an agent against the live
// database it cannot be taken back, and no migration a person reviewed stands behind it. Where the
// database goes is read from what the call names: an MCP database tool's connection, database, project or
// server (or the tool's own server name, `mcp__postgres_prod__query`), or a client's database.
import { z } from 'zod';
import { definePolicy, type ToolCall } from '../types';
import { evidenceOf } from '../../facts/commands';
import type { DatabaseTarget } from '../../facts/database-targets';
import { findStatement } from './database';

/** A name that says production (`prod`, `acme-prod`, `admin@acme.org.prod`): a whole word of it, set apart by `_ - . : / @`. */
export const PRODUCTION_NAME = /(^|[_.:/\\@-])(prod|production|prd|live)([_.:/\\@-]|\d*$)/i;
/** A name that says development, testing or staging (`ledgerly-dev`, `app-staging`), set apart as PRODUCTION_NAME's are. */
export const DEVELOPMENT_NAME =
  /(^|[_.:/\\@-])(dev|develop|development|test|testing|qa|staging|stage|stg|sandbox|demo|local|emulator|preview)([_.:/\\@-]|\d*$)/i;
/** What an MCP database tool names its connection with. */
const CONNECTION_KEYS = [
  'connection',
  'connection_name',
  'connectionName',
  'database',
  'db',
  'dbname',
  'server',
  'host',
  'project_id',
  'projectId',
  'project',
  'environment',
  'env',
  'instance',
  'cluster',
  'profile',
];
/** Statements that change data, schema or access; reads and plans pass. */
const CHANGING =
  /^(?:DELETE|UPDATE|INSERT|MERGE|UPSERT|REPLACE|ALTER|DROP|TRUNCATE|GRANT|REVOKE|CREATE\s+(?:ROLE|USER)|DO\b|CALL\b|EXEC(?:UTE)?\b)/i;

/** A tool asked only to validate and estimate (BigQuery's dry run): nothing is changed. */
const DRY_RUN_KEYS = ['dry_run', 'dryRun', 'validate_only', 'validateOnly'];

function mcpNamesProduction(call: ToolCall): string | undefined {
  if (!call.toolName.startsWith('mcp__')) return undefined;
  if (DRY_RUN_KEYS.some((key) => call.input[key] === true)) return undefined;
  const server = call.toolName.split('__')[1] ?? '';
  if (PRODUCTION_NAME.test(server)) return server;
  for (const key of CONNECTION_KEYS) {
    const value = call.input[key];
    if (typeof value === 'string' && PRODUCTION_NAME.test(value)) return value;
  }
  return undefined;
}

function targetNamesProduction(target: DatabaseTarget | undefined): string | undefined {
  const database = target?.database;
  return database !== undefined && PRODUCTION_NAME.test(database) ? database : undefined;
}

export const sqlWriteToProduction = definePolicy({
  name: 'sql-write-to-production',
  category: 'database',
  description:
    'Asks before statements that change rows, schema or roles (DELETE, UPDATE, INSERT, ALTER, GRANT, a DO block) on a database the call names as production.',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    if (!call) return null;
    const named = mcpNamesProduction(call);
    const found = findStatement(call, (statement, target) => {
      const where = named ?? targetNamesProduction(target);
      if (where === undefined) return null;
      const verb = CHANGING.exec(statement.trimStart());
      return verb ? `${verb[0].toUpperCase()} on ${where}` : null;
    });
    if (!found) return null;
    return {
      reason: `${found.what} changes a production database directly, with no reviewed migration behind it and no way back; run it on a copy first, or have the person approve this exact statement.`,
      evidence: evidenceOf(found.statement),
    };
  },
});
