// Authorization, black-box, as an OAuth client meets it: the first request without credentials, the
// same request with a token no authorization server issued, then the Protected Resource Metadata
// document (from the challenge's resource_metadata, else the well-known URIs) and each authorization
// server's metadata; last, as an attacker would, the same request with forged tokens and malformed
// Authorization headers (./forged-credentials.ts). No MCP session is opened, so this runs against a server mcpspec has no token for.

import { isObj, tryParseJson } from '../../protocol/jsonrpc.js';
import { ALL_VERSIONS, type SpecVersion } from '../../protocol/versions.js';
import { bearerChallenge } from '../../protocol/www-authenticate.js';
import type { PlainHttpResponse } from '../ports/plain-http.js';
import { endpointScenario, type EndpointScenarioContext } from '../kit/scenario.js';
import { firstRequest } from '../kit/first-request.js';
import { isLoopbackHost } from '../../protocol/loopback.js';
import { forgedCredentials, type ForgedCredential } from './forged-credentials.js';

export interface FetchedDocument {
  url: string;
  response: PlainHttpResponse;
  /** The body, when the answer was 200 with a JSON object. */
  document?: Record<string, unknown>;
}

/** Where the Protected Resource Metadata was looked for (RFC 9728: §5.1 the header, §3.1 the well-known URIs). */
export interface ResourceMetadataFetch extends FetchedDocument {
  via: 'header' | 'path' | 'root';
}

export interface AuthServerMetadata {
  /** As listed in authorization_servers (the issuer identifier). */
  identifier: string;
  /** The well-known URIs tried, in the order clients try them, up to the first that served a document. */
  tried: FetchedDocument[];
  /** Why nothing was fetched (another host without --allow-open-world, not a URL). */
  notFetched?: string;
}

export interface AuthObs {
  endpoint: string;
  /** The scenario's first request, without an Authorization header. */
  anonymous: PlainHttpResponse;
  /** The same request with a bearer token no authorization server issued (only when the first got 401 or 403). */
  bogus?: PlainHttpResponse;
  /** In the order tried, up to the first document found. */
  resourceMetadata: ResourceMetadataFetch[];
  servers: AuthServerMetadata[];
  /** The same request with each forged or malformed credential (only when the first got 401 or 403). */
  forged: { credential: ForgedCredential; response: PlainHttpResponse }[];
}

/** At most this many authorization servers are read (a document could list hundreds). */
const MAX_SERVERS = 3;

/** RFC 9728 §3.1 / RFC 8414 §3.1: the suffix goes between the host and the path (a terminating slash dropped). */
export function wellKnown(resource: URL, suffix: string): string {
  const path = resource.pathname === '/' ? '' : resource.pathname.replace(/\/$/, '');
  return `${resource.origin}/.well-known/${suffix}${path}${resource.search}`;
}

/** The metadata URLs a client tries for an issuer, in order (2025-06-18: RFC 8414 only). */
export function authServerMetadataUrls(issuer: URL, version: SpecVersion): string[] {
  const urls = [wellKnown(issuer, 'oauth-authorization-server')];
  if (version === '2025-06-18') return urls;
  urls.push(wellKnown(issuer, 'openid-configuration'));
  const path = issuer.pathname === '/' ? '' : issuer.pathname.replace(/\/$/, '');
  if (path) urls.push(`${issuer.origin}${path}/.well-known/openid-configuration`);
  return urls;
}


/** mcpspec reads documents on the target's host or this machine; other hosts only with --allow-open-world. */
function reachable(url: URL, endpoint: URL, allowOpenWorld: boolean): boolean {
  return allowOpenWorld || url.hostname === endpoint.hostname || isLoopbackHost(url.hostname);
}

function jsonObject(r: PlainHttpResponse): Record<string, unknown> | undefined {
  if (r.status !== 200) return undefined;
  const parsed = tryParseJson(r.body);
  return parsed.ok && isObj(parsed.value) ? parsed.value : undefined;
}

async function fetchDocument(ctx: EndpointScenarioContext, url: string): Promise<FetchedDocument> {
  const response = await ctx.http({ url, method: 'GET', headers: { Accept: 'application/json' } });
  const doc: FetchedDocument = { url, response };
  const document = jsonObject(response);
  if (document) doc.document = document;
  return doc;
}

