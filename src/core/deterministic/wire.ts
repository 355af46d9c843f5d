import type { ResolvedConfig } from '../config/load';
import { FaceBook } from '../policies/faces';
import type { ToolFace } from '../policies/faces';
import type { DeterministicInput, DeterministicResult } from './run';

// Messages between the host and its evaluation workers. Both ends are this bundle's own code, so the
// shapes are typed rather than parsed; only the config needs rebuilding (a class does not cross threads).

export type WireConfig = Omit<ResolvedConfig, 'faces'> & { faceEntries: [string, ToolFace][] };

export type ToWorker =
  | { type: 'config'; configId: number; config: WireConfig }
  | { type: 'run'; id: number; configId: number; input: DeterministicInput };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  | { type: 'result'; id: number; result: DeterministicResult }
  | { type: 'error'; id: number; message: string };

export function configToWire(config: ResolvedConfig): WireConfig {
  const { faces, ...rest } = config;
  return { ...rest, faceEntries: faces.configuredEntries() };
}

export function configFromWire(wire: WireConfig): ResolvedConfig {
  const { faceEntries, ...rest } = wire;
  return { ...rest, faces: new FaceBook(new Map(faceEntries)) };
}
