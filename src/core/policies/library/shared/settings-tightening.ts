import type { ToolCall } from '../../types';
import { currentText, insertionOf, replacedTexts } from './edited-file';

// Claude Code settings changes that only forbid the agent more: rules added to `permissions.deny` or
// `permissions.ask`, nothing else touched. Read as a whole file when it exists (what the edit leaves
// must parse and differ from what is there only by those rules); read as text when it does not (an
// edit of a missing file fails, so only the text's own shape is left to judge).

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

/** Claude Code's own settings files, where `permissions.deny` and `permissions.ask` mean what they say. */
function isClaudeSettingsFile(file: string): boolean {
  return /[\\/]\.claude[\\/]settings(\.local)?\.json$/.test(file);
}

/** This call changes Claude Code's settings file `file` only by forbidding the agent more. */
export function onlyTightensClaudeSettings(call: ToolCall, file: string): boolean {
  if (!isClaudeSettingsFile(file)) return false;
  const current = currentText(call, file);
  if (current === null) {
    if (call.io.exists(file)) return false;
    if (call.face.family === 'write') return onlyTightens({}, parsed(call.content ?? ''));
    return textOnlyAddsRules(call);
  }
  const after = resultingText(call, current);
  return after !== undefined && onlyTightens(parsed(current), parsed(after));
}
