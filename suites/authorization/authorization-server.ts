// The scripted authorization side of a client-role HTTP run, as a profile of the peer built on the
// scripted server's HTTP primitives (suites/ports/scripted-http.ts): a gate makes the MCP endpoint
// refuse requests without a token it issued (401, Bearer challenge naming resource_metadata and
// scope), and a route on the same origin plays the OAuth authorization server a client needs: the
// Protected Resource Metadata (RFC 9728), the server metadata (RFC 8414), dynamic registration, an
// authorize endpoint that redirects at once with a code (no user to ask), and a token endpoint. It is
// lenient on purpose (a code is exchanged without PKCE, a token is accepted in the query too): the
// flow goes on, and the checks judge what the client sent. How it misbehaves (AuthorizationOptions)
// is chosen by the scenarios in client-scenarios.ts; what it saw (OAuthLog) is what the checks read.

import { randomBytes } from 'node:crypto';
import { isObj, tryParseJson } from '../../protocol/jsonrpc.js';
import type { BrowserVisit, GatedRequest, HttpAnswer, HttpExchange, ScriptedHttp } from '../ports/scripted-http.js';

/** One request the client under test made to the scripted authorization side (metadata, register, authorize, token). */
export interface OAuthRequest {
  /** `GET /authorize`, `POST /token`, ... */
  method: string;
  path: string;
  /** The query parameters. */
  query: Record<string, string>;
  /** A form (token) or JSON (register) body's fields. */
  body?: Record<string, unknown>;
  /** What the scripted side answered. */
  status: number;
  /** `GET /authorize`: the authorization code the redirect carried. */
  code?: string;
  /** The client_id it presents (authorize query, token form, or HTTP Basic). */
  clientId?: string;
  /** The HTTP Basic client credentials it carries (decoded). */
  basic?: { id: string; secret: string };
  /** Recording sequence number of the answer (what came after it could use what it gave). */
  answerSeq?: number;
  at: number;
  seq: number;
}

/** How the scripted authorization side misbehaves, on purpose. */
export interface OAuthOptions {
  wrongIssuer?: boolean;
  /** The Protected Resource Metadata names another resource than the endpoint it is fetched for (RFC 9728 §3.3). */
  wrongResource?: boolean;
  /**
   * The Protected Resource Metadata names a second authorization server (its issuer and endpoints
   * under /as2 on the same origin) instead of the first: the resource has moved.
   */
  migrated?: boolean;
  /**
   * Every registration is for `client_secret_basic` with a secret, whatever the client asked for,
   * and the metadata lists only that token endpoint method.
   */
  confidential?: boolean;
  /**
   * Every registration is for this token endpoint method, whatever the client asked for, and the
   * metadata lists only it: `client_secret_post` (a secret issued, to go in the form) or `none` (a
   * public client: no secret issued). `confidential` is the same for `client_secret_basic`.
   */
  tokenAuth?: 'client_secret_post' | 'none';
  /**
   * The authorization server offers no dynamic registration (no registration_endpoint) and no client
   * ID metadata documents: it knows one client, pre-registered (PRE_REGISTERED_CLIENT), for
   * client_secret_basic, the only method its metadata lists.
   */
  preRegistered?: boolean;
  /**
   * Step-up scenario without an end: every tools/call gets 403 insufficient_scope, whatever scope
   * the token was granted (a scope upgrade that never succeeds).
   */
  stepUpNever?: boolean;
  /** The authorization server's metadata says it takes Client ID Metadata Document URLs as client_id (`client_id_metadata_document_supported`). */
  cimd?: boolean;
  /**
   * The authorization response's `iss` (RFC 9207): the issuer (default), another issuer, the issuer
   * with a trailing slash (equal only after normalization), or none.
   */
  iss?: 'issuer' | 'another' | 'trailing-slash' | 'absent';
  /** Whether the metadata says responses carry iss (`authorization_response_iss_parameter_supported`; default true). */
  issAdvertised?: boolean;
  /** The authorization server metadata leaves `code_challenge_methods_supported` out (it does not support PKCE, so clients must refuse to go on). */
  noPkce?: boolean;
  /**
   * The authorization response's `state`: the one the request carried (default), another one, or
   * none; a client that sent one must discard a response without it or with another.
   */
  state?: 'echo' | 'another' | 'absent';
  /** tools/call needs a scope the first challenge did not name: 403 insufficient_scope until the client steps up. */
  stepUp?: boolean;
  /**
   * Access tokens from the authorization code grant serve this many authorized MCP requests; the next
   * request presenting one gets 401 `error="invalid_token"`, as for an expired token. Tokens from a
   * refresh never expire, so one refresh (or a new authorization) is enough.
   */
  expireAfter?: number;
  /**
   * The 401 challenge names no resource_metadata (the client constructs the well-known URI), and the
   * authorization server's issuer has a path, its metadata served only by OpenID Connect discovery
   * with path insertion (the second URI clients must try).
   */
  wellKnown?: boolean;
  /**
   * The 401 challenge names no resource_metadata, the path-inserted well-known URI answers 404, and the
   * root one (`/.well-known/oauth-protected-resource`) serves metadata for the origin: its `resource`
   * is the origin without a trailing slash (what a URL parser's href would turn into `origin/`).
   */
  rootResource?: boolean;
  /**
   * The authorization server's issuer has no path, and only OpenID Connect discovery serves its
   * metadata (`/.well-known/openid-configuration`; the OAuth 2.0 URI answers 404), as many identity
   * providers do.
   */
  oidcOnly?: boolean;
  /**
   * Where a client finds the scope to ask for: the 401 challenge (default); only the Protected
   * Resource Metadata's scopes_supported (the challenge names none); nowhere (neither, nor the
   * authorization server's metadata); or the challenge, naming a scope scopes_supported does not list
   * beside one it does (the metadata listing another too: neither a subset nor a superset).
   */
  scopeFrom?: 'challenge' | 'metadata' | 'none' | 'challenge-unlisted';
}

