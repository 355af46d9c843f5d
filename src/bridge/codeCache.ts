import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { stateDir } from '../core/state';

// Loads a CommonJS bundle through V8's code cache, so the in-process fallback
// does not recompile 1.3 MB of JavaScript on every call. The cache
// lives in the state folder (0700, guarded by Warden's own policies like the
// rest of it) and is keyed by the bundle's size and mtime; V8 refuses data made
// for other source or another V8, and then the bundle is compiled normally.
// The cache is written once the bundle's top level has run, before anything
// changes a V8 flag (see below). V8 checks only a header of
// cached data in release builds, and a crash on damaged data would end the
// hook without a verdict, so each file starts with the SHA-256 of the rest and
// data that does not match it is never handed to V8.
const DIGEST_BYTES = 32;

function sha256(data: Buffer): Buffer {
  return createHash('sha256').update(data).digest();
}

function cacheFile(bundle: string, env: NodeJS.ProcessEnv): string {
  const stat = statSync(bundle);
  const home = stateDir(env);
  const tag = `${basename(bundle)}-${stat.size}-${Math.floor(stat.mtimeMs)}-${process.versions.v8}`;
  return join(home, 'code-cache', `${tag.replace(/[^\w.-]/g, '_')}.bin`);
}

function readCache(path: string): Buffer | undefined {
  let file: Buffer;
  try {
    file = readFileSync(path);
  } catch {
    return undefined;
  }
  if (file.length <= DIGEST_BYTES) return undefined;
  const data = file.subarray(DIGEST_BYTES);
  return sha256(data).equals(file.subarray(0, DIGEST_BYTES)) ? data : undefined;
}

function writeCache(path: string, data: Buffer): void {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, Buffer.concat([sha256(data), data]), { mode: 0o600 });
    renameSync(tmp, path);
  } catch {
    // A cache that cannot be written only costs speed.
  }
}

/** require() of a bundle, compiled with the code cache unless AGENT_WARDEN_CODE_CACHE=0. */
export function loadWithCodeCache(bundle: string, env: NodeJS.ProcessEnv): unknown {
  if (env.AGENT_WARDEN_CODE_CACHE === '0') return createRequire(bundle)(bundle);
  const path = cacheFile(bundle, env);
  const cached = readCache(path);
  const source = readFileSync(bundle, 'utf8').replace(/^#!.*/, '');
  const script = new Script(Module.wrap(source), {
    filename: bundle,
    ...(cached ? { cachedData: cached } : {}),
  });
  const module = { exports: {} as unknown, id: bundle, filename: bundle, loaded: false };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(module.exports, module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  module.loaded = true;
  // Written now, not at exit: evaluating sets V8 flags for a moment (the parser's WebAssembly is
  // compiled baseline-only), and data made after any flag change carries another flag hash, which
  // V8 rejects in every later process (so a cache written at exit was rewritten on every call).
  if (!cached || script.cachedDataRejected) writeCache(path, script.createCachedData());
  return module.exports;
}
