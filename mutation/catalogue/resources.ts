// Mutations of the resources area (requirements digest §12 RS-01, RS-02, §2 -32002): reading
// unknown resources, the shape of resources/read contents and of resource templates. The digest has
// no row of its own for the shapes (the schemas are the rule), so those cite JR-04 (a result that
// answers its request) as the wire.schema check does.

import { isObj, list, onError, onResult } from '../edits.js';
import { mutation, SERVER_ANY as server, SERVER_LEGACY as legacy, SERVER_MODERN as modern, type Mutation, type MutationContext, type MutationHooks } from '../mutation.js';

type Obj = Record<string, unknown>;
type ToClient = NonNullable<MutationHooks['toClient']>;

/** The uris resources/list answers listed so far. */
function listed(ctx: MutationContext): Set<string> {
  if (!(ctx.state.uris instanceof Set)) ctx.state.uris = new Set<string>();
  return ctx.state.uris as Set<string>;
}

function learning(hook: ToClient): Pick<MutationHooks, 'toClient'> {
  return {
    toClient(m, ctx) {
      if (isObj(m.result) && ctx.request?.method === 'resources/list') {
        for (const r of list(m.result, 'resources', 0) ?? []) if (isObj(r) && typeof r.uri === 'string') listed(ctx).add(r.uri);
      }
      return hook(m, ctx);
    },
  };
}

function readUri(ctx: MutationContext): string | undefined {
  const uri = ctx.request?.params.uri;
  return ctx.request?.method === 'resources/read' && typeof uri === 'string' ? uri : undefined;
}

/**
 * An error answer to resources/read that says "no such resource": -32002 (legacy), or -32602 for a
 * uri no resources/list answer listed (an unlisted uri may still be a template's, but mcpspec's
 * unknown uri is neither).
 */
function notFound(m: Obj, ctx: MutationContext): boolean {
  const uri = readUri(ctx);
  if (uri === undefined || !isObj(m.error)) return false;
  if (m.error.code === -32002) return true;
  return m.error.code === -32602 && !listed(ctx).has(uri);
}

/** An empty-contents result in the server's place (modern: with resultType and the cache fields it must carry). */
function emptyContents(ctx: MutationContext): Obj {
  return ctx.era === 'modern' ? { resultType: 'complete', contents: [], ttlMs: 0, cacheScope: 'private' } : { contents: [] };
}

export const RESOURCES_MUTATIONS: Mutation[] = [
  mutation({
    ...modern,
    id: 'resources.unknown-empty-contents',
    requirements: ['RS-01'],
    description: 'resources/read of an unknown uri gets a successful result with empty contents instead of -32602',
    ...learning((m, ctx) => {
      if (!notFound(m, ctx)) return undefined;
      delete m.error;
      m.result = emptyContents(ctx);
      return [m];
    }),
  }),
  mutation({
    ...modern,
    id: 'resources.unknown-retired-code',
    requirements: ['RS-01'],
    description: 'a 2026-07-28 server answers resources/read of an unknown uri with the retired -32002 (resource not found) instead of -32602',
    ...learning((m, ctx) => {
      if (!notFound(m, ctx) || !isObj(m.error) || m.error.code === -32002) return undefined;
      m.error = { code: -32002, message: 'Resource not found', data: { uri: readUri(ctx) } };
      return [m];
    }),
  }),
  mutation({
    ...legacy,
    id: 'resources.unknown-legacy-code',
    requirements: ['RS-02'],
    description: 'a legacy server answers resources/read of an unknown uri with -32602 instead of -32002',
    ...onError(['resources/read'], (e) => {
      if (e.code !== -32002) return false;
      e.code = -32602;
      return true;
    }),
  }),
  mutation({
    ...server,
    id: 'resources.contents-uri-mismatch',
    requirements: ['JR-04'],
    related: ['RS-01', 'R26', 'R25'],
    description: 'the contents of resources/read name another uri than the one read (another listed uri, or the uri with "-copy" appended)',
    ...learning((m, ctx) => {
      const uri = readUri(ctx);
      if (uri === undefined || !isObj(m.result)) return undefined;
      const other = [...listed(ctx)].find((u) => u !== uri) ?? `${uri}-copy`;
      let changed = false;
      for (const c of list(m.result, 'contents') ?? []) {
        if (!isObj(c) || c.uri !== uri) continue;
        c.uri = other;
        changed = true;
      }
      return changed ? [m] : undefined;
    }),
  }),
  mutation({
    ...server,
    id: 'resources.contents-without-uri',
    requirements: ['JR-04'],
    related: ['R26', 'R25'],
    description: 'the items of resources/read contents lack their (required) uri',
    ...onResult(['resources/read'], (r) => {
      let changed = false;
      for (const c of list(r, 'contents') ?? []) if (isObj(c) && 'uri' in c) changed = delete c.uri;
      return changed;
    }),
  }),
  mutation({
    ...server,
    id: 'resources.blob-not-base64',
    requirements: ['JR-04'],
    related: ['R26', 'R25'],
    description: 'blob contents of resources/read carry raw text with spaces and punctuation instead of base64',
    ...onResult(['resources/read'], (r) => {
      let changed = false;
      for (const c of list(r, 'contents') ?? []) {
        if (!isObj(c) || typeof c.blob !== 'string') continue;
        c.blob = `raw bytes: ${c.blob.slice(0, 16)} (not base64!)`;
        changed = true;
      }
      return changed;
    }),
  }),
  mutation({
    ...server,
    id: 'resources.template-without-uri-template',
    requirements: ['JR-04'],
    related: ['R26', 'R25'],
    description: 'resource templates in resources/templates/list carry their template as "uri" instead of "uriTemplate"',
    ...onResult(['resources/templates/list'], (r) => {
      let changed = false;
      for (const t of list(r, 'resourceTemplates') ?? []) {
        if (!isObj(t) || typeof t.uriTemplate !== 'string') continue;
        t.uri = t.uriTemplate;
        delete t.uriTemplate;
        changed = true;
      }
      return changed;
    }),
  }),
];