/** The scripted authorization server, as the checks read it afterwards. */
export interface OAuthLog {
  /** The MCP endpoint (the resource clients must name). */
  resource: string;
  /** The Protected Resource Metadata URL the 401 challenge names. */
  resourceMetadataUrl: string;
  /** The authorization server's metadata URL (its issuer is the endpoint's origin). */
  serverMetadataUrl: string;
  /** The scope the challenge names (undefined: it names none). */
  scope?: string;
  /** The `resource` the Protected Resource Metadata names when the scenario makes it another than `resource`. */
  prmResource?: string;
  /** The `resource` the Protected Resource Metadata publishes, as it is written (the string a client sends on as-is). */
  publishedResource: string;
  /** The Protected Resource Metadata's scopes_supported (undefined: it has none). */
  scopesSupported?: string[];
  /** The issuer the authorization server metadata names (not its identifier when the scenario says so). */
  issuer: string;
  /** The identifier the Protected Resource Metadata lists for the authorization server. */
  identifier: string;
  /** The `iss` the authorization responses carry (RFC 9207; not the issuer when the scenario says so); undefined: none. */
  responseIss?: string;
  /** Whether the metadata says responses carry iss (`authorization_response_iss_parameter_supported: true`). */
  issAdvertised: boolean;
  /** Whether the authorization server metadata leaves code_challenge_methods_supported out. */
  pkceUnadvertised?: boolean;
  /** What the authorization responses do with the request's state: echo it (default), change it, or leave it out. */
  responseState: 'echo' | 'another' | 'absent';
  /** Step-up scenario: the scope a tools/call needs, named by its 403 insufficient_scope. */
  stepUpScope?: string;
  /** Whether a token with the step-up scope still gets 403 insufficient_scope (the upgrade never succeeds). */
  stepUpNever?: boolean;
  /** The token endpoint methods the authorization server's metadata lists (token_endpoint_auth_methods_supported). */
  tokenAuthMethods: string[];
  /** Pre-registration scenario: the client credentials the authorization server knows, given to the client (it has no registration endpoint). */
  preRegistered?: { clientId: string; secret: string };
  requests: OAuthRequest[];
  /** The access tokens issued, in order. */
  tokens: string[];
  /** Expiry scenario: the access tokens that expired, with the recording sequence number of the note saying so (just before the 401). */
  expired: { token: string; seq: number }[];
  /** Dynamic client registrations: the client_id issued and the authorization server (identifier) that issued it. */
  registrations: { clientId: string; server: string; seq: number; secret?: string; method?: string }[];
  /** Reports of mcpspec's headless browser (clients that authorize by opening a browser), with their recording sequence numbers. */
  browser: (BrowserVisit & { seq: number })[];
}

