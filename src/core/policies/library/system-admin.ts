import { z } from 'zod';
import type { SimpleCommand } from '../../shell';
import { definePolicy } from '../types';
import type { PolicyHit, ToolCall } from '../types';
import { argsOf, evidenceOf, parseFlags, redirectWrites, shellCommands } from '../../facts/commands';
import { writeTargets } from '../../facts/targets';
import { followedBy } from '../../text/scan';

// Changes to the running system: power state, firewall, services, logs.

function first(
  call: ToolCall | undefined,
  test: (cmd: SimpleCommand, args: readonly string[]) => string | null,
  reason: (what: string) => string,
): PolicyHit | null {
  for (const cmd of shellCommands(call)) {
    const what = test(cmd, argsOf(cmd));
    if (what) return { reason: reason(what), evidence: evidenceOf(cmd.text) };
  }
  return null;
}

export const systemPower = definePolicy({
  name: 'system-power',
  category: 'packages-and-system',
  description:
    'Refuses shutting down, rebooting or suspending the machine (shutdown, reboot, halt, poweroff, init 0/6, systemctl poweroff).',
  defaultEnabled: true,
  decision: 'deny',
  params: z.object({}),
  evaluate({ call }) {
    return first(
      call,
      (cmd, args) => {
        const name = cmd.name.toLowerCase();
        if (['shutdown', 'reboot', 'halt', 'poweroff', 'stop-computer', 'restart-computer'].includes(name)) {
          return args.includes('-c') || args.includes('/a') ? null : name;
        }
        if ((name === 'init' || name === 'telinit') && /^[06]$/.test(args[0] ?? '')) return `${name} ${args[0]}`;
        if (
          name === 'systemctl' &&
          /^(poweroff|reboot|halt|kexec|suspend|hibernate|hybrid-sleep|soft-reboot)$/.test(
            parseFlags(args).positionals[0] ?? '',
          )
        )
          return `systemctl ${parseFlags(args).positionals[0]}`;
        return null;
      },
      (what) =>
        `${what} stops the machine and everything running on it, including unsaved work; ask the person to do it when they are ready.`,
    );
  },
});

export const firewallOrSecurityOff = definePolicy({
  name: 'firewall-or-security-off',
  category: 'packages-and-system',
  description:
    'Refuses flushing or disabling the firewall or kernel security (iptables -F, ufw disable, nft flush ruleset, setenforce 0).',
  defaultEnabled: true,
  decision: 'deny',
  params: z.object({}),
  evaluate({ call }) {
    return first(
      call,
      (cmd, args) => {
        const name = cmd.name.toLowerCase();
        if (
          ['iptables', 'ip6tables', 'iptables-legacy', 'iptables-nft'].includes(name) &&
          args.some((a) => /^(-F|--flush|-X|--delete-chain)$/.test(a) || (a === '-P' && /ACCEPT/.test(args.join(' '))))
        )
          return `${name} ${args.join(' ')}`;
        if (name === 'ufw' && (args[0] === 'disable' || args[0] === 'reset')) return `ufw ${args[0]}`;
        if (name === 'nft' && args.join(' ').includes('flush ruleset')) return 'nft flush ruleset';
        if (name === 'setenforce' && (args[0] === '0' || /^permissive$/i.test(args[0] ?? ''))) return 'setenforce 0';
        if (
          name === 'systemctl' &&
          /^(stop|disable|mask)$/.test(args[0] ?? '') &&
          args.some((a) => /^(firewalld|ufw|apparmor|auditd|iptables|nftables)(\.service)?$/.test(a))
        )
          return `systemctl ${args.join(' ')}`;
        if (name === 'netsh' && followedBy(args.join(' '), /advfirewall/i, /state\s+off/i))
          return 'netsh advfirewall off';
        if (name === 'set-mppreference' && args.some((a) => /^-Disable/i.test(a))) return 'Set-MpPreference -Disable…';
        if (name === 'spctl' && args.includes('--master-disable')) return 'spctl --master-disable';
        if (name === 'csrutil' && args[0] === 'disable') return 'csrutil disable';
        return null;
      },
      (what) =>
        `${what} switches off a protection of the whole machine; a project never needs it. Ask the person if a port or rule must change.`,
    );
  },
});

