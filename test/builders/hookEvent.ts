// One builder for a hook event, in both of its forms: the parsed HookEvent the core works on
// (`build()`), and the JSON body an agent sends on the wire (`body(agent)`), in the shapes each
// agent's own source or documentation gives (see the README's testing section for which and how).
//   aHookEvent().bash('ls').inCwd(dir).build()
//   aHookEvent().tool('Write', { file_path, content }).event('PostToolUse').build()
//   aHookEvent().bash('rm -rf /').inCwd(project).body('codex')
import { join } from 'node:path';
import type { AgentName, HookEvent, HookEventName } from '../../src/core/types';

/** Where an event happens when a test does not say: the fixed fake project the policy tables use. */
export const DEFAULT_CWD = '/home/dev/proj';

type WireBody = Record<string, unknown>;

export class HookEventBuilder {
  private agentName: AgentName = 'claude';
  private eventName: HookEventName = 'PreToolUse';
  private sessionId = 'session-1';
  private cwd = DEFAULT_CWD;
  private toolName: string | undefined = 'Bash';
  private toolInput: Record<string, unknown> | undefined = { command: 'true' };
  private transcriptPath: string | undefined;
  private permissionMode: string | undefined = 'default';
  private toolUseId: string | undefined;
  private toolResponse: unknown;
  private rawBody: WireBody | undefined;

  /** A shell call: Bash with `{command, ...more}` as its input. */
  bash(command: string, more: Record<string, unknown> = {}): this {
    return this.tool('Bash', { command, ...more });
  }

  tool(name: string, input: Record<string, unknown> = {}): this {
    this.toolName = name;
    this.toolInput = input;
    return this;
  }

  /** An event that carries no tool (Stop, SessionStart, UserPromptSubmit…). */
  noTool(): this {
    this.toolName = undefined;
    this.toolInput = undefined;
    return this;
  }

  event(name: HookEventName): this {
    this.eventName = name;
    return this;
  }

  agent(name: AgentName): this {
    this.agentName = name;
    return this;
  }

  inCwd(dir: string): this {
    this.cwd = dir;
    return this;
  }

  session(id: string): this {
    this.sessionId = id;
    return this;
  }

  transcript(path: string): this {
    this.transcriptPath = path;
    return this;
  }

  /** The agent's permission mode; `undefined` leaves it out. */
  mode(mode: string | undefined): this {
    this.permissionMode = mode;
    return this;
  }

  toolUse(id: string): this {
    this.toolUseId = id;
    return this;
  }

  /** PostToolUse: what the tool returned. */
  response(value: unknown): this {
    this.toolResponse = value;
    return this;
  }

  /** The parsed event's `raw` (by default the Claude Code body this builder gives). */
  raw(body: WireBody): this {
    this.rawBody = body;
    return this;
  }

  /** The event as the adapters hand it to the core. */
  build(): HookEvent {
    const event: HookEvent = {
      agent: this.agentName,
      event: this.eventName,
      rawEventName: this.eventName,
      sessionId: this.sessionId,
      cwd: this.cwd,
      raw: this.rawBody ?? this.body('claude'),
    };
    if (this.transcriptPath !== undefined) event.transcriptPath = this.transcriptPath;
    if (this.permissionMode !== undefined) event.permissionMode = this.permissionMode;
    if (this.toolName !== undefined) event.toolName = this.toolName;
    if (this.toolInput !== undefined) event.toolInput = this.toolInput;
    if (this.toolUseId !== undefined) event.toolUseId = this.toolUseId;
    if (this.toolResponse !== undefined) event.toolResponse = this.toolResponse;
    return event;
  }

  /** The JSON body `agent`'s hook sends for this call (its pre-tool event unless told otherwise). */
  body(agent: AgentName = 'claude'): WireBody {
    switch (agent) {
      case 'claude':
        return this.claudeBody();
      case 'codex':
        // codex-rs/hooks PreToolUseCommandInput
        return {
          session_id: this.sessionId,
          turn_id: 'turn-1',
          transcript_path: this.transcriptPath ?? null,
          cwd: this.cwd,
          hook_event_name: this.eventName,
          model: 'gpt-5',
          permission_mode: this.permissionMode ?? 'default',
          tool_name: this.toolName,
          tool_input: this.toolInput,
          tool_use_id: this.toolUseId ?? 'call_1',
        };
      case 'gemini':
        // gemini-cli HookEventHandler.fireBeforeToolEvent + createBaseInput
        return {
          session_id: this.sessionId,
          transcript_path: this.transcriptPath ?? '',
          cwd: this.cwd,
          hook_event_name: this.eventName === 'PreToolUse' ? 'BeforeTool' : this.eventName,
          timestamp: '2026-12-01T12:00:00.000Z',
          tool_name: this.toolName === 'Bash' ? 'run_shell_command' : this.toolName,
          tool_input: this.toolName === 'Bash' ? { ...this.toolInput, description: 'runs it' } : this.toolInput,
        };
      case 'cursor':
        return {
          conversation_id: this.sessionId,
          generation_id: 'gen-1',
          model: 'auto',
          hook_event_name: this.eventName === 'PreToolUse' ? 'preToolUse' : this.eventName,
          cursor_version: '2.1.0',
          workspace_roots: [this.cwd],
          user_email: null,
          tool_name: this.toolName === 'Bash' ? 'Shell' : this.toolName,
          tool_input: this.toolName === 'Bash' ? { ...this.toolInput, cwd: this.cwd } : this.toolInput,
          tool_use_id: this.toolUseId ?? 'tool-1',
          cwd: this.cwd,
        };
      case 'copilot':
        // Copilot CLI command hooks: toolArgs is the arguments' JSON text.
        return {
          timestamp: 1764590400000,
          cwd: this.cwd,
          toolName: this.toolName === 'Bash' ? 'bash' : this.toolName,
          toolArgs: JSON.stringify(this.toolInput),
        };
    }
  }

  private claudeBody(): WireBody {
    const body: WireBody = {
      session_id: this.sessionId,
      transcript_path: this.transcriptPath ?? join(this.cwd, 'transcript.jsonl'),
      cwd: this.cwd,
      permission_mode: this.permissionMode ?? 'default',
      hook_event_name: this.eventName,
    };
    if (this.toolName !== undefined) {
      body['tool_name'] = this.toolName;
      body['tool_input'] = this.toolInput;
    }
    if (this.eventName === 'PermissionRequest') body['permission_suggestions'] = [];
    else if (this.toolName !== undefined) body['tool_use_id'] = this.toolUseId ?? 'toolu_1';
    if (this.toolResponse !== undefined) body['tool_response'] = this.toolResponse;
    return body;
  }
}

export function aHookEvent(): HookEventBuilder {
  return new HookEventBuilder();
}
