// Perforce keeps a studio's shared history on one server: obliterate erases files and their history for
// everyone, `-d -f` deletes another person's workspace, shelf or label, and the protections table and
// triggers decide who may do what and what the server runs.
import { infraPolicy } from './infrastructure';

/** Specs whose deletion with -f takes another person's work (their opened files, shelved changes). */
const SPECS = new Set(['client', 'workspace', 'branch', 'label', 'user', 'group', 'depot', 'stream', 'job', 'remote']);

export const perforceDepotChange = infraPolicy({
  name: 'perforce-depot-change',
  description:
    "Asks before Perforce commands that erase history or take others' work or rights: obliterate, a forced delete of a workspace, shelf or spec, and new protections, triggers or typemap.",
  tools: ['p4', 'p4.exe'],
  valueShort: ['c', 'p', 'u', 'P', 'C', 'H', 'd', 'x', 'r', 'z'],
  valueLong: [],
  action(pos, args) {
    const [verb] = pos;
    // Without -y obliterate only lists what it would remove.
    if (verb === 'obliterate' && args.some((a) => /^-\w*y/.test(a)))
      return { what: 'p4 obliterate -y (erases the files and their history from the depot)' };
    const forced = args.includes('-f');
    if (verb && SPECS.has(verb) && args.includes('-d') && forced) return { what: `p4 ${verb} -d -f` };
    if (verb === 'shelve' && args.includes('-d') && forced) return { what: "p4 shelve -d -f (another person's shelf)" };
    if ((verb === 'protect' || verb === 'triggers' || verb === 'typemap') && args.includes('-i'))
      return { what: `p4 ${verb} -i (replaces the server's ${verb === 'protect' ? 'protections' : verb} table)` };
    if (verb === 'admin' && ['stop', 'restart', 'checkpoint', 'journal'].includes(pos[1] ?? ''))
      return { what: `p4 admin ${pos[1]}` };
    return null;
  },
});
