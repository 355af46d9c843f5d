import type { ToolCall } from '../../types';
import { argsOf, shellCommands } from '../../../facts/commands';
import { jqWords } from '../../../facts/script-edits';
import { resolvePath } from '../../../shell/paths';
import { currentText, insertionOf, replacedTexts } from './edited-file';

// Claude Code settings changes that only forbid the agent more: rules added to `permissions.deny` or
// `permissions.ask`, nothing else touched. Read as a whole file when it exists (what the edit leaves
// must parse and differ from what is there only by those rules); read as text when it does not (an
// edit of a missing file fails, so only the text's own shape is left to judge). The shell's way of making
// the same change is read too: `jq '.permissions.deny += ["…"]' F > tmp && mv tmp F`, and nothing else.

const TIGHTENING_LISTS = ['deny', 'ask'] as const;
// Modes that ask before more than the others do (or only plan): switching to one loosens nothing.
const STRICT_MODES = new Set<Json | undefined>([undefined, 'default', 'plan']);
const PERMISSION_LIST = /"(allow|deny|ask|additionalDirectories)"\s*:\s*\[/g;
const RULE_STRING = /^"[^"\\]*"$/;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function parsed(text: string): Json | undefined {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
}

function isObject(value: Json | undefined): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The settings without what a tightening may change (the rule lists, the mode), for comparing everything else. */
function withoutTighteningParts(settings: { [key: string]: Json }): string {
  const permissions = isObject(settings['permissions']) ? { ...settings['permissions'] } : settings['permissions'];
  if (isObject(permissions)) for (const part of [...TIGHTENING_LISTS, 'allow', 'defaultMode']) delete permissions[part];
  const empty = permissions === undefined || (isObject(permissions) && Object.keys(permissions).length === 0);
  return canonicalJson({ ...settings, permissions: empty ? null : permissions });
}

function canonicalJson(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key]!)}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

function ruleList(settings: { [key: string]: Json }, list: string): Json[] | undefined {
  const permissions = settings['permissions'];
  if (permissions === undefined) return [];
  if (!isObject(permissions)) return undefined;
  const rules = permissions[list];
  if (rules === undefined) return [];
  return Array.isArray(rules) ? rules : undefined;
}

function modeOf(settings: { [key: string]: Json }): Json | undefined {
  const permissions = settings['permissions'];
  return isObject(permissions) ? permissions['defaultMode'] : undefined;
}

/**
 * After differs from before only by forbidding more: string rules added to the deny and ask lists
 * (none removed), rules taken off the allow list (none added), the mode switched to one that asks.
 */
function onlyTightens(before: Json | undefined, after: Json | undefined): boolean {
  if (!isObject(before) || !isObject(after)) return false;
  if (withoutTighteningParts(before) !== withoutTighteningParts(after)) return false;
  const [wasMode, isMode] = [modeOf(before), modeOf(after)];
  if (isMode !== wasMode && !STRICT_MODES.has(isMode)) return false;
  const [wasAllowed, isAllowed] = [ruleList(before, 'allow'), ruleList(after, 'allow')];
  if (wasAllowed === undefined || isAllowed === undefined) return false;
  const allowed = new Set<Json>(wasAllowed);
  if (!isAllowed.every((rule) => allowed.has(rule))) return false;
  let gained = isMode !== wasMode || isAllowed.length < wasAllowed.length;
  for (const list of TIGHTENING_LISTS) {
    const was = ruleList(before, list);
    const is = ruleList(after, list);
    if (was === undefined || is === undefined || !is.every((rule) => typeof rule === 'string')) return false;
    const kept = new Set<Json>(is);
    if (!was.every((rule) => kept.has(rule))) return false;
    gained ||= is.length > was.length;
  }
  return gained;
}

/** The file a Write or an edit leaves behind, from the file as it is now; undefined when it cannot be told. */
function resultingText(call: ToolCall, current: string): string | undefined {
  if (call.face.family === 'write') return typeof call.content === 'string' ? call.content : undefined;
  if (call.face.family !== 'edit') return undefined;
  const pairs = replacedTexts(call.input);
  if (!pairs.length || call.input['replace_all'] === true) return undefined;
  let text = current;
  for (const [before, after] of pairs) {
    const at = text.indexOf(before);
    if (before === '' || at < 0 || text.indexOf(before, at + 1) >= 0) return undefined;
    text = text.slice(0, at) + after + text.slice(at + before.length);
  }
  return text;
}

/** The inserted text is rule strings and the commas between them, nothing else. */
function onlyRuleStrings(text: string): boolean {
  const pieces = text.split(',').map((piece) => piece.trim());
  return pieces.some((piece) => piece !== '') && pieces.every((piece) => piece === '' || RULE_STRING.test(piece));
}

/** The list still open where the insertion lands, as far as the old text shows it. */
function openListAt(context: string): string | undefined {
  const opened = [...context.matchAll(PERMISSION_LIST)].pop();
  if (opened === undefined || context.indexOf(']', opened.index) >= 0) return undefined;
  return opened[1];
}

