import { z } from 'zod';
import type { SimpleCommand } from '../../shell';
import { definePolicy } from '../types';
import { mcpToolOf } from './shared/mcp';
import type { ToolCall } from '../types';
import {
  argsOf,
  commandsWithCwd,
  evidenceOf,
  optionValues,
  parseFlags,
  redirectWrites,
  shellCommands,
  shellPath,
} from '../../facts/commands';
import { inlineCode } from '../../facts/programs';
import { inAllowedDirs } from '../../facts/temp-dirs';
import { trimEndChars } from '../../text/scan';
import { resolvePath } from '../../shell/paths';
import { selfPipingFunction } from './shared/self-piping';
import { secretFileKind } from '../../facts/sensitive-paths';

// Commands that damage the machine itself rather than the project.

function forkBombSign(call: ToolCall): string | null {
  const commands = shellCommands(call);
  const byPipeline = new Map<number, SimpleCommand[]>();
  for (const cmd of commands) byPipeline.set(cmd.pipeline.id, [...(byPipeline.get(cmd.pipeline.id) ?? []), cmd]);
  for (const stages of byPipeline.values()) {
    // `f(){ f | f & }`: a function body that pipes the function into itself in the background.
    const first = stages[0];
    if (
      first &&
      stages.length >= 2 &&
      stages.every((s) => s.name === first.name) &&
      stages.some((s) => s.background) &&
      stages.some((s) => s.via.includes('function'))
    ) {
      return `a function "${first.name}" that pipes itself into itself in the background`;
    }
  }
  const text = call.shell?.withoutComments ?? '';
  const selfPiping = selfPipingFunction(text);
  if (selfPiping) return `a function "${selfPiping}" that forks itself without end`;
  for (const cmd of commands) {
    const code = inlineCode(cmd);
    if (
      code &&
      /fork\s*(?:\(\s*\)\s*)?while\s+fork|while\s*(?:\(\s*)?(?:1|true|True)\s*(?:\)\s*)?(?:[:{]\s*)?(?:os\.)?fork\(|for\s*\(\s*;\s*;\s*\)\s*(?:\{\s*)?fork\(/.test(
        code,
      )
    )
      return `a ${cmd.name} loop that forks without end`;
  }
  return null;
}

export const forkBomb = definePolicy({
  name: 'fork-bomb',
  category: 'dangerous-commands',
  description: 'Refuses fork bombs: :(){ :|:& };: and its renamed and scripted variants.',
  defaultEnabled: true,
  decision: 'deny',
  params: z.object({}),
  evaluate({ call }) {
    if (!call?.shell) return null;
    const sign = forkBombSign(call);
    if (!sign) return null;
    return {
      reason: `Fork bomb (${sign}): it exhausts the process table and hangs the machine; there is no legitimate use in a project.`,
      evidence: evidenceOf(call.command ?? call.toolName),
    };
  },
});

const BLOCK_DEVICE =
  /^\/dev\/(sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d|rdisk\d|md\d|dm-\d|mapper\/|loop\d|sr\d|root|disk\/|mtd(block)?\d)|^\\\\\.\\physicaldrive/i;
// An embedded board's raw flash (MTD): erased or rewritten, it holds no boot loader or file system any more.
const FLASH_TOOLS = new Set(['flash_erase', 'flash_eraseall', 'nandwrite', 'flashcp', 'mtd']);
const DISK_TOOLS = new Set([
  'wipefs',
  'blkdiscard',
  'sgdisk',
  'sfdisk',
  'parted',
  'fdisk',
  'gdisk',
  'cfdisk',
  'diskpart',
  'clear-disk',
  'format-volume',
  'initialize-disk',
]);

function diskWipeSign(call: ToolCall): string | null {
  for (const { cmd, cwd } of commandsWithCwd(call)) {
    const name = cmd.name.toLowerCase();
    const args = argsOf(cmd);
    const device = redirectWrites(cmd).find((t) => BLOCK_DEVICE.test(t));
    if (device) return `writes straight onto ${device}`;
    if (name === 'dd') {
      const of = args.find((a) => a.startsWith('of='))?.slice(3);
      if (of && BLOCK_DEVICE.test(of)) return `dd onto ${of}`;
    }
    if (/^mkfs(\.\w+)?$|^mke2fs$|^mkswap$|^mkdosfs$|^mkntfs$|^newfs(_\w+)?$/.test(name)) {
      const targets = parseFlags(
        args,
        ['t', 'L', 'b', 'O', 'E', 'i', 'I', 'N', 'U', 'C', 'G', 'g', 'm', 'o', 'r', 'T'],
        ['type', 'label'],
      ).positionals;
      const risky = targets.find(
        (t) => BLOCK_DEVICE.test(t) || shellPath(t, cmd, cwd, call).relation !== 'inside-project',
      );
      if (risky || targets.length === 0) return `${name} formats ${risky ?? 'a device'}`;
    }
    if (DISK_TOOLS.has(name)) {
      const touchesDevice = args.some((a) => BLOCK_DEVICE.test(a));
      const destructive =
        name === 'wipefs' ||
        name === 'blkdiscard' ||
        name === 'diskpart' ||
        name === 'clear-disk' ||
        name === 'format-volume' ||
        name === 'initialize-disk' ||
        args.some((a) => /^(--zap-all|-Z|-o|--delete|mklabel|rm|--wipe)$/.test(a)) ||
        (name === 'sfdisk' && !args.some((a) => /^-(l|d|s|V)$|^--(list|dump|show-size|verify)$/.test(a)));
      if (
        destructive &&
        (touchesDevice || ['diskpart', 'clear-disk', 'format-volume', 'initialize-disk'].includes(name))
      )
        return `${name} rewrites a disk's partitions`;
    }
    if (['shred', 'wipe', 'srm', 'badblocks'].includes(name)) {
      const device = args.find((a) => BLOCK_DEVICE.test(a));
      if (device && (name !== 'badblocks' || args.some((a) => /^-\w*w/.test(a)))) return `${name} overwrites ${device}`;
    }
    const flash = FLASH_TOOLS.has(name)
      ? args.find((a) => BLOCK_DEVICE.test(a) || /^(firmware|kernel|u-boot)/.test(a))
      : undefined;
    if (flash && (name !== 'mtd' || /^(erase|write|jffs2write)$/.test(args[0] ?? '')))
      return `${name} rewrites the flash ${flash}`;
    const last = args[args.length - 1] ?? '';
    if (name === 'cp' && BLOCK_DEVICE.test(last)) return `cp onto ${last}`;
    if (
      name === 'diskutil' &&
      args.some((a) =>
        /^(eraseDisk|eraseVolume|zeroDisk|randomDisk|secureErase|partitionDisk|reformat|eraseAPFSVolume|apfs)$/i.test(
          a,
        ),
      ) &&
      !args.includes('list')
    )
      return `diskutil ${args[0] ?? ''} erases a disk`;
    if (name === 'format' && args.some((a) => /^[A-Za-z]:$/.test(a)))
      return `format ${args.find((a) => /^[A-Za-z]:$/.test(a))}`;
    if (name === 'cipher' && args.some((a) => /^\/w/i.test(a))) return 'cipher /w wipes free space';
    if (name === 'hdparm' && args.some((a) => /security-erase/.test(a))) return 'hdparm secure erase';
  }
  return null;
}

export const diskWipe = definePolicy({
  name: 'disk-wipe',
  category: 'dangerous-commands',
  description:
    'Refuses writing to raw disks and flash: dd of=/dev/sd*, mkfs, wipefs, shred of a device, > /dev/sda, partition rewrites, flash_erase /dev/mtd*.',
  defaultEnabled: true,
  decision: 'deny',
  params: z.object({}),
  evaluate({ call }) {
    if (!call?.shell) return null;
    const sign = diskWipeSign(call);
    if (!sign) return null;
    return {
      reason: `Disk wipe: ${sign}; that destroys every file on it, beyond any undo; work on image files inside the project instead.`,
      evidence: evidenceOf(call.command ?? call.toolName),
    };
  },
});

/** Octal or symbolic modes that let everyone write (777, 666, o+w, a=rwx). */
function worldWritable(mode: string): boolean {
  if (/^[0-7]{3,4}$/.test(mode)) return ['2', '3', '6', '7'].includes(mode[mode.length - 1] ?? '');
  return mode.split(',').some((part) => {
    const clause = /^([ugoa]*)[+=]([rwxXst]*)/.exec(part);
    return clause !== null && /[oa]/.test(clause[1] ?? '') && (clause[2] ?? '').includes('w');
  });
}

function setsId(mode: string): boolean {
  if (/^[0-7]{4}$/.test(mode)) return ['2', '4', '6'].includes(mode[0] ?? '');
  return mode.split(',').some((part) => /^[ugoa]*[+=][rwxXt]*s/.test(part));
}

function permissionSign(call: ToolCall, allowed: readonly string[]): string | null {
  for (const { cmd, cwd } of commandsWithCwd(call)) {
    const name = cmd.name.toLowerCase();
    if (!['chmod', 'chown', 'chgrp'].includes(name)) continue;
    const flags = parseFlags(argsOf(cmd), [], ['reference', 'from']);
    const recursive = flags.short.has('R') || flags.long.has('recursive');
    const [spec, ...targets] = flags.positionals;
    if (spec === undefined) continue;
    for (const target of targets) {
      const path = shellPath(target, cmd, cwd, call);
      if (inAllowedDirs(path.absolute, allowed, call.home, true)) continue;
      const beyondProject =
        path.relation === 'system' || path.relation === 'home' || path.relation === 'outside-project-in-home';
      if (name === 'chmod') {
        if (worldWritable(spec) && (recursive || beyondProject))
          return `chmod ${recursive ? '-R ' : ''}${spec} ${target} makes ${beyondProject ? 'files outside the project' : 'a whole tree'} writable by every user`;
        if (setsId(spec))
          return `chmod ${spec} ${target} sets a set-user/group-id bit, which hands its owner's rights to whoever runs it`;
        if (recursive && beyondProject)
          return `chmod -R ${spec} ${target} rewrites permissions across ${path.absolute}`;
      } else if (beyondProject && (recursive || path.relation === 'system')) {
        return `${name} ${recursive ? '-R ' : ''}${spec} ${target} changes ownership of ${path.absolute}`;
      }
    }
  }
  return null;
}

export const permissionBlowup = definePolicy({
  name: 'permission-blowup',
  category: 'dangerous-commands',
  description:
    'Refuses permission blow-ups: chmod -R 777, world-writable or setuid modes, recursive chmod/chown outside the project.',
  defaultEnabled: true,
  decision: 'deny',
  params: z.object({ allowedPaths: z.array(z.string()).default([]) }),
  evaluate({ call, params }) {
    if (!call?.shell) return null;
    const sign = permissionSign(call, params.allowedPaths);
    if (!sign) return null;
    return {
      reason: `Permission change: ${sign}; grant the narrowest mode on the files that need it (for instance chmod u+x on one script).`,
      evidence: evidenceOf(call.command ?? call.toolName),
    };
  },
});

/** kill's process arguments: what follows the signal (`-9`, `-KILL`, `-s KILL`, `-n 9`) and `--`. */
function killTargets(args: readonly string[]): string[] {
  let i = 0;
  if (args[i] === '-s' || args[i] === '-n') i += 2;
  else if (/^-(\d+|[A-Z][A-Z0-9+-]*|SIG\w+)$/.test(args[i] ?? '') && args.length > 1) i += 1;
  if (args[i] === '--') i += 1;
  return args.slice(i);
}

function massKillSign(call: ToolCall): string | null {
  for (const cmd of shellCommands(call)) {
    const name = cmd.name.toLowerCase();
    const args = argsOf(cmd);
    const positionals = parseFlags(args, ['s', 'n', 'u', 'U', 'g', 'G', 'P', 't'], ['signal']).positionals;
    if (name === 'kill' && killTargets(args).includes('-1')) return 'kill -1 signals every process you own';
    if (
      name === 'killall5' ||
      (name === 'killall' && args.some((a) => /^(-u|--user)$/.test(a)) && positionals.length === 0)
    )
      return `${name} ends every process`;
    if (name === 'pkill' && optionValues(args, ['u', 'U'], ['euid', 'uid']).length > 0 && positionals.length === 0)
      return 'pkill -u ends every process of a user';
    if (name === 'taskkill' && args.some((a) => /^\/fi$/i.test(a)) && !args.some((a) => /^\/(pid|im)$/i.test(a)))
      return 'taskkill with a filter ends many processes';
  }
  return null;
}

export const massProcessKill = definePolicy({
  name: 'mass-process-kill',
  category: 'dangerous-commands',
  description: 'Refuses killing every process at once: kill -9 -1, killall5, pkill -u USER with no name.',
  defaultEnabled: true,
  decision: 'deny',
  params: z.object({}),
  evaluate({ call }) {
    if (!call?.shell) return null;
    const sign = massKillSign(call);
    if (!sign) return null;
    return {
      reason: `${sign}, including your editor, your agent and their unsaved work; stop the one process you started by its pid instead.`,
      evidence: evidenceOf(call.command ?? call.toolName),
    };
  },
});

/**
 * A bind-mount source as the folder it names: `~`, `$HOME` expanded, and `.`, `..` and doubled slashes
 * taken out (`~/./.kube` is `~/.kube`). A named volume is left as it is.
 */
function mountedFolder(source: string, home: string): string {
  const fromHome = source.replace(/^(\$HOME|\$\{HOME\})(?=\/|$)/, '~');
  return fromHome.startsWith('/') || /^~(?=\/|$)/.test(fromHome) ? resolvePath(fromHome, '/', home) : source;
}

/** A bind-mount source that is the home folder, a folder above it, or a credential folder in it. */
function homeMountOf(source: string, home: string): string | null {
  const expanded = trimEndChars(mountedFolder(source, home), '/') || '/';
  if (expanded === home) return `the home folder (${source})`;
  if (home.startsWith(`${expanded}/`)) return `${source}, which holds the home folder`;
  if (/^\/home\/[^/]+$/.test(expanded)) return `another account's home folder (${source})`;
  const inside = expanded.startsWith(`${home}/`) ? expanded.slice(home.length + 1) : null;
  // The usual stores by name, and any folder the list of credential stores holds whole (~/.sfdx, ~/.oci).
  if (
    inside !== null &&
    (/^\.(ssh|aws|gnupg|kube|docker|config|azure|netrc|npmrc|pypirc)(\/|$)/.test(inside) ||
      secretFileKind(expanded, home) !== null)
  )
    return `the credential folder ${source}`;
  return null;
}

/** A host folder mounted into a container that gives the container the host (or the person's files). */
function mountSign(what: string, source: string, home: string): string | null {
  const folder = mountedFolder(source, home);
  if (folder === '/' || /^\/(etc|root|boot|var\/run\/docker\.sock|run\/docker\.sock|proc|sys|dev)(\/|$)/.test(folder))
    return `${what} mounts the host's ${source} into the container`;
  const inHome = homeMountOf(source, home);
  return inHome ? `${what} mounts ${inHome} into the container, where anything in it can read or delete it` : null;
}

/**
 * The same signs in a container engine's MCP tool (`mcp__docker__create_container` with
 * `privileged: true` or `binds: ["/:/host"]`): the server starts the container the tool describes.
 */
function toolHostEscapeSign(call: ToolCall): string | null {
  const mcp = mcpToolOf(call.toolName.toLowerCase());
  if (!mcp || !/docker|podman|container/.test(mcp.server) || !/run|create|start/.test(mcp.tool)) return null;
  const what = `${mcp.server} ${mcp.tool}`;
  const input = call.input;
  const hostConfig = typeof input.host_config === 'object' && input.host_config !== null ? input.host_config : {};
  const fields = { ...(hostConfig as Record<string, unknown>), ...input };
  if (fields.privileged === true || fields.Privileged === true)
    return `${what} with privileged: true gives the container the host's devices and kernel`;
  for (const key of ['network', 'network_mode', 'NetworkMode', 'pid', 'pid_mode', 'PidMode', 'ipc_mode'])
    if (fields[key] === 'host') return `${what} with ${key}: host shares the host's namespace`;
  for (const key of ['binds', 'Binds', 'volumes', 'mounts', 'Mounts']) {
    const list = fields[key];
    if (!Array.isArray(list)) continue;
    for (const entry of list) {
      const source =
        typeof entry === 'string'
          ? (entry.split(':')[0] ?? '')
          : typeof entry === 'object' && entry !== null
            ? String((entry as Record<string, unknown>).source ?? (entry as Record<string, unknown>).Source ?? '')
            : '';
      const mounted = mountSign(what, source, call.home);
      if (mounted) return mounted;
    }
  }
  return null;
}

function hostEscapeSign(call: ToolCall): string | null {
  const tool = toolHostEscapeSign(call);
  if (tool) return tool;
  for (const cmd of shellCommands(call)) {
    const name = cmd.name.toLowerCase();
    if (!['docker', 'podman', 'nerdctl'].includes(name)) continue;
    const args = argsOf(cmd);
    // The engine's own options come first and may take a value (`docker -H ssh://host run …`).
    const sub = parseFlags(
      args,
      ['H', 'c', 'l'],
      ['host', 'context', 'config', 'log-level', 'tlscacert', 'tlscert', 'tlskey'],
    ).positionals[0];
    if (
      sub !== 'run' &&
      sub !== 'create' &&
      !(sub === 'container' && ['run', 'create'].includes(args[args.indexOf(sub) + 1] ?? ''))
    )
      continue;
    if (args.includes('--privileged'))
      return `${name} run --privileged gives the container the host's devices and kernel`;
    for (const flag of ['pid', 'net', 'ipc', 'uts', 'userns'])
      if (args.includes(`--${flag}=host`) || args.join(' ').includes(`--${flag} host`))
        return `${name} run --${flag}=host shares the host's ${flag} namespace`;
    for (const m of optionValues(args, ['v'], ['volume', 'mount'])) {
      const source = m.startsWith('type=') ? (/(?:source|src)=([^,]+)/.exec(m)?.[1] ?? '') : (m.split(':')[0] ?? '');
      const mounted = mountSign(`${name} run`, source, call.home);
      if (mounted) return mounted;
    }
    if (args.some((a) => /^--cap-add(=|$)/.test(a)) && args.some((a) => /SYS_ADMIN|ALL|SYS_PTRACE|SYS_MODULE/.test(a)))
      return `${name} run adds kernel capabilities that let the container escape`;
  }
  return null;
}

export const containerHostEscape = definePolicy({
  name: 'container-host-escape',
  category: 'dangerous-commands',
  description:
    'Refuses containers that own the host: --privileged, -v /:/host, the docker socket, --pid=host, CAP_SYS_ADMIN.',
  defaultEnabled: true,
  decision: 'deny',
  params: z.object({}),
  evaluate({ call }) {
    if (!call) return null;
    const sign = hostEscapeSign(call);
    if (!sign) return null;
    return {
      reason: `Container escape: ${sign}, which is root on this machine; mount only the project folder and drop the extra privileges.`,
      evidence: evidenceOf(call.command ?? call.toolName),
    };
  },
});
