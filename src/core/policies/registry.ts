import type { AnyPolicy } from './types';
import { wardenSelfDefence } from './library/self-defence';
import { editorCodeConfig } from './library/editor-config';
import { agentConfigTampering, nestedAgentPermissionBypass, wardenSelfProtection } from './library/agent-integrity';
import { recursiveDeleteOutsideProject, sudo } from './library/dangerous-commands';
import { projectFilesDestroyed } from './library/project-destruction';
import { hiddenTextInCall } from './library/hidden-text';
import { webShellWritten } from './library/web-shell';
import { dataOpenedToEveryone } from './library/open-data';
import {
  databaseCliReset,
  sqlDropOrTruncate,
  sqlServerSideEffects,
  sqlSchemaChange,
  sqlWriteWithoutWhere,
} from './library/database';
import { sqlExportToStorage, sqlHistoryOrDataLost } from './library/warehouse-sql';
import { sqlWriteToProduction } from './library/production-sql';
import { mcpChangesProduction } from './library/production-mcp';
import { salesforceOrgOpened } from './library/salesforce-metadata';
import { releaseAppOpened } from './library/mobile-release';
import { defaultTargetProduction } from './library/default-target';
import { changesHiddenFromReview } from './library/review-hidden';
import { endpointMovedElsewhere } from './library/endpoint-moves';
import { largeFileWrite, persistenceMechanisms, writeOutsideProject } from './library/filesystem';
import {
  gitAddAll,
  gitAmend,
  gitDiscardWork,
  gitHistoryRewrite,
  gitSkipHooks,
  gitStashDrop,
} from './library/git-local';
import { gitForcePush, gitPushProtectedBranch, gitRemoteBranchDelete } from './library/git-push';
import {
  awsDestructive,
  azureDestructive,
  backupDeletion,
  dockerDestructiveCleanup,
  gcloudDestructive,
  ghWorkflowAndRepo,
  helmReleaseChange,
  kubectlMutation,
  pulumiUpdateDestroy,
  terraformApplyDestroy,
  cdkDeployDestroy,
} from './library/infrastructure';
import { perforceDepotChange } from './library/perforce';
import { exposeLocalService, suspiciousNetworkDestination } from './library/network';
import { clusterPrivilegeGrant } from './library/cluster-grants';
import { containerImageFromUnknownRegistry } from './library/container-sources';
import { infrastructureCodeExposure } from './library/infrastructure-code';
import { secretsInToolOutput } from './library/output-sanitizing';
import {
  backgroundProcess,
  globalPackageInstall,
  packageFromUntrustedSource,
  packageManagerPreference,
  packagePublish,
} from './library/packages';
import {
  downloadIntoAutoLoadedFile,
  downloadPipedToShell,
  encodedCommandExecution,
  reverseShell,
} from './library/remote-code';
import {
  browserSessionRead,
  envDumpToNetwork,
  envDumpToFile,
  gitAddSecretFiles,
  secretFileRead,
  secretIgnoreRemoved,
  secretInCommandLine,
  secretWrittenToFile,
} from './library/secrets';
import {
  firewallOrSecurityOff,
  logAndHistoryTampering,
  systemPower,
  systemServiceChanges,
} from './library/system-admin';
import { containerHostEscape, diskWipe, forkBomb, massProcessKill, permissionBlowup } from './library/system-damage';
import { deviceLockedForGood } from './library/device-lock';
import { othersBatchJobsCancelled } from './library/batch-jobs';
import { wpCliLiveSiteChange } from './library/wp-cli';
import { taintedNetworkEgress } from './library/taint';
import { commandHiddenInOptions } from './library/hidden-commands';
import { dataOutToHost } from './library/exfiltration';
import { agentInstructionsChange } from './library/agent-instructions';
import { gitConfigRunsCode } from './library/git-config-code';
import { gitRemoteRedirect } from './library/git-remote-redirect';
import { serviceEndpointMovedOutside } from './library/endpoint-redirect';
import { sqlSelectsSecretColumns } from './library/sql-secret-columns';
import { codeToOutsideRepository } from './library/outside-repositories';
import { secretBakedIntoImage } from './library/image-secrets';
import { deletionProtectionRemoved } from './library/deletion-protection';
import { migrationDropsTable } from './library/migration-drops';
import { loginTurnedOff } from './library/login-turned-off';
import { pageLoadsOutsideScript } from './library/page-scripts';
import { toolConfigLoadsCode } from './library/tool-config-code';
import { modelLoadRunsCode } from './library/model-loading';
import { appPlatformAccessGrant, appPlatformDestructive } from './library/app-platforms';
import { httpDeleteRequest } from './library/http-deletes';
import { objectStoreClientChange } from './library/object-store-client';
import { apiAccessGrant } from './library/api-grants';
import { electronProtectionOff } from './library/electron-hardening';
import { hookOutsideProject } from './library/hooks-outside-project';
import { dataPlatformDestructive } from './library/data-platforms';
import { chainTransaction } from './library/chain-transactions';
import { macosProtectionBypass } from './library/macos-protections';
import { metadataAndLocalServices } from './library/local-services';
import { credentialPrintingCommands } from './library/credential-commands';
import { unreadCall } from './library/unread';
import { connectedDeviceHarm } from './library/android-devices';
import {
  ciActionOnMovingRef,
  ciExpandsAllSecrets,
  ciRunsPullRequestCode,
  ciSecretUnmasked,
  ciTokenWriteAll,
} from './library/ci-workflows';
import { ciUntrustedTextInScript } from './library/ci-script-injection';
import { mcpAccessGrantingTool, mcpDeletingTool, mcpSecretReadingTool } from './library/mcp-tools';
import { mcpServiceArguments } from './library/mcp-service-arguments';
import { modelHubChange } from './library/model-hub';
import { encodedCommandWritten } from './library/encoded-writes';
import { codeSendsDataOut } from './library/code-sends';
import { repeatedIdenticalCalls, stopWithUncommittedWork, stopWithUnpushedCommits } from './library/workflow';
import { windowsPersistence, windowsScriptRunners } from './library/windows-system';
import { packageLookalike } from './library/package-lookalike';
import { clientBundleSecrets } from './library/client-bundle-secrets';

