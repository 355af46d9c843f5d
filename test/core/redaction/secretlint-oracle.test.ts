// secretlint's recommended preset as an oracle: every secret it reports in the planted corpus must
// also be redacted by our Redactor. secretlint is asynchronous and so cannot sit on the hot path;
// here it only checks our detectors against a maintained detector set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Redactor, type RedactionResult } from '../../../src/core/redaction';
import { plantedSecrets, type PlantedSecret } from './planted';
import { loadSecretlint, type Secretlint, type SecretlintReport } from './secretlint';

const redactor = new Redactor({ env: {} });
let secretlint: Secretlint | undefined;

async function secretlintReports(content: string, file: string): Promise<SecretlintReport[]> {
  secretlint ??= await loadSecretlint();
  return secretlint(content, file);
}

/** What secretlint flagged that we left: no finding of ours overlaps its range, or a planted secret in it survives. */
function misses(planted: PlantedSecret, ours: RedactionResult, reports: SecretlintReport[]): string[] {
  const missed: string[] = [];
  for (const report of reports) {
    const overlapped = ours.findings.some((f) => f.start < report.end && f.end > report.start);
    const survivors = planted.secrets.filter((secret) => {
      const at = planted.text.indexOf(secret);
      return at < report.end && at + secret.length > report.start && ours.text.includes(secret);
    });
    if (!overlapped || survivors.length > 0)
      missed.push(`${planted.kind}: secretlint ${report.rule} at ${report.start}-${report.end}`);
  }
  return missed;
}

test('every secret secretlint reports in the planted corpus is redacted by us', async () => {
  const corpus = plantedSecrets();
  assert.ok(corpus.length >= 40);
  const missed: string[] = [];
  const reportedKinds = new Set<string>();
  const rules = new Set<string>();
  for (const planted of corpus) {
    const reports = await secretlintReports(planted.text, planted.file);
    for (const report of reports) rules.add(report.rule);
    if (reports.length > 0) reportedKinds.add(planted.kind);
    missed.push(...misses(planted, redactor.redactText(planted.text, 'narrow'), reports));
  }
  assert.deepEqual(missed, [], `formats secretlint catches that we do not:\n${missed.join('\n')}`);
  // The oracle must have had something to say, or this test proves nothing.
  assert.ok(reportedKinds.size >= 20, `secretlint reported only ${reportedKinds.size} planted kinds`);
  assert.ok(rules.size >= 12, `secretlint used only ${rules.size} rules: ${[...rules].join(', ')}`);
});

test('on the whole corpus as one document, the same holds', async () => {
  const corpus = plantedSecrets(2);
  const text = corpus.map((p) => p.text).join('\n\n');
  const reports = await secretlintReports(text, 'session.log');
  assert.ok(reports.length >= 20);
  const ours = redactor.redactText(text, 'narrow');
  const missed = reports.filter((report) => !ours.findings.some((f) => f.start < report.end && f.end > report.start));
  assert.deepEqual(missed, []);
  for (const planted of corpus)
    for (const secret of planted.secrets) assert.ok(!ours.text.includes(secret), planted.kind);
});

test('what we find beyond secretlint: kinds it leaves silent that we redact', async () => {
  const silent: string[] = [];
  for (const planted of plantedSecrets()) {
    if ((await secretlintReports(planted.text, planted.file)).length > 0) continue;
    silent.push(planted.kind);
    const ours = redactor.redactText(planted.text, 'narrow');
    for (const secret of planted.secrets) assert.ok(!ours.text.includes(secret), planted.kind);
  }
  // Hand-written detectors cover these (listed in src/core/redaction/README.md); there must be some.
  assert.ok(
    silent.includes('jwt') && silent.includes('gitlab-pat') && silent.includes('curl-user-flag'),
    silent.join(', '),
  );
});
