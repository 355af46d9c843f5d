// Entry of the evaluation worker (dist/evalWorker.js) that serve and the extension run calls in.
import { serveDeterministicCalls } from './core/deterministic/worker';
import { ALL_POLICIES } from './core/policies/registry';

serveDeterministicCalls(ALL_POLICIES);
