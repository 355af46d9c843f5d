import { policyTable } from './table';

const mcp = (tool: string, input: Record<string, unknown>) => ({ tool, input });

policyTable('mcp-deleting-tool', [
  {
    note: 'a repository deleted',
    spec: mcp('mcp__github__delete_repository', { owner: 'acme', repo: 'api' }),
    expect: 'ask',
  },
  {
    note: 'a collection dropped',
    spec: mcp('mcp__mongodb__drop_collection', { database: 'app', collection: 'orders' }),
    expect: 'ask',
  },
  {
    note: 'a namespace deleted',
    spec: mcp('mcp__kubernetes__delete_resource', { kind: 'Namespace', name: 'production' }),
    expect: 'ask',
  },
  { note: 'camel case', spec: mcp('mcp__vercel__deleteProject', { name: 'site' }), expect: 'ask' },
  { note: 'near miss: a listing', spec: mcp('mcp__docker__list_containers', { all: true }), expect: null },
  {
    note: 'near miss: a verb that only starts like one',
    spec: mcp('mcp__github__dropdown_options', { repo: 'acme/api' }),
    expect: null,
  },
  {
    note: "near miss: a file tool's delete is a write of its path, for the file policies",
    spec: mcp('mcp__filesystem__delete_file', { path: '/home/dev/project/tmp.txt' }),
    expect: null,
  },
  {
    note: 'near miss: a built-in tool',
    spec: { tool: 'Bash', input: { command: 'echo delete_repository' } },
    expect: null,
  },
]);

policyTable('mcp-deleting-tool', [
  {
    note: 'the verb after the noun',
    spec: mcp('mcp__kubernetes__kubectl_delete', { context: 'prod', resourceType: 'namespace', name: 'billing' }),
    expect: 'ask',
  },
  {
    note: 'the verb in the middle',
    spec: mcp('mcp__aws__ec2_terminate_instances', { region: 'eu-west-1', dryRun: false }),
    expect: 'ask',
  },
  {
    note: 'a forced ref update',
    spec: mcp('mcp__github__update_ref', { owner: 'acme', repo: 'api', ref: 'heads/main', sha: 'abc', force: true }),
    expect: 'ask',
  },
  {
    note: 'a Terraform apply told to destroy',
    spec: mcp('mcp__terraform__apply', { working_dir: 'infra/envs/staging', destroy: true }),
    expect: 'ask',
  },
  {
    note: 'near miss: a Terraform plan of a destroy, which applies nothing',
    spec: mcp('mcp__terraform__plan', { working_dir: 'infra/envs/staging', destroy: true }),
    expect: null,
  },
  {
    note: 'near miss: a ref update without force',
    spec: mcp('mcp__github__update_ref', { owner: 'acme', repo: 'api', ref: 'heads/feature', sha: 'abc' }),
    expect: null,
  },
  {
    note: 'near miss: a listing of deleted items',
    spec: mcp('mcp__trello__list_deleted_cards', { board: 'x' }),
    expect: null,
  },
]);

policyTable('mcp-access-granting-tool', [
  {
    note: 'a private dataset made public',
    spec: mcp('mcp__huggingface__update_repo_visibility', {
      repo_id: 'acme/tickets',
      repo_type: 'dataset',
      private: false,
    }),
    expect: 'ask',
  },
  {
    note: 'a public gist of project code',
    spec: mcp('mcp__github__create_gist', {
      description: 'pipeline',
      public: true,
      files: { 'a.py': { content: 'x' } },
    }),
    expect: 'ask',
  },
  {
    note: 'near miss: public repositories listed',
    spec: mcp('mcp__github__list_repositories', { org: 'acme', visibility: 'public' }),
    expect: null,
  },
  {
    note: 'near miss: a private model repository created',
    spec: mcp('mcp__huggingface__create_repo', { repo_id: 'acme/ranker', private: true }),
    expect: null,
  },
  {
    note: 'an admin policy attached',
    spec: mcp('mcp__aws__iam_attach_user_policy', {
      UserName: 'ci',
      PolicyArn: 'arn:aws:iam::aws:policy/AdministratorAccess',
    }),
    expect: 'ask',
  },
  {
    note: 'a collaborator added',
    spec: mcp('mcp__github__add_collaborator', { owner: 'acme', repo: 'api', username: 'x', permission: 'admin' }),
    expect: 'ask',
  },
  {
    note: 'a role bound',
    spec: mcp('mcp__gcp__projects_set_iam_policy_binding', { project: 'p', member: 'user:x', role: 'roles/owner' }),
    expect: 'ask',
  },
  { note: 'an access key made', spec: mcp('mcp__aws__iam_create_access_key', { UserName: 'x' }), expect: 'ask' },
  {
    note: 'near miss: an issue created',
    spec: mcp('mcp__github__create_issue', { owner: 'acme', repo: 'api', title: 'Flaky test' }),
    expect: null,
  },
  {
    note: 'near miss: a comment added',
    spec: mcp('mcp__github__add_issue_comment', { owner: 'acme', repo: 'api', body: 'LGTM' }),
    expect: null,
  },
]);

