// client.no-network-ref: a client under test against the tools scenario of client-scenarios.ts beside
// it: a tool's inputSchema carries a `$ref` to a network URI (a canary mcpspec serves); processing
// the schema must not fetch it (TE-04; SEP-2106, 2026-07-28 basic "$ref Resolution").
// client.schema-keywords-kept: the schema a client passes back through the echo tool is the one listed,
// every 2020-12 keyword still there (TE-04: clients support 2020-12; SEP-1613, SEP-2106).

import { SPEC } from '../../protocol/spec-links.js';
import { MODERN } from '../../protocol/versions.js';
import { isObj } from '../../protocol/jsonrpc.js';
import type { Evidence } from '../../results/verdict.js';
import { check, holds, untestable, violated, type Judgement } from '../kit/check.js';
import { ev, isRequest, paramsOf } from '../client/client-reading.js';
import type { CanaryHit, Received } from '../ports/scripted-server.js';
import { clientToolSchemas, ECHO_TOOL_NAME, ECHOES, SCHEMA_TOOL_NAME } from './client-scenarios.js';

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

/** JSON with object keys sorted: equal schemas give equal text whatever order their keys came in. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isObj(v)) return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
  return JSON.stringify(v) ?? 'undefined';
}

/** The keywords of `listed` (at its root) that `echoed` lost or changed; a keyword it added is named too. */
export function keywordsChanged(listed: Record<string, unknown>, echoed: Record<string, unknown>): { lost: string[]; changed: string[]; added: string[] } {
  const lost = Object.keys(listed).filter((k) => !(k in echoed));
  const changed = Object.keys(listed).filter((k) => k in echoed && canonical(listed[k]) !== canonical(echoed[k]));
  const added = Object.keys(echoed).filter((k) => !(k in listed));
  return { lost, changed, added };
}

/** The judgement on the echo calls of the run, against the tools the scenario listed. */
export function judgeKeywordsKept(o: { received: Received[]; tools: Record<string, unknown>[] }): Judgement {
  const echoes = o.received.filter((r) => isRequest(r.message) && r.message.method === 'tools/call' && typeof paramsOf(r).name === 'string' && (paramsOf(r).name as string) in ECHOES);
  if (echoes.length === 0) return untestable(`the client passed back no schema (it never called ${ECHO_TOOL_NAME}): what it keeps of a tool's inputSchema does not show on the wire`);
  const bad: Evidence[] = [];
  let judged = 0;
  for (const r of echoes) {
    const name = paramsOf(r).name as string;
    const focal = o.tools.find((t) => t.name === ECHOES[name]);
    const listed = isObj(focal?.inputSchema) ? focal.inputSchema : undefined;
    if (!listed) continue;
    judged++;
    const args = paramsOf(r).arguments;
    const echoed = isObj(args) && isObj(args.schema) ? args.schema : undefined;
    if (!echoed) {
      bad.push(ev(`${name} was called without a schema object`, r, { pointer: '/params/arguments/schema', expected: 'the inputSchema held for ' + ECHOES[name] }));
      continue;
    }
    const d = keywordsChanged(listed, echoed);
    if (d.lost.length || d.changed.length) {
      const parts = [d.lost.length && `lost ${d.lost.join(', ')}`, d.changed.length && `changed ${d.changed.join(', ')}`].filter(Boolean).join('; ');
      bad.push(ev(`the inputSchema of ${ECHOES[name]} passed back through ${name}: ${parts}`, r, { pointer: '/params/arguments/schema', expected: listed }));
    }
  }
  if (judged === 0) return untestable('the echo tool was called, but not in a run that listed the tool it echoes');
  if (bad.length) return violated(`${bad.length} of ${judged} schema(s) passed back differ from the one listed: a keyword of 2020-12 (or another) was dropped or altered; first: ${bad[0].what}`, bad.slice(0, 4));
  return holds(`${judged} schema(s) passed back as listed: $schema, $defs (with its $anchor), composition, conditional and additionalProperties kept`);
}

const keywordsKept = check(clientToolSchemas, {
  id: 'client.schema-keywords-kept',
  // basic (2026-07-28): "Clients and servers MUST support JSON Schema 2020-12 for schemas without an explicit $schema field";
  // SEP-2106 §1: inputSchema "now accepts any additional JSON Schema properties". Observable only through a client that passes the schema back.
  title: 'a tool\'s inputSchema passed back through the echo tool is the one listed: no 2020-12 keyword ($schema, $defs, $anchor, allOf/anyOf, if/then/else, additionalProperties) dropped or altered',
  requirements: ['TE-04'],
  level: 'SHOULD',
  versions: ['2025-11-25', '2026-07-28'],
  role: 'client',
  spec: SPEC.basic26,
  judge: judgeKeywordsKept,
});

export const toolsClientChecks = [noNetworkRef, keywordsKept];
