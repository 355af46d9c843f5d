import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, writeSync, renameSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { homedir, userInfo } from 'node:os';
import { isAbsolute, join } from 'node:path';

/**
 * The user's home folder. A HOME that is not an absolute path here (empty, relative, or a Windows path
 * on Linux) would put the state folder inside whatever folder Warden runs in, a project an agent
 * reads; the account's own home folder is used instead.
 */
export function userHome(): string {
  const home = homedir();
  if (isAbsolute(home)) return home;
  const account = userInfo().homedir;
  if (isAbsolute(account)) return account;
  throw new Error(`no home folder to keep Warden's state in: HOME is "${home}"; set AGENT_WARDEN_HOME to a folder`);
}

/** The user-level state folder: tokens, the activity log, the user config, endpoint records. */
export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.AGENT_WARDEN_HOME && env.AGENT_WARDEN_HOME.trim() !== ''
    ? env.AGENT_WARDEN_HOME
    : join(userHome(), '.agent-warden');
}

export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/** Writes a file only its owner can read, atomically (write then rename). */
export function writePrivateFile(path: string, content: string | Buffer): void {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    if (typeof content === 'string') writeSync(fd, content);
    else writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}

/**
 * Reads a secret kept in the state folder, creating it on first use. Two
 * processes racing to create it end up with one value: creation is exclusive.
 */
export function readOrCreateSecret(path: string, create: () => string): string {
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  const value = create();
  try {
    const fd = openSync(path, 'wx', 0o600);
    try {
      writeSync(fd, value + '\n');
    } finally {
      closeSync(fd);
    }
    return value;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(path, 'utf8').trim();
    throw err;
  }
}

export function newToken(): string {
  // 256 bits, URL-safe, so it can sit in a header or a URL query.
  return randomBytes(32).toString('base64url');
}

export interface StatePaths {
  dir: string;
  hookTokenFile: string;
  logFile: string;
  logKeyFile: string;
  userConfig: string;
  endpointsDir: string;
}

export function statePaths(dir: string): StatePaths {
  return {
    dir,
    hookTokenFile: join(dir, 'hook-token'),
    logFile: join(dir, 'activity.jsonl'),
    logKeyFile: join(dir, 'log-key'),
    userConfig: join(dir, 'config.json'),
    endpointsDir: join(dir, 'endpoints'),
  };
}
