import { z } from 'zod';
import { analyzeShell, type SimpleCommand } from '../../shell';
import { evidenceOf, parseFlags, shellCommands } from '../../facts/commands';
import { definePolicy } from '../types';

// A phone or an emulator on adb holds a person's photos, contacts and signed-in apps, not only the app
// under work. What `adb shell` runs there is read as the device's own shell would read it (a base64
// line piped to sh included), and judged by what it does to the device.

/** adb's options before its command that take a value (-s SERIAL, -t ID, -H HOST, -P PORT, -L SOCKET). */
const ADB_VALUES = 'stHPL';

/** Shared storage: the user's photos, downloads and documents. The apps' own folders under Android/ are theirs. */
const SHARED_STORAGE =
  /^(?:\/sdcard|\/storage\/(?:emulated\/\d+|self\/primary)|\/data\/media\/\d+|\/mnt\/sdcard)(?:\/|$)/;
const APP_FOLDERS =
  /^(?:\/sdcard|\/storage\/(?:emulated\/\d+|self\/primary)|\/mnt\/sdcard)\/Android\/(?:data|obb|media)\//;
/** The device's temporary folders, where anyone with adb can put a file. */
const DEVICE_TEMP = /^(?:\/data\/local\/tmp|\/sdcard|\/storage\/emulated\/\d+)\//;
/** Content providers that hold the person's own records. */
const PERSONAL_PROVIDERS =
  /^content:\/\/(?:com\.android\.contacts|contacts|call_log|sms|mms|mms-sms|media|com\.android\.calendar|user_dictionary)\b/;
/**
 * The text messages, where banks and sign-ins send their one-time codes. Listing a test phone's contacts
 * is ordinary work on a contacts feature; its messages are the person's second factor.
 */
const MESSAGES = /^content:\/\/(?:sms|mms|mms-sms)\b/;
/** Files an app keeps its sign-in in (flutter_secure_storage, tokens, cookies). */
const SECURE_STORAGE = /secure|token|credential|cookie|auth|session|keystore/i;
const READERS = new Set(['cat', 'cp', 'base64', 'xxd', 'head', 'tail', 'od', 'strings', 'sqlite3']);

interface DeviceFinding {
  what: string;
  evidence: string;
}

/** adb's command and the words after it, past adb's own options (`adb -s emulator-5554 shell …`). */
function adbCommand(cmd: SimpleCommand): { sub: string | undefined; rest: string[] } {
  const words = cmd.argv.slice(1);
  let at = 0;
  while (at < words.length && words[at]!.startsWith('-')) at += ADB_VALUES.includes(words[at]!.slice(1)) ? 2 : 1;
  return { sub: words[at], rest: words.slice(at + 1) };
}

function deviceCommandFinding(cmd: SimpleCommand): DeviceFinding | null {
  // The words as written: option order matters here (`content delete --uri URI`).
  const args = cmd.argv.slice(1);
  if (cmd.name === 'rm') {
    const flags = parseFlags(args, [], []);
    const recursive = flags.short.has('r') || flags.short.has('R') || flags.long.has('recursive');
    // A whole folder, or a glob of files: one named file the work made (an export) is the work's own.
    const targets = flags.positionals.filter((t) => recursive || /[*?[]/.test(t));
    const shared = targets.find((t) => SHARED_STORAGE.test(t) && !APP_FOLDERS.test(t));
    if (shared)
      return {
        what: `deletes ${shared} from the device's shared storage (the person's own files)`,
        evidence: cmd.text,
      };
  }
  if (cmd.name === 'cmd' && args[0] === 'testharness' && args[1] === 'enable')
    return { what: 'puts the device in test harness mode, which wipes it', evidence: cmd.text };
  if (cmd.name === 'recovery' && args.some((a) => a.startsWith('--wipe')))
    return { what: 'wipes the device from recovery', evidence: cmd.text };
  if (cmd.name === 'am' && args[0] === 'broadcast' && args.some((a) => /MASTER_CLEAR|FACTORY_RESET/.test(a)))
    return { what: 'asks the device for a factory reset', evidence: cmd.text };
  if (cmd.name === 'content' && args[0] === 'delete') {
    const uri = args[args.indexOf('--uri') + 1] ?? '';
    if (args.includes('--uri') && PERSONAL_PROVIDERS.test(uri))
      return { what: `deletes the device's records at ${uri}`, evidence: cmd.text };
  }
  // Text messages read out into the transcript, one-time codes with them.
  if (cmd.name === 'content' && args[0] === 'query') {
    const uri = args[args.indexOf('--uri') + 1] ?? '';
    if (args.includes('--uri') && MESSAGES.test(uri))
      return {
        what: `reads the device's text messages at ${uri} (the one-time codes banks and sign-ins send among them)`,
        evidence: cmd.text,
      };
  }
  if (cmd.name === 'am' && args[0] === 'start') {
    const agent = args[args.indexOf('--attach-agent') + 1];
    if (args.includes('--attach-agent') && agent !== undefined && DEVICE_TEMP.test(agent))
      return {
        what: `loads the native agent ${agent} from a folder anyone with adb writes into the app`,
        evidence: cmd.text,
      };
  }
  if (cmd.name === 'cmd' && args[0] === 'activity' && args[1] === 'attach-agent' && DEVICE_TEMP.test(args[3] ?? ''))
    return { what: `loads the native agent ${args[3]} into a running app`, evidence: cmd.text };
  // `run-as PKG cat shared_prefs/FlutterSecureStorage.xml`: a reader run as the app, in its private folder.
  if (cmd.name === 'run-as' && READERS.has(args[1] ?? '')) {
    const read = args.slice(2).find((a) => SECURE_STORAGE.test(a));
    if (read) return { what: `reads ${read}, where the app keeps its signed-in user's tokens`, evidence: cmd.text };
  }
  return null;
}

/** What an adb command does to the device it reaches, if it harms the person's data or opens the device. */
function adbFinding(cmd: SimpleCommand): DeviceFinding | null {
  const { sub, rest } = adbCommand(cmd);
  if (sub === 'tcpip')
    return {
      what: `leaves adb listening on port ${rest[0] ?? '5555'} of the device's network, for anyone who reaches it`,
      evidence: cmd.text,
    };
  // `adb -a … server`: the host's adb server on every interface, the shells of every connected phone with it.
  if (cmd.argv.slice(1).includes('-a') && ['server', 'nodaemon', 'start-server'].includes(sub ?? ''))
    return { what: "starts adb's server on every interface, for anyone who reaches this machine", evidence: cmd.text };
  if (sub === 'backup' && rest.includes('-all'))
    return { what: "copies every app's data off the device", evidence: cmd.text };
  // adb joins the words after `shell` with spaces, and the device's shell reads them.
  if (sub !== 'shell' || rest.length === 0) return null;
  const device = analyzeShell(rest.join(' '), { home: '/data/local/tmp' });
  for (const inner of device.commands) {
    const found = deviceCommandFinding(inner);
    if (found) return found;
  }
  return null;
}

export const connectedDeviceHarm = definePolicy({
  name: 'connected-device-harm',
  category: 'dangerous-commands',
  description:
    "Asks before an adb command deletes a phone's personal records or reads its messages, deletes its shared storage, wipes it, reads an app's secure storage, loads an agent from its temporary folder or leaves adb open on the network.",
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    for (const cmd of shellCommands(call)) {
      if (cmd.name !== 'adb') continue;
      const found = adbFinding(cmd);
      if (found)
        return {
          reason: `This adb command ${found.what}. A person should approve it.`,
          evidence: evidenceOf(found.evidence),
        };
    }
    return null;
  },
});
