import path from 'node:path';
import { z } from 'zod';
import { definePolicy } from '../types';
import type { ToolCall } from '../types';
import { evidenceOf } from '../../facts/commands';
import { writtenTexts } from '../../facts/compute';
import { DOCKERFILE, dockerfileInstructions } from '../../facts/written-runs';
import { secretBasenameKind } from '../../facts/sensitive-paths';
import { classifySecretName } from '../../redaction/secret-names';
import { replacedTexts } from './shared/edited-file';
import { trimEndChars } from '../../text/scan';

// What a Dockerfile puts in an image, everyone who pulls the image has: a copied `.env` or key file
// sits in a layer, an ENV's value in the image's config, and a build ARG in its history with the RUN
// lines that used it. A secret reaches a build through a secret mount (`RUN --mount=type=secret`)
// instead, which leaves nothing behind. Docker's own build checks warn of the same ARG and ENV names.

interface Baked {
  instruction: string;
  why: string;
}

/** The instructions a call adds to a Dockerfile: a Write's whole text, or the lines an edit brings in. */
function addedInstructions(call: ToolCall): { file: string; instructions: [string, string][] }[] {
  if (call.face.family === 'edit') {
    const file = call.paths.find((p) => p.access === 'write')?.absolute;
    if (!file || !DOCKERFILE.test(file)) return [];
    const instructions = replacedTexts(call.input).flatMap(([before, after]) => {
      const had = new Set(dockerfileInstructions(before).map((i) => i.join(' ')));
      return dockerfileInstructions(after).filter((i) => !had.has(i.join(' ')));
    });
    return [{ file, instructions }];
  }
  return writtenTexts(call)
    .filter((w) => DOCKERFILE.test(w.file))
    .map((w) => ({ file: w.file, instructions: dockerfileInstructions(w.content) }));
}

/** Names an ENV or ARG line sets: `ENV A=1 B=2`, the older `ENV A 1`, `ARG A=default`. */
function namesSet(instruction: string, rest: string): string[] {
  if (instruction === 'ARG') return rest.split(/\s+/).map((word) => word.split('=')[0] ?? '');
  if (!rest.includes('=')) return [rest.split(/\s+/)[0] ?? ''];
  return [...rest.matchAll(/(?:^|\s)([A-Za-z_][\w.-]*)=/g)].map((m) => m[1] ?? '');
}

/** Sources of a COPY or ADD from the build context (not from another stage), options left out. */
function copiedSources(rest: string): string[] {
  const words = rest.split(/\s+/).filter(Boolean);
  if (words.some((w) => w.startsWith('--from='))) return [];
  const operands = words.filter((w) => !w.startsWith('--'));
  return operands.slice(0, -1).map((w) => trimEndChars(w.replace(/^["'[]+/, ''), `"',]`));
}

function bakedSecret(instruction: string, rest: string): Baked | undefined {
  if (instruction === 'ENV' || instruction === 'ARG') {
    const name = namesSet(instruction, rest).find((n) => n && classifySecretName(n) !== null);
    if (name)
      return {
        instruction: `${instruction} ${name}`,
        why:
          instruction === 'ENV'
            ? "its value stays in the image's configuration"
            : "its value stays in the image's history",
      };
  }
  if (instruction === 'COPY' || instruction === 'ADD') {
    const source = copiedSources(rest).find((s) => secretBasenameKind(path.posix.basename(s)) !== null);
    if (source)
      return {
        instruction: `${instruction} ${source}`,
        why: `${secretBasenameKind(path.posix.basename(source))} stays in a layer of the image`,
      };
  }
  return undefined;
}

export const secretBakedIntoImage = definePolicy({
  name: 'secret-baked-into-image',
  category: 'secrets',
  description:
    "Asks before a Dockerfile puts a secret into its image: an ENV or ARG with a secret's name, or a COPY or ADD of an env file or key, which everyone who pulls the image can read back.",
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    if (!call) return null;
    for (const { file, instructions } of addedInstructions(call))
      for (const [instruction, rest] of instructions) {
        const baked = bakedSecret(instruction, rest);
        if (baked)
          return {
            reason: `${file}: \`${baked.instruction}\` puts a secret into the image, and ${baked.why}: everyone who pulls it can read it back. Pass it with a secret mount (RUN --mount=type=secret) instead, or approve this exact call.`,
            evidence: evidenceOf(baked.instruction),
          };
      }
    return null;
  },
});
