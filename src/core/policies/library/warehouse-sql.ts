import { z } from 'zod';
import { evidenceOf } from '../../facts/commands';
import { isWorkingCopyName } from '../../facts/database-targets';
import { definePolicy } from '../types';
import { findStatement } from './database';

// A warehouse keeps what a restore needs (Time Travel, a Delta table's versions) and controls who reads its
// tables. SQL that replaces a shared table, turns that history off, copies rows out to object storage or
// shares tables with another account loses data or lets it leave, whichever database client or MCP tool
// sends it.

const REPLACED_OBJECT = /^CREATE\s+OR\s+REPLACE\s+(?:TRANSIENT\s+)?(TABLE|SCHEMA|DATABASE)\s+([\w.$"]+)/i;

/** What a warehouse statement loses beyond its rows: a table replaced, or the history a restore needs. */
function historyOrDataLost(statement: string): string | null {
  const replaced = REPLACED_OBJECT.exec(statement);
  if (replaced && !isWorkingCopyName(replaced[2] ?? ''))
    return `CREATE OR REPLACE ${(replaced[1] ?? '').toUpperCase()} ${replaced[2]} replaces it and every row it held`;
  if (/^ALTER\s+(ACCOUNT|DATABASE|SCHEMA|TABLE)\b.*\bSET\s+DATA_RETENTION_TIME_IN_DAYS\s*=\s*0\b/i.test(statement))
    return 'Turning Time Travel off (DATA_RETENTION_TIME_IN_DAYS = 0) removes the history a restore needs';
  if (/^VACUUM\b.*\bRETAIN\s+0\s+HOURS\b/i.test(statement))
    return "VACUUM … RETAIN 0 HOURS deletes every earlier version of the table's files";
  if (/^SET\s+spark\.databricks\.delta\.retentionDurationCheck\.enabled\s*=\s*false\b/i.test(statement))
    return "Turning Delta's retention check off lets a VACUUM delete history still in use";
  return null;
}

export const sqlHistoryOrDataLost = definePolicy({
  name: 'sql-history-or-data-lost',
  category: 'database',
  description:
    'Asks before warehouse SQL that loses a table or its history: CREATE OR REPLACE of a table, schema or database not named as a working copy, Time Travel turned off, VACUUM … RETAIN 0 HOURS, Delta retention check off.',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    const found = findStatement(call, historyOrDataLost);
    if (!found) return null;
    return {
      reason: `${found.what}: nothing brings it back afterwards. Build into a dev or scratch name, or ask.`,
      evidence: evidenceOf(found.statement),
    };
  },
});

// Statements that write a query's rows to object storage: BigQuery's EXPORT DATA, Snowflake's COPY INTO a
// URL or a stage, Redshift's UNLOAD.
// (String literals are blanked: `COPY INTO ''` is an unload to a URL, `COPY INTO table` a load.)
// Snowflake's data sharing: a share's tables become readable from the accounts added to it.
const SHARED_WITH_ACCOUNTS = /^ALTER\s+SHARE\s+\S+\s+(ADD|SET)\s+ACCOUNTS?\b/i;
const EXPORT_TO_STORAGE = /^EXPORT\s+DATA\b|^COPY\s+INTO\s+(''|@)|^UNLOAD\s*\(/i;

export const sqlExportToStorage = definePolicy({
  name: 'sql-export-to-storage',
  category: 'database',
  description:
    "Asks before SQL that writes a query's rows to object storage (BigQuery EXPORT DATA, Snowflake COPY INTO a URL or stage, Redshift UNLOAD) or shares tables with another account, sent or written to run later.",
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    const shared = findStatement(call, (s) => SHARED_WITH_ACCOUNTS.exec(s)?.[0] ?? null, { writtenFiles: true });
    if (shared)
      return {
        reason: `${shared.what.replace(/\s+/g, ' ')} … gives another account a live view of the tables in the share: the data leaves where its access is controlled. The person decides who it goes to.`,
        evidence: evidenceOf(shared.statement),
      };
    const found = findStatement(call, (s) => EXPORT_TO_STORAGE.exec(s)?.[0] ?? null, { writtenFiles: true });
    if (!found) return null;
    const what = /^COPY/i.test(found.what)
      ? 'COPY INTO a URL or stage'
      : /^UNLOAD/i.test(found.what)
        ? 'UNLOAD'
        : 'EXPORT DATA';
    return {
      reason: `${what} copies the rows a query selects out of the warehouse into object storage: the data leaves where its access is controlled. The person knows whether that storage is the company's.`,
      evidence: evidenceOf(found.statement),
    };
  },
});