export const CHALLENGE_SCOPE = 'mcp:tools';
/** A second scope the resource metadata lists in the scenario whose challenge names none. */
const READ_SCOPE = 'mcp:read';
/** A scope the challenge names and no metadata lists, in the scenario where the challenge goes beyond scopes_supported. */
export const UNLISTED_SCOPE = 'mcp:admin';
/** The scope a tools/call needs in the step-up scenario (asked for by a 403 insufficient_scope). */
export const STEP_UP_SCOPE = 'mcp:write';
const TOKEN_SECONDS = 3600;
/**
 * The client the authorization server of the pre-registration scenario knows (no registration
 * endpoint there): given to the client under test in its environment (PRE_REGISTERED_ENV) and, for a
 * harness written to the official suite, in MCP_CONFORMANCE_CONTEXT as client_id and client_secret.
 */
export const PRE_REGISTERED_CLIENT = { clientId: 'mcpspec-pre-registered-client', secret: 'mcpspec-pre-registered-secret' };
/**
 * The variable the pre-registered credentials come in, as JSON (`{"client_id", "client_secret",
 * "issuer"}`: the issuer of the authorization server they are for); set only in that scenario.
 */
export const PRE_REGISTERED_ENV = 'MCPSPEC_CLIENT_CREDENTIALS';
const PROTECTED_RESOURCE = '/.well-known/oauth-protected-resource';
const SERVER_METADATA = '/.well-known/oauth-authorization-server';
/** The path of the authorization server's issuer in the well-known scenario (an issuer with a path). */
export const ISSUER_PATH = '/tenant';
/** The path of the second authorization server (issuer and endpoints), where the resource moves in the migration scenario. */
export const SECOND_SERVER = '/as2';

const token = (prefix: string) => `${prefix}-${randomBytes(12).toString('hex')}`;

function json(status: number, body: unknown, headers: Record<string, string> = {}): HttpAnswer {
  return { status, headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...headers }, body: JSON.stringify(body) };
}

/**
 * Put the scripted server's MCP endpoint behind OAuth: requests without a token the scripted
 * authorization server issued get 401 with a Bearer challenge; the same origin serves the Protected
 * Resource Metadata, the authorization server's metadata, registration, authorize (redirects at once
 * with a code) and token. Call before the client runs; the log fills as the client goes, and
 * `configure` switches how it misbehaves between two client runs.
 */
export function requireAuthorization(http: ScriptedHttp, opts: OAuthOptions = {}): AuthorizationServer {
  const server = new AuthorizationServer(http, opts);
  http.route((x) => server.serve(x));
  http.gate((req) => server.admit(req));
  http.onBrowserVisit((visit, seq) => server.log.browser.push({ ...visit, seq }));
  return server;
}

export class AuthorizationServer {
  readonly log: OAuthLog;
  private readonly origin: string;
  /** Codes and tokens, with the scope they were granted (what the authorization request asked for). */
  private readonly codes = new Map<string, string>();
  private readonly issued = new Map<string, string>();
  private readonly refreshTokens = new Map<string, string>();
  private readonly stepUp: boolean;
  /** Scope-retry scenario: the step-up never succeeds (every tools/call gets 403 insufficient_scope). */
  private readonly stepUpNever: boolean;
  /** Expiry scenario: how many more MCP requests each expiring access token serves. */
  private readonly usesLeft = new Map<string, number>();
  private expireAfter: number | undefined;
  /** Where the scope to ask for is found: the challenge (default), only the resource metadata's scopes_supported, or nowhere. */
  private readonly scopeFrom: 'challenge' | 'metadata' | 'none' | 'challenge-unlisted';
  /** Well-known scenario: the challenge names no resource_metadata; the issuer has a path and only OpenID Connect discovery serves its metadata. */
  private readonly wellKnown: boolean;
  /** Root-resource scenario: no resource_metadata in the challenge, the metadata only at the root URI, about the origin. */
  private readonly rootResource: boolean;
  /** The token endpoint method every registration gets, the only one the metadata lists (undefined: what the client asks for, the metadata listing three). */
  private readonly tokenAuth: 'client_secret_basic' | 'client_secret_post' | 'none' | undefined;
  /** Pre-registration scenario: no registration endpoint, no client ID metadata documents. */
  private readonly preRegistered: boolean;
  /** CIMD scenario: the metadata advertises client_id_metadata_document_supported (a registration endpoint too, as a fallback). */
  private readonly cimd: boolean;
  /** The first authorization server's identifier and metadata URL (the second's are fixed under SECOND_SERVER). */
  private readonly firstIdentifier: string;
  private readonly firstMetadataUrl: string;
  /** The issuer the first authorization server's metadata names (another one in the wrong-issuer scenario). */
  private firstIssuer = '';

