// An MCP tool that runs code, deploys or deletes, aimed at a target it names as production: a
// Salesforce org alias (`target_org: "prod"`), an environment, an app. Anonymous Apex or a destructive
// deploy there changes live records and metadata at once, with no change a person reviewed behind it,
// and a recycle bin emptied in the same breath leaves nothing to restore. Queries and dry runs pass;
// statements handed to a database tool are judged by the SQL policies.
import { z } from 'zod';
import { definePolicy, type ToolCall } from '../types';
import { evidenceOf } from '../../facts/commands';
import { PRODUCTION_NAME } from './production-sql';

/** Tool verbs that run code, deploy or delete (`run_anonymous_apex`, `deploy_metadata`, `delete_records`). */
const CHANGING_VERB = /anonymous|apex|(?:run|exec(?:ute)?)_?(?:code|script)|deploy|delete|destroy|purge|truncate/i;
/** Verbs that only read, whatever else their name says (`get_deploy_status`, `list_deployments`). */
const READING_VERB = /^(?:get|list|describe|query|search|read|show|status|fetch|view)|_(?:status|logs?|report)$/i;
/** What such a tool names its target with. */
const TARGET_KEYS = ['target_org', 'targetOrg', 'org', 'org_alias', 'alias', 'target', 'environment', 'env', 'stage'];
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
    'Asks before an MCP tool runs code, deploys or deletes on a target it names as production (anonymous Apex on a prod org, a destructive metadata deploy); queries and dry runs pass.',
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
