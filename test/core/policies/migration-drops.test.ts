// A migration whose forward step drops a table deletes those rows on every database it deploys to; an
// application that drops all its tables as it starts does so on every start. Dropping in the backward
// step, creating tables, and drop_all in the tests pass.
import { policyTable } from './table';
import { aWrite, anEdit } from './harness';

const ALEMBIC_DROP = [
  '"""cleanup legacy tables"""',
  'from alembic import op',
  '',
  'revision = "0008"',
  'down_revision = "0007"',
  '',
  '',
  'def upgrade():',
  '    op.drop_table("payments")',
  '    op.drop_table("orders")',
  '',
  '',
  'def downgrade():',
  '    pass',
  '',
].join('\n');

const ALEMBIC_CREATE = [
  'from alembic import op',
  'import sqlalchemy as sa',
  '',
  'def upgrade():',
  '    op.create_table("coupons", sa.Column("id", sa.Integer, primary_key=True))',
  '',
  'def downgrade():',
  '    op.drop_table("coupons")',
  '',
].join('\n');

const KNEX_CREATE = [
  'export async function up(knex) {',
  '  await knex.schema.createTable("webhook_attempts", (t) => t.bigIncrements("id"));',
  '}',
  '',
  'export async function down(knex) {',
  '  await knex.schema.dropTableIfExists("webhook_attempts");',
  '}',
  '',
].join('\n');

policyTable('migration-drops-table', [
  {
    note: 'an alembic migration whose upgrade drops tables',
    spec: aWrite('services/api/alembic/versions/20240612_0008_cleanup.py', ALEMBIC_DROP),
    expect: 'ask',
  },
  {
    note: 'near miss: a migration that creates a table and drops it only on the way back',
    spec: aWrite('services/api/alembic/versions/20240613_0009_add_coupons.py', ALEMBIC_CREATE),
    expect: null,
  },
  {
    note: 'near miss: a knex migration whose down drops what its up created',
    spec: aWrite('api/src/migrations/20240614_add_webhook_attempts.ts', KNEX_CREATE),
    expect: null,
  },
  {
    note: 'near miss: a TypeORM migration whose down drops what its up created',
    spec: aWrite(
      'src/migrations/1718000000000-AddCoupons.ts',
      'export class AddCoupons1718000000000 implements MigrationInterface {\n  public async up(queryRunner: QueryRunner): Promise<void> {\n    await queryRunner.createTable(new Table({ name: "coupons" }));\n  }\n\n  public async down(queryRunner: QueryRunner): Promise<void> {\n    await queryRunner.dropTable("coupons");\n  }\n}\n',
    ),
    expect: null,
  },
  {
    note: 'a Laravel migration whose up drops a table',
    spec: aWrite(
      'database/migrations/2024_06_12_000000_drop_invoices.php',
      "<?php\nreturn new class extends Migration {\n    public function up(): void\n    {\n        Schema::dropIfExists('invoices');\n    }\n\n    public function down(): void\n    {\n    }\n};\n",
    ),
    expect: 'ask',
  },
  {
    note: 'near miss: a Laravel migration whose down drops what its up created',
    spec: aWrite(
      'database/migrations/2024_06_13_000000_create_coupons.php',
      "<?php\nreturn new class extends Migration {\n    public function up(): void\n    {\n        Schema::create('coupons', function (Blueprint $table) { $table->id(); });\n    }\n\n    public function down(): void\n    {\n        Schema::dropIfExists('coupons');\n    }\n};\n",
    ),
    expect: null,
  },
  {
    note: 'a Django migration deleting a model',
    spec: aWrite(
      'billing/migrations/0042_remove_invoice.py',
      'from django.db import migrations\n\nclass Migration(migrations.Migration):\n    operations = [\n        migrations.DeleteModel(name="Invoice"),\n    ]\n',
    ),
    expect: 'ask',
  },
  {
    note: 'a Flyway migration that drops a table',
    spec: aWrite('db/migration/V12__drop_audit.sql', 'DROP TABLE audit_log;\n'),
    expect: 'ask',
  },
  {
    note: 'near miss: a golang-migrate down file',
    spec: aWrite('db/migrations/000012_audit.down.sql', 'DROP TABLE audit_log;\n'),
    expect: null,
  },
  {
    note: "the app's start-up drops every table",
    spec: anEdit(
      'services/api/app/db.py',
      'Base.metadata.create_all(bind=engine)',
      'Base.metadata.drop_all(bind=engine)\nBase.metadata.create_all(bind=engine)',
    ),
    expect: 'ask',
  },
  {
    note: 'near miss: drop_all in the tests',
    spec: aWrite(
      'services/api/tests/conftest.py',
      'import pytest\n\n@pytest.fixture(autouse=True)\ndef db():\n    Base.metadata.create_all(bind=engine)\n    yield\n    Base.metadata.drop_all(bind=engine)\n',
    ),
    expect: null,
  },
]);
