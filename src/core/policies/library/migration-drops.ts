import path from 'node:path';
import { z } from 'zod';
import { definePolicy } from '../types';
import type { ToolCall } from '../types';
import { evidenceOf } from '../../facts/commands';
import { writtenTexts } from '../../facts/compute';
import { afterEdit, currentText, replacedTexts } from './shared/edited-file';
import { isTestFile } from '../../text/source-files';
import { alwaysTrueWhere } from '../../facts/sql-where';

// A migration runs on every database the project deploys to, with no one at a prompt. One whose
// forward step drops a table deletes that table's rows everywhere, for good: a downgrade can recreate
// the table, never its data. Dropping in the backward step (what the forward step created) is how
// migrations are written, so only the forward step counts. An application that drops every table as
// it starts (SQLAlchemy's `metadata.drop_all` outside the tests) does the same on each start.

const MIGRATION_FOLDER = /(^|\/)(migrations?|migrate|versions|changelogs?)\//i;

// What drops a table (or empties it) in each migration framework's language.
const TABLE_DROP =
  /\bop\.drop_table\s*\(|\bmigrations\.DeleteModel\s*\(|^[ \t]*drop_table\b|\.dropTable(IfExists)?\s*\(|\bSchema::drop(IfExists)?\s*\(|\bDROP\s+TABLE\b|\bTRUNCATE\b/gim;
const DROP_ALL = /\bmetadata\.drop_all\s*\(/g;

const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;
// `DELETE FROM t;` and `DELETE FROM t WHERE created_at < now();`: every row of the table, as a drop would.
const SQL_DELETE = /\bDELETE\s+FROM\s+[^;]*/gi;

/** The DELETE statements of a migration's SQL that remove every row of their table. */
function emptyingDeletes(text: string): string[] {
  return (text.match(SQL_DELETE) ?? []).filter(
    (statement) => !/\bWHERE\b/i.test(statement) || alwaysTrueWhere(statement) !== undefined,
  );
}

/** Where a migration's backward step begins, by its framework's way of naming it; -1 when it has none. */
function backwardStart(text: string): number {
  const markers = [
    /^def (downgrade|backwards)\s*\(/m,
    /^[ \t]*def down\b/m,
    // knex's and PHP's `function down(`, Sequelize's `down: async (`, TypeORM's `public async down(`.
    /(\bfunction\s+down\s*\(|\bdown\s*[:=]\s*(async\b|function\b|\()|^[ \t]*((public|private|protected)[ \t]+)?(async[ \t]+)?down[ \t]*\()/m,
    /^--\s*(\+goose\s+Down|migrate:down)\b/im,
  ];
  const found = markers.map((marker) => marker.exec(text)?.index ?? -1).filter((at) => at >= 0);
  return found.length ? Math.min(...found) : -1;
}

/** The part of a migration that runs forward: everything before its backward step. */
function forwardPart(text: string): string {
  const backward = backwardStart(text);
  return backward === -1 ? text : text.slice(0, backward);
}

interface Drop {
  file: string;
  what: string;
  evidence: string;
}

/** Flyway's `V12__name.sql`, golang-migrate's and dbmate's `NAME.up.sql`. */
const VERSIONED_SQL = /^V\d+__/;

function isMigration(file: string): boolean {
  const name = path.posix.basename(file).toLowerCase();
  const sql = name.endsWith('.sql');
  if (sql && name.includes('down')) return false;
  return (
    MIGRATION_FOLDER.test(file) || (sql && (VERSIONED_SQL.test(path.posix.basename(file)) || name.endsWith('.up.sql')))
  );
}

/** A forward step that drops more tables than it did, or an app that drops all its tables as it starts. */
function dropIn(file: string, before: string, after: string): Drop | undefined {
  if (isMigration(file) && count(forwardPart(after), TABLE_DROP) > count(forwardPart(before), TABLE_DROP)) {
    const evidence = forwardPart(after).match(TABLE_DROP)?.[0] ?? after;
    return { file, what: `its forward step drops a table (${evidence.trim()})`, evidence: after };
  }
  const emptied = isMigration(file) ? emptyingDeletes(forwardPart(after)) : [];
  if (emptied.length > emptyingDeletes(forwardPart(before)).length)
    return {
      file,
      what: `its forward step deletes every row of a table (${evidenceOf(emptied[0]!.trim(), 80)})`,
      evidence: after,
    };
  if (!isTestFile(file) && count(after, DROP_ALL) > count(before, DROP_ALL))
    return { file, what: 'it drops every table the models name (metadata.drop_all)', evidence: after };
  return undefined;
}

function droppedTables(call: ToolCall): Drop | undefined {
  if (call.face.family === 'edit') {
    const file = call.paths.find((p) => p.access === 'write')?.absolute;
    // Neither a migration nor a drop_all brought in: nothing to read the file for.
    if (!file || (!isMigration(file) && !replacedTexts(call.input).some(([, after]) => after.includes('drop_all'))))
      return undefined;
    // The whole file before and after shows which step an edit lands in; the edit's own texts, when
    // the file cannot be read, count a drop they add as a forward one.
    const [now, edited] = [currentText(call, file), afterEdit(call, file)];
    if (now !== null && edited !== null) return dropIn(file, now, edited);
    for (const [before, after] of replacedTexts(call.input)) {
      const drop = dropIn(file, before, after);
      if (drop) return drop;
    }
    return undefined;
  }
  for (const { file, content } of writtenTexts(call)) {
    const drop = dropIn(file, '', content);
    if (drop) return drop;
  }
  return undefined;
}

export const migrationDropsTable = definePolicy({
  name: 'migration-drops-table',
  category: 'database',
  description:
    'Asks before a migration is written whose forward step drops or empties a table, or application code that drops every table as it starts: deploying it deletes those rows everywhere, for good.',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    const found = call ? droppedTables(call) : undefined;
    if (!found) return null;
    return {
      reason: `${path.posix.basename(found.file)}: ${found.what}. Every database it is deployed to loses those rows, and no downgrade brings them back. Keep the data (rename or archive the table first), or approve this exact change.`,
      evidence: evidenceOf(found.evidence),
    };
  },
});
