// dist/hook.js: the command bridge's entry, which agents run before every tool call. It runs the
// bridge (dist/hook-main.js) through V8's code cache: compiling the bridge's functions on every call
// costs more than reading the cache and node:vm, and Node 20 has no compile cache of its own.
import { join } from 'node:path';
import { loadWithCodeCache } from './bridge/codeCache';

loadWithCodeCache(join(__dirname, 'hook-main.js'), process.env);
