import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../suites/catalogue.js';
import type { OAuthLog, OAuthRequest } from '../../suites/authorization/authorization-server.js';
import type { Received } from '../../suites/ports/scripted-server.js';
import type { AuthClientObs } from '../../suites/authorization/client-scenarios.js';

const ORIGIN = 'http://127.0.0.1:4000';
const ENDPOINT = `${ORIGIN}/mcp/client-authorization`;
const PRM = '/.well-known/oauth-protected-resource/mcp/client-authorization';
const AS_META = '/.well-known/oauth-authorization-server';
const VERIFIER = 'v'.repeat(43);
const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url');
const TOKEN = 'mcpspec-token-1';

const judge = (id: string, obs: AuthClientObs) => CHECKS.find((c) => c.id === id)!.judge(obs, { era: 'modern', version: '2026-07-28', transport: 'http', capabilities: {} });

let seq = 0;
const req = (method: string, path: string, extra: Partial<OAuthRequest> = {}): OAuthRequest => ({ method, path, query: {}, status: 200, at: ++seq, seq, ...extra });
const mcp = (at: number, headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }, extra: Partial<Received> = {}): Received => ({
  message: { jsonrpc: '2.0', id: at, method: 'tools/list' },
  headers,
  httpMethod: 'POST',
  connection: 0,
  seq: at,
  at,
  ...extra,
});

/** A client that does the whole flow right; each test breaks one thing. */
function good(): AuthClientObs {
  seq = 0;
  const resource = ENDPOINT;
  const requests = [
    req('GET', PRM),
    req('GET', AS_META),
    req('POST', '/register', { status: 201, body: { redirect_uris: ['http://127.0.0.1:1/callback'] } }),
    req('GET', '/authorize', { status: 302, code: 'code-1', query: { response_type: 'code', code_challenge: CHALLENGE, code_challenge_method: 'S256', resource, scope: 'mcp:tools', state: 's' } }),
    req('POST', '/token', { body: { grant_type: 'authorization_code', code: 'code-1', code_verifier: VERIFIER, resource } }),
  ];
  const oauth: OAuthLog = { resource, resourceMetadataUrl: `${ORIGIN}${PRM}`, serverMetadataUrl: `${ORIGIN}${AS_META}`, scope: 'mcp:tools', issuer: ORIGIN, identifier: ORIGIN, responseIss: ORIGIN, issAdvertised: true, responseState: 'echo', tokenAuthMethods: ['none', 'client_secret_post', 'client_secret_basic'], publishedResource: resource, requests, tokens: [TOKEN], expired: [], browser: [], registrations: [] };
  return {
    exit: { exitCode: 0, signal: null, timedOut: false, stderrTail: '', stdoutTail: '' },
    received: [mcp(0, {}, { refused: 401 }), mcp(10), mcp(11)],
    transport: 'http',
    log: {} as AuthClientObs['log'],
    oauth,
  };
}

const with_ = (o: AuthClientObs, i: number, patch: Partial<OAuthRequest>): AuthClientObs => {
  const requests = o.oauth.requests.map((r, j) => (j === i ? { ...r, ...patch } : r));
  return { ...o, oauth: { ...o.oauth, requests } };
};

const IDS = ['auth.client-discovery', 'auth.client-pkce', 'auth.client-resource', 'auth.client-bearer', 'auth.client-scope'];

