import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bridgePublicKeyPem, signShellReply, shellReplyText } from '../shellBridgeAuth';
import { shellQuote } from '../shell/quote';

// Which bridge a command hook runs. The shell bridge (dist/hook.sh: sh, curl and
// openssl) starts faster than Node and hands every call it cannot forward
// exactly to the Node bridge beside it; it is installed only where a probe shows
// this machine's sh, curl and openssl verify a signature the way the bridge does.

/** By its absolute path: a `sh` earlier on the agent's PATH could be a program the agent wrote. */
const SYSTEM_SH = '/bin/sh';

/** The message install's probe signs: the shape of a real reply, so the probe checks what the bridge will. */
const PROBE_NONCE = '0123456789abcdef0123456789abcdef';
const PROBE_BODY = '{"probe":"agent-warden"}';

/** Whether `sh hook.sh --probe` verifies a reply signed as an endpoint signs one, on this machine. */
export function shellBridgeWorks(hookSh: string, platform: NodeJS.Platform = process.platform): boolean {
  if (platform === 'win32' || !existsSync(hookSh)) return false;
  const dir = mkdtempSync(join(tmpdir(), 'agent-warden-probe-'));
  try {
    const key = randomBytes(32);
    const publicKey = join(dir, 'bridge-key.pem');
    writeFileSync(publicKey, bridgePublicKeyPem(key));
    const signature = signShellReply(key, PROBE_NONCE, PROBE_BODY);
    // The probe's here-document adds the final newline the signed text ends with.
    const message = shellReplyText(PROBE_NONCE, PROBE_BODY).replace(/\n$/, '');
    const run = spawnSync(SYSTEM_SH, [hookSh, '--probe', publicKey, signature, message], { timeout: 10_000 });
    return run.status === 0;
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A path as one word of a hook command: in double quotes, which every shell an agent may run hook
 * commands with reads the same way (cmd.exe included); in POSIX single quotes when the path holds a
 * character double quotes would expand or end on.
 */
function commandWord(path: string): string {
  return /["$`\\]/.test(path) ? shellQuote(path) : `"${path}"`;
}

/**
 * The hook command for a command agent: `sh hook.sh NODE` where the probe passes, else
 * `NODE hook.js`. `node` is the path of the Node to run (or a name the agent's PATH resolves).
 */
export function bridgeCommandFor(distDir: string, node: string): string {
  const hookSh = join(distDir, 'hook.sh');
  const nodeWord = commandWord(node);
  return shellBridgeWorks(hookSh)
    ? `${SYSTEM_SH} ${commandWord(hookSh)} ${nodeWord}`
    : `${nodeWord} ${commandWord(join(distDir, 'hook.js'))}`;
}
