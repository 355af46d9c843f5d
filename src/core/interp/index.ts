// Interpreter code read as the interpreter would: what it runs, reads, writes, deletes, sends and
// what could not be read. Hosts await loadCodeGrammars() once at start, like initShellParser().
export { analyzeCode, MAX_CODE_SIZE } from './analyze';
export { loadCodeGrammars } from './parse';
export { INTERPRETER_CODE_READER } from './reader';
export { MAX_EVAL_DEPTH } from './collector';
export type { CodeEffect, CodeLanguage } from './types';
