import type { ResolvedConfig } from '../config/load';
import type { DeterministicInput, DeterministicResult } from './run';

/** Why a call got no deterministic answer in time: the budget ran out, or it never got a free evaluator. */
export type Unread = { ok: false; why: 'over-budget' | 'no-evaluator' | 'evaluator-lost'; detail: string };

export type DeterministicAnswer = ({ ok: true } & DeterministicResult) | Unread;

/** Where the deterministic tier runs: in-process, or in workers a deadline can stop. */
export interface DeterministicRunner {
  run(input: DeterministicInput, config: ResolvedConfig): Promise<DeterministicAnswer>;
  close(): Promise<void>;
}
