// The port for plain HTTP requests outside the MCP transport (what an OAuth client does around it).

/**
 * One plain HTTP request outside the MCP transport: what an OAuth client does around it (a request
 * without credentials, metadata documents). Its body is never read as a JSON-RPC message.
 */
export interface PlainHttpRequest {
  /** Absolute URL; default the MCP endpoint under test. */
  url?: string;
  method: 'GET' | 'POST' | 'DELETE';
  /** Sent as they are; `undefined` removes a header of the target's (compared case-insensitively). */
  headers?: Record<string, string | undefined>;
  body?: string;
  /**
   * Also send the headers the user gave for the target (`--header`). Only ever to the endpoint's
   * own origin: credentials never go to another host.
   */
  targetHeaders?: boolean;
}

export interface PlainHttpResponse {
  url: string;
  method: 'GET' | 'POST' | 'DELETE';
  /** Absent when no answer came (timedOut, or error). */
  status?: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** The body as text, bounded. */
  body: string;
  truncated?: boolean;
  /** The request failed: connection refused, reset, bad URL. */
  error?: string;
  timedOut: boolean;
  /** The run ended while this waited: no judgement may rest on it. */
  aborted?: boolean;
  elapsedMs: number;
  /** Recording sequence numbers of the request and its answer. */
  seq: number[];
}
