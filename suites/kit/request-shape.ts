// Reading what mcpspec sent: the `_meta` of a modern request and which rule it deliberately breaks.
// Stream oracles use it to know what answer each request called for.

import { META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION } from '../../protocol/meta.js';
import { isObj } from '../../protocol/jsonrpc.js';
import type { Exchange } from '../ports/session.js';

/** Every version string a real MCP implementation may speak; anything else is unsupported everywhere. */
const KNOWN_VERSIONS = new Set(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28']);

/** The request object of an exchange, when it is a well-formed request (string method, readable id, object params or none). */
export function sentRequest(ex: Exchange): { method: string; params?: Record<string, unknown> } | undefined {
  const r = ex.request;
  if (!isObj(r) || typeof r.method !== 'string' || !('id' in r) || r.jsonrpc !== '2.0') return undefined;
  if (!(typeof r.id === 'string' || typeof r.id === 'number')) return undefined;
  if ('params' in r && !isObj(r.params)) return undefined;
  return { method: r.method, params: r.params as Record<string, unknown> | undefined };
}

/**
 * The request's envelope has nothing but jsonrpc, id, method and params. Extra members are allowed
 * by the schema, but some servers refuse them outright; an oracle that judges one deviation only
 * uses requests where that deviation is the only one.
 */
function plainEnvelope(ex: Exchange): boolean {
  return isObj(ex.request) && Object.keys(ex.request).every((k) => k === 'jsonrpc' || k === 'id' || k === 'method' || k === 'params');
}

/**
 * Which required keys a modern request's `_meta` object lacks. A request with no `_meta` object at
 * all is left out: a dual-era server may read it as a legacy request (ED-07) and answer it by those
 * rules.
 */
export function missingMetaKeys(ex: Exchange): string[] {
  const req = sentRequest(ex);
  const meta = req?.params?._meta;
  if (!isObj(meta) || !plainEnvelope(ex)) return [];
  return [META_PROTOCOL_VERSION, META_CLIENT_CAPABILITIES].filter((k) => !(k in meta));
}

/**
 * The request names a protocol version in its `_meta` (a 2026-07-28 request does; a legacy session's do
 * not), so it is served by that version's rules. Not `initialize`: a dual-era server may take it as the
 * legacy handshake whatever its `_meta` (versioning: "An `initialize` request selects legacy
 * semantics"); version.initialize-modern judges that answer, the run's oracles do not.
 */
export function namesVersion(request: unknown): boolean {
  if (isObj(request) && request.method === 'initialize') return false;
  const meta = isObj(request) && isObj(request.params) ? request.params._meta : undefined;
  return isObj(meta) && typeof meta[META_PROTOCOL_VERSION] === 'string';
}

/** The version string a request names when no implementation could support it. */
export function unsupportedVersion(ex: Exchange): string | undefined {
  const req = sentRequest(ex);
  const meta = req?.params?._meta;
  if (!isObj(meta) || !(META_CLIENT_CAPABILITIES in meta) || !plainEnvelope(ex)) return undefined;
  const v = meta[META_PROTOCOL_VERSION];
  return typeof v === 'string' && !KNOWN_VERSIONS.has(v) ? v : undefined;
}

/** Request headers mcpspec sent with an exchange (HTTP), lower-cased names, from the recording. */
export function sentHeaders(ex: Exchange, events: { seq: number; dir: string; http?: { headers: Record<string, string> } }[]): Record<string, string> | undefined {
  const first = ex.seq[0];
  const out = events.find((e) => e.seq === first && e.dir === 'out' && e.http);
  if (!out?.http) return undefined;
  return Object.fromEntries(Object.entries(out.http.headers).map(([k, v]) => [k.toLowerCase(), v]));
}
