import type { ResolvedConfig } from '../config/load';
import { FaceBook } from '../config/faces';
import type { ToolFace } from '../config/faces';
import { IoFacts, NO_FACT_SOURCE } from '../facts/io';
import type { ToolCall } from '../policies/types';
import type { DeterministicInput, DeterministicResult } from './run';

// Messages between the host and its evaluation workers. Both ends are this bundle's own code, so the
// shapes are typed rather than parsed; only the config needs rebuilding (a class does not cross threads).

export type WireConfig = Omit<ResolvedConfig, 'faces'> & { faceEntries: [string, ToolFace][] };

export type ToWorker =
  | { type: 'config'; configId: number; config: WireConfig }
  | { type: 'run'; id: number; configId: number; input: DeterministicInput }
  /** The worker's turn to compile WebAssembly (see treesitter/loader's CompileGate). */
  | { type: 'compile-go' };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  | { type: 'result'; id: number; result: WireResult }
  | { type: 'error'; id: number; message: string }
  | { type: 'compile-turn' }
  | { type: 'compile-done' };

/** A result as it crosses threads: the call's I/O view (it holds the file system) becomes its answers. */
export type WireResult = Omit<DeterministicResult, 'call'> & { call?: Omit<ToolCall, 'io'> };

export function resultToWire(result: DeterministicResult): WireResult {
  const { call, ...rest } = result;
  if (!call) return rest;
  const { io, ...plain } = call;
  void io;
  return { ...rest, call: plain };
}

/** The result on the host's side: the call's I/O view answers nothing more, and keeps what was asked. */
export function resultFromWire(wire: WireResult): DeterministicResult {
  const { call, ...rest } = wire;
  if (!call) return rest;
  const io = new IoFacts(NO_FACT_SOURCE);
  io.records.push(...rest.ioRecords);
  return { ...rest, call: { ...call, io } };
}

export function configToWire(config: ResolvedConfig): WireConfig {
  const { faces, ...rest } = config;
  return { ...rest, faceEntries: faces.configuredEntries() };
}

export function configFromWire(wire: WireConfig): ResolvedConfig {
  const { faceEntries, ...rest } = wire;
  return { ...rest, faces: new FaceBook(new Map(faceEntries)) };
}