export const systemServiceChanges = definePolicy({
  name: 'system-service-changes',
  category: 'packages-and-system',
  description:
    'Asks before stopping, disabling or enabling system services and installing cron jobs; refuses crontab -r.',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    for (const cmd of shellCommands(call)) {
      const args = argsOf(cmd);
      const name = cmd.name.toLowerCase();
      // Slurm's scrontab keeps a crontab of batch jobs, run on the cluster on the same schedule.
      if (name === 'crontab' || name === 'scrontab') {
        const flags = parseFlags(args, ['u'], []);
        if (flags.short.has('r'))
          return {
            decision: 'deny',
            reason:
              'crontab -r deletes every scheduled job of the user at once, with no confirmation; edit the one entry instead, with the person.',
            evidence: evidenceOf(cmd.text),
          };
        if (
          !flags.short.has('l') &&
          (flags.positionals.length > 0 || flags.short.has('e') || args.length === 0 || args.includes('-'))
        ) {
          return {
            reason:
              'Installs or edits cron jobs: they run commands on a schedule long after this session; a person should approve the exact entry.',
            evidence: evidenceOf(cmd.text),
          };
        }
      }
      const flags = parseFlags(args, ['H', 'M'], ['host', 'machine']);
      const verb = flags.positionals[0] ?? '';
      const userScope = flags.long.has('user');
      if (
        name === 'systemctl' &&
        /^(stop|disable|mask|kill|enable|restart|daemon-reload|isolate|set-default|edit|link|revert)$/.test(verb) &&
        !userScope
      ) {
        return {
          reason: `systemctl ${verb} ${flags.positionals.slice(1).join(' ')} changes a system service for every user; a person should approve it.`,
          evidence: evidenceOf(cmd.text),
        };
      }
      // A user service enabled (or lingering) starts at every login, or at boot, long after this session.
      if (
        name === 'systemctl' &&
        userScope &&
        /^(enable|link|edit|preset|add-wants|add-requires|set-property)$/.test(verb)
      )
        return {
          reason: `systemctl --user ${verb} ${flags.positionals.slice(1).join(' ')} makes a service of yours start by itself at every login, long after this session; a person should approve it.`,
          evidence: evidenceOf(cmd.text),
        };
      // systemd-run with a timer schedules a transient unit that fires later (hourly, at boot…).
      if (
        name === 'systemd-run' &&
        args.some((a) =>
          /^--on-(calendar|active|boot|startup|unit-active|unit-inactive|clock-change|timezone-change)\b/.test(a),
        )
      )
        return {
          reason: `${evidenceOf(cmd.text, 80)} schedules a command to run by itself on a timer, long after this session; a person should approve it.`,
          evidence: evidenceOf(cmd.text),
        };
      if (name === 'loginctl' && verb === 'enable-linger')
        return {
          reason:
            "loginctl enable-linger keeps the user's services running from boot and after logout: whatever they run persists unattended; a person should approve it.",
          evidence: evidenceOf(cmd.text),
        };
      if (name === 'ssh-copy-id')
        return {
          reason:
            "ssh-copy-id adds a key to a host's authorized_keys: whoever holds that key logs in from then on; a person should install keys themselves.",
          evidence: evidenceOf(cmd.text),
        };
      if (name === 'service' && /^(stop|restart|disable)$/.test(args[1] ?? ''))
        return {
          reason: `service ${args.join(' ')} changes a system service; a person should approve it.`,
          evidence: evidenceOf(cmd.text),
        };
      if (
        (name === 'launchctl' &&
          /^(unload|load|bootout|bootstrap|remove|disable|enable|submit)$/.test(args[0] ?? '')) ||
        name === 'update-rc.d' ||
        name === 'chkconfig' ||
        (name === 'sc' && /^(stop|delete|config|create)$/i.test(args[0] ?? ''))
      ) {
        return {
          reason: `${name} ${args.join(' ')} changes what the system starts; a person should approve it.`,
          evidence: evidenceOf(cmd.text),
        };
      }
      if (
        // `at -l` (the queue) and `at -c N` (a job's text) only read.
        (name === 'at' && !args.some((a) => /^-[lc]$/.test(a))) ||
        name === 'batch' ||
        (name === 'schtasks' && args.some((a) => /^\/(create|delete|change)$/i.test(a)))
      )
        return {
          reason: `${name} schedules a command to run later, outside this session; a person should approve it.`,
          evidence: evidenceOf(cmd.text),
        };
    }
    return null;
  },
});

