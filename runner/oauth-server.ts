// The scripted authorization side of an HTTP listener (client role): the MCP endpoint refuses
// requests without a token it issued (401, Bearer challenge naming resource_metadata and scope), and
// the same origin plays the OAuth authorization server a client needs: the Protected Resource
// Metadata (RFC 9728), the server metadata (RFC 8414), dynamic registration, an authorize endpoint
// that redirects at once with a code (no user to ask), and a token endpoint. It is lenient on
// purpose (a code is exchanged without PKCE, a token is accepted in the query too): the flow goes
// on, and the checks judge what the client sent.

import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isObj, tryParseJson } from '../protocol/jsonrpc.js';
import type { OAuthLog, OAuthOptions, OAuthRequest } from '../suites/ports.js';
import type { Recorder } from './recorder.js';
import { redactHeaders } from './redact.js';

export const CHALLENGE_SCOPE = 'mcp:tools';
const TOKEN_SECONDS = 3600;
const PROTECTED_RESOURCE = '/.well-known/oauth-protected-resource';
const SERVER_METADATA = '/.well-known/oauth-authorization-server';

const token = (prefix: string) => `${prefix}-${randomBytes(12).toString('hex')}`;

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...headers }).end(text);
}

export class OAuthServer {
  readonly log: OAuthLog;
  private readonly origin: string;
  private readonly codes = new Set<string>();
  private readonly issued = new Set<string>();

  constructor(
    endpoint: string,
    private readonly recorder: Recorder,
    opts: OAuthOptions = {},
  ) {
    const url = new URL(endpoint);
    this.origin = url.origin;
    this.log = {
      resource: endpoint,
      resourceMetadataUrl: `${url.origin}${PROTECTED_RESOURCE}${url.pathname}`,
      serverMetadataUrl: `${url.origin}${SERVER_METADATA}`,
      scope: CHALLENGE_SCOPE,
      identifier: url.origin,
      // RFC 8414 §3.3: a client must not use a document whose issuer is not the identifier it asked for.
      issuer: opts.wrongIssuer ? `${url.origin}/another-issuer` : url.origin,
      // RFC 9207 §2.4: a client must not send the code on when the response's iss is not its issuer.
      responseIss: opts.wrongIss ? `${url.origin}/not-the-issuer` : opts.wrongIssuer ? `${url.origin}/another-issuer` : url.origin,
      requests: [],
      tokens: [],
    };
  }

  /** Whether an MCP request carries a token this server issued (in the Authorization header, or the query). */
  authorized(headers: Record<string, string>, url: URL): boolean {
    const bearer = /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? '')?.[1];
    const inQuery = url.searchParams.get('access_token') ?? undefined;
    return [bearer, inQuery].some((t) => t !== undefined && this.issued.has(t));
  }

  /** 401 for an MCP request without a token this server issued. */
  refuse(res: ServerResponse, headers: Record<string, string>): void {
    const error = headers.authorization ? 'error="invalid_token", ' : '';
    json(res, 401, { error: 'invalid_token' }, { 'WWW-Authenticate': `Bearer ${error}resource_metadata="${this.log.resourceMetadataUrl}", scope="${CHALLENGE_SCOPE}"` });
  }

  /** Answers the authorization side's own paths; false for anything else (the MCP endpoint, unknown paths). */
  async handle(req: IncomingMessage, res: ServerResponse, url: URL, headers: Record<string, string>, readBody: () => Promise<string | undefined>): Promise<boolean> {
    const method = req.method ?? 'GET';
    const path = url.pathname;
    const ours =
      (method === 'GET' && (path === new URL(this.log.resourceMetadataUrl).pathname || path === PROTECTED_RESOURCE || path === SERVER_METADATA || path === '/authorize' || path.startsWith('/.well-known/'))) ||
      (method === 'POST' && (path === '/register' || path === '/token'));
    if (!ours) return false;
    const text = method === 'POST' ? ((await readBody()) ?? '') : '';
    const body = method === 'POST' ? parseBody(text, headers['content-type'] ?? '') : undefined;
    const seq = this.recorder.record({ dir: 'in', channel: 'http', raw: text || url.search, http: { method, headers: redactHeaders(headers), url: path } }).seq;
    const entry: OAuthRequest = { method, path, query: Object.fromEntries(url.searchParams), status: 0, at: Date.now(), seq };
    if (body) entry.body = body;
    this.log.requests.push(entry);
    const answer = (status: number, payload: unknown, extra: Record<string, string> = {}) => {
      entry.status = status;
      this.recorder.record({ dir: 'out', channel: 'http', raw: typeof payload === 'string' ? payload : JSON.stringify(payload), http: { method, status, headers: extra, url: path } });
      if (status === 302) res.writeHead(302, extra).end();
      else json(res, status, payload, extra);
    };

    if (method === 'GET' && path === new URL(this.log.resourceMetadataUrl).pathname) {
      answer(200, { resource: this.log.resource, authorization_servers: [this.origin], scopes_supported: [CHALLENGE_SCOPE], bearer_methods_supported: ['header'] });
    } else if (method === 'GET' && path === SERVER_METADATA) {
      answer(200, {
        issuer: this.log.issuer,
        authorization_endpoint: `${this.origin}/authorize`,
        token_endpoint: `${this.origin}/token`,
        registration_endpoint: `${this.origin}/register`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
        scopes_supported: [CHALLENGE_SCOPE],
        authorization_response_iss_parameter_supported: true,
      });
    } else if (method === 'POST' && path === '/register') {
      const meta = isObj(body) ? body : {};
      const confidential = meta.token_endpoint_auth_method !== undefined && meta.token_endpoint_auth_method !== 'none';
      answer(201, { ...meta, client_id: token('mcpspec-client'), client_id_issued_at: Math.floor(Date.now() / 1000), ...(confidential ? { client_secret: token('mcpspec-secret'), client_secret_expires_at: 0 } : {}) });
    } else if (method === 'GET' && path === '/authorize') {
      const redirect = url.searchParams.get('redirect_uri');
      let target: URL | undefined;
      try {
        target = redirect ? new URL(redirect) : undefined;
      } catch {
        target = undefined;
      }
      if (!target) {
        answer(400, { error: 'invalid_request', error_description: 'redirect_uri is missing or not a URL' });
        return true;
      }
      const code = token('mcpspec-code');
      this.codes.add(code);
      target.searchParams.set('code', code);
      const state = url.searchParams.get('state');
      if (state !== null) target.searchParams.set('state', state);
      target.searchParams.set('iss', this.log.responseIss);
      entry.code = code;
      answer(302, '', { Location: target.href });
    } else if (method === 'POST' && path === '/token') {
      const grant = body?.grant_type;
      const known = grant === 'authorization_code' ? typeof body?.code === 'string' && this.codes.delete(body.code) : grant === 'refresh_token';
      if (!known) {
        answer(400, { error: 'invalid_grant' });
        return true;
      }
      const access = token('mcpspec-token');
      this.issued.add(access);
      this.log.tokens.push(access);
      answer(200, { access_token: access, token_type: 'Bearer', expires_in: TOKEN_SECONDS, refresh_token: token('mcpspec-refresh'), scope: CHALLENGE_SCOPE });
    } else {
      answer(404, { error: 'not_found' });
    }
    return true;
  }
}

/** A token request is a form; a registration request JSON. */
function parseBody(text: string, contentType: string): Record<string, unknown> | undefined {
  if (contentType.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text));
  const parsed = tryParseJson(text);
  return parsed.ok && isObj(parsed.value) ? parsed.value : undefined;
}
