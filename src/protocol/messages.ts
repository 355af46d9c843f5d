import type { CallRecord } from './records';
import type { RowSummary } from './rows';

// The one message protocol between the panel UI (media/src) and its host: the
// extension (postMessage) or the standalone server (an event stream plus its
// HTTP routes). Types only: the hosts parse every message from the panel with
// their own schemas (src/shared/panelSchemas.ts); the panel renders text only.

export const PROTOCOL_VERSION = 2;

/** How long the panel waits for a response before it says the host did not answer. */
export const REQUEST_TIMEOUT_MS = 15_000;

/** A pending approval as the panel shows it: the full arguments, in memory only, never persisted. */
export interface PendingView {
  id: string;
  recordId: string;
  agent: string;
  sessionId: string;
  toolName: string;
  toolInput: Record<string, unknown>;
  digest: string | null;
  notBindable?: string;
  reason: string;
  personOnly: boolean;
  createdAt: string;
  deadline: string;
}

export interface ResolutionView {
  id: string;
  recordId?: string;
  state: 'approved' | 'refused' | 'expired' | 'withdrawn';
  scope: 'once' | 'session' | null;
  digest: string | null;
  answeredBy: string | null;
  answeredAt: string;
  message?: string;
}

/** A policy as the panel's toggles show it. */
export interface PolicyView {
  name: string;
  enabled: boolean;
  source: string;
  alwaysOn: boolean;
  description: string;
}

/** A session licence: a person's "approve for session" that allows the same call again. */
export interface LicenceView {
  id: string;
  sessionId: string;
  toolName: string;
  digest: string;
  grantedBy: string;
  grantedAt: string;
}

/** The host's own state: whether the workspace is guarded, and how enforcement stands. */
export interface HostState {
  host: 'vscode' | 'web';
  guarded: boolean;
  guardDetail: string;
  endpointUrl: string | null;
  pausedUntil: string | null;
  policies: PolicyView[];
  /** Whether Connect can be offered from the panel (the VS Code host only). */
  canConnect?: boolean;
  licences?: LicenceView[];
  /** The agents whose hooks point at this host, in the order the status line names them. */
  connectedAgents?: ConnectedAgent[];
}

/** An agent connected to this host: its id, its name, and how it reaches Warden. */
export interface ConnectedAgent {
  agent: string;
  name: string;
  how: string;
}

/** One <redacted:label> marker of a record: in the envelope (a span index) or in the logged arguments (the nth marker). */
export interface MarkerRef {
  recordId: string;
  source: 'envelope' | 'arguments';
  spanIndex: number;
}

/** The approval API body (`POST /api/approvals/<id>`), also the panel's approve request. */
export interface ApprovalAnswer {
  decision: 'approve' | 'refuse';
  scope: 'once' | 'session';
  digest: string;
  editedInput?: Record<string, unknown>;
  message?: string;
}

/** Host → panel, pushed. On the server's event stream each is one `event: <type>` with the JSON as data. */
export type HostNotification =
  | { type: 'snapshot'; rows: RowSummary[]; pending: PendingView[] }
  | { type: 'rows'; rows: RowSummary[] }
  | { type: 'pending'; pending: PendingView }
  | { type: 'resolved'; resolution: ResolutionView };

/** An answer to an approval: the settled call's row, or why nothing happened. No HTTP status outside the routes. */
export type AnswerResult =
  | { kind: 'ok'; resolution: ResolutionView; row: RowSummary | null }
  | { kind: 'not-pending'; message: string }
  | { kind: 'digest-mismatch'; message: string }
  | { kind: 'not-bindable'; message: string }
  | { kind: 'invalid'; message: string };

/** Every request the panel makes, declared once: its parameters and its response. */
export interface Requests {
  approve: { params: { approvalId: string; answer: ApprovalAnswer }; result: AnswerResult };
  refuse: { params: { approvalId: string; digest: string; message?: string }; result: AnswerResult };
  /** What every tier says of the edited arguments, before the person commits to them. */
  rescreenEdit: {
    params: { approvalId: string; editedInput: Record<string, unknown> };
    result: { decision: 'allow' | 'instruct' | 'ask' | 'deny'; reason: string; digest: string | null };
  };
  /** A call's whole record, read back when the person opens its row. */
  detail: { params: { recordId: string }; result: { found: true; record: CallRecord } | { found: false; why: string } };
  /** The original value behind a marker: only while the call is still in memory. */
  reveal: { params: MarkerRef; result: { available: boolean; value?: string; why?: string } };
  /** Which detector matched a marker, where, and the value's length (never the value). */
  markerInfo: {
    params: MarkerRef;
    result: {
      available: boolean;
      label?: string;
      detector?: string;
      part?: string;
      valueLength?: number;
      why?: string;
    };
  };
}
export type RequestMethod = keyof Requests;
export type RequestParams<M extends RequestMethod> = Requests[M]['params'];
export type RequestResult<M extends RequestMethod> = Requests[M]['result'];

/** A host answers every request through one handler per method: a table, so a missing one is a type error. */
export type RequestHandlers = { [M in RequestMethod]: (params: RequestParams<M>) => Promise<RequestResult<M>> };

/** Fire-and-forget messages from the panel. */
export type PanelCommand =
  | { type: 'ready'; protocolVersion: number }
  | { type: 'togglePolicy'; policy: string; enabled: boolean }
  | { type: 'copyDigest'; digest: string }
  | ({ type: 'notSecret' } & MarkerRef)
  | { type: 'openLog' }
  | { type: 'connect' }
  | { type: 'revokeLicence'; licenceId: string };

export type RequestMessage = {
  [M in RequestMethod]: { type: 'request'; id: number; method: M; params: RequestParams<M> };
}[RequestMethod];

/** Anything the panel may post. */
export type PanelMessage = { type: 'command'; command: PanelCommand } | RequestMessage;

export type ResponseMessage =
  | { type: 'response'; id: number; ok: true; result: unknown }
  | { type: 'response'; id: number; ok: false; error: string };

/** Host → panel: notifications, responses, the host's state, and short notes for the person. */
export type HostMessage =
  HostNotification | ResponseMessage | { type: 'state'; state: HostState } | { type: 'toast'; text: string };
