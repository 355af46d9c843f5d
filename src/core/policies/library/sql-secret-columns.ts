import { z } from 'zod';
import { definePolicy } from '../types';
import { evidenceOf } from '../../facts/commands';
import { sqlStatements, sqlTexts } from './database';
import { SECRET_OPTION } from './credential-commands';

// A query that selects credential columns (`SELECT email, api_key, totp_secret FROM users`) prints the
// users' secrets into the transcript and to the model, as a key file read would. Counting them, testing
// them for null or reading when a token expires prints none.

/** A column name whose last word names a credential. */
const SECRET_COLUMN =
  /(^|_)(password|passwd|pwd|secret|token|apikey|api_key|private_key|totp|otp|mfa_secret|ssn|card_number|cvv)(_|$)/i;
/** Column names about a credential rather than holding it (when it expires, its kind, its id). */
const ABOUT_COLUMN = /_(at|id|count|type|kind|expires|expiry|expiration|len|length|set|updated|hint|version|name)$/i;

/** The columns a SELECT lists before its FROM, or [] for another statement or `SELECT *`. */
function selectedColumns(statement: string): string[] {
  if (!/^SELECT\b/i.test(statement)) return [];
  const from = statement.search(/\bFROM\b/i);
  const list = statement.slice(6, from < 0 ? undefined : from);
  return list
    .split(',')
    .map((item) => item.trim())
    .filter((item) => !/\(/.test(item))
    .map((item) => (item.split(/\s+as\s+|\s+/i)[0] ?? '').split('.').pop() ?? '')
    .map((name) => name.replace(/^["`[]|["`\]]$/g, ''));
}

// Frameworks' tables whose credential columns have plain names: Django's sessions (a session key is a
// login as that user), Django REST framework's and Knox's API tokens.
const CREDENTIAL_TABLE_COLUMNS: Record<string, readonly string[]> = {
  django_session: ['session_key', 'session_data'],
  authtoken_token: ['key'],
  knox_authtoken: ['token_key', 'digest'],
};

/** The framework credential tables a statement reads from (FROM or JOIN). */
function credentialTables(statement: string): string[] {
  return [...statement.matchAll(/\b(?:FROM|JOIN)\s+[`"]?(?:\w+\.)?(\w+)/gi)]
    .map((m) => (m[1] ?? '').toLowerCase())
    .filter((table) => Object.hasOwn(CREDENTIAL_TABLE_COLUMNS, table));
}

function secretColumns(statement: string): string[] {
  const columns = selectedColumns(statement);
  // Prisma and other ORMs name columns in camelCase (`"accessToken"`): its words are read as snake_case's.
  const named = columns.filter((name) => {
    const words = name.replace(/([a-z0-9])([A-Z])/g, '$1_$2');
    return SECRET_COLUMN.test(words) && !ABOUT_COLUMN.test(words);
  });
  const tableColumns = credentialTables(statement).flatMap((table) => CREDENTIAL_TABLE_COLUMNS[table] ?? []);
  const framework = columns.filter((name) => name === '*' || tableColumns.includes(name.toLowerCase()));
  return [...named, ...(tableColumns.length ? framework : [])];
}

/** WordPress's options table read for its values (the statement, its literals blanked by sqlStatements). */
function readsOptionValues(statement: string): boolean {
  if (!/^SELECT\b/i.test(statement) || !/\bFROM\s+[`"]?\w*options\b/i.test(statement)) return false;
  const columns = selectedColumns(statement);
  return columns.length === 0 || columns.some((name) => name === 'option_value' || name === '*');
}

/** A gateway's settings (its live keys) named in SQL text that reads the options table's values. */
function secretOptions(text: string, statements: readonly string[]): string[] {
  if (!statements.some(readsOptionValues)) return [];
  return [...text.matchAll(/'([^'\n]{1,120})'/g)].map((m) => m[1]!).filter((name) => SECRET_OPTION.test(name));
}

export const sqlSelectsSecretColumns = definePolicy({
  name: 'sql-selects-secret-columns',
  category: 'database',
  description:
    "Asks before a query selects credential columns (api_key, password, totp_secret, token, or a framework's session and API-token tables' keys): their values would enter the transcript.",
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    for (const text of sqlTexts(call)) {
      // Postgres quotes identifiers (`"accessToken"`), and sqlStatements blanks double quotes as MySQL's
      // strings: a quoted word that can only be a name is read as that name.
      const statements = sqlStatements(text.replace(/"([A-Za-z_]\w{0,62})"/g, '$1'));
      const options = secretOptions(text, statements);
      if (options.length)
        return {
          reason: `Reads the ${options.join(', ')} option from WordPress's options table: a payment gateway's or service's keys would enter the transcript and reach the model. Read the one setting you need, or ask the person.`,
          evidence: evidenceOf(text),
        };
      for (const statement of statements) {
        const columns = secretColumns(statement);
        if (columns.length)
          return {
            reason: `Selects ${columns.join(', ')}: the values of those credential columns would enter the transcript and reach the model. Select the columns you need, or count or test them instead.`,
            evidence: evidenceOf(statement),
          };
      }
    }
    return null;
  },
});
