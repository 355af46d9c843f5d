// Loading a model can run its author's code. `trust_remote_code=True` imports the Python files of the
// model's repository; a pickle (torch.load with weights_only=False, joblib, dill, pandas' read_pickle)
// runs whatever its bytes say while it is read; torch.hub runs the repository's hubconf.py; Keras with
// safe_mode=False runs the lambdas a file holds. The code runs with the person's rights and tokens, the
// moment the line does. Safe forms stay quiet: safetensors, weights_only=True, a pickle the project
// wrote itself, torch.hub's own well-known repositories. Python reaches this from a command line, a
// written file, a notebook cell or a kernel's code alike (all read as Python code).
import { z } from 'zod';
import { argsOf, evidenceOf, shellCommands } from '../../facts/commands';
import { writtenTexts } from '../../facts/compute';
import type { SimpleCommand } from '../../shell';
import { interpreterCode } from '../../facts/interpreter-code';
import { DOWNLOADERS, interpreterKind } from '../../facts/programs';
import { definePolicy } from '../types';
import { isLocalHost } from './shared/hosts';
import { inForeignFolder } from '../../facts/unread-programs';
import { operationArguments } from '../../text/service-operations';
import { mcpToolOf } from './shared/mcp';
import type { ToolCall } from '../types';

interface CodeRun {
  what: string;
  evidence: string;
}

