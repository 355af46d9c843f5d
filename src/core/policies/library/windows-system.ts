// Windows' own ways to make code last or to run code past review: autorun registry keys, scheduled
// tasks, services, new administrators, profiler variables set for good; and the system programs known
// for fetching or running script code (mshta, regsvr32's scriptlets, rundll32's javascript:, certutil's
// downloads, an MSI from a URL). Read from the commands the call runs, from PowerShell code it gives on
// the command line, and from PowerShell files it writes. Cases and near misses: test/core/policies/windows-system.test.ts.
import { z } from 'zod';
import type { SimpleCommand } from '../../shell';
import { argsOf, evidenceOf, shellCommands } from '../../facts/commands';
import { writtenTexts } from '../../facts/compute';
import { inlineCode } from '../../facts/programs';
import { inForeignFolder } from '../../facts/unread-programs';
import { definePolicy, type ToolCall } from '../types';

/** Program names as Windows resolves them: `reg`, `REG.EXE` and `C:/Windows/System32/reg.exe` are one. */
function windowsName(cmd: SimpleCommand): string {
  return cmd.name.toLowerCase().replace(/\.exe$/, '');
}

// Registry keys whose values Windows runs: at logon, with every cmd.exe, in place of a program, or as
// the handler an auto-elevating program opens (the fodhelper and eventvwr bypasses).
const AUTORUN_KEY =
  /[\\/]CurrentVersion[\\/](Run|RunOnce|RunOnceEx|RunServices|Policies[\\/]Explorer[\\/]Run)\b|[\\/]Command Processor\b|[\\/]Winlogon\b|Image File Execution Options|[\\/]Classes[\\/](ms-settings|mscfile|exefile|Folder|[\w.-]+file)[\\/]shell[\\/]/i;
// Variables the CLR reads at every start to load a profiler or startup hook into every .NET process.
const LOADING_VARIABLE = /^(COR_PROFILER_PATH\w*|CORECLR_PROFILER_PATH\w*|COR_ENABLE_PROFILING|DOTNET_STARTUP_HOOKS)$/i;

/** What a command sets up to run later or grants, in words, or undefined. */
function persistence(cmd: SimpleCommand): string | undefined {
  const args = argsOf(cmd);
  const lower = args.map((a) => a.toLowerCase());
  switch (windowsName(cmd)) {
    case 'reg': {
      const key = args[1] ?? '';
      return lower[0] === 'add' && AUTORUN_KEY.test(key) ? `adds a value Windows runs by itself (${key})` : undefined;
    }
    case 'schtasks':
      return lower.includes('/create') ? 'creates a scheduled task' : undefined;
    case 'sc':
      return lower[0] === 'create' || (lower[0] === 'config' && lower.some((a) => a.startsWith('binpath')))
        ? `${lower[0] === 'create' ? 'creates' : 'changes the program of'} a Windows service`
        : undefined;
    case 'net':
      if (lower[0] === 'user' && lower.includes('/add')) return 'creates a local account';
      return lower[0] === 'localgroup' && lower[1] === 'administrators' && lower.includes('/add')
        ? 'adds a local administrator'
        : undefined;
    case 'setx':
      return LOADING_VARIABLE.test(args[0] ?? '') || (args[1] !== undefined && inForeignFolder(args[1]))
        ? `sets ${args[0]} for every later process of this user`
        : undefined;
    default:
      return undefined;
  }
}

// PowerShell's own cmdlets for the same, and for switching Defender off: the cmdlet, and what its
// statement must also say (judged statement by statement).
const POWERSHELL_PERSISTENCE: { cmdlet: RegExp; with?: RegExp; what: string }[] = [
  { cmdlet: /\bRegister-ScheduledTask\b|\bNew-ScheduledTask(Action|Trigger)?\b/i, what: 'creates a scheduled task' },
  { cmdlet: /\bNew-Service\b/i, what: 'creates a Windows service' },
  { cmdlet: /\bSet-Service\b/i, with: /-BinaryPathName\b/i, what: 'changes the program of a Windows service' },
  { cmdlet: /\bNew-LocalUser\b/i, what: 'creates a local account' },
  { cmdlet: /\bAdd-LocalGroupMember\b/i, with: /\bAdministrators\b/i, what: 'adds a local administrator' },
  {
    cmdlet: /\b(New|Set)-ItemProperty\b/i,
    with: /CurrentVersion[\\/]+Run|Command Processor|Winlogon/i,
    what: 'adds a value Windows runs by itself',
  },
  { cmdlet: /\bSet-MpPreference\b/i, with: /-Disable\w*\s+\$?true\b/i, what: 'switches Defender off' },
  { cmdlet: /\bAdd-MpPreference\b/i, with: /-Exclusion\w*/i, what: 'switches Defender off for some files' },
  {
    cmdlet: /\[Environment\]::SetEnvironmentVariable\b/i,
    with: /\b(COR_PROFILER_PATH|CORECLR_PROFILER_PATH|COR_ENABLE_PROFILING|DOTNET_STARTUP_HOOKS)\b/i,
    what: 'sets a .NET profiler or startup hook for every later process',
  },
];

/** The first statement of the code that sets something up to run later or grants, and what it does. */
function powershellPersistence(code: string): { statement: string; what: string } | undefined {
  for (const statement of code.split(/[;\n]/))
    for (const rule of POWERSHELL_PERSISTENCE)
      if (rule.cmdlet.test(statement) && (!rule.with || rule.with.test(statement)))
        return { statement: statement.trim(), what: rule.what };
  return undefined;
}

