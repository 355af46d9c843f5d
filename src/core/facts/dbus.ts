// D-Bus calls made from the command line (gdbus, busctl, dbus-send, qdbus): the service they go to and
// the method they call, for what the session's services do on request (GNOME Shell's Eval runs
// JavaScript in the desktop, systemd starts a unit made on the spot, the Secret Service hands out
// passwords).
import type { SimpleCommand } from '../shell';
import { argsOf, optionValues, parseFlags } from './commands';

export interface DbusCall {
  /** The bus name called (`org.gnome.Shell`). */
  destination: string;
  /** The method, with its interface when the client names it (`org.gnome.Shell.Eval`, `StartTransientUnit`). */
  method: string;
  /** The words after the method: its arguments. */
  rest: string[];
}

const BUSCTL_VALUE_LONG = ['address', 'machine', 'host', 'timeout', 'destination', 'match'];

export function dbusCallOf(cmd: SimpleCommand): DbusCall | undefined {
  const args = argsOf(cmd);
  switch (cmd.name) {
    case 'gdbus': {
      if (args[0] !== 'call') return undefined;
      const destination = optionValues(args, ['d'], ['dest'])[0];
      const method = optionValues(args, ['m'], ['method'])[0];
      if (destination === undefined || method === undefined) return undefined;
      const at = args.findIndex((word, i) => (word === '-m' || word === '--method') && args[i + 1] === method);
      return { destination, method, rest: at >= 0 ? args.slice(at + 2) : [] };
    }
    case 'busctl': {
      const words = parseFlags(args, ['H', 'M'], BUSCTL_VALUE_LONG).positionals;
      if (words[0] !== 'call' || words.length < 5) return undefined;
      return { destination: words[1]!, method: `${words[3]}.${words[4]}`, rest: words.slice(5) };
    }
    case 'dbus-send': {
      const destination = args.find((a) => a.startsWith('--dest='))?.slice('--dest='.length);
      const words = args.filter((a) => !a.startsWith('--'));
      if (destination === undefined || words.length < 2) return undefined;
      return { destination, method: words[1]!, rest: words.slice(2) };
    }
    case 'qdbus':
    case 'qdbus6': {
      const words = args.filter((a) => !a.startsWith('-'));
      if (words.length < 3) return undefined;
      return { destination: words[0]!, method: words[2]!, rest: words.slice(3) };
    }
    default:
      return undefined;
  }
}

/** What a D-Bus call has a service run that no reader here follows, or null. */
export function dbusRunsCode(call: DbusCall): string | null {
  const method = call.method.replace(/^.*\./, '');
  if (call.destination === 'org.gnome.Shell' && method === 'Eval')
    return 'GNOME Shell runs JavaScript given in a D-Bus call (Eval), with the desktop session’s rights';
  if (call.destination === 'org.freedesktop.systemd1' && method === 'StartTransientUnit')
    return 'systemd starts a unit made in the D-Bus call itself (StartTransientUnit), running the program it names';
  if (call.destination === 'org.kde.KWin' && /^(loadScript|start)$/.test(method))
    return 'KWin loads and runs a script named in a D-Bus call';
  return null;
}

const SECRET_SERVICES =
  /^(org\.freedesktop\.secrets|org\.gnome\.keyring|org\.kde\.kwalletd\d*|org\.kde\.secretservicecompat)$/;

/**
 * A call to the desktop's password store: `deny` when it hands out a secret (GetSecret(s), KWallet's
 * read calls), `ask` for the rest (searching, unlocking, opening a session), the steps before one.
 */
export function dbusSecretAccess(call: DbusCall): 'deny' | 'ask' | null {
  if (!SECRET_SERVICES.test(call.destination)) return null;
  const method = call.method.replace(/^.*\./, '');
  return /^(GetSecrets?|readPassword|readPasswordList|readEntry|readMap|readMapList)$/.test(method) ? 'deny' : 'ask';
}
