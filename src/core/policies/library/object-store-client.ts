import { infraPolicy } from './infrastructure';

// The MinIO client (`mc`) speaks to any S3-compatible store under an alias: what it removes, expires or
// opens there is gone or public for everyone who uses that store. Midnight Commander is also `mc`, but
// takes folders, never these subcommands.

const RECURSIVE = /^(-r|--recursive|--force|--versions|--older-than(=.*)?)$/;
const EXPIRY =
  /^--(expire-days|expiry-days|expire-date|expiry-date|noncurrent-expire-days|noncurrentversion-expiration-days)(=|$)/;

export const objectStoreClientChange = infraPolicy({
  name: 'object-store-client-change',
  description:
    'Asks before the MinIO client (mc) removes a bucket or objects recursively, mirrors with --remove, sets objects to expire, or opens a bucket to anonymous access.',
  tools: ['mc', 'mcli'],
  valueShort: ['C'],
  valueLong: ['config-dir'],
  action(pos, args) {
    const [verb, sub, level] = pos;
    if (verb === 'rb') return { what: `mc rb ${sub ?? ''}`.trim() };
    // A prefix inside a bucket (`alias/bucket/tmp/`) is a folder's worth; a bucket or an alias whole is everything.
    const whole = pos.slice(1).find((target) => /^[\w.-]+\/([\w.-]+\/?)?$/.test(target));
    if (verb === 'rm' && whole !== undefined && args.some((a) => RECURSIVE.test(a)))
      return { what: `mc rm of all of ${whole}` };
    if (verb === 'mirror' && args.some((a) => a === '--remove' || a === '--overwrite'))
      return { what: 'mc mirror --remove (what the source lacks is deleted at the target)' };
    const scoped = args.some((a) => /^--prefix(=.|$)/.test(a));
    if (verb === 'ilm' && (sub === 'import' || (sub === 'rule' && !scoped && args.some((a) => EXPIRY.test(a)))))
      return { what: `mc ilm ${sub} (objects set to delete themselves)` };
    // `mc anonymous set download ALIAS/bucket` (`mc policy set` before): anyone reads or writes it, no key needed.
    const opened = (verb === 'anonymous' || verb === 'policy') && sub === 'set' ? level : undefined;
    if (opened === 'download' || opened === 'public' || opened === 'upload')
      return { what: `mc ${verb} set ${opened} (anyone on the network, without a key)` };
    return null;
  },
});
