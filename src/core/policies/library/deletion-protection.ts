import { z } from 'zod';
import { definePolicy } from '../types';
import type { ToolCall } from '../types';
import { evidenceOf } from '../../facts/commands';
import { inPlaceEdits, writtenTexts } from '../../facts/compute';
import { currentText, replacedTexts } from './shared/edited-file';

// Infrastructure code keeps its most valuable resources from being deleted by a later apply: Terraform's
// prevent_destroy and the providers' deletion_protection, CloudFormation's DeletionPolicy and
// DeletionProtection, Helm's resource-policy: keep. Turning one off, or adding force_destroy or
// skip_final_snapshot, is how a database or a bucket goes with its data on the next apply, after a
// review that looked only at the plan's summary.

/** Files infrastructure code lives in (Terraform, CloudFormation and SAM, Helm, Pulumi's YAML): only these are read. */
const INFRASTRUCTURE_FILE = /\.(tf|tfvars|hcl|tf\.json|ya?ml|json|template|properties)$/i;

/** A `key = value` or `key: value` line's key and the first word of its value (HCL, YAML, JSON). */
type KeyValue = [key: string, value: string];

const SETTING_LINE = /^\s*"?([A-Za-z_][\w./-]*)"?\s*[=:]\s*"?([\w-]+)/;

function settingsOf(text: string): KeyValue[] {
  const found: KeyValue[] = [];
  for (const line of text.split('\n')) {
    const match = SETTING_LINE.exec(line);
    if (match) found.push([match[1]!, match[2]!]);
  }
  return found;
}

interface Setting {
  /** What the setting is called, as the reason names it. */
  name: string;
  is: (key: string, value: string) => boolean;
}

const isDeletionProtectionKey = (key: string) =>
  key.includes('deletion_protection') || key === 'DeletionProtection' || key === 'DeletionProtectionEnabled';
const TERMINATION_KEYS = new Set(['termination_protection', 'disable_api_termination', 'EnableTerminationProtection']);
/** Flyway's guard against `clean`, which drops every object in the schemas it manages (Spring's key and Flyway's own). */
const isFlywayCleanDisabledKey = (key: string) => /(^|\.)(clean-disabled|cleanDisabled)$/.test(key);
const isFlywayCleanOnErrorKey = (key: string) => /(^|\.)(clean-on-validation-error|cleanOnValidationError)$/.test(key);

/** Settings that keep a resource (and its data) through a destroy or a replacement. */
const PROTECTIONS: Setting[] = [
  { name: 'prevent_destroy', is: (key, value) => key === 'prevent_destroy' && value === 'true' },
  { name: 'deletion protection', is: (key, value) => isDeletionProtectionKey(key) && value === 'true' },
  { name: 'termination protection', is: (key, value) => TERMINATION_KEYS.has(key) && value === 'true' },
  {
    name: 'a DeletionPolicy that keeps the resource',
    is: (key, value) => key === 'DeletionPolicy' && ['Retain', 'Snapshot', 'RetainExceptOnCreate'].includes(value),
  },
  { name: "Helm's resource-policy: keep", is: (key, value) => key === 'helm.sh/resource-policy' && value === 'keep' },
  { name: "Flyway's clean-disabled", is: (key, value) => isFlywayCleanDisabledKey(key) && value === 'true' },
];

/** Settings that let a destroy take the data with it. */
const DATA_LOSS: Setting[] = [
  {
    name: 'force_destroy = true (the bucket goes with every object in it)',
    is: (key, value) => key === 'force_destroy' && value === 'true',
  },
  {
    name: 'skip_final_snapshot = true (the database goes with no last snapshot)',
    is: (key, value) => key === 'skip_final_snapshot' && value === 'true',
  },
  { name: 'DeletionPolicy: Delete', is: (key, value) => key === 'DeletionPolicy' && value === 'Delete' },
  {
    name: "Flyway's clean-on-validation-error (a checksum mismatch drops the whole schema)",
    is: (key, value) => isFlywayCleanOnErrorKey(key) && value === 'true',
  },
];

const count = (settings: readonly KeyValue[], setting: Setting) =>
  settings.filter(([key, value]) => setting.is(key, value)).length;

/** What turning `before` into `after` takes away: a protection fewer, or a data-loss setting more. */
function loosened(before: string, after: string): string | undefined {
  const was = settingsOf(before);
  const now = settingsOf(after);
  const removed = PROTECTIONS.find((p) => count(now, p) < count(was, p));
  if (removed) return `removes ${removed.name}`;
  const added = DATA_LOSS.find((s) => count(now, s) > count(was, s));
  return added ? `sets ${added.name}` : undefined;
}

