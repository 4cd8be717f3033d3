// Client-role tools scenario: mcpspec's scripted server (both eras) lists, after its echo tool, a
// tool whose inputSchema uses the JSON Schema 2020-12 vocabulary SEP-2106 opened to tools ($schema,
// $defs with an $anchor, a same-document $ref, allOf/anyOf, if/then/else, additionalProperties) and
// one `$ref` to a network URI: a canary mcpspec serves on 127.0.0.1 for this scenario only; and an
// echo tool whose description asks a client to pass back the inputSchema it holds for that tool
// (what a client keeps of a schema shows only when it says so; a harness written to the official
// contract is given json-schema-2020-12-preservation and its tool names). Judged by client-checks.ts
// beside it.

import { ALL_VERSIONS } from '../../protocol/versions.js';
import type { CanaryHit } from '../ports/scripted-server.js';
import { clientScenario } from '../kit/scenario.js';
import { observe, type ClientObs } from '../client/client-run.js';
import { plainResult, runScript } from '../client/scripted-server.js';

export const SCHEMA_TOOL_NAME = 'ship_parcel';
export const ECHO_TOOL_NAME = 'schema_echo';

/** The echo tool: its one argument is the schema the client holds for `focal`. */
export function echoTool(name: string, focal: string): Record<string, unknown> {
  return {
    name,
    description: `Pass back, as the argument schema, the inputSchema you hold for the tool ${focal}, exactly as you keep it.`,
    inputSchema: { type: 'object', properties: { schema: { type: 'object' } }, required: ['schema'] },
    annotations: { readOnlyHint: true },
  };
}

/** Each echo tool a client may call (mcpspec's, and the official contract's), with the tool whose schema it echoes. */
export const ECHOES: Record<string, string> = { [ECHO_TOOL_NAME]: SCHEMA_TOOL_NAME, json_schema_echo: 'json_schema_2020_12_tool' };

/** The tool, its network `$ref` pointing at `canaryUrl`. */
export function schemaTool(canaryUrl: string): Record<string, unknown> {
  return {
    name: SCHEMA_TOOL_NAME,
    title: 'Ship a parcel',
    description: 'Books a parcel to an address; by courier a phone number is needed, by post a postcode.',
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: {
        place: { $anchor: 'place', type: 'object', properties: { line: { type: 'string' }, postcode: { type: 'string' } }, required: ['line'] },
      },
      properties: {
        to: { $ref: '#/$defs/place' },
        by: { type: 'string', enum: ['courier', 'post'] },
        phone: { type: 'string' },
        weightKg: { type: 'number', exclusiveMinimum: 0 },
        // A network URI: a client must not fetch it to process the schema (SEP-2106).
        label: { $ref: canaryUrl },
      },
      required: ['to', 'by'],
      allOf: [{ anyOf: [{ required: ['weightKg'] }, { properties: { by: { const: 'post' } } }] }],
      if: { properties: { by: { const: 'courier' } } },
      then: { required: ['phone'] },
      else: { properties: { to: { required: ['postcode'] } } },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true },
  };
}

export interface SchemaToolObs extends ClientObs {
  canaryUrl: string;
  /** Requests that reached the canary while the client ran. */
  hits: CanaryHit[];
  /** Received seq of each tools/list the scripted server answered with the tool. */
  listed: number[];
  /** The tools listed (the last answer): the focal schemas echoes are compared with. */
  tools: Record<string, unknown>[];
}

/** The scripted server of both eras, its tools/list carrying the 2020-12 tool; the canary open throughout. */
export const clientToolSchemas = clientScenario<SchemaToolObs>({
  id: 'client-tool-schemas',
  title: 'a scripted server listing a tool whose inputSchema uses JSON Schema 2020-12 keywords and a $ref to a network URI (a canary on 127.0.0.1)',
  versions: ALL_VERSIONS,
  async run(ctx) {
    if (!ctx.server.canary) throw new Error('this scripted server has no canary URL to offer');
    const canary = await ctx.server.canary();
    const listed: number[] = [];
    const tool = schemaTool(canary.url);
    let tools: Record<string, unknown>[] = [];
    const log = runScript(ctx.server, {
      modern: true,
      legacy: true,
      timeoutMs: ctx.options.timeoutMs,
      override(req, mctx) {
        if (req.method !== 'tools/list') return undefined;
        listed.push(mctx.received.seq);
        const result = plainResult('tools/list', req.params, mctx.era, [tool, echoTool(ECHO_TOOL_NAME, SCHEMA_TOOL_NAME), ...(ctx.server.alsoListed ?? [])]);
        tools = (result?.tools ?? []) as Record<string, unknown>[];
        return { jsonrpc: '2.0', id: req.id, result };
      },
    });
    const obs = await observe(ctx, log);
    return { ...obs, canaryUrl: canary.url, hits: canary.hits(), listed, tools };
  },
});
