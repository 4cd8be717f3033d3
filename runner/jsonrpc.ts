// Minimal JSON-RPC shape tests the transports need to route messages. These are deliberately
// lenient (routing, not judging): schema validation belongs to the recorder hooks and suites.

export type JsonRpcId = string | number | null;

export interface JsonRpcServerRequest {
  id: string | number;
  method: string;
  params?: unknown;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Anything carrying `jsonrpc` counts as a JSON-RPC message; everything else on stdout is noise. */
export function isJsonRpcMessage(v: unknown): v is Record<string, unknown> {
  return isObject(v) && 'jsonrpc' in v;
}

/** A response has `result` or `error` and no `method` (its id may be missing or null on errors). */
export function isResponse(v: unknown): v is Record<string, unknown> {
  return isJsonRpcMessage(v) && !('method' in v) && ('result' in v || 'error' in v);
}

/** A request has a method and an id; the runner answers these when the server sends them. */
export function isRequest(v: unknown): v is Record<string, unknown> & JsonRpcServerRequest {
  return (
    isJsonRpcMessage(v) &&
    typeof v.method === 'string' &&
    'id' in v &&
    (typeof v.id === 'string' || typeof v.id === 'number')
  );
}

export function isNotification(v: unknown): v is Record<string, unknown> & { method: string } {
  return isJsonRpcMessage(v) && typeof v.method === 'string' && !('id' in v);
}

/**
 * Exact id match (JSON type and value). A loose match (`1` vs `"1"`) is reported separately so an
 * exchange can still end and the suite can flag the wrong id type (JR-04) instead of timing out.
 */
export function idMatch(got: unknown, want: JsonRpcId): 'exact' | 'loose' | 'none' {
  if (got === want) return 'exact';
  if (want === null && got === undefined) return 'loose'; // id-less error where null was expected
  if ((typeof got === 'string' || typeof got === 'number') && want !== null && String(got) === String(want)) {
    return 'loose';
  }
  return 'none';
}

/** The default answer to a server->client request mcpspec did not expect: method not found. */
export function methodNotFound(id: string | number, method: string): Record<string, unknown> {
  return { jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${method} (mcpspec client)` } };
}

export function tryParseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * The reply to a server->client request: the handler's answer, a -32603 when the handler throws,
 * or -32601 when there is no handler. `undefined` means the handler chose not to answer.
 */
export async function replyToServerRequest(
  handler: ((req: { id: string | number; method: string; params?: unknown }) => unknown) | undefined,
  req: { id: string | number; method: string; params?: unknown },
): Promise<unknown> {
  if (!handler) return methodNotFound(req.id, req.method);
  try {
    return await handler({ id: req.id, method: req.method, params: req.params });
  } catch (err) {
    return { jsonrpc: '2.0', id: req.id, error: { code: -32603, message: `mcpspec handler failed: ${String(err)}` } };
  }
}