const hasProtection = (text: string) => {
  const settings = settingsOf(text);
  return PROTECTIONS.some((p) => count(settings, p) > 0);
};

/** The edit tool's replaced texts that loosen a protection (Edit, MultiEdit). */
function loosenedByEdit(call: ToolCall): { file: string; what: string; evidence: string } | undefined {
  const file = call.paths.find((p) => p.access === 'write')?.absolute;
  if (!file) return undefined;
  for (const [before, after] of replacedTexts(call.input)) {
    const what = loosened(before, after);
    if (what) return { file, what, evidence: after };
  }
  return undefined;
}

/**
 * A change to a file that protects something now, and what it takes away. A Write replaces the whole
 * file and is compared with it; other writes (a patch, sed, a heredoc) bring in only part of its text,
 * so what counts there is a protection written as off or a data-loss setting the file did not have.
 */
function loosening(call: ToolCall): { file: string; what: string; evidence: string } | undefined {
  const byEdit = call.face.family === 'edit' ? loosenedByEdit(call) : undefined;
  if (byEdit) return byEdit;
  const whole = call.face.family === 'write';
  for (const { file, content } of [...writtenTexts(call), ...inPlaceEdits(call)]) {
    if (!INFRASTRUCTURE_FILE.test(file)) continue;
    const now = currentText(call, file);
    const cleanOn = flywayCleanTurnedOn(file, content, now ?? '');
    if (cleanOn) return { file, what: `turns on Flyway's clean (${cleanOn})`, evidence: content };
    if (now === null || !hasProtection(now)) continue;
    if (whole) {
      const what = loosened(now, content);
      if (what) return { file, what, evidence: content };
      continue;
    }
    const flipped = turnedOff(content);
    if (flipped) return { file, what: `turns off ${flipped}`, evidence: content };
    const [written, present] = [settingsOf(content), settingsOf(now)];
    const added = DATA_LOSS.find((s) => count(written, s) > count(present, s));
    if (added) return { file, what: `sets ${added.name}`, evidence: content };
  }
  return undefined;
}

const FLYWAY_CLEAN_ON = (key: string, value: string) =>
  (isFlywayCleanDisabledKey(key) && value === 'false') || (isFlywayCleanOnErrorKey(key) && value === 'true');
/** A development or test profile's config (application-dev.yml, application-test.properties), where clean is how a scratch database is reset. */
const SCRATCH_PROFILE = /(^|[-_.])(dev|test|local|ci|it|e2e)([-_.]|$)/i;

/**
 * Flyway's clean is off unless a config turns it on, so turning it on loosens a default, not a line the
 * file had: asked wherever the text newly turns it on, except in a development or test profile.
 */
function flywayCleanTurnedOn(file: string, content: string, now: string): string | undefined {
  if (SCRATCH_PROFILE.test(file.slice(file.lastIndexOf('/') + 1))) return undefined;
  const was = settingsOf(now).filter(([key, value]) => FLYWAY_CLEAN_ON(key, value)).length;
  const turnedOn = settingsOf(content).filter(([key, value]) => FLYWAY_CLEAN_ON(key, value));
  return turnedOn.length > was ? turnedOn.map(([key, value]) => `${key}: ${value}`).join(', ') : undefined;
}

/** A protection written as off (`deletion_protection = false`, `prevent_destroy = false`). */
function turnedOff(text: string): string | undefined {
  const off = settingsOf(text).find(
    ([key, value]) =>
      value === 'false' && (key === 'prevent_destroy' || isDeletionProtectionKey(key) || isFlywayCleanDisabledKey(key)),
  );
  return off?.[0];
}

export const deletionProtectionRemoved = definePolicy({
  name: 'deletion-protection-removed',
  category: 'infrastructure',
  description:
    "Asks before infrastructure code loses a resource's deletion guard: prevent_destroy, deletion_protection, a keeping DeletionPolicy or Helm's keep removed or turned off, or force_destroy, skip_final_snapshot or Flyway's clean turned on.",
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    const found = call ? loosening(call) : undefined;
    if (!found) return null;
    return {
      reason: `${found.file}: this change ${found.what}. The next apply can then delete the resource with its data, and a plan's summary does not show that a guard went. Keep the protection, or approve this exact change.`,
      evidence: evidenceOf(found.evidence),
    };
  },
});
