// macos-protection-bypass: taking Gatekeeper's, TCC's or the login items' decision from the person asks
// (or is refused); reading the same settings does not.
import { policyTable } from './table';

policyTable('macos-protection-bypass', [
  {
    note: "a downloaded app's quarantine flag stripped, then opened",
    spec: 'xattr -dr com.apple.quarantine ~/Downloads/Signer.app && open ~/Downloads/Signer.app',
    expect: 'ask',
  },
  { note: "near miss: an app's attributes listed", spec: 'xattr -l ~/Downloads/Signer.app', expect: null },
  {
    note: 'a grant written into TCC.db',
    spec: `sqlite3 ~/Library/Application\\ Support/com.apple.TCC/TCC.db "INSERT OR REPLACE INTO access (service, client) VALUES ('kTCCServiceSystemPolicyAllFiles','/tmp/helper');"`,
    expect: 'deny',
  },
  { note: 'near miss: the signing identities listed', spec: 'security find-identity -v -p codesigning', expect: null },
  {
    note: 'a hidden login item added',
    spec: `osascript -e 'tell application "System Events" to make login item at end with properties {path:"/Users/dev/Helper.app", hidden:true}'`,
    expect: 'ask',
  },
  {
    note: 'near miss: a notification shown',
    spec: `osascript -e 'display notification "Build done" with title "lumen"'`,
    expect: null,
  },
  { note: 'Gatekeeper turned off', spec: 'sudo spctl --master-disable', expect: 'ask' },
  { note: "near miss: Gatekeeper's status", spec: 'spctl --status', expect: null },
]);
