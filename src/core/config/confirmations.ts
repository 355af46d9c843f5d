import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensurePrivateDir, writePrivateFile } from '../state';

// What a person last confirmed for each config file (or what has only tightened
// since), kept in the state folder under a MAC with the endpoint key. The agent
// can write config files and the state folder's plain files, but not forge this
// MAC, so a one-shot process (check, the bridge's fallback) can tell a confirmed
// loosening from one an agent wrote. No zod here: the text is parsed by the loader.

export interface Confirmation {
  /**
   * The file's exact text when confirmed; null: the file was absent. After a change whose
   * tightening part applied on its own, the settings then in force, as JSON.
   */
  text: string | null;
  confirmedAt: string;
  /** 'person' (the editor's UI, serve's terminal) or 'tightening' (applied at once, no person needed). */
  by: 'person' | 'tightening';
}

export interface ConfirmationStore {
  /** The verified confirmation for a config file, or undefined (none, or one that does not verify). */
  get(configPath: string): Confirmation | undefined;
  /** Records the text of a config file as confirmed. */
  confirm(configPath: string, text: string | null, by: Confirmation['by']): void;
  /** Changes whenever the file's confirmation changes (for hot reload). */
  stamp(configPath: string): string;
}

const DIR = 'confirmed-config';

function macOf(key: Buffer, path: string, c: Confirmation): string {
  const text = JSON.stringify(['config-confirmation', path, c.text, c.confirmedAt, c.by]);
  return createHmac('sha256', key).update(text, 'utf8').digest('hex');
}

export function confirmationStore(stateDir: string, key: () => Buffer | undefined): ConfirmationStore {
  const dir = join(stateDir, DIR);
  const fileFor = (configPath: string) =>
    join(dir, createHash('sha256').update(resolve(configPath)).digest('hex').slice(0, 40) + '.json');
  return {
    get(configPath) {
      const k = key();
      if (!k) return undefined;
      let value: unknown;
      try {
        value = JSON.parse(readFileSync(fileFor(configPath), 'utf8'));
      } catch {
        return undefined;
      }
      if (typeof value !== 'object' || value === null) return undefined;
      const v = value as Record<string, unknown>;
      if (
        v.path !== resolve(configPath) ||
        !(typeof v.text === 'string' || v.text === null) ||
        typeof v.confirmedAt !== 'string' ||
        (v.by !== 'person' && v.by !== 'tightening') ||
        typeof v.mac !== 'string'
      )
        return undefined;
      const confirmation: Confirmation = { text: v.text, confirmedAt: v.confirmedAt, by: v.by };
      const expected = Buffer.from(macOf(k, v.path, confirmation), 'hex');
      const given = Buffer.from(v.mac, 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected) ? confirmation : undefined;
    },
    confirm(configPath, text, by) {
      const k = key();
      if (!k) throw new Error('the endpoint key is missing, so no confirmation can be recorded');
      ensurePrivateDir(dir);
      const confirmation: Confirmation = { text, confirmedAt: new Date().toISOString(), by };
      const path = resolve(configPath);
      writePrivateFile(
        fileFor(configPath),
        JSON.stringify({ path, ...confirmation, mac: macOf(k, path, confirmation) }) + '\n',
      );
    },
    stamp(configPath) {
      try {
        const st = statSync(fileFor(configPath));
        return `${st.mtimeMs}:${st.size}:${st.ino}`;
      } catch {
        return 'none';
      }
    },
  };
}
