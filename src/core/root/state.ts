import { randomBytes } from 'node:crypto';
import { readOrCreateEndpointKey, readEndpointKey } from '../endpointAuth';
import { endpointFor, removeEndpointRecord, writeEndpointRecord, type EndpointRecord } from '../endpoints';
import { writeBridgePublicKey } from '../shellBridgeAuth';
import { confirmationStore, type ConfirmationStore } from '../config/confirmations';
import { ensurePrivateDir, newToken, readOrCreateSecret, stateDir, statePaths, type StatePaths } from '../state';

// The state-folder layer of the composition root: paths, keys, the hook token
// and the endpoint records. It reaches nothing of the evaluation core (no
// parser, no policies, no zod); the command bridge reads the same files through
// the modules below it, without this layer's node:crypto.

export interface WardenState {
  readonly paths: StatePaths;
  /** The key of the activity log's keyed digests and the redaction allow-list. */
  logKey(): Buffer;
  /** The MAC key of endpoint records, bridge replies and config confirmations; created on first use. */
  endpointKey(): Buffer;
  /** The key if it exists, without creating it (readers that only verify). */
  existingEndpointKey(): Buffer | undefined;
  hookToken(): string;
  /** The verified, live endpoint serving a project. */
  endpointFor(projectRoot: string, onRefused?: (file: string, problem: string) => void): EndpointRecord | undefined;
  /** What a person confirmed per config file, under the endpoint key. */
  confirmations(): ConfirmationStore;
  /** Signs and writes this process's record; returns a function that removes it. */
  recordEndpoint(record: Omit<EndpointRecord, 'pid' | 'startedAt' | 'tokenFile'>): () => void;
}

export function openState(env: NodeJS.ProcessEnv = process.env): WardenState {
  const paths = statePaths(stateDir(env));
  let logKey: Buffer | undefined;
  let endpointKey: Buffer | undefined;
  let confirmations: ConfirmationStore | undefined;
  const ensureDir = () => ensurePrivateDir(paths.dir);
  return {
    paths,
    confirmations() {
      confirmations ??= confirmationStore(paths.dir, () => {
        try {
          return this.endpointKey();
        } catch {
          return undefined;
        }
      });
      return confirmations;
    },
    logKey() {
      ensureDir();
      logKey ??= Buffer.from(
        readOrCreateSecret(paths.logKeyFile, () => randomBytes(32).toString('hex')),
        'hex',
      );
      return logKey;
    },
    endpointKey() {
      ensureDir();
      endpointKey ??= readOrCreateEndpointKey(paths.dir);
      return endpointKey;
    },
    existingEndpointKey() {
      return endpointKey ?? readEndpointKey(paths.dir);
    },
    hookToken() {
      ensureDir();
      return readOrCreateSecret(paths.hookTokenFile, newToken);
    },
    endpointFor(projectRoot, onRefused) {
      return endpointFor(paths.endpointsDir, this.existingEndpointKey(), projectRoot, onRefused);
    },
    recordEndpoint(record) {
      // The shell bridge checks the record and the replies with the public key.
      writeBridgePublicKey(paths.dir, this.endpointKey());
      const file = writeEndpointRecord(paths.endpointsDir, this.endpointKey(), {
        ...record,
        tokenFile: paths.hookTokenFile,
        pid: process.pid,
        startedAt: new Date().toISOString(),
      });
      return () => removeEndpointRecord(file);
    },
  };
}
