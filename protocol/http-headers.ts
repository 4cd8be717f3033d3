// Header building for Streamable HTTP: the fixed content-negotiation headers, the modern
// per-request mirror headers (SEP-2243: Mcp-Method / Mcp-Name) with their Base64 sentinel
// encoding (HM-09), and case-insensitive overrides so tests can send wrong or missing headers.

const SENTINEL_PREFIX = '=?base64?';
const SENTINEL_SUFFIX = '?=';

/** True when a value can travel as a plain header value: printable ASCII, no edge whitespace, not sentinel-shaped. */
export function isPlainHeaderValue(value: string): boolean {
  if (!/^[\x20-\x7e]*$/.test(value)) return false;
  if (value !== value.trim()) return false;
  if (value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX)) return false;
  return true;
}

/** HM-09: values that are not plain are sent as `=?base64?<base64 of UTF-8>?=`. */
export function encodeHeaderValue(value: string): string {
  if (isPlainHeaderValue(value)) return value;
  return `${SENTINEL_PREFIX}${Buffer.from(value, 'utf8').toString('base64')}${SENTINEL_SUFFIX}`;
}

/** Inverse of `encodeHeaderValue` (used by tests and fake servers). */
export function decodeHeaderValue(value: string): string {
  if (value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX)) {
    return Buffer.from(value.slice(SENTINEL_PREFIX.length, -SENTINEL_SUFFIX.length), 'base64').toString('utf8');
  }
  return value;
}

/** Methods whose `Mcp-Name` header mirrors a body field (HM-08), and which field. */
const NAME_SOURCE: Record<string, 'name' | 'uri' | 'taskId'> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  // Tasks extension (TB-19): Mcp-Name carries params.taskId.
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/** The modern mirror headers for one JSON-RPC body; empty for notifications, responses and non-objects. */
export function modernHeadersFor(body: unknown): Record<string, string> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return {};
  const msg = body as Record<string, unknown>;
  if (typeof msg.method !== 'string' || !('id' in msg)) return {};
  const out: Record<string, string> = { 'Mcp-Method': encodeHeaderValue(msg.method) };
  const field = NAME_SOURCE[msg.method];
  const params = msg.params;
  if (field && typeof params === 'object' && params !== null) {
    const v = (params as Record<string, unknown>)[field];
    if (typeof v === 'string') out['Mcp-Name'] = encodeHeaderValue(v);
  }
  return out;
}

/**
 * Apply overrides case-insensitively: a string replaces (or adds) a header, `undefined` removes it.
 * Header names compare case-insensitively (RFC 9110), so `mcp-method` overrides `Mcp-Method`.
 */
export function applyHeaderOverrides(
  base: Record<string, string>,
  overrides: Record<string, string | undefined> | undefined,
): Record<string, string> {
  if (!overrides) return { ...base };
  const out: Record<string, string> = { ...base };
  for (const [name, value] of Object.entries(overrides)) {
    for (const existing of Object.keys(out)) {
      if (existing.toLowerCase() === name.toLowerCase()) delete out[existing];
    }
    if (value !== undefined) out[name] = value;
  }
  return out;
}
