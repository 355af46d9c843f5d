import { z } from 'zod';
import { definePolicy } from '../types';
import { firstWrittenFinding } from '../../facts/compute';
import { evidenceOf } from '../../facts/commands';

// Infrastructure as code grants what it says on the next apply, whoever runs it (a person, CI, a
// GitOps controller): a bucket or database opened to the internet, the instance metadata service's
// old unauthenticated mode, administrator rights or a long-lived key. Such a line is asked about when
// it is written into the project, where the apply that follows will not show it again.

const TERRAFORM_FILE = /\.(tf|tf\.json|tfvars)$/i;

const EXPOSURES: { pattern: RegExp; what: string }[] = [
  { pattern: /\bacl\s*[=:]\s*"public-read(-write)?"/, what: 'makes a bucket readable by anyone (public-read)' },
  { pattern: /\bpublicly_accessible\s*[=:]\s*true\b/, what: 'makes a database reachable from the internet' },
  {
    pattern: /\bhttp_tokens\s*[=:]\s*"optional"/,
    what: "turns the metadata service's unauthenticated mode back on (IMDSv1), which hands the node's role keys to any request",
  },
  { pattern: /arn:aws:iam::aws:policy\/AdministratorAccess\b/, what: 'attaches AdministratorAccess' },
  { pattern: /\bresource\s+"aws_iam_access_key"/, what: 'mints a long-lived access key' },
  {
    pattern: /["'](allUsers|allAuthenticatedUsers)["']/,
    what: 'grants a Google Cloud role to everyone on the internet (allUsers) or every Google account',
  },
  {
    pattern: /\brole_name\s*=\s*"(ACCOUNTADMIN|SECURITYADMIN|ORGADMIN)"/,
    what: "grants one of Snowflake's administrator roles, which can read every table and grant anything",
  },
  {
    pattern: /\bblock_public_(acls|policy)\s*[=:]\s*false\b|\brestrict_public_buckets\s*[=:]\s*false\b/,
    what: "turns off a bucket's public-access block",
  },
];

/** `arn:aws:iam::<account>:root` in a trust policy: another account may take the role. */
const ACCOUNT_PRINCIPAL = /"arn:aws:iam::(\d{12}):root"/;

/** Ports the internet is meant to reach; 0 is an egress rule's "any". */
const PUBLIC_PORTS = new Set([0, 80, 443]);

/** A security-group rule open to every address (`0.0.0.0/0`, `::/0`) on a port that is not a web port. */
function worldOpenPort(text: string): { what: string; evidence: string } | null {
  const world = /"(0\.0\.0\.0\/0|::\/0)"/.exec(text);
  if (!world || (/\begress\b/.test(text) && !/\bingress\b/.test(text))) return null;
  const port = [...text.matchAll(/\b(?:from_port|to_port|port)\s*=\s*(\d+)/g)]
    .map((m) => Number(m[1]))
    .find((n) => !PUBLIC_PORTS.has(n));
  return port === undefined
    ? null
    : { what: `opens port ${port} to the whole internet (${world[1]})`, evidence: world[0] };
}

function exposureOf(text: string): { what: string; evidence: string } | null {
  const open = worldOpenPort(text);
  if (open) return open;
  for (const exposure of EXPOSURES) {
    const match = exposure.pattern.exec(text);
    if (match) return { what: exposure.what, evidence: match[0] };
  }
  const principal = ACCOUNT_PRINCIPAL.exec(text);
  // An edit may bring only the principals block's `identifiers` list, without the block's name.
  if (principal && /\bprincipals\b|"Principal"|\bidentifiers\s*=/.test(text))
    return { what: `lets the AWS account ${principal[1]} take a role`, evidence: principal[0] };
  return null;
}

export const infrastructureCodeExposure = definePolicy({
  name: 'infrastructure-code-exposure',
  category: 'infrastructure',
  description:
    'Asks before Terraform written into the project opens a bucket, a database or a port to the internet, turns IMDSv1 on, attaches AdministratorAccess, mints an access key or trusts another account.',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    if (!call) return null;
    const hit = firstWrittenFinding(call, (file, content) => (TERRAFORM_FILE.test(file) ? exposureOf(content) : null));
    if (!hit) return null;
    return {
      reason: `${hit.file} ${hit.found.what}: the next apply grants that, whoever runs it. A person should approve it.`,
      evidence: evidenceOf(hit.found.evidence),
    };
  },
});
