// client.no-network-ref: a client under test against the tools scenario of client-scenarios.ts beside
// it: a tool's inputSchema carries a `$ref` to a network URI (a canary mcpspec serves); processing
// the schema must not fetch it (TE-04; SEP-2106, 2026-07-28 basic "$ref Resolution").

import { SPEC } from '../../protocol/spec-links.js';
import { MODERN } from '../../protocol/versions.js';
import { check, holds, untestable, violated } from '../kit/check.js';
import type { CanaryHit } from '../ports/scripted-server.js';
import { clientToolSchemas, SCHEMA_TOOL_NAME } from './client-scenarios.js';

/** The judgement on what reached the canary, given whether the client was ever shown the tool. */
export function judgeNetworkRef(o: { canaryUrl: string; hits: CanaryHit[]; listed: number[] }) {
  if (o.hits.length) {
    const first = o.hits[0];
    return violated(`the client fetched the network $ref of ${SCHEMA_TOOL_NAME}'s inputSchema ${o.hits.length} time(s) (first: ${first.method} ${first.path}${first.userAgent ? `, User-Agent ${first.userAgent}` : ''})`, [
      { what: `requests to ${o.canaryUrl}, a $ref in a listed inputSchema`, actual: o.hits.slice(0, 4), expected: 'no request: a $ref to a network URI is never dereferenced automatically' },
    ]);
  }
  if (o.listed.length === 0) return untestable('the client never listed tools, so it was never shown a schema with a network $ref');
  return holds(`tools/list answered ${o.listed.length} time(s) with a network $ref in ${SCHEMA_TOOL_NAME}'s inputSchema; the client never requested it`);
}

const noNetworkRef = check(clientToolSchemas, {
  id: 'client.no-network-ref',
  // basic (2026-07-28), "$ref Resolution": "Implementations MUST NOT automatically dereference $ref values that resolve to a network URI."
  title: 'the client never dereferences a $ref to a network URI in a tool\'s inputSchema (no request reaches it)',
  requirements: ['TE-04'],
  level: 'MUST',
  versions: MODERN,
  role: 'client',
  spec: SPEC.basic26,
  judge: judgeNetworkRef,
});

export const toolsClientChecks = [noNetworkRef];
