import type { ResolvedConfig } from '../config/load';
import { FaceBook } from '../config/faces';
import type { ToolFace } from '../config/faces';
import { IoFacts, NO_FACT_SOURCE } from '../facts/io';
import type { ToolCall } from '../policies/types';
import type { DeterministicInput, DeterministicResult } from './run';
import type { ThreadMemory } from './threadMemory';

// Messages between the host and its evaluation workers. Both ends are this bundle's own code, so the
// shapes are typed rather than parsed; only the config needs rebuilding (a class does not cross threads).
// A call and its result cross as JSON text: both came from JSON and are plain data, and V8 writes and
// reads JSON faster than it clones an object graph (whose reader builds each object one slow property
// at a time), on the host's thread as on the worker's.

export type WireConfig = Omit<ResolvedConfig, 'faces'> & { faceEntries: [string, ToolFace][] };

export type ToWorker =
  | { type: 'config'; configId: number; config: WireConfig }
  | { type: 'run'; id: number; configId: number; input: string }
  /** The worker's turn to compile WebAssembly (see treesitter/loader's CompileGate). */
  | { type: 'compile-go' }
  /** Where the worker's memory sits (only when serve reports its figures, AGENT_WARDEN_STATS=1). */
  | { type: 'memory'; thread: string };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  | { type: 'result'; id: number; result: string }
  | { type: 'error'; id: number; message: string }
  | { type: 'compile-turn' }
  | { type: 'compile-done' }
  | { type: 'memory'; reading: ThreadMemory };

/** A result as it crosses threads: the call's I/O view (it holds the file system) becomes its answers. */
type WireResult = Omit<DeterministicResult, 'call'> & { call?: Omit<ToolCall, 'io'> };

export function inputToWire(input: DeterministicInput): string {
  return JSON.stringify(input);
}

export function inputFromWire(text: string): DeterministicInput {
  return JSON.parse(text) as DeterministicInput;
}

export function resultToWire(result: DeterministicResult): string {
  const { call, ...rest } = result;
  if (!call) return JSON.stringify(rest);
  const { io, ...plain } = call;
  void io;
  const wire: WireResult = { ...rest, call: plain };
  return JSON.stringify(wire);
}

/** The result on the host's side: the call's I/O view answers nothing more, and keeps what was asked. */
export function resultFromWire(text: string): DeterministicResult {
  const { call, ...rest } = JSON.parse(text) as WireResult;
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
