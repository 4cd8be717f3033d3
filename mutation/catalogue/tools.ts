// Mutations of the tools area (requirements digest §12: TE-01..TE-05): what a server lists as its
// tools and how it answers tools/call. Mutations that need to know a tool's definition (its
// outputSchema, whether it exists) learn the catalogue from the tools/list answers going by.

import { isRequest } from '../../protocol/jsonrpc.js';
import { isObj, list, onResult } from '../edits.js';
import { mutation, SERVER_ANY as server, type Mutation, type MutationContext, type MutationHooks } from '../mutation.js';

type Obj = Record<string, unknown>;
type ToClient = NonNullable<MutationHooks['toClient']>;

/** The tools listed so far, by name. */
function catalogue(ctx: MutationContext): Map<string, Obj> {
  if (!(ctx.state.tools instanceof Map)) ctx.state.tools = new Map<string, Obj>();
  return ctx.state.tools as Map<string, Obj>;
}

/** Learns the tool catalogue (and the legacy session's version) from the answers going by, then runs the hook. */
function learning(hook: ToClient): Pick<MutationHooks, 'toClient'> {
  return {
    toClient(m, ctx) {
      if (isObj(m.result) && ctx.request?.method === 'tools/list') {
        for (const t of list(m.result, 'tools', 0) ?? []) if (isObj(t) && typeof t.name === 'string') catalogue(ctx).set(t.name, structuredClone(t));
      }
      if (isObj(m.result) && ctx.request?.method === 'initialize' && typeof m.result.protocolVersion === 'string') ctx.state.version = m.result.protocolVersion;
      return hook(m, ctx);
    },
  };
}

function calledTool(ctx: MutationContext): string | undefined {
  const name = ctx.request?.params.name;
  return typeof name === 'string' ? name : undefined;
}

/** The call names a tool no tools/list answer listed (only decidable once a list was seen). */
function unknownTool(ctx: MutationContext): boolean {
  const name = calledTool(ctx);
  return name !== undefined && catalogue(ctx).size > 0 && !catalogue(ctx).has(name);
}

/** A result built in the server's place: modern results carry resultType (RT-01). */
function result(ctx: MutationContext, body: Obj): Obj {
  return ctx.era === 'modern' ? { resultType: 'complete', ...body } : body;
}

/** Since 2025-11-25 (and in the modern era) argument validation failures are execution errors (TE-01). */
function executionErrorsOnly(ctx: MutationContext): boolean {
  if (ctx.era === 'modern') return true;
  const v = ctx.state.version;
  return typeof v === 'string' && v >= '2025-11-25';
}

/** A value of another JSON type than the schema's `type` asks for. */
function wrongTypeFor(type: unknown): unknown {
  switch (type) {
    case 'string':
      return 12345;
    case 'number':
    case 'integer':
      return 'not a number';
    case 'boolean':
      return 'yes';
    case 'array':
      return { not: 'an array' };
    case 'object':
      return ['not', 'an', 'object'];
    default:
      return undefined;
  }
}

/**
 * Renames one listed tool, and maps the new name back on the way to the server (tools/call body and
 * the Mcp-Name header), so calling it still works: only the listed name breaks the rule.
 */
function renaming(rename: (name: string) => string): Pick<MutationHooks, 'toClient' | 'toServer' | 'httpAsk'> {
  const names = (ctx: MutationContext): Map<string, string> => {
    if (!(ctx.state.renamed instanceof Map)) ctx.state.renamed = new Map<string, string>();
    return ctx.state.renamed as Map<string, string>;
  };
  return {
    ...onResult(['tools/list'], (r, ctx) => {
      const tool = (list(r, 'tools') ?? []).find((t) => isObj(t) && typeof t.name === 'string');
      if (!isObj(tool)) return false;
      const original = tool.name as string;
      const changed = rename(original);
      names(ctx).set(changed, original);
      tool.name = changed;
      return true;
    }),
    toServer(m, ctx) {
      if (!isRequest(m) || m.method !== 'tools/call' || !isObj(m.params) || typeof m.params.name !== 'string') return undefined;
      const original = names(ctx).get(m.params.name);
      if (original === undefined) return undefined;
      m.params.name = original;
      return [m];
    },
    httpAsk(ask, ctx) {
      const original = names(ctx).get(ask.headers['mcp-name'] ?? '');
      if (original === undefined) return undefined;
      return { ...ask, headers: { ...ask.headers, 'mcp-name': original } };
    },
  };
}