const TRUST_REMOTE_CODE = /\btrust_remote_code\s*=\s*True\b/;
const TRUST_REMOTE_CODE_FLAG = /^--trust[-_]remote[-_]code(=(true|1|yes))?$/i;
const WEIGHTS_ONLY_OFF = /\bweights_only\s*=\s*False\b/;
const KERAS_UNSAFE = /\bsafe_mode\s*=\s*False\b/;
const HUB_LOAD = /\btorch\.hub\.load\s*\(\s*(?:repo_or_dir\s*=\s*)?["']([^"']+)["']([^)]*)/;
// Repositories torch.hub's own documentation loads from; anything else runs a stranger's hubconf.py.
const KNOWN_HUB_OWNERS = new Set(['pytorch', 'facebookresearch', 'nvidia', 'huggingface', 'ultralytics', 'intel-isl']);
// torch.load is not here: it loads weights only unless told otherwise (PyTorch 2.6 on).
const PICKLE_LOAD =
  /\b(?:pickle|cPickle|dill|cloudpickle|joblib)\.loads?\s*\(|\b(?:pd|pandas)\.read_pickle\s*\(|\ballow_pickle\s*=\s*True\b/;
const FETCH_IN_CODE =
  /\b(?:urlretrieve|urlopen|requests\.get|httpx\.get|wget\.download)\s*\(|\b(?:loads?|read_pickle)\s*\(\s*["']https?:\/\//;
const URL_HOST = /\bhttps?:\/\/([^/\s"':]+)/g;

/** Whether the code fetches something, from somewhere other than this machine. */
function fetchesFromNetwork(code: string): boolean {
  if (!FETCH_IN_CODE.test(code)) return false;
  const hosts = [...code.matchAll(URL_HOST)].map((m) => m[1]!.toLowerCase());
  return hosts.length === 0 || hosts.some((host) => !isLocalHost(host));
}

function hubRun(code: string): CodeRun | null {
  const hub = HUB_LOAD.exec(code);
  if (!hub) return null;
  const [repo = '', rest = ''] = [hub[1], hub[2]];
  if (/\bsource\s*=\s*["']local["']/.test(rest)) return null;
  const owner = repo.split('/')[0]!.toLowerCase();
  if (/\btrust_repo\s*=\s*True\b/.test(rest) || !KNOWN_HUB_OWNERS.has(owner))
    return { what: `torch.hub runs the hubconf.py of ${repo}`, evidence: hub[0] };
  return null;
}

// Folders that hold what others handed in: a customer's upload, a contributors' drop, an inbox.
const HANDED_IN_FOLDER = /(^|\/)(uploads?|incoming|inbox|contrib|contributions)\//i;
const QUOTED_PATH = /["'](\/[^"'\s]+|~\/[^"'\s]+)["']/g;

/** A path the code names, quoted, in a temporary, downloads or handed-in folder (`'/data/uploads/x.pkl'`). */
function namesHandedInFile(code: string): boolean {
  return [...code.matchAll(QUOTED_PATH)].some(([, path = '']) => inForeignFolder(path) || HANDED_IN_FOLDER.test(path));
}

/** What the Python code runs of a model's or a file's own code as it loads it. */
function loadRun(code: string, fetchedInCall: boolean): CodeRun | null {
  const remote = TRUST_REMOTE_CODE.exec(code);
  if (remote)
    return { what: "trust_remote_code=True imports the Python files of the model's repository", evidence: remote[0] };
  const unpickle = WEIGHTS_ONLY_OFF.exec(code);
  if (unpickle)
    return { what: 'weights_only=False unpickles the file, which runs any code it holds', evidence: unpickle[0] };
  const keras = KERAS_UNSAFE.exec(code);
  if (keras) return { what: "safe_mode=False runs the code a Keras file's lambdas hold", evidence: keras[0] };
  const hub = hubRun(code);
  if (hub) return hub;
  const pickle = PICKLE_LOAD.exec(code);
  if (pickle && (fetchedInCall || fetchesFromNetwork(code)))
    return { what: 'a pickle fetched from the network is loaded, which runs any code it holds', evidence: pickle[0] };
  if (pickle && namesHandedInFile(code))
    return {
      what: 'a pickle from a temporary, downloads or upload folder is loaded, which runs any code it holds',
      evidence: pickle[0],
    };
  return null;
}

/** `hf download REPO FILE`, `huggingface-cli download …`, `kaggle … download`: a file fetched from a hub. */
function hubDownload(cmd: SimpleCommand): boolean {
  const args = argsOf(cmd);
  if (cmd.name === 'hf' || cmd.name === 'huggingface-cli') return args[0] === 'download';
  return cmd.name === 'kaggle' && args.includes('download');
}

// A config file's `trust_remote_code: true` (Hydra, a model card's settings, a JSON of loader options).
const TRUST_REMOTE_CODE_SETTING = /\btrust_remote_code["']?[ \t]*[:=][ \t]*["']?(true|yes|1)\b/i;
const CONFIG_FILE = /\.(ya?ml|json|toml|cfg|ini)$/i;

/** A service told to load a model with its repository's code (`deploy_model` with `trust_remote_code: true`). */
function serviceTrustsRemoteCode(call: ToolCall): CodeRun | null {
  const mcp = mcpToolOf(call.toolName);
  if (!mcp || operationArguments(call.input)['trust_remote_code'] !== true) return null;
  return {
    what: `${mcp.server}'s ${mcp.tool} is told trust_remote_code, so the service imports the Python files of the model's repository`,
    evidence: `${call.toolName} trust_remote_code: true`,
  };
}

/** A written config that sets trust_remote_code, which the code that reads it passes to the loader. */
function configTrustsRemoteCode(call: ToolCall): CodeRun | null {
  for (const { file, content } of writtenTexts(call)) {
    if (!CONFIG_FILE.test(file)) continue;
    const found = TRUST_REMOTE_CODE_SETTING.exec(content);
    if (found)
      return {
        what: `${file} sets trust_remote_code, so loading the model imports the Python files of its repository`,
        evidence: found[0],
      };
  }
  return null;
}

// Celery's (and Kombu's) settings for what a worker decodes: with pickle among them, whoever can put a
// message on the broker runs code on every worker that takes it.
const SERIALIZER_SETTING =
  /(?:^|[^a-z])(accept_content|task_serializer|result_serializer|result_accept_content)[ \t]*[=:]([^\n]*)/gim;

/** A written setting that has a task queue's workers unpickle the messages they take. */
function workerUnpickles(call: ToolCall): CodeRun | null {
  for (const { file, content } of writtenTexts(call)) {
    if (!content.includes('pickle')) continue;
    for (const setting of content.matchAll(SERIALIZER_SETTING))
      if (/["']pickle["']/.test(setting[2] ?? ''))
        return {
          what: `${file} has the workers unpickle the messages they take (${setting[1]}), so whoever can write to the broker runs code on them`,
          evidence: setting[0].trim(),
        };
  }
  return null;
}

// PyTorch 2.6 loads weights only unless told otherwise; this variable tells every torch.load otherwise.
const WEIGHTS_ONLY_DEFAULT_OFF = 'TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD';

function modelCodeRun(call: ToolCall): CodeRun | null {
  const commands = shellCommands(call);
  for (const cmd of commands) {
    const flag = argsOf(cmd).find((arg) => TRUST_REMOTE_CODE_FLAG.test(arg));
    if (flag)
      return { what: `${cmd.name} ${flag} imports the Python files of the model's repository`, evidence: cmd.text };
    const forced = cmd.assignments[WEIGHTS_ONLY_DEFAULT_OFF];
    if (forced !== undefined && /^(1|true|yes|on)$/i.test(forced))
      return {
        what: `${WEIGHTS_ONLY_DEFAULT_OFF}=${forced} makes every torch.load unpickle its file, which runs any code it holds`,
        evidence: cmd.text,
      };
  }
  // Most calls run no Python: the code walk is only for those that do.
  if (!commands.some((cmd) => interpreterKind(cmd.name) === 'python')) return null;
  const python = interpreterCode(commands).sources.filter((source) => source.language === 'python');
  const fetchedInCall = commands.some((cmd) => DOWNLOADERS.has(cmd.name.toLowerCase()) || hubDownload(cmd));
  for (const source of python) {
    const run = loadRun(source.code, fetchedInCall);
    if (run) return run;
  }
  return null;
}

export const modelLoadRunsCode = definePolicy({
  name: 'model-load-runs-code',
  category: 'dangerous-commands',
  description:
    'Asks before Python runs code from a model or a message as it loads it: trust_remote_code, weights_only=False, Keras safe_mode=False, torch.hub from an unknown repository, a pickle just downloaded, Celery set to accept pickle.',
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    if (!call) return null;
    const unpickling = workerUnpickles(call);
    if (unpickling)
      return {
        reason: `${unpickling.what}. Approve it if only your own services can reach that broker; json carries the same tasks without running code.`,
        evidence: evidenceOf(unpickling.evidence),
      };
    const config = configTrustsRemoteCode(call) ?? serviceTrustsRemoteCode(call);
    if (config)
      return {
        reason: `${config.what}, with your rights and tokens. Approve it if you trust that repository.`,
        evidence: evidenceOf(config.evidence),
      };
    if (!call.shell) return null;
    const run = modelCodeRun(call);
    if (!run) return null;
    const where = call.runsLater ? `${call.runsLater} is written so that ` : '';
    return {
      reason: `${where}${run.what}, with your rights and tokens. Approve it if you trust where it comes from; a safetensors file or weights_only=True loads without running code.`,
      evidence: evidenceOf(run.evidence),
    };
  },
});