  constructor(
    private readonly http: ScriptedHttp,
    opts: OAuthOptions = {},
  ) {
    const endpoint = http.url;
    const url = new URL(endpoint);
    this.origin = url.origin;
    this.stepUp = opts.stepUp === true || opts.stepUpNever === true;
    this.stepUpNever = opts.stepUpNever === true;
    this.wellKnown = opts.wellKnown === true;
    this.rootResource = opts.rootResource === true;
    this.scopeFrom = opts.scopeFrom ?? 'challenge';
    this.preRegistered = opts.preRegistered === true;
    this.tokenAuth = opts.confidential || this.preRegistered ? 'client_secret_basic' : opts.tokenAuth;
    this.cimd = opts.cimd === true;
    // RFC 8414 §3 / OpenID Connect Discovery: for an issuer with a path, clients try the OAuth
    // path-inserted URI, then OpenID Connect's path-inserted one (served here), then its path-appended one.
    const identifier = this.wellKnown ? `${url.origin}${ISSUER_PATH}` : url.origin;
    this.firstIdentifier = identifier;
    // OpenID-only scenario: an issuer without a path whose metadata only OpenID Connect discovery serves.
    this.firstMetadataUrl = this.wellKnown ? `${url.origin}/.well-known/openid-configuration${ISSUER_PATH}` : opts.oidcOnly ? `${url.origin}/.well-known/openid-configuration` : `${url.origin}${SERVER_METADATA}`;
    this.log = {
      resource: endpoint,
      // Root-resource scenario: only the root well-known URI serves the metadata (the path-inserted one gets 404).
      resourceMetadataUrl: this.rootResource ? `${url.origin}${PROTECTED_RESOURCE}` : `${url.origin}${PROTECTED_RESOURCE}${url.pathname}`,
      publishedResource: this.rootResource ? url.origin : endpoint,
      serverMetadataUrl: this.firstMetadataUrl,
      ...(this.scopeFrom === 'challenge' ? { scope: CHALLENGE_SCOPE } : this.scopeFrom === 'challenge-unlisted' ? { scope: `${CHALLENGE_SCOPE} ${UNLISTED_SCOPE}` } : {}),
      ...(this.scopeFrom === 'none' ? {} : { scopesSupported: this.scopeFrom === 'challenge' ? [CHALLENGE_SCOPE] : [CHALLENGE_SCOPE, READ_SCOPE] }),
      identifier,
      issuer: url.origin,
      responseIss: url.origin,
      issAdvertised: true,
      responseState: 'echo',
      requests: [],
      tokens: [],
      expired: [],
      browser: [],
      registrations: [],
      ...(opts.stepUp || opts.stepUpNever ? { stepUpScope: STEP_UP_SCOPE } : {}),
      ...(opts.stepUpNever ? { stepUpNever: true } : {}),
      tokenAuthMethods: this.tokenAuth ? [this.tokenAuth] : ['none', 'client_secret_post', 'client_secret_basic'],
      ...(this.preRegistered ? { preRegistered: PRE_REGISTERED_CLIENT } : {}),
    };
    this.configure(opts);
  }

