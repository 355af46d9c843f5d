import path from 'node:path';
import type { ToolCall } from '../../types';
import { evidenceOf } from '../../../facts/commands';
import { PRODUCED } from '../../../facts/produced-files';

// A whole-file write that replaces what no undo brings back: Terraform's record of what is deployed,
// a backup, or a file of real content cut down to almost nothing (`id,name\n` over a labelled dataset,
// an empty module over uncommitted work). Edits change part of a file and are not judged here.

/** Terraform's state: what exists in the cloud, by Terraform's account of it. */
const TERRAFORM_STATE = /\.tfstate(\.backup)?$/;
/** A backup by its folder or its extension. */
const BACKUP_FOLDER = /(^|\/)backups?(\/|$)/i;
const BACKUP_EXTENSION = /\.(dump|bak|backup)$/i;

/** Datasets and weights in binary formats: no text a file tool writes is one, so it only replaces what was there. */
export const BINARY_DATA_EXTENSION =
  /\.(parquet|arrow|feather|orc|avro|npy|npz|h5|hdf5|pt|pth|ckpt|safetensors|onnx|pkl|pickle|joblib|tfrecords?|duckdb)$/i;

const READ_LIMIT = 256 * 1024;
/** A file this long holds real content; a write that keeps a twentieth of it or less guts it. */
const SUBSTANTIAL_CHARS = 2000;
const GUTTED_SHARE = 0.05;

export interface Overwrite {
  what: string;
  evidence: string;
}

/** What a whole-file write destroys, if it replaces state, a backup, or cuts a file of real content to almost nothing. */
export function destructiveOverwrite(call: ToolCall): Overwrite | null {
  if (call.face.family !== 'write' || call.content === undefined) return null;
  const target = call.paths.find((p) => p.access === 'write');
  if (!target) return null;
  const file = target.absolute;
  const evidence = evidenceOf(`${call.toolName} ${target.raw}`);
  if (TERRAFORM_STATE.test(file))
    return { what: `the write replaces ${file}, Terraform's record of what is deployed`, evidence };
  const folder = path.posix.dirname(file);
  if (BACKUP_FOLDER.test(folder) || BACKUP_EXTENSION.test(file)) {
    if (call.io.exists(file)) return { what: `the write replaces the backup ${file}`, evidence };
  }
  // Judged inside the project by its own folders: a project may itself live under some /tmp.
  const inside = file.startsWith(`${call.projectRoot}/`);
  if (PRODUCED.test(inside ? file.slice(call.projectRoot.length + 1) : file)) return null;
  if (BINARY_DATA_EXTENSION.test(file) && call.io.exists(file))
    return { what: `the write replaces the dataset or weights ${file} with text`, evidence };
  const before = call.io.readText(file, READ_LIMIT);
  if (before === null || before.length < SUBSTANTIAL_CHARS) return null;
  if (call.content.length > before.length * GUTTED_SHARE) return null;
  return {
    what: `the write cuts ${file} from ${before.length} characters to ${call.content.length}`,
    evidence,
  };
}
