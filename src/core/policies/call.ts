import { homedir } from 'node:os';
import type { HookEvent } from '../types';
import { analyzeShell } from '../shell';
import { relatePath, resolvePath } from '../shell/paths';
import type { FaceBook, ToolFace } from './faces';
import type { ToolCall, TouchedPath } from './types';

function stringParam(input: Record<string, unknown>, name: string | undefined): string | undefined {
  if (!name) return undefined;
  const value = input[name];
  if (typeof value === 'string') return value;
  // Codex sends its shell command as an argv array.
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return shellJoin(value as string[]);
  return undefined;
}

function shellJoin(argv: string[]): string {
  return argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}

function contentOf(input: Record<string, unknown>, params: string[] | undefined): string | undefined {
  if (!params) return undefined;
  const parts: string[] = [];
  for (const name of params) {
    const value = input[name];
    if (typeof value === 'string') parts.push(value);
    else if (value !== undefined) parts.push(JSON.stringify(value));
  }
  return parts.length ? parts.join('\n') : undefined;
}

function facePaths(face: ToolFace, input: Record<string, unknown>, cwd: string, projectRoot: string, home: string): TouchedPath[] {
  const target = face.pathTarget;
  if (!target) return [];
  for (const name of [target.param, ...(target.aliases ?? [])]) {
    const raw = input[name];
    if (typeof raw !== 'string' || raw === '') continue;
    const absolute = resolvePath(raw, cwd, home);
    return [{ raw, absolute, access: target.access, relation: relatePath(absolute, projectRoot, home), source: name }];
  }
  return [];
}

export interface CallContext {
  projectRoot: string;
  home?: string;
  faces: FaceBook;
}

/** Reads a tool event's arguments through its face; undefined for events without a tool. */
export function toolCallOf(event: HookEvent, ctx: CallContext): ToolCall | undefined {
  if (!event.toolName) return undefined;
  const input = event.toolInput ?? {};
  const face = ctx.faces.faceFor(event.toolName);
  const home = ctx.home ?? homedir();
  const cwd = event.cwd || ctx.projectRoot;
  const command = face.family === 'shell' ? stringParam(input, face.commandParam ?? 'command') : undefined;
  const call: ToolCall = {
    toolName: event.toolName,
    input,
    face,
    cwd,
    projectRoot: ctx.projectRoot,
    home,
    paths: facePaths(face, input, cwd, ctx.projectRoot, home),
  };
  if (command !== undefined) {
    call.command = command;
    call.shell = analyzeShell(command, { home, env: { HOME: home } });
  }
  const content = contentOf(input, face.contentParams);
  if (content !== undefined) call.content = content;
  const url = stringParam(input, face.urlParam);
  if (url !== undefined) call.url = url;
  return call;
}