async function findResourceMetadata(ctx: EndpointScenarioContext, challengeUrl: string | undefined): Promise<ResourceMetadataFetch[]> {
  const endpoint = new URL(ctx.endpoint);
  if (challengeUrl !== undefined) {
    let url: URL;
    try {
      url = new URL(challengeUrl);
    } catch {
      return [{ via: 'header', url: challengeUrl, response: { url: challengeUrl, method: 'GET', headers: {}, body: '', error: 'not an absolute URL', timedOut: false, elapsedMs: 0, seq: [] } }];
    }
    if (!reachable(url, endpoint, ctx.options.allowOpenWorld)) {
      const error = `on another host (${url.hostname}); mcpspec reads it only with --allow-open-world`;
      return [{ via: 'header', url: challengeUrl, response: { url: challengeUrl, method: 'GET', headers: {}, body: '', error, timedOut: false, elapsedMs: 0, seq: [] } }];
    }
    // A client uses the header's URL and nothing else when there is one (ASD26).
    return [{ via: 'header', ...(await fetchDocument(ctx, challengeUrl)) }];
  }
  const out: ResourceMetadataFetch[] = [];
  const candidates: [ResourceMetadataFetch['via'], string][] = [['path', wellKnown(endpoint, 'oauth-protected-resource')], ['root', `${endpoint.origin}/.well-known/oauth-protected-resource`]];
  for (const [via, url] of candidates) {
    if (out.some((f) => f.url === url)) continue; // an endpoint at the root: both are the same URL
    const f: ResourceMetadataFetch = { via, ...(await fetchDocument(ctx, url)) };
    out.push(f);
    if (f.document || f.response.aborted) break;
  }
  return out;
}

async function readAuthServers(ctx: EndpointScenarioContext, listed: unknown): Promise<AuthServerMetadata[]> {
  if (!Array.isArray(listed)) return [];
  const endpoint = new URL(ctx.endpoint);
  const out: AuthServerMetadata[] = [];
  for (const identifier of listed.slice(0, MAX_SERVERS)) {
    if (typeof identifier !== 'string') continue;
    const entry: AuthServerMetadata = { identifier, tried: [] };
    out.push(entry);
    let issuer: URL;
    try {
      issuer = new URL(identifier);
    } catch {
      entry.notFetched = 'not an absolute URL';
      continue;
    }
    if (!reachable(issuer, endpoint, ctx.options.allowOpenWorld)) {
      entry.notFetched = `on another host (${issuer.hostname}); mcpspec reads it only with --allow-open-world`;
      continue;
    }
    for (const url of authServerMetadataUrls(issuer, ctx.version)) {
      const f = await fetchDocument(ctx, url);
      entry.tried.push(f);
      if (f.document || f.response.aborted) break;
    }
  }
  return out;
}

export const authorizationScenario = endpointScenario<AuthObs>({
  id: 'authorization',
  title: 'Authorization: a request without credentials, with an invalid token, with forged and malformed credentials, and the metadata documents a client reads',
  versions: ALL_VERSIONS,
  async run(ctx) {
    const { body, headers } = firstRequest(ctx.version, 'mcpspec-auth-1');
    // Without the Authorization header (the user's other headers stay: a gateway may need them).
    const anonymous = await ctx.http({ method: 'POST', body, headers: { ...headers, Authorization: undefined }, targetHeaders: true });
    const obs: AuthObs = { endpoint: ctx.endpoint, anonymous, resourceMetadata: [], servers: [], forged: [] };
    if (anonymous.status !== 401 && anonymous.status !== 403) {
      // Served without credentials: a legacy server may have opened a session for it; end it.
      const session = anonymous.headers['mcp-session-id'];
      if (session !== undefined) await ctx.http({ method: 'DELETE', headers: { 'Mcp-Session-Id': session, Authorization: undefined }, targetHeaders: true });
      return obs;
    }
    const token = `mcpspec-not-issued-${ctx.options.seed}`;
    const [bogus, resourceMetadata] = await Promise.all([
      ctx.http({ method: 'POST', body, headers: { ...headers, Authorization: `Bearer ${token}` }, targetHeaders: true }),
      findResourceMetadata(ctx, bearerChallenge(anonymous.headers['www-authenticate'])?.params.resource_metadata),
    ]);
    obs.bogus = bogus;
    obs.resourceMetadata = resourceMetadata;
    const found = resourceMetadata.find((f) => f.document)?.document;
    obs.servers = await readAuthServers(ctx, found?.authorization_servers);
    // Tokens that claim what a real one would: the issuer and resource the metadata names.
    const listed = Array.isArray(found?.authorization_servers) ? found.authorization_servers.find((x): x is string => typeof x === 'string') : undefined;
    const claims = { issuer: listed ?? new URL(ctx.endpoint).origin, audience: typeof found?.resource === 'string' ? found.resource : ctx.endpoint, scope: bearerChallenge(anonymous.headers['www-authenticate'])?.params.scope };
    for (const credential of forgedCredentials(claims, ctx.options.seed)) {
      if (ctx.signal.aborted) break;
      const response = await ctx.http({ method: 'POST', body, headers: { ...headers, Authorization: credential.authorization }, targetHeaders: true });
      obs.forged.push({ credential, response });
      // Served all the same (a broken gate): a legacy server may have opened a session for it; end it.
      const session = response.headers['mcp-session-id'];
      if (session !== undefined) await ctx.http({ method: 'DELETE', headers: { 'Mcp-Session-Id': session, Authorization: credential.authorization }, targetHeaders: true });
    }
    return obs;
  },
});
