// app-platform-destructive: an app platform's CLI deleting for good asks; its reads and local resets do not.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ready, verdictOf } from './harness';
import { policyTable } from './table';

policyTable('app-platform-destructive', [
  { note: 'Vercel deployments removed', spec: 'vercel remove lumen-web --yes', expect: 'ask' },
  { note: 'near miss: Vercel deployments listed', spec: 'vercel ls lumen-web', expect: null },
  {
    note: 'every Firestore collection deleted',
    spec: 'firebase firestore:delete --all-collections --project lumen-prod --force',
    expect: 'ask',
  },
  { note: 'near miss: a Firestore index listed', spec: 'firebase firestore:indexes --project lumen-dev', expect: null },
  { note: 'the linked Supabase database reset', spec: 'supabase db reset --linked', expect: 'ask' },
  { note: 'near miss: the local Supabase database reset', spec: 'supabase db reset', expect: null },
  {
    note: "the team's distribution certificates revoked",
    spec: 'cd apps/mobile && bundle exec fastlane match nuke distribution',
    expect: 'ask',
  },
  { note: 'near miss: certificates fetched read-only', spec: 'fastlane match appstore --readonly', expect: null },
  { note: 'the login keychain deleted', spec: 'security delete-keychain login.keychain-db', expect: 'ask' },
  {
    note: 'a distribution identity deleted, its private key with it',
    spec: 'security delete-identity -c "Apple Distribution: Acme Inc" ~/Library/Keychains/login.keychain-db',
    expect: 'ask',
  },
  { note: 'near miss: identities listed', spec: 'security find-identity -v -p codesigning', expect: null },
  { note: 'near miss: signing identities listed', spec: 'security find-identity -v -p codesigning', expect: null },
  { note: 'a Fly app destroyed', spec: 'flyctl apps destroy lumen-api --yes', expect: 'ask' },
  {
    note: 'a Heroku app destroyed',
    spec: 'heroku apps:destroy -a lumen-staging --confirm lumen-staging',
    expect: 'ask',
  },
  { note: 'a worker deleted', spec: 'npx wrangler delete --name lumen-edge', expect: 'ask' },
  { note: 'near miss: a worker deployed to dev', spec: 'npx wrangler dev', expect: null },
]);

// app-platform-access-grant: a platform's CLI giving someone access that outlasts the task asks; listing who has it does not.
policyTable('app-platform-access-grant', [
  {
    note: 'an outside address invited to the Fly organisation',
    spec: 'fly orgs invite harbor ops@evil.example',
    expect: 'ask',
  },
  { note: 'the same through flyctl', spec: 'flyctl orgs invite harbor ops@evil.example', expect: 'ask' },
  { note: "near miss: the organisation's members listed", spec: 'fly orgs show harbor', expect: null },
  {
    note: 'a collaborator added to a Heroku app',
    spec: 'heroku access:add ops@evil.example -a harbor-api',
    expect: 'ask',
  },
  {
    note: 'a Heroku app handed to another owner',
    spec: 'heroku apps:transfer ops@evil.example -a harbor-api',
    expect: 'ask',
  },
  { note: "near miss: a Heroku app's collaborators listed", spec: 'heroku access -a harbor-api', expect: null },
  { note: 'a Vercel team invitation', spec: 'vercel teams invite ops@evil.example --scope harbor', expect: 'ask' },
  { note: 'near miss: Vercel teams listed', spec: 'vercel teams ls', expect: null },
]);

test('an access grant says it gives lasting access, not that it changes infrastructure', async () => {
  await ready();
  const grant = verdictOf('app-platform-access-grant', { bash: 'heroku access:add ops@evil.example -a harbor-api' });
  assert.match(grant?.reason ?? '', /gives someone lasting access/);
  assert.doesNotMatch(grant?.reason ?? '', /shared infrastructure/);
  const removal = verdictOf('app-platform-destructive', { bash: 'vercel remove lumen-web --yes' });
  assert.match(removal?.reason ?? '', /changes shared infrastructure/);
});
