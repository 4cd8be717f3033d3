import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpListener } from '../../runner/http-listener.js';
import { Recorder } from '../../runner/recorder.js';
import { requireAuthorization, type AuthorizationServer, type OAuthLog, type OAuthOptions } from '../../suites/authorization/authorization-server.js';

const listeners: HttpListener[] = [];
afterEach(async () => {
  await Promise.all(listeners.splice(0).map((l) => l.close()));
});

async function listener(): Promise<HttpListener> {
  const l = new HttpListener(new Recorder(), '/mcp/test');
  listeners.push(l);
  await l.listen();
  l.handle((m) => ({ jsonrpc: '2.0', id: (m as { id: number }).id, result: {} }));
  return l;
}

/**
 * Put the listener's endpoint behind the scripted authorization server (installed through the
 * listener's HTTP primitives, as a scenario does); called again, switch how it misbehaves, as a
 * scenario does between two client runs. Its log.
 */
const installed = new WeakMap<HttpListener, AuthorizationServer>();
function authorize(l: HttpListener, opts: OAuthOptions = {}): OAuthLog {
  const server = installed.get(l);
  if (server) {
    server.configure(opts);
    return server.log;
  }
  const fresh = requireAuthorization(l, opts);
  installed.set(l, fresh);
  return fresh.log;
}

const rpc = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });
const json = async (r: Promise<Response>) => (await (await r).json()) as Record<string, any>;
const post = (url: string, headers: Record<string, string> = {}) => fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: rpc(1) });

