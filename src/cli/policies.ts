import { findProjectRoot } from '../core/project';
import { formatPolicyTable, listPolicies } from '../core/policies/list';
import type { Core } from './common';

export function policiesCommand(core: Core, json: boolean): number {
  const listing = listPolicies(core.evaluator.policyStates(findProjectRoot(process.cwd())));
  core.log.close();
  process.stdout.write(json ? JSON.stringify(listing, null, 2) + '\n' : formatPolicyTable(listing));
  return 0;
}
