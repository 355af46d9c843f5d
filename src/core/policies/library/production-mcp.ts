// An MCP tool that runs code, deploys, deletes or releases, aimed at a target it names as production: a
// Salesforce org alias (`target_org: "prod"`), an environment, a cloud project, an app store's track.
// Anonymous Apex or a destructive deploy there changes live records and metadata at once, with no change a
// person reviewed behind it, and a release promoted to every user cannot be pulled back from their phones.
// Queries and dry runs pass; statements handed to a database tool are judged by the SQL policies.
import { z } from 'zod';
import { definePolicy, type ToolCall } from '../types';
import { evidenceOf } from '../../facts/commands';
import { PRODUCTION_NAME } from './production-sql';

/**
 * Tool verbs that run code, deploy, delete, or put a release or a config live (`run_anonymous_apex`,
 * `deploy_metadata`, `delete_records`, a store's `promote_release` and `set_rollout`, `remoteconfig_publish`).
 */
const CHANGING_VERB =
  /anonymous|apex|(?:run|exec(?:ute)?)_?(?:code|script)|deploy|delete|destroy|purge|truncate|promote|rollout|publish/i;
/** Verbs that only read, whatever else their name says (`get_deploy_status`, `list_deployments`). */
const READING_VERB = /^(?:get|list|describe|query|search|read|show|status|fetch|view)|_(?:status|logs?|report)$/i;
/** What such a tool names its target with. */
const TARGET_KEYS = [
  ...['target_org', 'targetOrg', 'org', 'org_alias', 'alias', 'target', 'environment', 'env', 'stage'],
  // A cloud project (`ledgerly-prod`), an app store's release track (`production`).
  ...['project', 'project_id', 'projectId', 'track', 'to_track', 'toTrack'],
];
const DRY_RUN_KEYS = ['dry_run', 'dryRun', 'check_only', 'checkOnly', 'validate_only', 'validateOnly'];

function productionTarget(call: ToolCall): { verb: string; target: string } | undefined {
  const [prefix, server = '', ...rest] = call.toolName.split('__');
  const verb = rest.join('__');
  if (prefix !== 'mcp' || !CHANGING_VERB.test(verb) || READING_VERB.test(verb)) return undefined;
  if (DRY_RUN_KEYS.some((key) => call.input[key] === true)) return undefined;
  if (PRODUCTION_NAME.test(server)) return { verb, target: server };
  for (const key of TARGET_KEYS) {
    const value = call.input[key];
    if (typeof value === 'string' && PRODUCTION_NAME.test(value)) return { verb, target: value };
  }
  return undefined;
}

export const mcpChangesProduction = definePolicy({
  name: 'mcp-changes-production',
  category: 'infrastructure',
  description:
    'Asks before an MCP tool runs code, deploys, deletes or releases on a target it names as production (anonymous Apex on a prod org, a destructive deploy, a store rollout); queries and dry runs pass.',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    if (!call) return null;
    const found = productionTarget(call);
    if (!found) return null;
    return {
      reason: `${found.verb} runs on ${found.target}, a production target: what it changes or deletes is live at once, with no reviewed change behind it. Try it on a sandbox first, or approve this exact call.`,
      evidence: evidenceOf(`${call.toolName} ${found.target}`),
    };
  },
});