  /**
   * Set how the authorization side misbehaves (a scenario may switch this between two client runs).
   * Codes and tokens issued so far are forgotten, so the next run goes through the whole flow again;
   * the log (registrations included) goes on.
   */
  configure(opts: OAuthOptions): void {
    // RFC 8414 §3.3: a client must not use a document whose issuer is not the identifier it asked for.
    this.firstIssuer = opts.wrongIssuer ? `${this.origin}/another-issuer` : this.firstIdentifier;
    // Authorization server binding (2026-07-28): the resource may move to a second authorization server.
    const second = `${this.origin}${SECOND_SERVER}`;
    this.log.identifier = opts.migrated ? second : this.firstIdentifier;
    this.log.serverMetadataUrl = opts.migrated ? `${this.origin}${SERVER_METADATA}${SECOND_SERVER}` : this.firstMetadataUrl;
    this.log.issuer = opts.migrated ? second : this.firstIssuer;
    // RFC 9728 §3.3: a client must not use resource metadata naming another resource than it asked for.
    if (opts.wrongResource) this.log.prmResource = `${this.origin}/mcp/another-server`;
    else delete this.log.prmResource;
    this.log.publishedResource = this.log.prmResource ?? (this.rootResource ? this.origin : this.log.resource);
    // RFC 9207 §2.4: a client must not send the code on when the response's iss is not its issuer
    // (compared as plain strings), nor when it is missing where the metadata says responses carry it.
    const iss = opts.iss ?? 'issuer';
    this.log.responseIss = iss === 'absent' ? undefined : iss === 'another' ? `${this.origin}/not-the-issuer` : iss === 'trailing-slash' ? `${this.log.issuer}/` : this.log.issuer;
    this.log.issAdvertised = opts.issAdvertised !== false;
    // Security considerations: without code_challenge_methods_supported there is no PKCE, and clients must refuse to go on.
    if (opts.noPkce) this.log.pkceUnadvertised = true;
    else delete this.log.pkceUnadvertised;
    // Security considerations: a client discards a response whose state is missing or not the one it sent.
    this.log.responseState = opts.state ?? 'echo';
    this.expireAfter = opts.expireAfter;
    this.codes.clear();
    this.issued.clear();
    this.refreshTokens.clear();
    this.usesLeft.clear();
  }

  /**
   * The gate before the MCP endpoint: 401 for a request without a token this server issued, 403 for
   * a tools/call whose token lacks the step-up scope (step-up scenario); undefined lets it through.
   */
  admit(req: GatedRequest): HttpAnswer | undefined {
    if (!this.authorized(req.headers, req.url)) return this.refusal(req.headers);
    if (this.needsStepUp(req.headers, req.url, req.message)) return this.scopeRefusal();
    return undefined;
  }

  /**
   * Whether an MCP request carries a token this server issued (in the Authorization header, or the
   * query). In the expiry scenario each use counts, and a token with none left has expired: it is
   * forgotten (a note in the recording says when) and the request is refused.
   */
  private authorized(headers: Record<string, string>, url: URL): boolean {
    const t = this.tokenOf(headers, url);
    if (t === undefined) return false;
    const left = this.usesLeft.get(t);
    if (left === 0) {
      this.issued.delete(t);
      this.usesLeft.delete(t);
      const seq = this.http.note('oauth', 'the access token expired (expiry scenario): the request gets 401 invalid_token');
      this.log.expired.push({ token: t, seq });
      return false;
    }
    if (left !== undefined) this.usesLeft.set(t, left - 1);
    return true;
  }

