// app-platform-destructive: an app platform's CLI deleting for good asks; its reads and local resets do not.
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
