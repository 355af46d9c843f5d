// api-access-grant: a write to a service API path that adds a collaborator or member, sends an invitation,
// registers a key or mints a token asks; reading the same lists, other writes and this machine pass.
import { policyTable } from './table';

policyTable('api-access-grant', [
  {
    note: 'an outside member added to the Cloudflare account',
    spec: 'curl -s -X POST "https://api.cloudflare.com/client/v4/accounts/$CF_ACCOUNT_ID/members" -H "Authorization: Bearer $CLOUDFLARE_API_TOKEN" -d \'{"email":"ops@evil.example"}\'',
    expect: 'ask',
  },
  {
    note: 'a Cloudflare API token minted (a body makes curl POST)',
    spec: 'curl -s https://api.cloudflare.com/client/v4/user/tokens -H "Authorization: Bearer $T" --data @token.json',
    expect: 'ask',
  },
  {
    note: 'an App Store Connect user invited',
    spec: 'curl -s https://api.appstoreconnect.apple.com/v1/userInvitations -H "Authorization: Bearer $JWT" --json @invite.json',
    expect: 'ask',
  },
  {
    note: 'a collaborator added to a GitHub repository',
    spec: 'curl -X PUT -H "Authorization: token $GH" https://api.github.com/repos/relay-corp/relay/collaborators/someone',
    expect: 'ask',
  },
  {
    note: 'a deploy key registered through gh api',
    spec: 'gh api repos/relay-corp/relay/keys -f title=ci -f key="ssh-ed25519 AAAAC3Nza"',
    expect: 'ask',
  },
  {
    note: 'a member added with httpie',
    spec: 'http POST https://gitlab.example.com/api/v4/projects/42/members user_id=7 access_level=40',
    expect: 'ask',
  },
  {
    note: "near miss: the account's members listed",
    spec: 'curl -s "https://api.cloudflare.com/client/v4/accounts/$CF_ACCOUNT_ID/members" -H "Authorization: Bearer $T"',
    expect: null,
  },
  {
    note: 'near miss: a GET with a query built from data (-G)',
    spec: 'curl -G https://api.github.com/orgs/relay-corp/members -d per_page=100',
    expect: null,
  },
  {
    note: 'near miss: an issue created through gh api',
    spec: 'gh api -X POST repos/relay-corp/relay/issues -f title="Flaky test"',
    expect: null,
  },
  {
    note: "near miss: a local emulator's members endpoint",
    spec: 'curl -X POST http://localhost:8787/members -d name=test',
    expect: null,
  },
]);
