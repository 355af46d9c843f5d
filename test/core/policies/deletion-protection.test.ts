// Infrastructure code's deletion guards: an edit or a write that removes or turns one off, or adds
// force_destroy or skip_final_snapshot, asks; edits that keep them, and new resources written without
// them, do not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ready, verdictOf } from './harness';
import { policyTable } from './table';
import { aProjectDir } from '../../builders/tempProject';

const ROOT = '/home/dev/project';
const POLICY = 'deletion-protection-removed';
const edit = (file: string, old_string: string, new_string: string) => ({
  tool: 'Edit',
  input: { file_path: `${ROOT}/${file}`, old_string, new_string },
});

policyTable('deletion-protection-removed', [
  {
    note: "a database's deletion protection and prevent_destroy turned off",
    spec: edit(
      'infra/modules/db/main.tf',
      '  deletion_protection = true\n\n  lifecycle {\n    prevent_destroy = true\n  }',
      '  deletion_protection = false\n  skip_final_snapshot = true\n\n  lifecycle {\n    prevent_destroy = false\n  }',
    ),
    expect: 'ask',
  },
  {
    note: 'the lifecycle block deleted',
    spec: edit('infra/s3.tf', '  lifecycle {\n    prevent_destroy = true\n  }\n', ''),
    expect: 'ask',
  },
  {
    note: 'a bucket that will go with its objects',
    spec: edit(
      'infra/s3.tf',
      '  bucket = "acme-prod-uploads"\n',
      '  bucket = "acme-prod-uploads"\n  force_destroy = true\n',
    ),
    expect: 'ask',
  },
  {
    note: "CloudFormation's Retain switched to Delete",
    spec: edit('template.yaml', '    DeletionPolicy: Retain\n', '    DeletionPolicy: Delete\n'),
    expect: 'ask',
  },
  {
    note: "a tfvars file's protection variable turned off",
    spec: edit('infra/envs/prod.tfvars', 'db_deletion_protection = true', 'db_deletion_protection = false'),
    expect: 'ask',
  },
  {
    note: "Helm's keep annotation removed",
    spec: edit('deploy/pvc.yaml', '  annotations:\n    "helm.sh/resource-policy": keep\n', '  annotations: {}\n'),
    expect: 'ask',
  },
  {
    note: 'near miss: an edit beside the protection that keeps it',
    spec: edit(
      'infra/modules/db/main.tf',
      '  instance_class = "db.t3.medium"\n  deletion_protection = true',
      '  instance_class = "db.r6g.large"\n  deletion_protection = true',
    ),
    expect: null,
  },
  {
    note: 'near miss: a protection turned on',
    spec: edit('infra/modules/db/main.tf', '  deletion_protection = false', '  deletion_protection = true'),
    expect: null,
  },
  {
    note: 'near miss: a new resource written without protection',
    spec: {
      tool: 'Write',
      input: {
        file_path: `${ROOT}/infra/scratch/main.tf`,
        content:
          'resource "aws_s3_bucket" "scratch" {\n  bucket        = "acme-ci-scratch"\n  force_destroy = true\n}\n',
      },
    },
    expect: null,
  },
]);

test('deletion-protection-removed: writes are compared with the file on disk', async () => {
  await ready();
  const project = aProjectDir('deletion-protection');
  mkdirSync(join(project, 'infra'));
  const file = join(project, 'infra', 'db.tf');
  writeFileSync(file, 'resource "aws_db_instance" "main" {\n  engine = "postgres"\n  deletion_protection = true\n}\n');
  const write = (content: string) =>
    verdictOf(POLICY, { tool: 'Write', input: { file_path: file, content }, cwd: project, root: project });
  assert.equal(
    write('resource "aws_db_instance" "main" {\n  engine = "postgres"\n}\n')?.verdict,
    'ask',
    'a whole write that leaves the protection out',
  );
  assert.equal(
    write(
      'resource "aws_db_instance" "main" {\n  engine = "postgres"\n  engine_version = "16"\n  deletion_protection = true\n}\n',
    ),
    undefined,
    'a whole write that keeps it',
  );
  const sed = verdictOf(POLICY, {
    tool: 'Bash',
    input: { command: `sed -i 's/deletion_protection = true/deletion_protection = false/' ${file}` },
    cwd: project,
    root: project,
  });
  assert.equal(sed?.verdict, 'ask', 'sed turning it off');
  const patch = verdictOf(POLICY, {
    tool: 'apply_patch',
    input: {
      command:
        '*** Begin Patch\n*** Update File: infra/db.tf\n@@\n   engine = "postgres"\n-  deletion_protection = true\n+  deletion_protection = false\n*** End Patch',
    },
    cwd: project,
    root: project,
  });
  assert.equal(patch?.verdict, 'ask', 'a patch turning it off');
});