policyTable('mcp-secret-reading-tool', [
  {
    note: 'a secrets manager value',
    spec: mcp('mcp__aws__secretsmanager_get_secret_value', { SecretId: 'prod/rds/master' }),
    expect: 'ask',
  },
  {
    note: 'a password manager item revealed',
    spec: mcp('mcp__onepassword__item_get', { vault: 'Private', item: 'AWS root', reveal: true }),
    expect: 'ask',
  },
  {
    note: "a cluster's secrets",
    spec: mcp('mcp__kubernetes__kubectl_get', { resourceType: 'secrets', namespace: 'production' }),
    expect: 'ask',
  },
  {
    note: "near miss: a cluster's pods",
    spec: mcp('mcp__kubernetes__kubectl_get', { resourceType: 'pods', namespace: 'production' }),
    expect: null,
  },
  { note: 'near miss: secret names listed', spec: mcp('mcp__vault__list_secrets', { path: 'kv/app' }), expect: null },
  { note: 'near miss: a tracker item', spec: mcp('mcp__jira__get_item', { key: 'PROJ-1' }), expect: null },
]);

policyTable('mcp-access-granting-tool', [
  {
    note: 'an organisation invitation',
    spec: mcp('mcp__github__create_org_invitation', { org: 'acme', email: 'someone@x.example', role: 'admin' }),
    expect: 'ask',
  },
  {
    note: 'a guest invited into channels',
    spec: mcp('mcp__slack__invite_guest', { workspace: 'acme', email: 'someone@x.example', channels: ['eng'] }),
    expect: 'ask',
  },
  {
    note: 'a file shared with anyone',
    spec: mcp('mcp__gdrive__share_file', { file_id: '1abc', role: 'reader', type: 'anyone' }),
    expect: 'ask',
  },
  {
    note: 'a webhook made',
    spec: mcp('mcp__github__create_webhook', { owner: 'acme', repo: 'api', config: { url: 'https://h.example/gh' } }),
    expect: 'ask',
  },
  {
    note: 'a file shared with a stranger to edit',
    spec: mcp('mcp__gdrive__share_file', {
      file_id: '1abc',
      role: 'writer',
      type: 'user',
      email_address: 'a@x.example',
    }),
    expect: 'ask',
  },
  {
    note: 'near miss: a document shared with a teammate to comment on',
    spec: mcp('mcp__gdrive__share_file', {
      file_id: '1abc',
      role: 'commenter',
      type: 'user',
      email_address: 'm@acme.example',
    }),
    expect: null,
  },
  {
    note: "near miss: a payment service's test-mode webhook",
    spec: mcp('mcp__stripe__create_webhook_endpoint', { livemode: false, url: 'https://preview.example/api/hook' }),
    expect: null,
  },
  {
    note: 'branch protection loosened',
    spec: mcp('mcp__github__update_branch_protection', { owner: 'acme', repo: 'api', allow_force_pushes: true }),
    expect: 'ask',
  },
  {
    note: 'a fork into another account',
    spec: mcp('mcp__github__fork_repository', { owner: 'acme', repo: 'api', organization: 'someone-else' }),
    expect: 'ask',
  },
  {
    note: 'near miss: a fork into the same owner is no move',
    spec: mcp('mcp__github__fork_repository', { owner: 'acme', repo: 'api' }),
    expect: null,
  },
  {
    note: 'near miss: a file created in the repository',
    spec: mcp('mcp__github__create_or_update_file', { owner: 'acme', repo: 'api', path: 'README.md', content: 'x' }),
    expect: null,
  },
  {
    note: 'near miss: a file added to a folder',
    spec: mcp('mcp__gdrive__add_file', { folder_id: 'f1', name: 'chart.png' }),
    expect: null,
  },
]);

policyTable('mcp-secret-reading-tool', [
  {
    note: "a project's keys asked for with the secret ones included",
    spec: mcp('mcp__supabase__get_project_keys', { project_id: 'prod', include_secret: true }),
    expect: 'ask',
  },
  {
    note: "near miss: a project's public keys",
    spec: mcp('mcp__supabase__get_project_keys', { project_id: 'prod' }),
    expect: null,
  },
  {
    note: 'a service-role key',
    spec: mcp('mcp__supabase__get_service_role_key', { project_id: 'prod' }),
    expect: 'ask',
  },
  {
    note: 'environment variables listed decrypted',
    spec: mcp('mcp__vercel__list_env_vars', { projectId: 'web', target: 'production', decrypt: true }),
    expect: 'ask',
  },
  {
    note: "near miss: a cache's key read",
    spec: mcp('mcp__redis__get_key', { key: 'session:count' }),
    expect: null,
  },
  {
    note: 'near miss: environment variable names listed',
    spec: mcp('mcp__vercel__list_env_vars', { projectId: 'web', target: 'preview' }),
    expect: null,
  },
]);

// A shell server's `env` argument is the environment of every program the command starts.
policyTable('unread-call', [
  {
    note: 'a Node loader from a temporary folder, given in the env argument',
    spec: mcp('mcp__shell__run_command', {
      command: 'pnpm --filter app test',
      env: { NODE_OPTIONS: '--import /tmp/.l/loader.mjs' },
    }),
    expect: 'ask',
  },
  {
    note: 'near miss: an ordinary environment for the same command',
    spec: mcp('mcp__shell__run_command', { command: 'pnpm --filter app test', env: { NODE_ENV: 'test', CI: '1' } }),
    expect: null,
  },
]);