/** An edit of a file that is not there, judged by its text: rule strings inserted into an open deny or ask list. */
function textOnlyAddsRules(call: ToolCall): boolean {
  if (call.face.family !== 'edit') return false;
  const pairs = replacedTexts(call.input);
  return (
    pairs.length > 0 &&
    pairs.every(([before, after]) => {
      const inserted = insertionOf(before, after);
      if (inserted === undefined || !onlyRuleStrings(inserted.text)) return false;
      const list = openListAt(before.slice(0, inserted.at));
      return list === 'deny' || list === 'ask';
    })
  );
}

/** `.permissions.deny += ["Read(./.env)"]`: one list given more rule strings. */
const JQ_RULES_ADDED = /^\s*\.permissions\.(deny|ask)\s*\+=\s*(\[[^\]]*\])\s*$/;

/** The settings a jq filter of only rule additions leaves, from those before it; undefined for any other filter. */
function afterJqFilter(filter: string, before: { [key: string]: Json }): Json | undefined {
  const after = JSON.parse(JSON.stringify(before)) as { [key: string]: Json };
  for (const step of filter.split('|')) {
    const added = JQ_RULES_ADDED.exec(step);
    const rules = added ? parsed(added[2]!) : undefined;
    if (!added || !Array.isArray(rules) || !rules.every((rule) => typeof rule === 'string')) return undefined;
    const permissions = after['permissions'] ?? {};
    if (!isObject(permissions)) return undefined;
    const list = permissions[added[1]!] ?? [];
    if (!Array.isArray(list)) return undefined;
    permissions[added[1]!] = [...list, ...rules];
    after['permissions'] = permissions;
  }
  return after;
}

// jq options that change only how the output is laid out. Any other (`-n`, `--slurp`, `--arg`) changes
// what the filter reads or means, so the filter alone would no longer tell what lands in the file.
const JQ_LAYOUT_OPTIONS = new Set(['--indent', '--tab', '-S', '--sort-keys', '-M', '--monochrome-output']);

/**
 * A shell call whose only touch of F is `jq FILTER F > TMP` then `mv TMP F`: the settings after it are what
 * the filter makes of F's current text (or of nothing, when F is not there yet). No other command of the
 * call may name TMP or F, in its words or its redirects: one that did could change what lands in F.
 */
function jqRewrite(call: ToolCall, file: string): { filter: string; current: string | null } | undefined {
  const commands = shellCommands(call);
  const at = (word: string) => resolvePath(word, call.cwd, call.home);
  const jq = commands.find((cmd) => cmd.name === 'jq' && argsOf(cmd).some((a) => at(a) === file));
  const out = jq?.redirects.find((r) => r.op === '>' && r.fd === undefined);
  if (jq === undefined || out === undefined || jq.redirects.length !== 1) return undefined;
  const temp = at(out.target);
  const { options, operands } = jqWords(argsOf(jq));
  if (!options.every((o) => JQ_LAYOUT_OPTIONS.has(o)) || operands.length !== 2 || at(operands[1]!) !== file)
    return undefined;
  const mv = commands.find((cmd) => cmd.name === 'mv' && argsOf(cmd).some((a) => at(a) === temp));
  const mvArgs = mv === undefined ? [] : argsOf(mv);
  if (mv === undefined || mvArgs.length !== 2 || at(mvArgs[0]!) !== temp || at(mvArgs[1]!) !== file) return undefined;
  const touches = (cmd: (typeof commands)[number]) =>
    [...argsOf(cmd), ...cmd.redirects.map((r) => r.target)].some((word) => at(word) === temp || at(word) === file);
  // A function's body is listed where it is defined and where it runs: the same jq or mv again is no other.
  const other = (cmd: (typeof commands)[number]) => cmd.text !== jq.text && cmd.text !== mv.text;
  if (commands.some((cmd) => other(cmd) && touches(cmd))) return undefined;
  return { filter: operands[0]!, current: currentText(call, file) };
}

/** Claude Code's own settings files, where `permissions.deny` and `permissions.ask` mean what they say. */
function isClaudeSettingsFile(file: string): boolean {
  return /[\\/]\.claude[\\/]settings(\.local)?\.json$/.test(file);
}

/** This call changes Claude Code's settings file `file` only by forbidding the agent more. */
export function onlyTightensClaudeSettings(call: ToolCall, file: string): boolean {
  if (!isClaudeSettingsFile(file)) return false;
  if (call.shell) {
    const rewrite = jqRewrite(call, file);
    if (rewrite === undefined || (rewrite.current === null && call.io.exists(file))) return false;
    const before = rewrite.current === null ? {} : parsed(rewrite.current);
    return isObject(before) && onlyTightens(before, afterJqFilter(rewrite.filter, before));
  }
  const current = currentText(call, file);
  if (current === null) {
    if (call.io.exists(file)) return false;
    if (call.face.family === 'write') return onlyTightens({}, parsed(call.content ?? ''));
    return textOnlyAddsRules(call);
  }
  const after = resultingText(call, current);
  return after !== undefined && onlyTightens(parsed(current), parsed(after));
}
