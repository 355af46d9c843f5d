// WP-CLI pointed at a live site: `wp @production …` (an alias in wp-cli.yml) or `--ssh=host` runs on
// the shop itself, where orders, customers and payments are. Reading it is ordinary; a change there is
// what a person approves, the way they would for a database statement against production.
import { z } from 'zod';
import type { SimpleCommand } from '../../shell';
import { definePolicy } from '../types';
import { argsOf, evidenceOf, shellCommands } from '../../facts/commands';

/** An alias or ssh host that names a live site: production, live, prod, or every site at once (`@all`). */
const LIVE_NAME = /prod|live|^all$/i;
/** An ssh target that names a site that is not live. */
const NOT_LIVE_HOST = /stag|\bdev\b|test|local|ddev|docker:|vagrant/i;

/** The live site a wp command runs on, or undefined when it runs here or on a site not live. */
function liveTarget(args: readonly string[]): string | undefined {
  const alias = args.find((a) => a.startsWith('@') && LIVE_NAME.test(a.slice(1)));
  if (alias !== undefined) return alias;
  const ssh = args.find((a) => a.startsWith('--ssh='))?.slice('--ssh='.length);
  // The host decides, not the login (`dev@shop.example.com` is live).
  const host = ssh?.slice(ssh.indexOf('@') + 1);
  return ssh !== undefined && !NOT_LIVE_HOST.test(host ?? '') ? ssh : undefined;
}

/** The words of a wp command past its global options and alias, as `db reset`, `post delete`. */
function subcommandWords(args: readonly string[]): string[] {
  return args.filter((a) => !a.startsWith('-') && !a.startsWith('@'));
}

const DB_CHANGES = new Set(['reset', 'drop', 'clean', 'import', 'create']);
const WRITE_STATEMENT = /\b(insert|update|delete|drop|truncate|alter|replace|create|rename|grant)\b/i;
const CHANGING_VERBS = new Set(['delete', 'update', 'set', 'add', 'remove', 'create', 'destroy', 'empty', 'generate']);
/** Commands whose verb changes the site wholesale: code in or out, config, roles. */
const SITE_CHANGES: Record<string, RegExp> = {
  plugin: /^(install|uninstall|delete|update|activate|deactivate|toggle|auto-updates)$/,
  theme: /^(install|delete|update|activate|enable|disable|mod)$/,
  config: /^(set|delete|shuffle-salts|create|edit)$/,
  core: /^(update|download|install|multisite-convert)$/,
  role: /^(create|delete|reset)$/,
  cap: /^(add|remove)$/,
  'super-admin': /^(add|remove)$/,
  'maintenance-mode': /^activate$/,
};
/** Commands that change the site whatever follows: PHP run in it, a rewrite of every table, an import. */
const WHOLE_CHANGES = new Set(['search-replace', 'eval', 'eval-file', 'shell', 'import']);

/** What a wp command changes on the site, in words; undefined for a read. */
function siteChange(args: readonly string[]): string | undefined {
  const [group = '', verb = ''] = subcommandWords(args);
  if (group === 'db') {
    if (DB_CHANGES.has(verb)) return `wp db ${verb}`;
    const statement = subcommandWords(args)[2] ?? '';
    return verb === 'query' && WRITE_STATEMENT.test(statement) ? 'a statement that writes to the database' : undefined;
  }
  if (WHOLE_CHANGES.has(group))
    return group === 'search-replace' && args.includes('--dry-run') ? undefined : `wp ${group}`;
  const pattern = Object.hasOwn(SITE_CHANGES, group) ? SITE_CHANGES[group] : undefined;
  if (pattern?.test(verb)) return `wp ${group} ${verb}`;
  // Content and settings: posts, orders, users, options, terms, comments, media, menus, WooCommerce's objects.
  if (CHANGING_VERBS.has(verb) || (group === 'wc' && CHANGING_VERBS.has(subcommandWords(args)[2] ?? '')))
    return `wp ${subcommandWords(args)
      .slice(0, group === 'wc' ? 3 : 2)
      .join(' ')}`;
  return undefined;
}

function liveChange(cmd: SimpleCommand): { target: string; change: string } | undefined {
  if (cmd.name !== 'wp') return undefined;
  const args = argsOf(cmd);
  const target = liveTarget(args);
  const change = target === undefined ? undefined : siteChange(args);
  return target !== undefined && change !== undefined ? { target, change } : undefined;
}

export const wpCliLiveSiteChange = definePolicy({
  name: 'wp-cli-live-site-change',
  category: 'dangerous-commands',
  description:
    'Asks before WP-CLI changes a live site (an @production, @live or @all alias, or --ssh to a host not named for staging): database resets and imports, search-replace without --dry-run, deletes, plugins, config, users.',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    for (const cmd of shellCommands(call)) {
      const found = liveChange(cmd);
      if (found)
        return {
          reason: `Runs ${found.change} on the live site ${found.target}: its orders, customers and settings change for real, with no undo here. Try it on staging or with --dry-run first, or approve this exact call.`,
          evidence: evidenceOf(cmd.text),
        };
    }
    return null;
  },
});
