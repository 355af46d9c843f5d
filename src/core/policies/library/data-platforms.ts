import { infraPolicy } from './infrastructure';
import { hostOfUrl, isLoopback } from './shared/hosts';
import { optionValues } from '../../facts/commands';

// Streams and lakes keep what cannot be produced again: a topic deleted or its retention cut to
// seconds loses every event the brokers held; a lake folder removed takes its tables with it.

/** Retention under an hour: the brokers purge what is older at once. */
const SHORT_RETENTION = /\bretention\.(ms=\d{1,6}|bytes=\d{1,6})(?!\d)/;

const DATA_DELETES: Record<string, (positionals: string[], args: readonly string[]) => string | null> = {
  'kafka-topics': (_pos, args) => (args.includes('--delete') ? 'deletes topics and every event in them' : null),
  'kafka-delete-records': () => 'deletes the records of a topic up to an offset',
  'kafka-configs': (_pos, args) =>
    args.includes('--alter') && optionValues(args, [], ['add-config']).some((c) => SHORT_RETENTION.test(c))
      ? "cuts a topic's retention, which purges its stored events"
      : null,
  'kafka-consumer-groups': (_pos, args) =>
    args.includes('--delete') || args.includes('--delete-offsets')
      ? "deletes a consumer group's offsets"
      : // Moved offsets make the group skip events it never processed, or process again ones it did.
        args.includes('--reset-offsets') && args.includes('--execute')
        ? "moves a consumer group's offsets, so it skips unprocessed events or processes old ones again"
        : null,
  rpk: ([sub, verb]) => (sub === 'topic' && verb === 'delete' ? 'deletes topics and every event in them' : null),
  // A Graph Node's subgraph name, removed: every query of the dapp and its dashboards stops answering.
  graph: ([sub]) => (sub === 'remove' ? 'removes a subgraph name from its Graph Node' : null),
  // A full refresh rebuilds incremental models from what the sources still hold: in production the history
  // they kept (and other teams read) is gone.
  dbt: ([sub], args) =>
    ['run', 'build', 'seed', 'snapshot'].includes(sub ?? '') &&
    args.includes('--full-refresh') &&
    optionValues(args, ['t'], ['target']).some((target) => /^(prod|production|prd|live)$/i.test(target))
      ? `${sub} --full-refresh rebuilds production's incremental models from scratch, dropping the history they kept`
      : null,
  // A KV secret's metadata deleted, or its versions destroyed, cannot be read back; a disabled engine takes every secret in it.
  vault: ([sub, verb, third]) =>
    sub === 'kv' && (verb === 'destroy' || (verb === 'metadata' && third === 'delete'))
      ? 'destroys versions of a Vault secret for good'
      : sub === 'secrets' && verb === 'disable'
        ? 'disables a Vault secrets engine, deleting every secret stored in it'
        : null,
  databricks: ([sub, verb], args) =>
    sub === 'tokens' && verb === 'create' ? longLivedToken(args) : databricksDelete(sub, verb),
};

/** A Databricks token that lasts past 90 days (or, with no lifetime given, never expires): a standing login. */
function longLivedToken(args: readonly string[]): string | null {
  const lifetime = optionValues(args, [], ['lifetime-seconds'])[0];
  if (lifetime !== undefined && Number(lifetime) <= 90 * 24 * 3600) return null;
  const days = lifetime === undefined ? undefined : Math.round(Number(lifetime) / 86400);
  return `tokens create mints a personal access token that signs in as you ${days === undefined || Number.isNaN(days) ? 'and never expires' : `for ${days} days`}`;
}

function databricksDelete(sub: string | undefined, verb: string | undefined): string | null {
  const deletes =
    (sub === 'fs' && verb === 'rm') ||
    (['workspace', 'jobs', 'tables', 'schemas', 'catalogs', 'volumes', 'pipelines'].includes(sub ?? '') &&
      verb === 'delete') ||
    (sub === 'clusters' && verb === 'permanent-delete');
  return deletes ? `${sub} ${verb} deletes it for good` : null;
}

/** `kafka-topics.sh` is the same tool as `kafka-topics`. */
const toolName = (tool: string) => tool.replace(/\.sh$/, '');

export const dataPlatformDestructive = infraPolicy({
  name: 'data-platform-destructive',
  description:
    "Asks before a stream's, lake's or secret store's data goes: kafka-topics --delete, records deleted, retention cut, consumer offsets moved, Vault secrets destroyed, databricks deletes and long-lived tokens, dbt --full-refresh on prod.",
  tools: Object.keys(DATA_DELETES).flatMap((tool) => (tool.startsWith('kafka-') ? [tool, `${tool}.sh`] : [tool])),
  valueShort: ['p'],
  valueLong: [
    ...['bootstrap-server', 'command-config', 'topic', 'entity-type', 'entity-name', 'add-config', 'profile'],
    ...['node', 'access-token', 'ipfs'],
    ...['target', 'select', 'exclude', 'project-dir', 'profiles-dir', 'vars', 'selector', 'threads'],
  ],
  action(positionals, args, tool) {
    const what = DATA_DELETES[toolName(tool)]?.(positionals, args);
    return what ? { what: `${toolName(tool)} ${what}` } : null;
  },
  onThisMachine(args, tool) {
    if (tool === 'graph') {
      const node = optionValues(args, ['g'], ['node'])[0];
      return node !== undefined && isLoopback(hostOfUrl(node) ?? '');
    }
    const servers = optionValues(args, ['b'], ['bootstrap-server', 'brokers']);
    return (
      servers.length > 0 && servers.every((server) => server.split(',').every((s) => isLoopback(s.split(':')[0] ?? '')))
    );
  },
});
