// The secret redactor: runs before anything leaves the process or reaches disk.
export { Redactor } from './redactor';
export { allowlistHash } from './allowlist';
export { MAX_JSON_DEPTH, isPlainObject, memberPath } from './json-walk';
export type { RedactionAllowlist, RedactionFinding, RedactionMode, RedactionResult } from './types';
