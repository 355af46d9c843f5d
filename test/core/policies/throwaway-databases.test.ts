// A test suite's own database on this machine is dropped, truncated and recreated before every run:
// wiping it needs no approval. The same command against a database a person keeps, or any server
// but this machine's, still asks or is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isThrowawayName, urlTarget } from '../../../src/core/facts/database-targets';
import { policyTable } from './table';

test('isThrowawayName: a whole word of the name says tests or scratch', () => {
  for (const name of ['app_test', 'test', 'ledgerly_e2e_test', 'test_app', 'app-scratch', 'app_tmp', 'app_test2'])
    assert.equal(isThrowawayName(name), true, name);
  for (const name of ['contest', 'latest', 'app', 'app_production', 'attestations', 'testimonials'])
    assert.equal(isThrowawayName(name), false, name);
});

test('urlTarget: host and database of a connection URL', () => {
  assert.deepEqual(urlTarget('postgresql://dev:dev@localhost:5432/app_test?sslmode=disable'), {
    local: true,
    database: 'app_test',
  });
  assert.deepEqual(urlTarget('mongodb://localhost:27017/ledgerly_test'), { local: true, database: 'ledgerly_test' });
  assert.deepEqual(urlTarget('postgres://app@db.prod.example.com/app_test'), { local: false, database: 'app_test' });
  assert.equal(urlTarget('https://localhost/app_test'), undefined);
});

policyTable('database-cli-reset', [
  {
    note: 'the local test database recreated',
    spec: 'dropdb --if-exists -h localhost app_test && createdb -h localhost app_test',
    expect: null,
  },
  { note: 'a test database with no host named (the local socket)', spec: 'dropdb --if-exists app_test', expect: null },
  { note: 'the local development database', spec: 'dropdb -h localhost app_dev', expect: 'ask' },
  { note: 'a test database on another server', spec: 'dropdb -h db.staging.example.com app_test', expect: 'ask' },
  { note: 'PGHOST pointing elsewhere', spec: 'PGHOST=db.prod.example.com dropdb app_test', expect: 'ask' },
  { note: 'a name only known at run time', spec: 'dropdb -h localhost "$DB"', expect: 'ask' },
  {
    note: 'a local Mongo test database dropped',
    spec: "mongosh mongodb://localhost:27017/ledgerly_test --quiet --eval 'db.dropDatabase()'",
    expect: null,
  },
  {
    note: 'a Mongo database on another server',
    spec: "mongosh mongodb://mongo.prod.example.com/ledgerly --eval 'db.dropDatabase()'",
    expect: 'ask',
  },
  {
    note: 'prisma reset of a local test database',
    spec: 'DATABASE_URL=postgresql://dev:dev@localhost:5432/app_test npx prisma migrate reset --force',
    expect: null,
  },
  { note: 'prisma reset of the database .env names', spec: 'npx prisma migrate reset --force', expect: 'ask' },
]);

policyTable('sql-drop-or-truncate', [
  {
    note: 'the local test database dropped and created',
    spec: "psql -h localhost -U dev postgres -c 'DROP DATABASE IF EXISTS app_test WITH (FORCE);' -c 'CREATE DATABASE app_test;'",
    expect: null,
  },
  {
    note: 'the local development database dropped',
    spec: "psql -h localhost -U dev postgres -c 'DROP DATABASE app_dev;'",
    expect: 'deny',
  },
  {
    note: 'tables of the local test database truncated',
    spec: "psql -h localhost app_test -c 'TRUNCATE users, invoices RESTART IDENTITY CASCADE'",
    expect: null,
  },
  {
    note: 'tables of a test database on another server',
    spec: "psql -h db.example.com app_test -c 'TRUNCATE users'",
    expect: 'deny',
  },
  {
    note: 'a MySQL test database recreated locally',
    spec: "mysql -h 127.0.0.1 -u dev -pdev -e 'DROP DATABASE IF EXISTS legacy_test; CREATE DATABASE legacy_test;'",
    expect: null,
  },
  {
    note: 'a MySQL database a person keeps',
    spec: "mysql -h 127.0.0.1 -u dev -e 'DROP DATABASE legacy;'",
    expect: 'deny',
  },
  {
    note: 'a schema of the test database the URL names',
    spec: "psql postgresql://app:app@localhost:5432/app_test -c 'DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;'",
    expect: null,
  },
  {
    note: 'an MCP query on a local test database',
    spec: {
      tool: 'mcp__postgres__query',
      input: { database_url: 'postgresql://dev@localhost:5432/ledgerly_test', sql: 'TRUNCATE TABLE webhooks_log;' },
    },
    expect: null,
  },
  {
    note: 'an MCP query on a production database',
    spec: {
      tool: 'mcp__postgres__query',
      input: {
        database_url: 'postgresql://dev@db.prod.example.com:5432/ledgerly',
        sql: 'TRUNCATE TABLE webhooks_log;',
      },
    },
    expect: 'deny',
  },
  {
    note: 'an MCP query naming no database',
    spec: { tool: 'mcp__postgres__query', input: { sql: 'DROP TABLE users;' } },
    expect: 'deny',
  },
]);
