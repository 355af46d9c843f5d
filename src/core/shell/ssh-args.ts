// ssh's words read once: its flags, its options with their values, the destination and the remote
// command. OpenSSH reads options after the destination too, up to the first word that is not one.

/** ssh's options that take a value (in a cluster such as `-fNL …`, the first of them takes the rest). */
export const SSH_VALUE_LETTERS = 'BbcDEeFIiJLlmOoPpQRSWw';

export interface SshArgs {
  /** Letters given as flags (`-A`, `-g`, each letter of `-fNT`). */
  flags: Set<string>;
  /** Options with a value, in order (`-L 0.0.0.0:80:web:80` → { letter: 'L', value: '0.0.0.0:80:web:80' }). */
  values: { letter: string; value: string }[];
  /** The destination as written (`deploy@bastion.example.com`), when there is one. */
  destination?: string;
  /** The words after the destination's options: the remote command. */
  command: string[];
}

/** Reads ssh's words (without the program's name). */
export function parseSshArgs(args: readonly string[]): SshArgs {
  const parsed: SshArgs = { flags: new Set(), values: [], command: [] };
  let i = 0;
  for (; i < args.length; i++) {
    const word = args[i] ?? '';
    if (word === '--') {
      i++;
      break;
    }
    if (!/^-[a-zA-Z]/.test(word)) {
      if (parsed.destination !== undefined) break;
      parsed.destination = word;
      continue;
    }
    for (let k = 1; k < word.length; k++) {
      const letter = word[k] ?? '';
      if (!SSH_VALUE_LETTERS.includes(letter)) {
        parsed.flags.add(letter);
        continue;
      }
      const value = k + 1 < word.length ? word.slice(k + 1) : (args[++i] ?? '');
      parsed.values.push({ letter, value });
      break;
    }
  }
  if (parsed.destination === undefined && i < args.length) parsed.destination = args[i++];
  parsed.command = args.slice(i);
  return parsed;
}

/** The host of a destination: `user@host`, `ssh://user@host:port` and `host:port` read as `host`. */
export function sshHost(destination: string): string {
  return destination
    .replace(/^ssh:\/\//, '')
    .replace(/^[^@]*@/, '')
    .replace(/:\d+$/, '');
}
