// Salesforce metadata is the org's configuration as files: a deploy makes what they say true for every
// user at once. A few lines there open the org the way a grant or a firewall rule does elsewhere: a
// permission set with Modify All Data or MFA waived, a trusted IP range of the whole internet, a connected
// app whose full-scope tokens never expire and skip IP checks, a sharing rule for the site's guest (any
// visitor), an Apex class that drops sharing for the code a page or the REST API calls. Others delete
// for good: Apex that empties the recycle bin, a flow that deletes records on a schedule.
import { z } from 'zod';
import { definePolicy } from '../types';
import { evidenceOf } from '../../facts/commands';
import { isTestFile } from '../../text/source-files';
import { linesAdded } from './shared/edited-file';

/** System permissions that hand over the whole org, its code or its logins. */
const ORG_WIDE_PERMISSIONS = new Map([
  ['ModifyAllData', 'Modify All Data (every record, past sharing)'],
  ['ViewAllData', 'View All Data (every record, past sharing)'],
  ['AuthorApex', 'Author Apex (code that runs in system mode)'],
  ['ManageUsers', 'Manage Users (any user, their passwords and profiles)'],
  ['ManageProfilesPermissionsets', 'Manage Profiles and Permission Sets'],
  ['AssignPermissionSets', 'Assign Permission Sets'],
  ['CustomizeApplication', 'Customize Application'],
  ['BypassMFAForUiLogins', 'multi-factor authentication waived for logins'],
]);

const PERMISSION_FILE = /\.(permissionset|profile|permissionsetgroup)-meta\.xml$/i;
const APEX_FILE = /\.(cls|trigger|apex)$/i;

interface Finding {
  file: string;
  what: string;
  evidence: string;
}

/** A permission the added text enables (`<enabled>true</enabled><name>ModifyAllData</name>`, either order). */
function permissionGranted(added: string): string | undefined {
  for (const block of added.split(/<\/userPermissions>/i)) {
    if (!/<enabled>\s*true\s*<\/enabled>/i.test(block)) continue;
    const name = /<name>\s*(\w+)\s*<\/name>/i.exec(block)?.[1];
    const meaning = name === undefined ? undefined : ORG_WIDE_PERMISSIONS.get(name);
    if (meaning !== undefined) return meaning;
  }
  return undefined;
}

function findingIn(file: string, added: string): Finding | undefined {
  if (PERMISSION_FILE.test(file)) {
    const granted = permissionGranted(added);
    if (granted) return { file, what: `grants ${granted}`, evidence: granted };
  }
  if (/\.settings-meta\.xml$/i.test(file) && /<start>\s*0\.0\.0\.0\s*<\/start>/.test(added))
    return {
      file,
      what: 'trusts every IP address (no login verification from anywhere)',
      evidence: '<start>0.0.0.0</start>',
    };
  if (/\.connectedApp-meta\.xml$/i.test(file)) {
    const full = /<scopes>\s*Full\s*<\/scopes>/i.test(added);
    const lasting =
      /<refreshTokenPolicy>\s*infinite\s*<\/refreshTokenPolicy>|<ipRelaxation>\s*BYPASS\s*<\/ipRelaxation>/i.exec(
        added,
      );
    if (full && lasting)
      return { file, what: 'issues full-scope tokens that never expire or skip IP restrictions', evidence: lasting[0] };
  }
  if (/\.sharingRules-meta\.xml$/i.test(file) && /<sharingGuestRules>/i.test(added))
    return {
      file,
      what: "shares records with the site's guest user (any visitor, logged in or not)",
      evidence: '<sharingGuestRules>',
    };
  if (/\.flow-meta\.xml$/i.test(file) && /<recordDeletes>/i.test(added) && /<triggerType>\s*Scheduled/i.test(added))
    return { file, what: 'deletes records on a schedule, every run, once active', evidence: '<recordDeletes>' };
  if (APEX_FILE.test(file) && !isTestFile(file) && !/@IsTest/i.test(added)) {
    const emptied = /\bDatabase\.emptyRecycleBin\s*\(/i.exec(added)?.[0];
    if (emptied)
      return { file, what: 'empties the recycle bin after deleting (nothing left to restore)', evidence: emptied };
    const unshared = /\b(?:public|global)\s+(?:inherited\s+)?without\s+sharing\s+class\s+(\w+)/i.exec(added);
    // What pages and the API call: an @AuraEnabled or REST class, or a controller by its name when an edit shows only its first line.
    if (
      unshared &&
      (/@AuraEnabled|@RestResource|@RemoteAction/i.test(added) || /(Controller|Resource|Api)$/.test(unshared[1] ?? ''))
    )
      return {
        file,
        what: 'runs code a page or the API calls without sharing (every caller reads every record)',
        evidence: unshared[0],
      };
  }
  return undefined;
}

export const salesforceOrgOpened = definePolicy({
  name: 'salesforce-org-opened',
  category: 'infrastructure',
  description:
    'Asks before Salesforce metadata is written that opens or empties the org on deploy: Modify All Data or MFA waived, every IP trusted, never-expiring full-scope tokens, guest sharing, Apex without sharing or emptying the recycle bin.',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    if (!call) return null;
    for (const { file, lines } of linesAdded(call)) {
      const found = findingIn(file, lines.join('\n'));
      if (found)
        return {
          reason: `${found.file} ${found.what}: the next deploy makes it true for the whole org. Approve this exact call if the org should have it.`,
          evidence: evidenceOf(found.evidence),
        };
    }
    return null;
  },
});
