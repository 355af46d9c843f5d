import { policyTable } from './table';

policyTable('others-batch-jobs-cancelled', [
  { note: "a whole account's jobs", spec: 'scancel -A genolab -p gpu', expect: 'ask' },
  { note: "a colleague's jobs", spec: 'scancel --user=lchen --state=RUNNING', expect: 'ask' },
  { note: 'near miss: one of my own jobs by id', spec: 'scancel 4812345', expect: null },
  { note: 'near miss: my own pending jobs', spec: 'scancel -u $USER --state=PENDING', expect: null },
  { note: 'near miss: my own jobs by name', spec: 'scancel -u dev -n bwa_index', expect: null },
  { note: 'near miss: --me', spec: 'scancel --me -p short', expect: null },
  { note: 'every user in LSF', spec: 'bkill -u all 0', expect: 'ask' },
  { note: "near miss: LSF's own job", spec: 'bkill 1234', expect: null },
  { note: "another user's jobs in SGE", spec: 'qdel -u mpatel', expect: 'ask' },
  {
    note: "a scheduler tool told a colleague's name",
    spec: { tool: 'mcp__slurm__cancel_jobs', input: { user: 'lchen', partition: 'compute', state: 'RUNNING' } },
    expect: 'ask',
  },
  {
    note: 'near miss: the same tool on my own job',
    spec: { tool: 'mcp__slurm__cancel_jobs', input: { job_id: '4812345' } },
    expect: null,
  },
  {
    note: 'near miss: a scheduler tool that only lists jobs',
    spec: { tool: 'mcp__slurm__list_jobs', input: { user: 'lchen' } },
    expect: null,
  },
]);