describe('the scripted authorization server, a profile on the HTTP listener\'s primitives', () => {
  it('without the authorization server the endpoint is open and nothing else is served', async () => {
    const l = await listener();
    expect((await post(l.url)).status).toBe(200);
    expect((await fetch(`${new URL(l.url).origin}/.well-known/oauth-authorization-server`)).status).toBe(404);
  });

  it('refuses without a token (logged, never handed to the script), serves the metadata, and a full code flow yields a token it accepts', async () => {
    const l = await listener();
    const log = authorize(l);
    const origin = new URL(l.url).origin;
    const refused = await post(l.url);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp/test", scope="mcp:tools"`);
    expect(l.received()).toMatchObject([{ refused: 401, message: { method: 'ping' } }]);

    const prm = await json(fetch(log.resourceMetadataUrl));
    expect(prm).toMatchObject({ resource: l.url, authorization_servers: [origin] });
    const meta = await json(fetch(log.serverMetadataUrl));
    expect(meta).toMatchObject({ issuer: origin, code_challenge_methods_supported: ['S256'] });
    const reg = await json(fetch(meta.registration_endpoint, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:1/cb'] }) }));
    const verifier = 'x'.repeat(43);
    const q = new URLSearchParams({ response_type: 'code', client_id: reg.client_id, redirect_uri: 'http://127.0.0.1:1/cb', state: 'st', code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256', resource: l.url });
    const redirect = await fetch(`${meta.authorization_endpoint}?${q}`, { redirect: 'manual' });
    const back = new URL(redirect.headers.get('location')!);
    expect([redirect.status, back.searchParams.get('state'), back.searchParams.get('iss')]).toEqual([302, 'st', origin]);
    const form = new URLSearchParams({ grant_type: 'authorization_code', code: back.searchParams.get('code')!, code_verifier: verifier, redirect_uri: 'http://127.0.0.1:1/cb', resource: l.url });
    const tokens = await json(fetch(meta.token_endpoint, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: form }));
    expect(tokens).toMatchObject({ token_type: 'Bearer', access_token: log.tokens[0] });
    // A code is good once.
    expect((await fetch(meta.token_endpoint, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: form })).status).toBe(400);

    expect((await post(l.url, { Authorization: `Bearer ${tokens.access_token}` })).status).toBe(200);
    expect((await post(l.url, { Authorization: 'Bearer made-up' })).headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
    expect(log.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'GET /.well-known/oauth-protected-resource/mcp/test 200',
      'GET /.well-known/oauth-authorization-server 200',
      'POST /register 201',
      'GET /authorize 302',
      'POST /token 200',
      'POST /token 400',
    ]);
    expect(log.requests[3].code).toBe(back.searchParams.get('code'));
    expect(log.requests[4].body).toMatchObject({ code_verifier: verifier, resource: l.url });
  });

  it('wrongIssuer: the server metadata names another issuer than the identifier the resource metadata lists', async () => {
    const l = await listener();
    const log = authorize(l, { wrongIssuer: true });
    const meta = await json(fetch(log.serverMetadataUrl));
    expect(meta.issuer).not.toBe(log.identifier);
    expect(meta.issuer).toBe(log.issuer);
  });

  it('noPkce: the authorization server metadata leaves code_challenge_methods_supported out, and the log says so', async () => {
    const l = await listener();
    const log = authorize(l, { noPkce: true });
    expect((await json(fetch(log.serverMetadataUrl))).code_challenge_methods_supported).toBeUndefined();
    expect(log.pkceUnadvertised).toBe(true);
    authorize(l, {});
    expect((await json(fetch(log.serverMetadataUrl))).code_challenge_methods_supported).toEqual(['S256']);
    expect(log.pkceUnadvertised).toBeUndefined();
  });

  it('iss and issAdvertised: the redirect carries another issuer, the issuer with a trailing slash, or nothing, and the metadata says so or not', async () => {
    const l = await listener();
    const log = authorize(l);
    const authorizeIss = async () => {
      const meta = await json(fetch(log.serverMetadataUrl));
      const res = await fetch(`${meta.authorization_endpoint}?response_type=code&redirect_uri=${encodeURIComponent('http://127.0.0.1:1/cb')}`, { redirect: 'manual' });
      return { iss: new URL(res.headers.get('location')!).searchParams.get('iss'), advertised: meta.authorization_response_iss_parameter_supported };
    };
    expect(await authorizeIss()).toEqual({ iss: log.issuer, advertised: true });
    authorize(l, { iss: 'another' });
    expect((await authorizeIss()).iss).toBe(`${log.issuer}/not-the-issuer`);
    authorize(l, { iss: 'trailing-slash' });
    expect((await authorizeIss()).iss).toBe(`${log.issuer}/`);
    authorize(l, { iss: 'absent', issAdvertised: false });
    expect(await authorizeIss()).toEqual({ iss: null, advertised: undefined });
    expect(log.responseIss).toBeUndefined();
  });

  it('state: the redirect echoes the request\'s state, carries another, or none; a request without state gets none back', async () => {
    const l = await listener();
    const log = authorize(l);
    const returned = async (state?: string) => {
      const meta = await json(fetch(log.serverMetadataUrl));
      const res = await fetch(`${meta.authorization_endpoint}?response_type=code&redirect_uri=${encodeURIComponent('http://127.0.0.1:1/cb')}${state ? `&state=${state}` : ''}`, { redirect: 'manual' });
      return new URL(res.headers.get('location')!).searchParams.get('state');
    };
    expect([await returned('st'), await returned()]).toEqual(['st', null]);
    authorize(l, { state: 'another' });
    expect([await returned('st'), await returned(), log.responseState]).toEqual(['st-not-yours', null, 'another']);
    authorize(l, { state: 'absent' });
    expect(await returned('st')).toBeNull();
    authorize(l, {});
    expect(await returned('st')).toBe('st');
  });

  it('expireAfter: a token from a code serves that many requests, then 401 invalid_token (logged); a refreshed one does not expire', async () => {
    const l = await listener();
    const log = authorize(l, { expireAfter: 2 });
    const meta = await json(fetch(log.serverMetadataUrl));
    const code = new URL((await fetch(`${meta.authorization_endpoint}?response_type=code&redirect_uri=${encodeURIComponent('http://127.0.0.1:1/cb')}`, { redirect: 'manual' })).headers.get('location')!).searchParams.get('code')!;
    const token = (form: Record<string, string>) => json(fetch(meta.token_endpoint, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) }));
    const first = await token({ grant_type: 'authorization_code', code });
    const use = async (t: string) => {
      const r = await post(l.url, { Authorization: `Bearer ${t}` });
      return [r.status, r.headers.get('www-authenticate')?.startsWith('Bearer error="invalid_token"') ?? false];
    };
    expect([await use(first.access_token), await use(first.access_token), await use(first.access_token), await use(first.access_token)]).toEqual([[200, false], [200, false], [401, true], [401, true]]);
    expect(log.expired).toEqual([{ token: first.access_token, seq: expect.any(Number) }]);
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    for (let i = 0; i < 4; i++) expect(await use(refreshed.access_token)).toEqual([200, false]);
  });

  it('wellKnown: a challenge without resource_metadata, and an issuer with a path whose metadata only OpenID Connect discovery serves', async () => {
    const l = await listener();
    const log = authorize(l, { wellKnown: true });
    const origin = new URL(l.url).origin;
    const challenge = (await post(l.url)).headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).not.toContain('resource_metadata');
    const prm = await json(fetch(`${origin}/.well-known/oauth-protected-resource/mcp/test`));
    expect(prm.authorization_servers).toEqual([`${origin}/tenant`]);
    expect((await fetch(`${origin}/.well-known/oauth-authorization-server/tenant`)).status).toBe(404);
    expect((await fetch(`${origin}/tenant/.well-known/openid-configuration`)).status).toBe(404);
    const meta = await json(fetch(`${origin}/.well-known/openid-configuration/tenant`));
    expect(meta.issuer).toBe(`${origin}/tenant`);
    expect(log.serverMetadataUrl).toBe(`${origin}/.well-known/openid-configuration/tenant`);
    expect(log.requests.map((r) => `${r.path} ${r.status}`)).toEqual(['/.well-known/oauth-protected-resource/mcp/test 200', '/.well-known/oauth-authorization-server/tenant 404', '/tenant/.well-known/openid-configuration 404', '/.well-known/openid-configuration/tenant 200']);
  });

  it('oidcOnly: an issuer without a path whose metadata only OpenID Connect discovery serves', async () => {
    const l = await listener();
    const log = authorize(l, { oidcOnly: true });
    const origin = new URL(l.url).origin;
    expect(log.serverMetadataUrl).toBe(`${origin}/.well-known/openid-configuration`);
    expect((await fetch(`${origin}/.well-known/oauth-authorization-server`)).status).toBe(404);
    expect(await json(fetch(log.serverMetadataUrl))).toMatchObject({ issuer: origin, code_challenge_methods_supported: ['S256'] });
  });

  it('scopeFrom: a challenge without scope, the scopes in the resource metadata only, or in no document at all', async () => {
    for (const [scopeFrom, prmScopes, asScopes] of [['metadata', ['mcp:tools', 'mcp:read'], ['mcp:tools', 'mcp:read']], ['none', undefined, undefined]] as const) {
      const l = await listener();
      const log = authorize(l, { scopeFrom });
      const origin = new URL(l.url).origin;
      const challenge = (await post(l.url)).headers.get('www-authenticate') ?? '';
      expect(challenge).toBe(`Bearer resource_metadata="${log.resourceMetadataUrl}"`);
      expect((await json(fetch(log.resourceMetadataUrl))).scopes_supported).toEqual(prmScopes);
      expect((await json(fetch(`${origin}/.well-known/oauth-authorization-server`))).scopes_supported).toEqual(asScopes);
      expect(log.scope).toBeUndefined();
      expect(log.scopesSupported).toEqual(prmScopes);
    }
  });

  it('wrongResource: the resource metadata names another resource than the endpoint, and a new configuration restores it', async () => {
    const l = await listener();
    const log = authorize(l, { wrongResource: true });
    expect((await json(fetch(log.resourceMetadataUrl))).resource).toBe(`${new URL(l.url).origin}/mcp/another-server`);
    expect(log.prmResource).toBe(`${new URL(l.url).origin}/mcp/another-server`);
    authorize(l, {});
    expect((await json(fetch(log.resourceMetadataUrl))).resource).toBe(l.url);
    expect(log.prmResource).toBeUndefined();
  });

  it('migrated: the resource metadata names a second authorization server with its own endpoints; registrations say which server issued each client_id', async () => {
    const l = await listener();
    const log = authorize(l);
    const origin = new URL(l.url).origin;
    const register = async (url: string) => (await json(fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"redirect_uris":["http://127.0.0.1:1/cb"]}' }))).client_id as string;
    const first = await register((await json(fetch(log.serverMetadataUrl))).registration_endpoint);
    authorize(l, { migrated: true });
    expect((await json(fetch(log.resourceMetadataUrl))).authorization_servers).toEqual([`${origin}/as2`]);
    const meta = await json(fetch(log.serverMetadataUrl));
    expect(meta).toMatchObject({ issuer: `${origin}/as2`, authorization_endpoint: `${origin}/as2/authorize`, registration_endpoint: `${origin}/as2/register` });
    const second = await register(meta.registration_endpoint);
    expect(log.registrations.map((r) => [r.clientId, r.server])).toEqual([[first, origin], [second, `${origin}/as2`]]);
    // The first server still answers, and what each request presents as client_id is logged.
    expect((await json(fetch(`${origin}/.well-known/oauth-authorization-server`))).issuer).toBe(origin);
    await fetch(`${origin}/as2/authorize?client_id=${first}&redirect_uri=${encodeURIComponent('http://127.0.0.1:1/cb')}`, { redirect: 'manual' });
    await fetch(`${origin}/as2/token`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: `Basic ${Buffer.from(`${second}:secret`).toString('base64')}` }, body: 'grant_type=authorization_code&code=x' });
    expect(log.requests.slice(-2).map((r) => [r.path, r.clientId])).toEqual([['/as2/authorize', first], ['/as2/token', second]]);
  });

  it('confidential: a client asking to be public is registered for client_secret_basic with a secret; HTTP Basic credentials are decoded', async () => {
    const l = await listener();
    const log = authorize(l, { confidential: true });
    const meta = await json(fetch(log.serverMetadataUrl));
    expect(meta.token_endpoint_auth_methods_supported).toEqual(['client_secret_basic']);
    const reg = await json(fetch(meta.registration_endpoint, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"redirect_uris":["http://127.0.0.1:1/cb"],"token_endpoint_auth_method":"none"}' }));
    expect(reg).toMatchObject({ token_endpoint_auth_method: 'client_secret_basic', client_secret: expect.any(String) });
    expect(log.registrations[0]).toMatchObject({ clientId: reg.client_id, secret: reg.client_secret, method: 'client_secret_basic' });
    // RFC 6749 §2.3.1: each part form-urlencoded before base64 ("a b" as "a+b").
    await fetch(meta.token_endpoint, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: `Basic ${Buffer.from(`${reg.client_id}:a+b%3A`).toString('base64')}` }, body: 'grant_type=authorization_code&code=x' });
    expect(log.requests.at(-1)).toMatchObject({ clientId: reg.client_id, basic: { id: reg.client_id, secret: 'a b:' } });
  });
});
