// Interpreter code read as the interpreter would: what it runs, reads, writes, deletes, sends and
// what could not be read. One-shot hosts await loadCodeGrammars() once at start; an evaluation
// worker loads a grammar when a call first needs it (loadWantedGrammars).
export { analyzeCode, MAX_CODE_SIZE } from './analyze';
export { loadCodeGrammars, loadWantedGrammars, takeWantedGrammars } from './parse';
export { INTERPRETER_CODE_READER } from './reader';
export { MAX_EVAL_DEPTH } from './collector';
export type { CodeEffect, CodeLanguage } from './types';