describe('auth.client-* judgements', () => {
  it('a client that does the flow right passes every check', () => {
    for (const id of IDS) expect(judge(id, good()), id).toMatchObject({ outcome: 'holds' });
  });

  it('a client that makes no OAuth request is untestable for every check: authorization is optional', () => {
    const none = { ...good(), oauth: { ...good().oauth, requests: [], tokens: [] }, received: [mcp(0, {}, { refused: 401 })] };
    for (const id of [...IDS, 'auth.client-issuer', 'auth.client-iss', 'auth.client-iss-absent', 'auth.client-iss-optional']) expect(judge(id, none), id).toMatchObject({ outcome: 'untestable', message: expect.stringContaining('made no OAuth request') });
  });

  it('auth.client-discovery: no resource metadata, the server metadata first, or authorizing before reading it fails', () => {
    const o = good();
    expect(judge('auth.client-discovery', { ...o, oauth: { ...o.oauth, requests: o.oauth.requests.slice(1) } })).toMatchObject({ outcome: 'violated', message: expect.stringContaining('never read the Protected Resource Metadata') });
    const swapped = [o.oauth.requests[1], o.oauth.requests[0], ...o.oauth.requests.slice(2)];
    expect(judge('auth.client-discovery', { ...o, oauth: { ...o.oauth, requests: swapped } }).outcome).toBe('violated');
    const early = [o.oauth.requests[0], o.oauth.requests[3], o.oauth.requests[1]];
    expect(judge('auth.client-discovery', { ...o, oauth: { ...o.oauth, requests: early } })).toMatchObject({ outcome: 'violated', message: expect.stringContaining('GET /authorize came before') });
    expect(judge('auth.client-discovery', { ...o, oauth: { ...o.oauth, requests: [o.oauth.requests[0]] } }).outcome).toBe('untestable');
  });

  it('auth.client-pkce: no challenge, plain, no verifier or a verifier that does not match fails', () => {
    const o = good();
    expect(judge('auth.client-pkce', with_(o, 3, { query: { ...o.oauth.requests[3].query, code_challenge_method: 'plain' } })).outcome).toBe('violated');
    expect(judge('auth.client-pkce', with_(o, 3, { query: { resource: ENDPOINT } })).outcome).toBe('violated');
    expect(judge('auth.client-pkce', with_(o, 4, { body: { grant_type: 'authorization_code', code: 'code-1' } }))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('without code_verifier') });
    expect(judge('auth.client-pkce', with_(o, 4, { body: { grant_type: 'authorization_code', code: 'code-1', code_verifier: 'w'.repeat(43) } }))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('does not hash') });
    expect(judge('auth.client-pkce', { ...o, oauth: { ...o.oauth, requests: o.oauth.requests.slice(0, 3) } }).outcome).toBe('untestable');
  });

  it('auth.client-resource: missing or another URI on either request fails', () => {
    const o = good();
    expect(judge('auth.client-resource', with_(o, 4, { body: { grant_type: 'authorization_code', code: 'code-1', code_verifier: VERIFIER } })).outcome).toBe('violated');
    expect(judge('auth.client-resource', with_(o, 3, { query: { ...o.oauth.requests[3].query, resource: ORIGIN } }))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('GET /authorize') });
  });

  it('auth.client-bearer: a request after the token without it, or a token in the query, fails', () => {
    const o = good();
    expect(judge('auth.client-bearer', { ...o, received: [...o.received, mcp(12, {})] })).toMatchObject({ outcome: 'violated', message: expect.stringContaining('1 of 3') });
    expect(judge('auth.client-bearer', { ...o, received: [...o.received, mcp(12, { authorization: 'Bearer another' })] }).outcome).toBe('violated');
    expect(judge('auth.client-bearer', { ...o, received: [...o.received, mcp(12, {}, { query: `?access_token=${TOKEN}` })] })).toMatchObject({ outcome: 'violated', message: expect.stringContaining('URI query') });
    expect(judge('auth.client-bearer', { ...o, received: [o.received[0]] })).toMatchObject({ outcome: 'untestable', message: expect.stringContaining('after it obtained') });
  });

  it('auth.client-scope: another scope or none warns', () => {
    const o = good();
    expect(judge('auth.client-scope', with_(o, 3, { query: { ...o.oauth.requests[3].query, scope: 'openid' } })).outcome).toBe('violated');
    expect(judge('auth.client-scope', with_(o, 3, { query: { code_challenge: CHALLENGE } })).outcome).toBe('violated');
  });

  /** A baseline run that did the whole flow against a correct server, then `judged` (the misbehaving run). */
  const afterBaseline = (o: AuthClientObs, judged: OAuthRequest[], baseline = o.oauth.requests): AuthClientObs => ({ ...o, oauth: { ...o.oauth, requests: [...baseline, ...judged] }, baseline: baseline.length });

  it('auth.client-issuer: using metadata whose issuer differs fails; stopping after reading it holds, unless the baseline went no further either', () => {
    const o = good();
    const wrong = { ...o, oauth: { ...o.oauth, issuer: `${ORIGIN}/another-issuer` } };
    const run = o.oauth.requests;
    expect(judge('auth.client-issuer', afterBaseline(wrong, run))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('POST /register, GET /authorize, POST /token') });
    expect(judge('auth.client-issuer', afterBaseline(wrong, run.slice(0, 2))).outcome).toBe('holds');
    expect(judge('auth.client-issuer', afterBaseline(wrong, run.slice(0, 1))).outcome).toBe('untestable');
    // A client that stops after the metadata even when it is right shows nothing by stopping.
    expect(judge('auth.client-issuer', afterBaseline(wrong, run.slice(0, 2), run.slice(0, 2)))).toMatchObject({ outcome: 'untestable', message: expect.stringContaining('with correct metadata') });
  });

  it('auth.client-pkce-required: going on after metadata without code_challenge_methods_supported fails; stopping holds, unless the baseline stopped too', () => {
    const o = good();
    const run = o.oauth.requests;
    const noPkce = { ...o, oauth: { ...o.oauth, pkceUnadvertised: true } };
    expect(judge('auth.client-pkce-required', afterBaseline(noPkce, run))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('the client went on: POST /register, GET /authorize, POST /token') });
    expect(judge('auth.client-pkce-required', afterBaseline(noPkce, run.slice(0, 2))).outcome).toBe('holds');
    expect(judge('auth.client-pkce-required', afterBaseline(noPkce, run.slice(0, 1))).outcome).toBe('untestable');
    expect(judge('auth.client-pkce-required', afterBaseline(noPkce, run.slice(0, 2), run.slice(0, 2)))).toMatchObject({ outcome: 'untestable', message: expect.stringContaining('with PKCE advertised') });
  });

  it('auth.client-iss: exchanging the code after an authorization response with another iss fails; stopping there holds, unless the baseline never exchanged one either', () => {
    const o = good();
    const forged = { ...o, oauth: { ...o.oauth, responseIss: `${ORIGIN}/not-the-issuer` } };
    const run = o.oauth.requests;
    expect(judge('auth.client-iss', afterBaseline(forged, run))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('sent its code to the token endpoint anyway') });
    expect(judge('auth.client-iss', afterBaseline(forged, run.slice(0, 4))).outcome).toBe('holds');
    expect(judge('auth.client-iss', afterBaseline(forged, run.slice(0, 2))).outcome).toBe('untestable');
    expect(judge('auth.client-iss', afterBaseline(forged, run.slice(0, 4), run.slice(0, 4)))).toMatchObject({ outcome: 'untestable', message: expect.stringContaining('with a correct authorization server') });
  });

  it('the rest of the iss table (absent, unadvertised, trailing slash): an exchange after the response fails, none holds; with nothing said of iss, no exchange fails', () => {
    const o = good();
    const run = o.oauth.requests;
    const rows = {
      'auth.client-iss-absent': { responseIss: undefined },
      'auth.client-iss-unadvertised': { responseIss: `${ORIGIN}/not-the-issuer`, issAdvertised: false },
      'auth.client-iss-exact': { responseIss: `${ORIGIN}/` },
    };
    for (const [id, patch] of Object.entries(rows)) {
      const obs = { ...o, oauth: { ...o.oauth, ...patch } };
      expect(judge(id, afterBaseline(obs, run)), id).toMatchObject({ outcome: 'violated', message: expect.stringContaining('anyway') });
      expect(judge(id, afterBaseline(obs, run.slice(0, 4))).outcome, id).toBe('holds');
      expect(judge(id, afterBaseline(obs, run.slice(0, 4), run.slice(0, 4))).outcome, id).toBe('untestable');
    }
    // A client that opened the browser but whose callback was not listening never saw the response.
    const lost = { ...o, oauth: { ...o.oauth, responseIss: undefined, browser: [{ visited: [`${ORIGIN}/authorize?x=1`, 'http://localhost:9/oauth/callback?code=code-1'], error: 'ECONNREFUSED', seq: 99 }] } };
    expect(judge('auth.client-iss-absent', afterBaseline(lost, run.slice(0, 4)))).toMatchObject({ outcome: 'untestable', message: expect.stringContaining('never reached the client: the browser could not load its callback http://localhost:9/oauth/callback (ECONNREFUSED)') });
    const delivered = { ...lost, oauth: { ...lost.oauth, browser: [{ visited: lost.oauth.browser[0].visited, status: 400, seq: 99 }] } };
    expect(judge('auth.client-iss-absent', afterBaseline(delivered, run.slice(0, 4))).outcome).toBe('holds');
    const silent = { ...o, oauth: { ...o.oauth, responseIss: undefined, issAdvertised: false } };
    expect(judge('auth.client-iss-optional', afterBaseline(silent, run)).outcome).toBe('holds');
    expect(judge('auth.client-iss-optional', afterBaseline(silent, run.slice(0, 4)))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('must go on') });
    expect(judge('auth.client-iss-optional', afterBaseline(silent, run.slice(0, 2))).outcome).toBe('untestable');
    expect(judge('auth.client-iss-optional', afterBaseline(silent, run.slice(0, 4), run.slice(0, 4))).outcome).toBe('untestable');
  });

  it('auth.client-refresh-resource and -grant: a refresh with resource, by a client registered for refresh_token, holds', () => {
    const o = good();
    const expiring = (refreshBody: Record<string, unknown> | undefined, grantTypes?: unknown): AuthClientObs => {
      const requests = o.oauth.requests.map((r) => (r.path === '/register' ? { ...r, body: { ...r.body, ...(grantTypes === undefined ? {} : { grant_types: grantTypes }) } } : r));
      if (refreshBody) requests.push(req('POST', '/token', { body: { grant_type: 'refresh_token', refresh_token: 'rt-1', ...refreshBody } }));
      return { ...o, oauth: { ...o.oauth, requests, expired: [{ token: TOKEN, seq: 20 }] } };
    };
    const both = ['authorization_code', 'refresh_token'];
    expect(judge('auth.client-refresh-resource', expiring({ resource: ENDPOINT }, both))).toMatchObject({ outcome: 'holds', message: `1 refresh request(s), each with resource ${ENDPOINT}` });
    expect(judge('auth.client-refresh-resource', expiring({}, both))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('(resource absent)') });
    expect(judge('auth.client-refresh-resource', expiring({ resource: 'http://127.0.0.1:4000/' }, both)).outcome).toBe('violated');
    expect(judge('auth.client-refresh-resource', expiring(undefined))).toMatchObject({ outcome: 'untestable', message: expect.stringContaining('did not refresh its expired token') });
    expect(judge('auth.client-refresh-resource', o)).toMatchObject({ outcome: 'untestable', message: expect.stringContaining('no token expired') });
    expect(judge('auth.client-refresh-grant', expiring({ resource: ENDPOINT }, both)).outcome).toBe('holds');
    expect(judge('auth.client-refresh-grant', expiring({ resource: ENDPOINT }, ['authorization_code']))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('["authorization_code"], without refresh_token') });
    expect(judge('auth.client-refresh-grant', expiring({ resource: ENDPOINT }))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('absent (["authorization_code"] by default, RFC 7591)') });
    expect(judge('auth.client-refresh-grant', expiring(undefined)).outcome).toBe('untestable');
  });

  it('auth.client-scope-authoritative: every challenged scope asked for holds, extra ones too; one left out fails, and says when the metadata does not list it', () => {
    const o = good();
    const unlisted = (scope: string | undefined): AuthClientObs => {
      const x = with_(o, 3, { query: { ...o.oauth.requests[3].query, ...(scope === undefined ? {} : { scope }) } });
      if (scope === undefined) delete x.oauth.requests[3].query.scope;
      return { ...x, oauth: { ...x.oauth, scope: 'mcp:tools mcp:admin', scopesSupported: ['mcp:tools', 'mcp:read'] } };
    };
    expect(judge('auth.client-scope-authoritative', unlisted('mcp:admin mcp:tools'))).toMatchObject({ outcome: 'holds', message: expect.stringContaining('every challenged scope') });
    expect(judge('auth.client-scope-authoritative', unlisted('mcp:tools mcp:admin mcp:read')).outcome).toBe('holds');
    expect(judge('auth.client-scope-authoritative', unlisted('mcp:tools'))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('leaving out mcp:admin (not in scopes_supported ["mcp:tools","mcp:read"]') });
    expect(judge('auth.client-scope-authoritative', unlisted(undefined))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('asks for no scope') });
  });

  it('auth.client-redirect-https: loopback or HTTPS redirect URIs hold; plain HTTP elsewhere, or another scheme, fails', () => {
    const o = good();
    const redirecting = (registered: string[], authorizing?: string): AuthClientObs =>
      with_(with_(o, 2, { body: { redirect_uris: registered } }), 3, { query: { ...o.oauth.requests[3].query, ...(authorizing ? { redirect_uri: authorizing } : {}) } });
    expect(judge('auth.client-redirect-https', redirecting(['http://127.0.0.1:1/callback'], 'http://127.0.0.1:1/callback'))).toMatchObject({ outcome: 'holds', message: 'redirect URI http://127.0.0.1:1/callback' });
    expect(judge('auth.client-redirect-https', redirecting(['http://localhost:8090/cb', 'https://app.example/cb'])).outcome).toBe('holds');
    expect(judge('auth.client-redirect-https', redirecting(['http://[::1]:8090/cb'])).outcome).toBe('holds');
    expect(judge('auth.client-redirect-https', redirecting(['http://app.example/cb']))).toMatchObject({ outcome: 'violated', message: 'redirect URI http://app.example/cb (registered) is neither on localhost nor HTTPS' });
    expect(judge('auth.client-redirect-https', redirecting(['https://app.example/cb'], 'http://app.example/cb'))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('(authorization request)') });
    expect(judge('auth.client-redirect-https', redirecting(['com.example.app:/oauth'])).outcome).toBe('violated');
    const none = good();
    none.oauth.requests = none.oauth.requests.filter((r) => r.path !== '/register');
    expect(judge('auth.client-redirect-https', none).outcome).toBe('untestable');
  });

  it('auth.client-state: every authorization request with a state holds; one without warns', () => {
    const o = good();
    expect(judge('auth.client-state', o)).toMatchObject({ outcome: 'holds', message: 'state on the authorization request' });
    const { state: _dropped, ...noState } = o.oauth.requests[3].query;
    expect(judge('auth.client-state', with_(o, 3, { query: noState }))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('no state parameter') });
  });

  it('auth.client-state-mismatch and -missing: an exchange after the response warns, none holds; a request without state has nothing to verify', () => {
    const o = good();
    const run = o.oauth.requests;
    for (const [id, responseState] of [['auth.client-state-mismatch', 'another'], ['auth.client-state-missing', 'absent']] as const) {
      const obs = { ...o, oauth: { ...o.oauth, responseState } };
      expect(judge(id, afterBaseline(obs, run)), id).toMatchObject({ outcome: 'violated', message: expect.stringContaining(responseState === 'absent' ? 'had no state, the request having had state=s' : 'had state=s-not-yours') });
      expect(judge(id, afterBaseline(obs, run.slice(0, 4))).outcome, id).toBe('holds');
      expect(judge(id, afterBaseline(obs, run.slice(0, 4), run.slice(0, 4))).outcome, id).toBe('untestable');
      const { state: _dropped, ...noState } = run[3].query;
      const stateless = run.map((r, i) => (i === 3 ? { ...r, query: noState } : r));
      expect(judge(id, afterBaseline(obs, stateless, run)), id).toMatchObject({ outcome: 'untestable', message: expect.stringContaining('sent no state') });
    }
  });

  it('auth.client-redirect-registered: a registered redirect_uri holds; another, or none where several were registered, fails; no registration is untestable', () => {
    const o = good();
    const REDIRECT = 'http://127.0.0.1:1/callback';
    const authorizing = (query: Record<string, string>, registered: unknown[] = [REDIRECT]): AuthClientObs => ({
      ...o,
      oauth: {
        ...o.oauth,
        registrations: [{ clientId: 'client-1', server: ORIGIN, seq: 3 }],
        requests: o.oauth.requests.map((r) => (r.path === '/register' ? { ...r, body: { redirect_uris: registered } } : r.path === '/authorize' ? { ...r, query: { ...r.query, client_id: 'client-1', ...query } } : r)),
      },
    });
    expect(judge('auth.client-redirect-registered', authorizing({ redirect_uri: REDIRECT }))).toMatchObject({ outcome: 'holds', message: `redirect_uri ${REDIRECT}, registered with client_id client-1` });
    expect(judge('auth.client-redirect-registered', authorizing({ redirect_uri: `${REDIRECT}/elsewhere` }))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('is not one the client registered') });
    // Compared exactly: a trailing slash is another URI.
    expect(judge('auth.client-redirect-registered', authorizing({ redirect_uri: `${REDIRECT}/` })).outcome).toBe('violated');
    expect(judge('auth.client-redirect-registered', authorizing({})).outcome).toBe('holds');
    expect(judge('auth.client-redirect-registered', authorizing({}, [REDIRECT, 'http://localhost:2/cb']))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('registered 2 redirect URIs') });
    expect(judge('auth.client-redirect-registered', o)).toMatchObject({ outcome: 'untestable', message: expect.stringContaining('registered dynamically') });
  });

  it('auth.client-prm-well-known and auth.client-as-well-known: the well-known URIs, in their order', () => {
    const o = good();
    const TENANT = `${ORIGIN}/tenant`;
    seq = 0;
    const wk = (reqs: OAuthRequest[]): AuthClientObs => ({ ...o, oauth: { ...o.oauth, identifier: TENANT, issuer: TENANT, serverMetadataUrl: `${ORIGIN}/.well-known/openid-configuration/tenant`, requests: reqs } });
    const ROOT = '/.well-known/oauth-protected-resource';
    const OAUTH = '/.well-known/oauth-authorization-server/tenant';
    const OIDC = '/.well-known/openid-configuration/tenant';
    const APPENDED = '/tenant/.well-known/openid-configuration';
    const right = [req('GET', PRM), req('GET', OAUTH, { status: 404 }), req('GET', OIDC), req('POST', '/register', { status: 201 })];
    expect(judge('auth.client-prm-well-known', wk(right))).toMatchObject({ outcome: 'holds' });
    expect(judge('auth.client-as-well-known', wk(right))).toMatchObject({ outcome: 'holds', message: expect.stringContaining(`then read ${OIDC}`) });
    expect(judge('auth.client-prm-well-known', wk([req('GET', ROOT, { status: 404 }), ...right]))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('before the one with the endpoint\'s path inserted') });
    expect(judge('auth.client-prm-well-known', wk([req('GET', '/.well-known/oauth-authorization-server', { status: 404 })]))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('requested neither well-known URI') });
    // OAuth metadata only: never OpenID Connect; OpenID Connect first; path appended before inserted.
    expect(judge('auth.client-as-well-known', wk([req('GET', PRM), req('GET', OAUTH, { status: 404 })]))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('never requested it') });
    expect(judge('auth.client-as-well-known', wk([req('GET', PRM), req('GET', OIDC)]))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('without first trying') });
    expect(judge('auth.client-as-well-known', wk([req('GET', PRM), req('GET', OAUTH, { status: 404 }), req('GET', APPENDED, { status: 404 }), req('GET', OIDC)]))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('(path appended) before') });
    expect(judge('auth.client-as-well-known', wk([req('GET', ROOT, { status: 404 })]))).toMatchObject({ outcome: 'untestable' });
  });

  it('auth.client-as-oidc: for an issuer without a path, OAuth 2.0 metadata first, then OpenID Connect discovery', () => {
    const o = good();
    seq = 0;
    const OAUTH = '/.well-known/oauth-authorization-server';
    const OIDC = '/.well-known/openid-configuration';
    const oidc = (reqs: OAuthRequest[]): AuthClientObs => ({ ...o, oauth: { ...o.oauth, serverMetadataUrl: `${ORIGIN}${OIDC}`, requests: reqs } });
    expect(judge('auth.client-as-oidc', oidc([req('GET', PRM), req('GET', OAUTH, { status: 404 }), req('GET', OIDC)]))).toMatchObject({ outcome: 'holds', message: `tried ${OAUTH} (404), then read ${OIDC}` });
    expect(judge('auth.client-as-oidc', oidc([req('GET', PRM), req('GET', OAUTH, { status: 404 })]))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('never requested it; it tried: /.well-known/oauth-authorization-server') });
    expect(judge('auth.client-as-oidc', oidc([req('GET', PRM), req('GET', OIDC), req('GET', OAUTH, { status: 404 })]))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('without first trying') });
    expect(judge('auth.client-as-oidc', oidc([req('GET', '/.well-known/oauth-protected-resource', { status: 404 })])).outcome).toBe('untestable');
  });

  it('auth.client-scope-supported and auth.client-scope-omitted: without a challenged scope, all of scopes_supported, or none at all', () => {
    const o = good();
    const withScope = (scope: string | undefined, scopesSupported?: string[]): AuthClientObs => {
      const requests = o.oauth.requests.map((r) => (r.path === '/authorize' ? { ...r, query: Object.fromEntries(Object.entries({ ...r.query, scope }).filter(([, v]) => v !== undefined)) as Record<string, string> } : r));
      return { ...o, oauth: { ...o.oauth, scope: undefined, scopesSupported, requests } };
    };
    expect(judge('auth.client-scope-supported', withScope('mcp:tools mcp:read', ['mcp:tools', 'mcp:read'])).outcome).toBe('holds');
    expect(judge('auth.client-scope-supported', withScope('mcp:tools', ['mcp:tools', 'mcp:read']))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('(without mcp:read)') });
    expect(judge('auth.client-scope-supported', withScope(undefined, ['mcp:tools', 'mcp:read']))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('asks for no scope') });
    expect(judge('auth.client-scope-omitted', withScope(undefined)).outcome).toBe('holds');
    expect(judge('auth.client-scope-omitted', withScope('mcp'))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('asks for scope "mcp"') });
    expect(judge('auth.client-scope', withScope('x'))).toMatchObject({ outcome: 'untestable', message: 'the challenge named no scope' });
  });

  it('auth.client-prm-resource: going on to the authorization server after metadata about another resource fails; stopping holds, unless the baseline stopped too', () => {
    const o = good();
    const other = { ...o, oauth: { ...o.oauth, prmResource: `${ORIGIN}/mcp/another-server` } };
    const run = o.oauth.requests;
    expect(judge('auth.client-prm-resource', afterBaseline(other, run))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('it lists: POST /register, GET /authorize') });
    expect(judge('auth.client-prm-resource', afterBaseline(other, run.slice(0, 1))).outcome).toBe('holds');
    expect(judge('auth.client-prm-resource', afterBaseline(other, run.slice(0, 2)))).toMatchObject({ outcome: 'holds', message: expect.stringContaining('after reading its authorization server\'s metadata') });
    expect(judge('auth.client-prm-resource', afterBaseline(other, run.slice(0, 1), run.slice(0, 2))).outcome).toBe('untestable');
    expect(judge('auth.client-prm-resource', afterBaseline(other, [run[1]])).outcome).toBe('untestable');
  });

  it('auth.client-as-binding: the old client_id at the new authorization server fails; registering there anew holds', () => {
    const o = good();
    const AS2 = `${ORIGIN}/as2`;
    const moved = (judged: OAuthRequest[], registrations = [{ clientId: 'client-1', server: ORIGIN, seq: 3 }]): AuthClientObs => ({
      ...o,
      oauth: { ...o.oauth, identifier: AS2, issuer: AS2, requests: [...o.oauth.requests, ...judged], registrations },
      baseline: o.oauth.requests.length,
    });
    seq = 10;
    const fresh = [req('GET', PRM), req('GET', `${AS_META}/as2`), req('POST', '/as2/register', { status: 201 }), req('GET', '/as2/authorize', { clientId: 'client-2' }), req('POST', '/as2/token', { clientId: 'client-2' })];
    expect(judge('auth.client-as-binding', moved(fresh, [{ clientId: 'client-1', server: ORIGIN, seq: 3 }, { clientId: 'client-2', server: AS2, seq: 13 }]))).toMatchObject({ outcome: 'holds', message: expect.stringContaining('registered anew') });
    seq = 10;
    const reused = [req('GET', PRM), req('GET', `${AS_META}/as2`), req('GET', '/as2/authorize', { clientId: 'client-1' }), req('POST', '/as2/token', { body: { client_id: 'client-1' }, clientId: 'client-1' })];
    expect(judge('auth.client-as-binding', moved(reused))).toMatchObject({ outcome: 'violated', message: expect.stringContaining(`client_id client-1, registered at ${ORIGIN}, to the new authorization server ${AS2}`) });
    seq = 10;
    expect(judge('auth.client-as-binding', moved([req('GET', PRM)]))).toMatchObject({ outcome: 'untestable', message: expect.stringContaining('did not go on') });
    expect(judge('auth.client-as-binding', moved(fresh, []))).toMatchObject({ outcome: 'untestable', message: expect.stringContaining('did not register') });
  });

  it('auth.client-token-auth: registered for client_secret_basic, HTTP Basic with the issued secret holds; the secret in the form, none, or a wrong one fails', () => {
    const o = good();
    const reg = { clientId: 'client-1', server: ORIGIN, seq: 3, secret: 'se cret', method: 'client_secret_basic' };
    const withToken = (patch: Partial<OAuthRequest>, registrations = [reg]): AuthClientObs => ({
      ...o,
      oauth: { ...o.oauth, registrations, requests: o.oauth.requests.map((r) => (r.path === '/token' ? { ...r, clientId: 'client-1', ...patch } : r)) },
    });
    expect(judge('auth.client-token-auth', withToken({ basic: { id: 'client-1', secret: 'se cret' } })).outcome).toBe('holds');
    expect(judge('auth.client-token-auth', withToken({ body: { grant_type: 'authorization_code', client_id: 'client-1', client_secret: 'se cret' } }))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('client_secret_post') });
    expect(judge('auth.client-token-auth', withToken({}))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('no client authentication') });
    expect(judge('auth.client-token-auth', withToken({ basic: { id: 'client-1', secret: 'se+cret' } }))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('not form-urlencoded') });
    expect(judge('auth.client-token-auth', withToken({ basic: { id: 'client-1', secret: 'se cret' }, body: { grant_type: 'authorization_code', client_secret: 'se cret' } }))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('both in HTTP Basic and in the form') });
    expect(judge('auth.client-token-auth', withToken({}, []))).toMatchObject({ outcome: 'untestable' });
  });

  it('auth.client-cimd: a metadata document URL as client_id holds; a registered client_id, or a URL that is not HTTPS with a path, warns', () => {
    const o = good();
    const withClientId = (clientId: string, registrations = [] as AuthClientObs['oauth']['registrations']): AuthClientObs => ({
      ...o,
      oauth: { ...o.oauth, registrations, requests: o.oauth.requests.map((r) => (r.path === '/authorize' ? { ...r, query: { ...r.query, client_id: clientId } } : r)) },
    });
    expect(judge('auth.client-cimd', withClientId('https://app.example/oauth/client.json'))).toMatchObject({ outcome: 'holds' });
    expect(judge('auth.client-cimd', withClientId('client-1', [{ clientId: 'client-1', server: ORIGIN, seq: 3 }]))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('registered dynamically') });
    expect(judge('auth.client-cimd', withClientId('http://app.example/client.json'))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('not an HTTPS URL with a path') });
    expect(judge('auth.client-cimd', withClientId('https://app.example/'))).toMatchObject({ outcome: 'violated' });
  });

  it('auth.client-application-type: "native" or "web" in the registration holds; absent or another value fails; no registration is untestable', () => {
    const register = (body: Record<string, unknown> | undefined): AuthClientObs => with_(good(), 2, { body });
    const loopback = ['http://127.0.0.1:1/callback'];
    expect(judge('auth.client-application-type', register({ redirect_uris: loopback, application_type: 'native' }))).toMatchObject({ outcome: 'holds', message: 'application_type "native"' });
    expect(judge('auth.client-application-type', register({ redirect_uris: loopback, application_type: 'web' })).outcome).toBe('holds');
    expect(judge('auth.client-application-type', register({ redirect_uris: loopback }))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('no application_type') });
    expect(judge('auth.client-application-type', register({ redirect_uris: loopback, application_type: 'desktop' }))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('"desktop", neither') });
    const unregistered = good();
    unregistered.oauth.requests = unregistered.oauth.requests.filter((r) => r.path !== '/register');
    expect(judge('auth.client-application-type', unregistered)).toMatchObject({ outcome: 'untestable', message: 'the client did not register dynamically' });
  });

  it('auth.client-application-type-fit: loopback or custom-scheme redirects want "native", a non-local host "web"; mixed either', () => {
    const register = (redirect_uris: string[], application_type?: string): AuthClientObs => with_(good(), 2, { body: { redirect_uris, ...(application_type ? { application_type } : {}) } });
    expect(judge('auth.client-application-type-fit', register(['http://127.0.0.1:1/callback'], 'native')).outcome).toBe('holds');
    expect(judge('auth.client-application-type-fit', register(['http://localhost:8090/cb', 'http://[::1]:8090/cb'], 'native')).outcome).toBe('holds');
    expect(judge('auth.client-application-type-fit', register(['com.example.app:/oauth'], 'native')).outcome).toBe('holds');
    expect(judge('auth.client-application-type-fit', register(['https://app.example/callback'], 'web')).outcome).toBe('holds');
    expect(judge('auth.client-application-type-fit', register(['http://127.0.0.1:1/callback'], 'web'))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('a native application ("native")') });
    expect(judge('auth.client-application-type-fit', register(['https://app.example/callback'], 'native'))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('a web application') });
    expect(judge('auth.client-application-type-fit', register(['https://app.example/callback', 'http://localhost/cb'], 'web')).outcome).toBe('holds');
    expect(judge('auth.client-application-type-fit', register(['http://127.0.0.1:1/callback']))).toMatchObject({ outcome: 'untestable', message: expect.stringContaining('auth.client-application-type judges that') });
  });

  it('auth.client-step-up: authorizing again for the union and retrying holds; a refresh only, a narrower scope, or no retry warns; a step-up whose response never reached the client is untestable', () => {
    const o = good();
    const stepUp = (extra: OAuthRequest[], after: Received[] = []): AuthClientObs => ({
      ...o,
      oauth: { ...o.oauth, stepUpScope: 'mcp:write', requests: [...o.oauth.requests, ...extra] },
      received: [...o.received, mcp(20, { authorization: `Bearer ${TOKEN}` }, { refused: 403, message: { jsonrpc: '2.0', id: 20, method: 'tools/call' } }), ...after],
    });
    const reauthorize = (scope: string) => req('GET', '/authorize', { status: 302, code: 'code-2', query: { scope } });
    seq = 20;
    const good2 = stepUp([reauthorize('mcp:tools mcp:write'), req('POST', '/token', { body: { grant_type: 'authorization_code', code: 'code-2' } })], [mcp(30, { authorization: 'Bearer mcpspec-token-2' }, { message: { jsonrpc: '2.0', id: 21, method: 'tools/call' } })]);
    expect(judge('auth.client-step-up', good2)).toMatchObject({ outcome: 'holds' });
    seq = 20;
    expect(judge('auth.client-step-up', stepUp([req('POST', '/token', { body: { grant_type: 'refresh_token' } })]))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('only refreshed') });
    seq = 20;
    expect(judge('auth.client-step-up', stepUp([reauthorize('mcp:write')]))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('without mcp:tools') });
    seq = 20;
    expect(judge('auth.client-step-up', stepUp([reauthorize('mcp:tools mcp:write')]))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('never exchanged') });
    seq = 20;
    expect(judge('auth.client-step-up', stepUp([reauthorize('mcp:tools mcp:write'), req('POST', '/token', { body: { grant_type: 'authorization_code', code: 'code-2' } })]))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('did not send the refused call again') });
    expect(judge('auth.client-step-up', o)).toMatchObject({ outcome: 'untestable' });
    // One authorization opened four times (each opener the client knows) while its callback was down:
    // one authorization whose response never arrived, not four.
    seq = 20;
    const reopened = [1, 2, 3, 4].map((n) => req('GET', '/authorize', { status: 302, code: `code-r${n}`, query: { scope: 'mcp:tools mcp:write', state: 'same' } }));
    const down = stepUp(reopened);
    down.oauth.browser = [1, 2, 3, 4].map((n) => ({ visited: [`${ORIGIN}/authorize`, `http://localhost:7/oauth/callback?code=code-r${n}&state=same`], error: 'ECONNREFUSED', seq: 40 + n }));
    // Its response never reached the client (the callback refused every load of mcpspec's browser): what it
    // would do with the code cannot show, so no verdict either way.
    expect(judge('auth.client-step-up', down)).toMatchObject({ outcome: 'untestable', message: expect.stringMatching(/scope "mcp:tools mcp:write"\), but its response never reached the client: the browser could not load its callback http:\/\/localhost:7\/oauth\/callback \(ECONNREFUSED\); whether it would exchange the code and retry cannot show$/) });
    // Delivered (the callback answered) and still never exchanged: a warn, as before.
    seq = 20;
    const answered = stepUp(reopened.slice(0, 1));
    answered.oauth.browser = [{ visited: [`${ORIGIN}/authorize`, 'http://localhost:7/oauth/callback?code=code-r1&state=same'], status: 200, seq: 41 }];
    expect(judge('auth.client-step-up', answered)).toMatchObject({ outcome: 'violated', message: 'the client asked for the step-up authorization but never exchanged its code for a new token' });
    // Delivered once among several loads of the same authorization: it did receive a response.
    seq = 20;
    const once = stepUp(reopened.slice(0, 2));
    once.oauth.browser = [{ visited: [`${ORIGIN}/authorize`, 'http://localhost:7/oauth/callback?code=code-r1&state=same'], error: 'ECONNREFUSED', seq: 41 }, { visited: [`${ORIGIN}/authorize`, 'http://localhost:7/oauth/callback?code=code-r2&state=same'], status: 200, seq: 42 }];
    expect(judge('auth.client-step-up', once)).toMatchObject({ outcome: 'violated', message: expect.stringContaining('never exchanged its code') });
    seq = 20;
    const fresh = [1, 2, 3, 4].map((n) => req('GET', '/authorize', { status: 302, code: `code-f${n}`, query: { scope: 'mcp:tools mcp:write', state: `s${n}` } }));
    expect(judge('auth.client-step-up', stepUp(fresh))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('authorized 4 more times') });
  });

  it('auth.client-token-auth-post and -none: the registered method holds; HTTP Basic, no or a wrong secret, or a secret for a public client fails', () => {
    const o = good();
    const withToken = (patch: Partial<OAuthRequest>, registrations: AuthClientObs['oauth']['registrations']): AuthClientObs => ({
      ...o,
      oauth: { ...o.oauth, registrations, requests: o.oauth.requests.map((r) => (r.path === '/token' ? { ...r, clientId: 'client-1', ...patch } : r)) },
    });
    const post = [{ clientId: 'client-1', server: ORIGIN, seq: 3, secret: 's3', method: 'client_secret_post' }];
    const form = (extra: Record<string, unknown>) => ({ body: { grant_type: 'authorization_code', code: 'code-1', ...extra } });
    expect(judge('auth.client-token-auth-post', withToken(form({ client_id: 'client-1', client_secret: 's3' }), post)).outcome).toBe('holds');
    expect(judge('auth.client-token-auth-post', withToken({ basic: { id: 'client-1', secret: 's3' } }, post))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('HTTP Basic (client_secret_basic), a method the authorization server does not list') });
    expect(judge('auth.client-token-auth-post', withToken(form({ client_id: 'client-1' }), post))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('no client authentication') });
    expect(judge('auth.client-token-auth-post', withToken(form({ client_id: 'client-1', client_secret: 'other' }), post))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('not the one issued') });
    expect(judge('auth.client-token-auth-post', withToken(form({ client_secret: 's3' }), post))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('without its client_id in the form') });
    expect(judge('auth.client-token-auth-post', withToken(form({}), []))).toMatchObject({ outcome: 'untestable' });
    // A confidential registration is not judged as a public one, and the reverse.
    expect(judge('auth.client-token-auth-none', withToken(form({ client_id: 'client-1', client_secret: 's3' }), post))).toMatchObject({ outcome: 'untestable' });
    const pub = [{ clientId: 'client-1', server: ORIGIN, seq: 3 }];
    expect(judge('auth.client-token-auth-none', withToken(form({ client_id: 'client-1' }), pub)).outcome).toBe('holds');
    expect(judge('auth.client-token-auth-none', withToken({ basic: { id: 'client-1', secret: '' } }, pub))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('HTTP Basic credentials (an empty secret) although the client is registered as a public client') });
    expect(judge('auth.client-token-auth-none', withToken(form({ client_id: 'client-1', client_secret: 'x' }), pub))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('client_secret in the form although none was issued') });
    expect(judge('auth.client-token-auth-none', withToken(form({}), pub))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('without client_id in the form') });
    expect(judge('auth.client-token-auth-none', withToken({ clientId: 'another' }, pub))).toMatchObject({ outcome: 'untestable', message: expect.stringContaining('no token request as the client it registered') });
    // Evidence never carries a secret.
    const ev = judge('auth.client-token-auth-post', withToken({ basic: { id: 'client-1', secret: 's3' } }, post));
    expect(JSON.stringify(ev)).not.toContain('s3"');
  });

  it('auth.client-pre-registered: authorizing and authenticating as the pre-registered client holds; another client_id, or the secret not in HTTP Basic, warns; no flow is untestable', () => {
    const o = good();
    const pre = { clientId: 'pre-1', secret: 'pre-secret' };
    const flow = (authorizeAs: string, token: Partial<OAuthRequest>): AuthClientObs => ({
      ...o,
      oauth: {
        ...o.oauth,
        preRegistered: pre,
        requests: o.oauth.requests.filter((r) => r.path !== '/register').map((r) => (r.path === '/authorize' ? { ...r, clientId: authorizeAs, query: { ...r.query, client_id: authorizeAs } } : r.path === '/token' ? { ...r, ...token } : r)),
      },
    });
    expect(judge('auth.client-pre-registered', flow('pre-1', { clientId: 'pre-1', basic: { id: 'pre-1', secret: 'pre-secret' } })).outcome).toBe('holds');
    expect(judge('auth.client-pre-registered', flow('mine', { clientId: 'mine' }))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('presents client_id mine, not the pre-registered pre-1') });
    expect(judge('auth.client-pre-registered', flow('pre-1', { clientId: 'pre-1', body: { grant_type: 'authorization_code', client_id: 'pre-1', client_secret: 'pre-secret' } }))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('the secret in the form') });
    expect(judge('auth.client-pre-registered', flow('pre-1', { clientId: 'pre-1', basic: { id: 'pre-1', secret: 'wrong' } }))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('another secret') });
    const nothing = { ...o, oauth: { ...o.oauth, preRegistered: pre, requests: o.oauth.requests.slice(0, 3).map((r) => (r.path === '/register' ? { ...r, status: 404 } : r)) } };
    expect(judge('auth.client-pre-registered', nothing)).toMatchObject({ outcome: 'untestable', message: expect.stringMatching(/registration request, to an endpoint the metadata does not name: HTTP 404.*MCPSPEC_CLIENT_CREDENTIALS/) });
  });

  it('auth.client-step-up-limit: three authorizations in all, then an exit, holds; a fourth warns; no step-up, or a client still running at the timeout, is untestable', () => {
    const o = good();
    const refusedCall = (at: number) => mcp(at, { authorization: `Bearer ${TOKEN}` }, { refused: 403, message: { jsonrpc: '2.0', id: at, method: 'tools/call' } });
    const run = (stepUps: number, exit: Partial<AuthClientObs['exit']> = {}): AuthClientObs => {
      seq = 20;
      const again = Array.from({ length: stepUps }, (_, n) => req('GET', '/authorize', { status: 302, code: `code-s${n}`, query: { scope: 'mcp:tools mcp:write', state: `s${n}` } }));
      return { ...o, exit: { ...o.exit, ...exit }, oauth: { ...o.oauth, stepUpScope: 'mcp:write', stepUpNever: true, requests: [...o.oauth.requests, ...again] }, received: [...o.received, refusedCall(15), refusedCall(40)] };
    };
    expect(judge('auth.client-step-up-limit', run(2))).toMatchObject({ outcome: 'holds', message: expect.stringContaining('authorized 3 time(s), 2 after the first 403, then stopped') });
    expect(judge('auth.client-step-up-limit', run(3))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('authorized 4 time(s)') });
    // A client stopped at the timeout is judged on what it did, never on the time: four is too many all the same.
    expect(judge('auth.client-step-up-limit', run(3, { timedOut: true })).outcome).toBe('violated');
    expect(judge('auth.client-step-up-limit', run(2, { timedOut: true }))).toMatchObject({ outcome: 'untestable', message: expect.stringContaining('still running') });
    expect(judge('auth.client-step-up-limit', run(0))).toMatchObject({ outcome: 'untestable', message: expect.stringContaining('did not authorize again') });
    expect(judge('auth.client-step-up-limit', o)).toMatchObject({ outcome: 'untestable', message: expect.stringContaining('no 403') });
  });

  it('auth.client-offline-access: no offline_access where the metadata does not list it holds; asking for it warns; a metadata listing it is untestable', () => {
    const o = good();
    expect(judge('auth.client-offline-access', { ...o, oauth: { ...o.oauth, scopesSupported: ['mcp:tools'] } }).outcome).toBe('holds');
    const asked = with_({ ...o, oauth: { ...o.oauth, scopesSupported: ['mcp:tools'] } }, 3, { query: { ...o.oauth.requests[3].query, scope: 'mcp:tools offline_access' } });
    expect(judge('auth.client-offline-access', asked)).toMatchObject({ outcome: 'violated', message: expect.stringContaining('scopes_supported is ["mcp:tools"], without offline_access, and 1 of 2') });
    const inToken = with_(o, 4, { body: { ...o.oauth.requests[4].body, scope: 'offline_access' } });
    expect(judge('auth.client-offline-access', inToken).outcome).toBe('violated');
    expect(judge('auth.client-offline-access', { ...asked, oauth: { ...asked.oauth, scopesSupported: ['mcp:tools', 'offline_access'] } }).outcome).toBe('untestable');
  });

  it('auth.client-resource-exact: the published resource sent as it is holds; a trailing slash added to an origin, or none, warns', () => {
    const o = good();
    const rooted = (resource: string | undefined): AuthClientObs => ({
      ...o,
      oauth: {
        ...o.oauth,
        publishedResource: ORIGIN,
        requests: o.oauth.requests.map((r) => (r.path === '/authorize' ? { ...r, query: { ...r.query, resource: resource as string } } : r.path === '/token' ? { ...r, body: { ...r.body, resource } } : r)),
      },
    });
    expect(judge('auth.client-resource-exact', rooted(ORIGIN))).toMatchObject({ outcome: 'holds', message: expect.stringContaining(`resource "${ORIGIN}" exactly as published`) });
    expect(judge('auth.client-resource-exact', rooted(`${ORIGIN}/`))).toMatchObject({ outcome: 'violated', message: expect.stringContaining(`publishes resource "${ORIGIN}", and 2 of 2 authorization/token requests send "${ORIGIN}/" (first, GET /authorize): the same URL after normalisation`) });
    expect(judge('auth.client-resource-exact', rooted(undefined))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('send no resource') });
    // The endpoint's own URL where the metadata published the origin: another resource, not a normalisation.
    expect(judge('auth.client-resource-exact', rooted(ENDPOINT)).message).not.toContain('normalisation');
    expect(judge('auth.client-resource-exact', { ...o, oauth: { ...o.oauth, requests: o.oauth.requests.slice(0, 3) } })).toMatchObject({ outcome: 'untestable' });
  });

  it('auth.client-iss-match: exchanging the code after a matching, advertised iss holds; refusing it while proceeding without iss fails; a flow that stops anyway is untestable', () => {
    const o = good();
    // The baseline (a matching iss) is the five requests of good(); the judged run (no iss) follows.
    const run = (baselineExchange: boolean, judgedExchange: boolean): AuthClientObs => {
      const base = o.oauth.requests.filter((r) => baselineExchange || r.path !== '/token');
      seq = 30;
      const judged = [req('GET', '/authorize', { status: 302, code: 'code-9', query: { state: 't' } }), ...(judgedExchange ? [req('POST', '/token', { body: { grant_type: 'authorization_code', code: 'code-9' } })] : [])];
      return { ...o, baseline: base.length, oauth: { ...o.oauth, responseIss: undefined, issAdvertised: false, requests: [...base, ...judged] } };
    };
    expect(judge('auth.client-iss-match', run(true, true))).toMatchObject({ outcome: 'holds', message: expect.stringContaining(`iss=${ORIGIN} (the issuer itself`) });
    expect(judge('auth.client-iss-match', run(false, true))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('a matching iss must be accepted') });
    expect(judge('auth.client-iss-match', run(false, false))).toMatchObject({ outcome: 'untestable', message: expect.stringContaining('stops for another reason') });
  });
});