export const TOOLS_MUTATIONS: Mutation[] = [
  mutation({
    ...server,
    id: 'tools.structured-content-missing',
    requirements: ['TE-03'],
    description: 'successful tools/call results of a tool that declares an outputSchema lack structuredContent (the text content stays)',
    ...learning((m, ctx) => {
      if (ctx.request?.method !== 'tools/call' || !isObj(m.result)) return undefined;
      const tool = catalogue(ctx).get(calledTool(ctx) ?? '');
      if (!tool || !isObj(tool.outputSchema) || m.result.isError === true || !('structuredContent' in m.result)) return undefined;
      delete m.result.structuredContent;
      return [m];
    }),
  }),
  mutation({
    ...server,
    id: 'tools.structured-content-nonconforming',
    requirements: ['TE-03'],
    description: "structuredContent of a tool with an outputSchema lacks a required property (or a property has another type, or the object is wrapped in an array)",
    ...learning((m, ctx) => {
      if (ctx.request?.method !== 'tools/call' || !isObj(m.result) || m.result.isError === true || !('structuredContent' in m.result)) return undefined;
      const schema = catalogue(ctx).get(calledTool(ctx) ?? '')?.outputSchema;
      if (!isObj(schema)) return undefined;
      const sc = m.result.structuredContent;
      if (isObj(sc)) {
        const required = Array.isArray(schema.required) ? schema.required.filter((k): k is string => typeof k === 'string' && k in sc) : [];
        if (required.length) {
          delete sc[required[0]];
          return [m];
        }
        const props = isObj(schema.properties) ? schema.properties : {};
        for (const [k, p] of Object.entries(props)) {
          const wrong = isObj(p) ? wrongTypeFor(p.type) : undefined;
          if (k in sc && wrong !== undefined) {
            sc[k] = wrong;
            return [m];
          }
        }
      }
      if (schema.type !== 'object') return undefined;
      m.result.structuredContent = [sc];
      return [m];
    }),
  }),
  mutation({
    ...server,
    id: 'tools.input-schema-no-type',
    requirements: ['TE-04'],
    description: 'the first tool of each tools/list answer has an inputSchema without "type": "object"',
    ...onResult(['tools/list'], (r) => {
      const tool = (list(r, 'tools') ?? []).find((t) => isObj(t) && isObj(t.inputSchema) && 'type' in t.inputSchema);
      if (!isObj(tool) || !isObj(tool.inputSchema)) return false;
      delete tool.inputSchema.type;
      return true;
    }),
  }),
  mutation({
    ...server,
    id: 'tools.input-schema-null',
    requirements: ['TE-04'],
    description: 'the first tool of each tools/list answer has "inputSchema": null',
    ...onResult(['tools/list'], (r) => {
      const tool = (list(r, 'tools') ?? []).find((t) => isObj(t) && t.inputSchema !== null);
      if (!isObj(tool)) return false;
      tool.inputSchema = null;
      return true;
    }),
  }),
  mutation({
    ...server,
    id: 'tools.name-invalid-characters',
    requirements: ['TE-05'],
    description: 'the first listed tool is named "<name> (beta)" (space and parentheses); calls by that name are mapped back to the real tool',
    ...renaming((name) => `${name} (beta)`),
  }),
  mutation({
    ...server,
    id: 'tools.name-too-long',
    requirements: ['TE-05'],
    description: 'the first listed tool has its name padded with "_x..." to 140 characters; calls by that name are mapped back to the real tool',
    ...renaming((name) => `${name}_`.padEnd(140, 'x')),
  }),
  mutation({
    ...server,
    id: 'tools.name-duplicate',
    requirements: ['TE-05'],
    description: 'each tools/list answer lists its first tool twice (a second copy at the end, same name)',
    ...onResult(['tools/list'], (r) => {
      const tools = list(r, 'tools');
      if (!tools || !isObj(tools[0])) return false;
      tools.push({ ...structuredClone(tools[0]), description: `${String(tools[0].description ?? '')} (registered twice)`.trim() });
      return true;
    }),
  }),
  mutation({
    ...server,
    id: 'tools.unknown-tool-as-result',
    requirements: ['TE-01'],
    description: 'a tools/call naming a tool that was never listed gets a result with isError: true instead of the -32602 protocol error',
    ...learning((m, ctx) => {
      if (ctx.request?.method !== 'tools/call' || !isObj(m.error) || !unknownTool(ctx)) return undefined;
      delete m.error;
      m.result = result(ctx, { content: [{ type: 'text', text: `Unknown tool: ${calledTool(ctx)}` }], isError: true });
      return [m];
    }),
  }),
  mutation({
    ...server,
    id: 'tools.execution-error-as-protocol-error',
    requirements: ['TE-01'],
    related: ['TE-02'],
    description: 'tools/call results with isError: true (execution and argument-validation failures) become JSON-RPC -32602 errors carrying the text',
    ...learning((m, ctx) => {
      if (ctx.request?.method !== 'tools/call' || !isObj(m.result) || m.result.isError !== true || !executionErrorsOnly(ctx)) return undefined;
      const first = (list(m.result, 'content') ?? []).find((c) => isObj(c) && typeof c.text === 'string') as Obj | undefined;
      delete m.result;
      m.error = { code: -32602, message: typeof first?.text === 'string' ? first.text : 'Tool execution failed' };
      return [m];
    }),
  }),
  mutation({
    ...server,
    id: 'tools.content-text-field',
    requirements: ['JR-04'],
    related: ['TE-01', 'JR-01'],
    description: 'text content items of tools/call results carry their text as "content" instead of "text"',
    ...onResult(['tools/call'], (r) => {
      let changed = false;
      for (const c of list(r, 'content') ?? []) {
        if (!isObj(c) || c.type !== 'text' || typeof c.text !== 'string') continue;
        c.content = c.text;
        delete c.text;
        changed = true;
      }
      return changed;
    }),
  }),
];

