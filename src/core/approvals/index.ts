// The approvals core in one import for the hosts (server, extension, CLI).

export { canonicalJson, CanonicalJsonError } from './canonical';
export { checkBindable, MAX_NESTING_DEPTH, type Bindability } from './bindable';
export { findDuplicateKey, findNonFiniteNumber, scanJsonText, type RawScanVisitor } from './rawJsonScan';
export { formatPath, type PathSegment } from './jsonPath';
export {
  argsDigest,
  bindArgs,
  DIGEST_PREFIX,
  HOOK_BODY_LOCATIONS,
  NotBindableError,
  type ArgsBinding,
  type BoundLocations,
} from './digest';
export { bindableFromBody, findRawProblem, type BodyBinding } from './bodyBinding';
export { runDigest, type DigestOutcome } from './digestCommand';
export {
  ApprovalLedger,
  DEFAULT_APPROVAL_TIMEOUT_SECONDS,
  systemClock,
  type LedgerClock,
  type LedgerOptions,
  type OpenedApproval,
  type OpenRequest,
} from './ledger';
export {
  approvalLine,
  approvalSummary,
  type ApprovalLine,
  type ApprovalState,
  type ApprovalSummary,
} from './approvalLine';
export type * from './approvalTypes';
