// The call the facts are computed from, and the policies then read.
import type { ToolFace } from '../config/faces';
import type { ShellAnalysis } from '../shell';
import type { PathRelation } from '../shell/paths';
import type { CallFacts } from './types';
import type { IoFacts } from './io';

/** A path a call touches, resolved against its cwd, with how it relates to the project. */
export interface TouchedPath {
  raw: string;
  absolute: string;
  /** `list`: only the path's entries or metadata are shown (a folder listing), not its contents. */
  access: 'read' | 'list' | 'write' | 'delete' | 'execute';
  relation: PathRelation;
  /** Where the path came from: a tool parameter name, or the shell command that named it. */
  source: string;
  /** Code built it from run-time pieces (`__DIR__ . '/../.env'`): only its written tail is known. */
  dynamic?: true;
}

/** One tool call as the policies see it: arguments read through the tool's face. */
export interface ToolCall {
  toolName: string;
  input: Record<string, unknown>;
  face: ToolFace;
  cwd: string;
  projectRoot: string;
  home: string;
  /** The command text when the face has one (shell family). */
  command?: string;
  /** A written file the project's tooling runs later (a Makefile, a test file): `shell` is what it will run. */
  runsLater?: string;
  /** The parsed command; absent when the face is not a shell or the text did not parse at all. */
  shell?: ShellAnalysis;
  /** A written Dockerfile's RUN steps, parsed: they run in the image build, not here (see written-runs). */
  imageBuild?: ShellAnalysis;
  /** Paths the call's face names directly (file tools); shell policies read `shell` themselves. */
  paths: TouchedPath[];
  /** Text the call would write (file content, edit replacement), for content policies. */
  content?: string;
  url?: string;
  /** What the call reads, writes, deletes, runs, sends, and what could not be read. */
  facts: CallFacts;
  /** The file system and git as this call saw them (memoized, recorded in the VerdictRecord). */
  io: IoFacts;
}