/** PowerShell code the call gives on a command line or writes into a script file. */
function powershellTexts(call: ToolCall): string[] {
  const texts = shellCommands(call)
    .filter((cmd) => /^(powershell|pwsh)(\.exe)?$/i.test(cmd.name))
    .map((cmd) => inlineCode(cmd) ?? '')
    .filter((code) => code !== '');
  for (const { file, content } of writtenTexts(call)) if (/\.(ps1|psm1|psd1)$/i.test(file)) texts.push(content);
  return texts;
}

export const windowsPersistence = definePolicy({
  name: 'windows-persistence',
  category: 'packages-and-system',
  description:
    'Asks before a call makes code run later or grants on Windows: autorun registry values, scheduled tasks, services, new local accounts or administrators, .NET profiler variables set for good, Defender switched off.',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    if (!call) return null;
    for (const cmd of shellCommands(call)) {
      const what = persistence(cmd);
      if (what)
        return {
          reason: `${cmd.name} ${what}: it runs or grants long after this session, where nobody looks. Tell the person what it sets up, or approve this exact call.`,
          evidence: evidenceOf(cmd.text),
        };
    }
    for (const code of powershellTexts(call)) {
      const found = powershellPersistence(code);
      if (found)
        return {
          reason: `PowerShell ${found.what}: it runs or grants long after this session, where nobody looks. Tell the person what it sets up, or approve this exact call.`,
          evidence: evidenceOf(found.statement),
        };
    }
    return null;
  },
});

const URL = /^(https?|ftp):\/\//i;

/** What a Windows system program does past review, in words, or undefined. */
function scriptRunner(cmd: SimpleCommand): string | undefined {
  const args = argsOf(cmd);
  const lower = args.map((a) => a.toLowerCase());
  switch (windowsName(cmd)) {
    case 'mshta':
      return args.some((a) => URL.test(a) || /^(javascript|vbscript):/i.test(a))
        ? 'runs an HTML application from the network or inline script'
        : undefined;
    case 'regsvr32':
      return lower.some((a) => /^[/-]i:/.test(a) && /(https?|ftp):|\.sct\b/.test(a)) || lower.includes('scrobj.dll')
        ? 'runs a script component (a scriptlet) through regsvr32'
        : undefined;
    case 'rundll32':
      return lower.some((a) => a.includes('javascript:') || a.includes('vbscript:')) ||
        args.some((a) => inForeignFolder(a.split(',')[0] ?? ''))
        ? 'runs script or a library from a temporary folder through rundll32'
        : undefined;
    case 'msiexec':
      return args.some((a) => URL.test(a)) ? 'installs a package straight from the network' : undefined;
    case 'certutil':
      if (lower.includes('-urlcache') && args.some((a) => URL.test(a))) return 'downloads a file with certutil';
      if (lower.includes('-exportpfx')) return 'exports a certificate with its private key';
      return lower.some((a) => a === '-decode' || a === '-decodehex')
        ? 'decodes a hidden file with certutil'
        : undefined;
    case 'bitsadmin':
      return lower.includes('/transfer') || lower.includes('/addfile') ? 'downloads a file with bitsadmin' : undefined;
    case 'cscript':
    case 'wscript':
      return lower.some((a) => a.startsWith('//e:')) || args.some((a) => inForeignFolder(a))
        ? 'runs script code from a temporary folder or under another engine'
        : undefined;
    case 'msbuild':
    case 'installutil':
    case 'regasm':
    case 'regsvcs':
      return args.some((a) => !a.startsWith('-') && !a.startsWith('/') && inForeignFolder(a))
        ? `runs code in a file from a temporary, downloads or upload folder through ${windowsName(cmd)}`
        : undefined;
    case 'dotnet':
      return lower[0] === 'script' && args.slice(1).some((a) => URL.test(a))
        ? 'runs a C# script from the network'
        : undefined;
    case 'reg':
      // The SAM, SECURITY and SYSTEM hives hold the machine's password hashes and the keys to them.
      return lower[0] === 'save' && /(^|[\\/])(sam|security|system)$/i.test(args[1] ?? '')
        ? "copies the hive that holds the machine's password hashes"
        : undefined;
    case 'vssadmin':
      return lower[0] === 'delete' && lower[1] === 'shadows' ? "deletes the machine's shadow copies" : undefined;
    case 'wbadmin':
      return lower[0] === 'delete' ? "deletes the machine's backups" : undefined;
    default:
      return undefined;
  }
}

/** What follows from a finding of scriptRunner, for the reason a person reads. */
function consequence(what: string): string {
  if (/password hashes|private key/.test(what))
    return 'the credentials it copies can be cracked or used anywhere once they leave this machine. Do this yourself if it is needed.';
  if (/shadow copies|backups/.test(what))
    return 'what they kept cannot be brought back. Do this yourself if it is needed.';
  return 'code nobody here has read would run, by a route made to slip past review. Run the tool it stands for by name, or do this yourself.';
}

export const windowsScriptRunners = definePolicy({
  name: 'windows-script-runners',
  category: 'dangerous-commands',
  description:
    'Refuses Windows programs known for running script past review (mshta, regsvr32 scriptlets, rundll32 javascript:, certutil downloads, bitsadmin, an MSI from a URL), saving password hives, exporting private keys, deleting shadow copies.',
  defaultEnabled: true,
  decision: 'deny',
  params: z.object({}),
  evaluate({ call }) {
    for (const cmd of shellCommands(call)) {
      const what = scriptRunner(cmd);
      if (what)
        return {
          reason: `${cmd.name} ${what}: ${consequence(what)}`,
          evidence: evidenceOf(cmd.text),
        };
    }
    return null;
  },
});
