// What crossed the wire, as plain data: recorded events, wire-level incidents, and how a target
// ended. Written by the runner's recorder, read by checks (stream oracles) and reports.

/** Direction of a recorded event: sent by mcpspec, received from the target, or mcpspec's own remark. */
export type WireDirection = 'out' | 'in' | 'note';

export type WireChannel = 'stdio' | 'http' | 'stderr';

/**
 * What a recorded event is. `message` = a JSON-RPC message; `noise` = stdout text that is not one
 * (IO-02); `parse-error` = an HTTP body or SSE event that is not JSON; `http-response` = status and
 * headers of an HTTP response; `process-exit` = the target process ended; `timeout` = a wait expired.
 */
export type WireKind = 'message' | 'noise' | 'parse-error' | 'http-response' | 'process-exit' | 'timeout';

export interface WireHttpInfo {
  method: string;
  status?: number;
  headers: Record<string, string>;
  url: string;
}

export interface WireEvent {
  /** Monotonic sequence number, unique within one recorder (never reused, even after drops). */
  seq: number;
  /** Milliseconds since the recorder started. */
  t: number;
  dir: WireDirection;
  channel: WireChannel;
  /** The bytes as text, cut at 64 KiB so one huge message cannot exhaust memory. */
  raw: string;
  /** True when `raw` (or the line it came from) was cut. */
  truncated?: boolean;
  /** The parsed JSON, when `raw` parsed. */
  message?: unknown;
  kind?: WireKind;
  http?: WireHttpInfo;
  /** Short machine label for `dir: 'note'` events (e.g. `multi-line-message`, `unknown-version`). */
  note?: string;
  /** Structured details (exit code, request id that timed out, ...). */
  data?: Record<string, unknown>;
  /** Set when the recorder dropped this event's payload to stay within its memory budget. */
  payloadDropped?: boolean;
  /** Which scenario or session recorded it, in a run-wide log fed by several sessions. */
  source?: string;
}

/** How a target ended (or that it died) - attached to exchanges so a report can explain a crash. */
export interface CloseInfo {
  exitCode: number | null;
  signal: string | null;
  /** The last 64 KiB of what the target printed on stderr (empty for HTTP). */
  stderrTail: string;
  /** The last message mcpspec sent before the target died (bounded), to help reproduce the crash. */
  lastSent?: string;
}

/** Something wrong seen at the wire level (noise, unparseable data, a crash, a timeout, ...). */
export type WireIncidentType =
  | 'noise'
  | 'parse-error'
  | 'crash'
  | 'timeout'
  | 'multi-line-message'
  | 'line-too-long'
  | 'body-too-large'
  | 'hook-error';

export interface WireIncident {
  type: WireIncidentType;
  seq: number;
  t: number;
  channel: WireChannel;
  /** One line for a report. */
  summary: string;
  /** An excerpt of the offending bytes (bounded to 500 chars). */
  excerpt?: string;
}

export interface RecorderCounts {
  total: number;
  /** Events removed because the list exceeded the event budget. */
  droppedEvents: number;
  /** Events whose payload was removed to stay within the payload budget. */
  droppedPayloads: number;
  byKind: Record<string, number>;
  byDir: Record<string, number>;
  incidents: number;
}

/** recording.json: the ordered events of a run plus counts. */
export interface RecordingJson {
  format: 'mcpspec-recording';
  version: 2;
  startedAt: string;
  counts: RecorderCounts;
  incidents: WireIncident[];
  events: WireEvent[];
}

/** Read access to a run's recording (the runner's Recorder implements it). */
export interface Recording {
  events(): WireEvent[];
  toJSON(): RecordingJson;
}