/** Every deterministic policy, in the order their outcomes are listed (self-protection first). */
export const ALL_POLICIES: AnyPolicy[] = [
  wardenSelfProtection,
  wardenSelfDefence,
  editorCodeConfig,
  ciRunsPullRequestCode,
  ciActionOnMovingRef,
  ciExpandsAllSecrets,
  ciSecretUnmasked,
  ciTokenWriteAll,
  ciUntrustedTextInScript,
  mcpDeletingTool,
  mcpServiceArguments,
  mcpAccessGrantingTool,
  mcpSecretReadingTool,
  agentConfigTampering,
  nestedAgentPermissionBypass,
  agentInstructionsChange,
  unreadCall,
  recursiveDeleteOutsideProject,
  sudo,
  downloadPipedToShell,
  windowsScriptRunners,
  downloadIntoAutoLoadedFile,
  commandHiddenInOptions,
  metadataAndLocalServices,
  encodedCommandExecution,
  encodedCommandWritten,
  codeSendsDataOut,
  reverseShell,
  forkBomb,
  diskWipe,
  deviceLockedForGood,
  connectedDeviceHarm,
  othersBatchJobsCancelled,
  wpCliLiveSiteChange,
  permissionBlowup,
  massProcessKill,
  containerHostEscape,
  secretFileRead,
  credentialPrintingCommands,
  secretWrittenToFile,
  secretBakedIntoImage,
  envDumpToNetwork,
  envDumpToFile,
  hiddenTextInCall,
  webShellWritten,
  dataOpenedToEveryone,
  dataOutToHost,
  codeToOutsideRepository,
  loginTurnedOff,
  pageLoadsOutsideScript,
  secretInCommandLine,
  browserSessionRead,
  gitAddSecretFiles,
  secretIgnoreRemoved,
  writeOutsideProject,
  persistenceMechanisms,
  windowsPersistence,
  gitConfigRunsCode,
  gitRemoteRedirect,
  serviceEndpointMovedOutside,
  toolConfigLoadsCode,
  modelLoadRunsCode,
  gitForcePush,
  gitPushProtectedBranch,
  gitRemoteBranchDelete,
  gitHistoryRewrite,
  gitAmend,
  gitStashDrop,
  gitAddAll,
  gitDiscardWork,
  gitSkipHooks,
  kubectlMutation,
  terraformApplyDestroy,
  awsDestructive,
  gcloudDestructive,
  azureDestructive,
  helmReleaseChange,
  perforceDepotChange,
  ghWorkflowAndRepo,
  deletionProtectionRemoved,
  migrationDropsTable,
  pulumiUpdateDestroy,
  cdkDeployDestroy,
  dockerDestructiveCleanup,
  backupDeletion,
  clusterPrivilegeGrant,
  containerImageFromUnknownRegistry,
  infrastructureCodeExposure,
  appPlatformDestructive,
  appPlatformAccessGrant,
  httpDeleteRequest,
  objectStoreClientChange,
  modelHubChange,
  apiAccessGrant,
  electronProtectionOff,
  hookOutsideProject,
  dataPlatformDestructive,
  chainTransaction,
  macosProtectionBypass,
  sqlDropOrTruncate,
  sqlServerSideEffects,
  sqlExportToStorage,
  sqlHistoryOrDataLost,
  sqlWriteWithoutWhere,
  sqlWriteToProduction,
  mcpChangesProduction,
  salesforceOrgOpened,
  releaseAppOpened,
  defaultTargetProduction,
  changesHiddenFromReview,
  endpointMovedElsewhere,
  sqlSelectsSecretColumns,
  sqlSchemaChange,
  databaseCliReset,
  packagePublish,
  globalPackageInstall,
  packageManagerPreference,
  packageFromUntrustedSource,
  packageLookalike,
  clientBundleSecrets,
  largeFileWrite,
  backgroundProcess,
  systemPower,
  firewallOrSecurityOff,
  systemServiceChanges,
  logAndHistoryTampering,
  suspiciousNetworkDestination,
  exposeLocalService,
  secretsInToolOutput,
  repeatedIdenticalCalls,
  stopWithUncommittedWork,
  stopWithUnpushedCommits,
  taintedNetworkEgress,
  projectFilesDestroyed,
];

export function policyByName(name: string): AnyPolicy | undefined {
  return ALL_POLICIES.find((p) => p.name === name);
}
