// JSON-RPC 2.0 shapes as MCP uses them (B26 "Messages"): lenient shape tests for routing, not
// judging. Schema validation and the rules about ids belong to the checks.

/** A request id: string or integer (JR-02). `null` only ever appears in answers to unreadable input. */
export type RequestId = string | number;
export type JsonRpcId = RequestId | null;

export function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Anything carrying `jsonrpc` counts as a JSON-RPC message; everything else on stdout is noise. */
export function isJsonRpcMessage(v: unknown): v is Record<string, unknown> {
  return isObj(v) && 'jsonrpc' in v;
}

/** A response has `result` or `error` and no `method` (its id may be missing or null on errors). */
export function isResponse(v: unknown): v is Record<string, unknown> {
  return isJsonRpcMessage(v) && !('method' in v) && ('result' in v || 'error' in v);
}

/** A request has a method and a string or number id. */
export function isRequest(v: unknown): v is Record<string, unknown> & { id: RequestId; method: string; params?: unknown } {
  return isJsonRpcMessage(v) && typeof v.method === 'string' && 'id' in v && (typeof v.id === 'string' || typeof v.id === 'number');
}

export function isNotification(v: unknown): v is Record<string, unknown> & { method: string } {
  return isJsonRpcMessage(v) && typeof v.method === 'string' && !('id' in v);
}

/**
 * A notification exactly as JSON-RPC 2.0 defines one: `jsonrpc: "2.0"`, a method name, params (if
 * any) structured, and no member JSON-RPC does not define. Only such a message must go unanswered
 * (JR-07); one with extra members may be refused as an Invalid Request (-32600, id null).
 */
export function isStrictNotification(v: unknown): boolean {
  if (!isObj(v) || v.jsonrpc !== '2.0' || typeof v.method !== 'string' || 'id' in v) return false;
  if ('params' in v && !(typeof v.params === 'object' && v.params !== null)) return false;
  return Object.keys(v).every((k) => k === 'jsonrpc' || k === 'method' || k === 'params');
}

/** The id a response carries, when it is a usable one (a string or a number). */
export function responseId(msg: unknown): RequestId | undefined {
  if (!isObj(msg)) return undefined;
  return typeof msg.id === 'string' || typeof msg.id === 'number' ? msg.id : undefined;
}

/**
 * Exact id match (JSON type and value), or a loose one (`1` vs `"1"`) that ends a wait so a check
 * can flag the changed id type (JR-04) instead of waiting for a timeout.
 */
export function idMatch(got: unknown, want: RequestId): 'exact' | 'loose' | 'none' {
  if (got === want) return 'exact';
  if ((typeof got === 'string' || typeof got === 'number') && String(got) === String(want)) return 'loose';
  return 'none';
}

export function tryParseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** Compact serialization (IO-01: no embedded newlines); strings pass through untouched. */
export function serializeBody(body: unknown): string {
  if (typeof body === 'string') return body;
  return JSON.stringify(body) ?? '';
}

export function errorResponse(id: JsonRpcId | undefined, code: number, message: string): Record<string, unknown> {
  const r: Record<string, unknown> = { jsonrpc: '2.0', error: { code, message } };
  if (id !== undefined) r.id = id;
  return r;
}


/** Error codes only a modern server sends (B26): header mismatch, missing capability, unsupported version. */
export const MODERN_ERROR_CODES: ReadonlySet<number> = new Set([-32020, -32021, -32022]);