const HISTORY_FILES =
  /(^|\/)\.(bash|zsh|sh|python|node_repl|psql|mysql|sqlite|lesshst|rediscli)_?history$|(^|\/)\.history$/;
const LOG_PATHS = /^\/var\/log\/|^\/var\/audit\/|^\/private\/var\/log\//;

export const logAndHistoryTampering = definePolicy({
  name: 'log-and-history-tampering',
  category: 'packages-and-system',
  description:
    'Refuses clearing shell history or system logs (history -c, unset HISTFILE, > ~/.bash_history, rm /var/log/*, journalctl --vacuum).',
  defaultEnabled: true,
  decision: 'deny',
  params: z.object({}),
  evaluate({ call }) {
    if (!call?.shell) return null;
    for (const cmd of shellCommands(call)) {
      const args = argsOf(cmd);
      const name = cmd.name.toLowerCase();
      let what: string | null = null;
      if (name === 'history' && args.some((a) => /^-\w*[cd]/.test(a))) what = `history ${args.join(' ')}`;
      else if (name === 'unset' && args.some((a) => /^HIST(FILE|SIZE)$/.test(a))) what = `unset ${args.join(' ')}`;
      else if (
        (name === 'export' || name === 'set') &&
        args.some((a) => /^HIST(FILE=\/dev\/null|SIZE=0|FILESIZE=0)/.test(a))
      )
        what = args.join(' ');
      else if (name === 'journalctl' && args.some((a) => /^--(vacuum-\w+|rotate|flush)/.test(a)))
        what = `journalctl ${args.join(' ')}`;
      else if (
        (name === 'wevtutil' && /^(cl|clear-log)$/i.test(args[0] ?? '')) ||
        name === 'clear-eventlog' ||
        name === 'remove-eventlog'
      )
        what = `${name} ${args.join(' ')}`;
      else if (name === 'auditctl' && args.some((a) => a === '-D' || a === '-e')) what = `auditctl ${args.join(' ')}`;
      if (what)
        return {
          reason: `${what} erases the record of what was done; never hide activity, and leave logs for the person to manage.`,
          evidence: evidenceOf(cmd.text),
        };
      const redirected = redirectWrites(cmd).find((t) => HISTORY_FILES.test(t) || LOG_PATHS.test(t));
      if (redirected)
        return {
          reason: `Overwrites ${redirected}, erasing the record of what was done; never hide activity.`,
          evidence: evidenceOf(cmd.text),
        };
    }
    // A bare assignment (`HISTFILE=/dev/null`) is no command to the analyzer, so it is read from the text.
    const bare = /(?:^|[;&|\s(])(HISTFILE=\/dev\/null|HISTSIZE=0|HISTFILESIZE=0)(?=$|[;&|\s)])/m.exec(
      call.shell.withoutComments,
    );
    if (bare)
      return {
        reason: `${bare[1]} switches shell history off, hiding what was done; never hide activity.`,
        evidence: evidenceOf(call.command ?? ''),
      };
    const erased = writeTargets(call).find(
      (t) =>
        (t.access === 'delete' || ['truncate', 'shred', 'tee', 'cp', 'mv'].includes(t.source)) &&
        (HISTORY_FILES.test(t.absolute) || LOG_PATHS.test(t.absolute)),
    );
    if (erased)
      return {
        reason: `${erased.source} on ${erased.raw} erases the record of what was done; never hide activity, and leave logs for the person to manage.`,
        evidence: evidenceOf(call.command ?? ''),
      };
    return null;
  },
});