  /** The token this server issued that the request carries (header first, then the query). */
  private tokenOf(headers: Record<string, string>, url: URL): string | undefined {
    const bearer = /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? '')?.[1];
    const inQuery = url.searchParams.get('access_token') ?? undefined;
    return [bearer, inQuery].find((t) => t !== undefined && this.issued.has(t));
  }

  /** The scope of the token this server issued that the request carries (header, or query). */
  private scopeOf(headers: Record<string, string>, url: URL): string | undefined {
    const t = this.tokenOf(headers, url);
    return t === undefined ? undefined : this.issued.get(t);
  }

  /** Step-up scenario: a tools/call whose token was not granted STEP_UP_SCOPE (it gets a 403 insufficient_scope). */
  private needsStepUp(headers: Record<string, string>, url: URL, message: unknown): boolean {
    if (!this.stepUp || !isObj(message) || message.method !== 'tools/call') return false;
    if (this.stepUpNever) return true;
    return !(this.scopeOf(headers, url) ?? '').split(' ').includes(STEP_UP_SCOPE);
  }

  /** 403 for a tools/call whose token lacks the step-up scope (RFC 6750 §3.1); the challenge names only that scope. */
  private scopeRefusal(): HttpAnswer {
    return json(403, { error: 'insufficient_scope' }, { 'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${STEP_UP_SCOPE}", resource_metadata="${this.log.resourceMetadataUrl}"` });
  }

  /** 401 for an MCP request without a token this server issued. */
  private refusal(headers: Record<string, string>): HttpAnswer {
    const error = headers.authorization ? 'error="invalid_token", ' : '';
    // Well-known scenario: no resource_metadata, so the client has to construct the well-known URIs (RFC 9728 §3).
    const where = this.wellKnown || this.rootResource ? '' : `resource_metadata="${this.log.resourceMetadataUrl}", `;
    const scope = this.log.scope === undefined ? '' : `scope="${this.log.scope}"`;
    const params = `${error}${where}${scope}`.replace(/, $/, '');
    return json(401, { error: 'invalid_token' }, { 'WWW-Authenticate': params ? `Bearer ${params}` : 'Bearer' });
  }

  /** The route on the endpoint's origin: answers the authorization side's own paths, and leaves anything else. */
  serve(x: HttpExchange): void {
    const { method, url, headers } = x;
    const path = url.pathname;
    // The second authorization server's endpoints are the first's under SECOND_SERVER.
    const server = path.startsWith(`${SECOND_SERVER}/`) ? SECOND_SERVER : '';
    const local = path.slice(server.length);
    const ours =
      (method === 'GET' && (local === '/authorize' || path.startsWith('/.well-known/') || path.endsWith('/.well-known/openid-configuration'))) ||
      (method === 'POST' && (local === '/register' || local === '/token'));
    if (!ours) return;
    const text = method === 'POST' ? (x.body ?? '') : '';
    const body = method === 'POST' ? parseBody(text, headers['content-type'] ?? '') : undefined;
    const seq = x.record();
    const entry: OAuthRequest = { method, path, query: Object.fromEntries(url.searchParams), status: 0, at: Date.now(), seq };
    if (body) entry.body = body;
    const basic = basicCredentials(headers);
    if (basic) entry.basic = basic;
    // The client_id a request presents: in the query (authorize), the form, or HTTP Basic (token).
    const clientId = url.searchParams.get('client_id') ?? (typeof body?.client_id === 'string' ? body.client_id : basic?.id);
    if (clientId !== undefined) entry.clientId = clientId;
    this.log.requests.push(entry);
    const answer = (a: HttpAnswer) => {
      entry.status = a.status;
      entry.answerSeq = x.answer(a);
    };

    if (method === 'GET' && path === new URL(this.log.resourceMetadataUrl).pathname) {
      answer(json(200, { resource: this.log.publishedResource, authorization_servers: [this.log.identifier], ...(this.log.scopesSupported ? { scopes_supported: this.log.scopesSupported } : {}), bearer_methods_supported: ['header'] }));
    } else if (method === 'GET' && (path === new URL(this.firstMetadataUrl).pathname || path === `${SERVER_METADATA}${SECOND_SERVER}`)) {
      const second = path === `${SERVER_METADATA}${SECOND_SERVER}`;
      const base = `${this.origin}${second ? SECOND_SERVER : ''}`;
      answer(
        json(200, {
          issuer: second ? base : this.firstIssuer,
          authorization_endpoint: `${base}/authorize`,
          token_endpoint: `${base}/token`,
          ...(this.preRegistered && !second ? {} : { registration_endpoint: `${base}/register` }),
          response_types_supported: ['code'],
          grant_types_supported: ['authorization_code', 'refresh_token'],
          ...(this.log.pkceUnadvertised ? {} : { code_challenge_methods_supported: ['S256'] }),
          token_endpoint_auth_methods_supported: this.log.tokenAuthMethods,
          // Scope-from-nowhere scenario: no document names a scope, so a client has none to ask for.
          ...(this.scopeFrom === 'none' ? {} : { scopes_supported: this.log.scopesSupported }),
          ...(this.log.issAdvertised ? { authorization_response_iss_parameter_supported: true } : {}),
          ...(this.cimd ? { client_id_metadata_document_supported: true } : {}),
        }),
      );
    } else if (method === 'POST' && local === '/register' && !(this.preRegistered && !server)) {
      const meta = isObj(body) ? body : {};
      // Confidential, post and public scenarios: every client is registered for the one method the
      // metadata lists, whatever it asked for (RFC 7591 §3.2.1 lets the server replace requested
      // metadata; the response says what holds).
      const authMethod = this.tokenAuth ?? meta.token_endpoint_auth_method;
      const confidential = authMethod !== undefined && authMethod !== 'none';
      const clientId = token('mcpspec-client');
      const secret = confidential ? token('mcpspec-secret') : undefined;
      this.log.registrations.push({ clientId, server: server ? `${this.origin}${server}` : this.firstIdentifier, seq, ...(secret ? { secret, method: String(authMethod) } : {}) });
      answer(json(201, { ...meta, ...(authMethod !== undefined ? { token_endpoint_auth_method: authMethod } : {}), client_id: clientId, client_id_issued_at: Math.floor(Date.now() / 1000), ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}) }));
    } else if (method === 'GET' && local === '/authorize') {
      const redirect = url.searchParams.get('redirect_uri');
      let target: URL | undefined;
      try {
        target = redirect ? new URL(redirect) : undefined;
      } catch {
        target = undefined;
      }
      if (!target) {
        answer(json(400, { error: 'invalid_request', error_description: 'redirect_uri is missing or not a URL' }));
        return;
      }
      const code = token('mcpspec-code');
      this.codes.set(code, url.searchParams.get('scope') ?? '');
      target.searchParams.set('code', code);
      const state = url.searchParams.get('state');
      if (state !== null && this.log.responseState !== 'absent') target.searchParams.set('state', this.log.responseState === 'another' ? `${state}-not-yours` : state);
      // The second server's responses name it (the iss scenarios concern the first).
      const iss = server ? `${this.origin}${server}` : this.log.responseIss;
      if (iss !== undefined) target.searchParams.set('iss', iss);
      entry.code = code;
      answer({ status: 302, headers: { Location: target.href } });
    } else if (method === 'POST' && local === '/token') {
      const grant = body?.grant_type;
      const presented = grant === 'authorization_code' ? body?.code : grant === 'refresh_token' ? body?.refresh_token : undefined;
      const grants = grant === 'authorization_code' ? this.codes : this.refreshTokens;
      const scope = typeof presented === 'string' ? grants.get(presented) : undefined;
      if (scope === undefined) {
        answer(json(400, { error: 'invalid_grant' }));
        return;
      }
      if (grant === 'authorization_code') this.codes.delete(presented as string);
      const access = token('mcpspec-token');
      const refresh = token('mcpspec-refresh');
      this.issued.set(access, scope);
      if (this.expireAfter !== undefined && grant === 'authorization_code') this.usesLeft.set(access, this.expireAfter);
      this.refreshTokens.set(refresh, scope);
      this.log.tokens.push(access);
      answer(json(200, { access_token: access, token_type: 'Bearer', expires_in: TOKEN_SECONDS, refresh_token: refresh, ...(scope ? { scope } : {}) }));
    } else {
      answer(json(404, { error: 'not_found' }));
    }
  }
}

/** HTTP Basic client credentials (RFC 6749 §2.3.1: each part form-urlencoded before base64). */
function basicCredentials(headers: Record<string, string>): { id: string; secret: string } | undefined {
  const basic = /^Basic\s+(\S+)$/i.exec(headers.authorization ?? '')?.[1];
  if (basic === undefined) return undefined;
  const text = Buffer.from(basic, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  const decode = (x: string) => {
    try {
      return decodeURIComponent(x.replace(/\+/g, ' '));
    } catch {
      return x;
    }
  };
  return colon < 0 ? { id: decode(text), secret: '' } : { id: decode(text.slice(0, colon)), secret: decode(text.slice(colon + 1)) };
}

/** A token request is a form; a registration request JSON. */
function parseBody(text: string, contentType: string): Record<string, unknown> | undefined {
  if (contentType.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text));
  const parsed = tryParseJson(text);
  return parsed.ok && isObj(parsed.value) ? parsed.value : undefined;
}
