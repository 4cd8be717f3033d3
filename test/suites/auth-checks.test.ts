import { describe, expect, it } from 'vitest';
import { bearerChallenge, parseChallenges } from '../../protocol/www-authenticate.js';
import type { SpecVersion } from '../../protocol/versions.js';
import { CHECKS } from '../../suites/catalogue.js';
import type { PlainHttpResponse } from '../../suites/ports/plain-http.js';
import { authServerMetadataUrls, wellKnown, type AuthObs } from '../../suites/authorization/server-scenario.js';
import { forgedCredentials, OTHER_AUDIENCE } from '../../suites/authorization/forged-credentials.js';

const ENDPOINT = 'http://127.0.0.1:4000/mcp';
const PRM_URL = 'http://127.0.0.1:4000/.well-known/oauth-protected-resource/mcp';
const AS = 'http://127.0.0.1:4000';

const judge = (id: string, obs: AuthObs, version: SpecVersion = '2026-07-28') =>
  CHECKS.find((c) => c.id === id)!.judge(obs, { era: version === '2026-07-28' ? 'modern' : 'legacy', version, transport: 'http', capabilities: {} });

function answer(status: number, extra: { headers?: Record<string, string>; body?: unknown; url?: string; method?: 'GET' | 'POST' } = {}): PlainHttpResponse {
  const body = extra.body === undefined ? '' : typeof extra.body === 'string' ? extra.body : JSON.stringify(extra.body);
  return { url: extra.url ?? ENDPOINT, method: extra.method ?? 'POST', status, headers: extra.headers ?? {}, body, timedOut: false, elapsedMs: 3, seq: [1, 2] };
}

const CHALLENGE = `Bearer resource_metadata="${PRM_URL}", scope="mcp"`;
const PRM = { resource: ENDPOINT, authorization_servers: [AS] };
const AS_METADATA = { issuer: AS, authorization_endpoint: `${AS}/authorize`, token_endpoint: `${AS}/token`, code_challenge_methods_supported: ['S256'], authorization_response_iss_parameter_supported: true };

/** A protected server that does everything right; each test breaks one thing. */
function good(): AuthObs {
  return {
    endpoint: ENDPOINT,
    anonymous: answer(401, { headers: { 'www-authenticate': CHALLENGE } }),
    bogus: answer(401, { headers: { 'www-authenticate': `Bearer error="invalid_token", ${CHALLENGE.slice('Bearer '.length)}` } }),
    resourceMetadata: [{ via: 'header', url: PRM_URL, response: answer(200, { url: PRM_URL, method: 'GET', body: PRM }), document: PRM }],
    servers: [{ identifier: AS, tried: [{ url: `${AS}/.well-known/oauth-authorization-server`, response: answer(200, { method: 'GET', body: AS_METADATA }), document: AS_METADATA }] }],
    forged: forgedCredentials({ issuer: AS, audience: ENDPOINT, scope: 'mcp' }, 1).map((credential) => ({ credential, response: answer(credential.malformed ? 400 : 401, { headers: credential.malformed ? {} : { 'www-authenticate': `Bearer error="invalid_token", ${CHALLENGE.slice('Bearer '.length)}` } }) })),
  };
}

/** good() with the answer to the forged credential whose kind contains `kind` replaced. */
function forgedAnswer(kind: string, response: PlainHttpResponse): AuthObs {
  const o = good();
  const i = o.forged.findIndex((f) => f.credential.kind.includes(kind));
  if (i < 0) throw new Error(`no forged credential ${kind}`);
  o.forged[i] = { ...o.forged[i], response };
  return o;
}

const IDS = ['auth.challenge', 'auth.invalid-token', 'auth.forged-tokens', 'auth.malformed-authorization', 'auth.invalid-token-error', 'auth.metadata-discovery', 'auth.metadata-servers', 'auth.metadata-resource', 'auth.challenge-scope', 'auth.server-metadata', 'auth.server-pkce', 'auth.server-iss', 'auth.offline-access'];

describe('the WWW-Authenticate parser', () => {
  it('reads schemes and their parameters, quoted or not, with escapes and several challenges', () => {
    expect(parseChallenges('Basic realm="a, b", Bearer error=invalid_token, scope="x y", resource_metadata="https://h/p\\"q"')).toEqual([
      { scheme: 'Basic', params: { realm: 'a, b' } },
      { scheme: 'Bearer', params: { error: 'invalid_token', scope: 'x y', resource_metadata: 'https://h/p"q' } },
    ]);
    expect(bearerChallenge('bearer Scope="a"')).toEqual({ scheme: 'bearer', params: { scope: 'a' } });
    expect(bearerChallenge('Basic realm="x"')).toBeUndefined();
    expect(bearerChallenge(undefined)).toBeUndefined();
    expect(parseChallenges('Negotiate abc==, Bearer')).toEqual([{ scheme: 'Negotiate', params: {} }, { scheme: 'Bearer', params: {} }]);
  });
});

describe('the well-known URIs a client tries', () => {
  it('inserts the suffix between host and path, dropping a terminating slash (RFC 9728, RFC 8414)', () => {
    expect(wellKnown(new URL('https://h.example/public/mcp/'), 'oauth-protected-resource')).toBe('https://h.example/.well-known/oauth-protected-resource/public/mcp');
    expect(wellKnown(new URL('https://h.example/'), 'oauth-authorization-server')).toBe('https://h.example/.well-known/oauth-authorization-server');
  });
  it('for an issuer with a path: OAuth, then OpenID Connect inserted and appended; 2025-06-18 only OAuth', () => {
    expect(authServerMetadataUrls(new URL('https://auth.example/tenant1'), '2026-07-28')).toEqual([
      'https://auth.example/.well-known/oauth-authorization-server/tenant1',
      'https://auth.example/.well-known/openid-configuration/tenant1',
      'https://auth.example/tenant1/.well-known/openid-configuration',
    ]);
    expect(authServerMetadataUrls(new URL('https://auth.example'), '2025-11-25')).toEqual(['https://auth.example/.well-known/oauth-authorization-server', 'https://auth.example/.well-known/openid-configuration']);
    expect(authServerMetadataUrls(new URL('https://auth.example/tenant1'), '2025-06-18')).toEqual(['https://auth.example/.well-known/oauth-authorization-server/tenant1']);
  });
});

describe('auth.* judgements', () => {
  it('a server that does everything right passes every check', () => {
    for (const id of IDS) expect(judge(id, good()), id).toMatchObject({ outcome: 'holds' });
  });

  it('a server that serves requests without credentials is a skip for every check; no answer at all is untestable', () => {
    const open = { ...good(), anonymous: answer(200, { body: { jsonrpc: '2.0', id: 1, result: {} } }) };
    for (const id of IDS) expect(judge(id, open), id).toMatchObject({ outcome: 'skip', message: expect.stringContaining('does not require authorization') });
    const silent = { ...good(), anonymous: { ...answer(0), status: undefined, timedOut: true } };
    for (const id of IDS) expect(judge(id, silent).outcome, id).toBe('untestable');
  });

  it('auth.challenge: a 401 without a Bearer challenge, or 403 to a request without credentials, fails', () => {
    const bare = { ...good(), bogus: answer(401) };
    expect(judge('auth.challenge', bare)).toMatchObject({ outcome: 'violated', message: expect.stringContaining('1 of 6 401 answers have no Bearer challenge; first, to a request with an invalid token') });
    // A forged token's 401 needs the challenge too.
    expect(judge('auth.challenge', forgedAnswer('alg "none"', answer(401)))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('with an unsigned JWT') });
    const basic = { ...good(), anonymous: answer(401, { headers: { 'www-authenticate': 'Basic realm="x"' } }) };
    expect(judge('auth.challenge', basic).outcome).toBe('violated');
    expect(judge('auth.challenge', { ...good(), anonymous: answer(403) })).toMatchObject({ outcome: 'violated', message: expect.stringContaining('403') });
  });

  it('auth.invalid-token: accepted or refused with anything but 401 fails; a timeout is untestable', () => {
    expect(judge('auth.invalid-token', { ...good(), bogus: answer(200) })).toMatchObject({ outcome: 'violated', message: expect.stringContaining('was accepted') });
    expect(judge('auth.invalid-token', { ...good(), bogus: answer(500) })).toMatchObject({ outcome: 'violated', message: expect.stringContaining('HTTP 500, not 401') });
    expect(judge('auth.invalid-token', { ...good(), bogus: answer(403) }).outcome).toBe('violated');
    expect(judge('auth.invalid-token', { ...good(), bogus: { ...answer(0), status: undefined, timedOut: true } }).outcome).toBe('untestable');
  });

  it('the forged credentials: JWTs claiming the metadata\'s issuer and resource (unsigned, self-signed, expired, another audience), and malformed headers', () => {
    const forged = forgedCredentials({ issuer: AS, audience: ENDPOINT, scope: 'mcp' }, 7, Date.UTC(2026, 0, 1));
    const jwts = forged.filter((f) => !f.malformed).map((f) => f.authorization.replace(/^Bearer /, '').split('.'));
    const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    expect(jwts.map(([h]) => decode(h).alg)).toEqual(['none', 'HS256', 'HS256', 'HS256']);
    expect(jwts[0][2]).toBe('');
    expect(jwts.every(([, p]) => decode(p).iss === AS && decode(p).scope === 'mcp')).toBe(true);
    expect(jwts.map(([, p]) => decode(p).aud)).toEqual([ENDPOINT, ENDPOINT, ENDPOINT, OTHER_AUDIENCE]);
    const now = Date.UTC(2026, 0, 1) / 1000;
    expect(jwts.map(([, p]) => decode(p).exp > now)).toEqual([true, true, false, true]);
    expect(forged.filter((f) => f.malformed).map((f) => f.authorization.split(' ')[0])).toEqual(['Bearer', 'Bearer', 'Basic', 'mcpspec-not-issued-7']);
    // The same seed and time, the same credentials (a run can be repeated).
    expect(forgedCredentials({ issuer: AS, audience: ENDPOINT, scope: 'mcp' }, 7, Date.UTC(2026, 0, 1))).toEqual(forged);
  });

  it('auth.forged-tokens: a forged token served, or refused with anything but 401, fails; 400 is no answer to a well-formed one', () => {
    expect(judge('auth.forged-tokens', forgedAnswer('alg "none"', answer(200)))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('an unsigned JWT (alg "none"): served (HTTP 200)') });
    expect(judge('auth.forged-tokens', forgedAnswer('expired', answer(200)))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('an expired JWT') });
    expect(judge('auth.forged-tokens', forgedAnswer('another audience', answer(400)))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('HTTP 400, not 401') });
    expect(judge('auth.forged-tokens', forgedAnswer('signed with a key', answer(500))).outcome).toBe('violated');
    // A malformed header's answer is not this check's.
    expect(judge('auth.forged-tokens', forgedAnswer('Basic', answer(200))).outcome).toBe('holds');
    const none = { ...good(), forged: [] };
    expect(judge('auth.forged-tokens', none).outcome).toBe('untestable');
  });

  it('auth.malformed-authorization: served fails; 401 or 400 holds; another status fails', () => {
    expect(judge('auth.malformed-authorization', forgedAnswer('Basic', answer(200)))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('HTTP Basic credentials instead of a bearer token: served') });
    expect(judge('auth.malformed-authorization', forgedAnswer('no scheme', answer(401, { headers: { 'www-authenticate': CHALLENGE } }))).outcome).toBe('holds');
    expect(judge('auth.malformed-authorization', forgedAnswer('no token', answer(500)))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('HTTP 500, not 401 (or 400 for a malformed request)') });
    expect(judge('auth.malformed-authorization', forgedAnswer('alg "none"', answer(200))).outcome).toBe('holds');
  });

  it('auth.invalid-token-error: a 401 for a bad token without error="invalid_token" (or with another error) warns; not a 401 is untestable', () => {
    expect(judge('auth.invalid-token-error', { ...good(), bogus: answer(401, { headers: { 'www-authenticate': CHALLENGE } }) })).toMatchObject({ outcome: 'violated', message: expect.stringContaining('no error attribute') });
    expect(judge('auth.invalid-token-error', { ...good(), bogus: answer(401, { headers: { 'www-authenticate': 'Bearer error="invalid_request"' } }) })).toMatchObject({ outcome: 'violated', message: expect.stringContaining('error="invalid_request"') });
    expect(judge('auth.invalid-token-error', { ...good(), bogus: answer(401) })).toMatchObject({ outcome: 'violated', message: expect.stringContaining('WWW-Authenticate: absent') });
    expect(judge('auth.invalid-token-error', { ...good(), bogus: answer(500) })).toMatchObject({ outcome: 'untestable', message: expect.stringContaining('HTTP 500, not 401') });
  });

  it('auth.metadata-discovery: the header or a well-known URI; a header URL that does not serve it fails; 2025-06-18 needs the header', () => {
    const viaPath: AuthObs = {
      ...good(),
      anonymous: answer(401, { headers: { 'www-authenticate': 'Bearer scope="mcp"' } }),
      resourceMetadata: [{ via: 'path', url: PRM_URL, response: answer(200, { method: 'GET', body: PRM }), document: PRM }],
    };
    expect(judge('auth.metadata-discovery', viaPath)).toMatchObject({ outcome: 'holds', message: expect.stringContaining('well-known') });
    expect(judge('auth.metadata-discovery', viaPath, '2025-06-18')).toMatchObject({ outcome: 'violated', message: expect.stringContaining('2025-06-18') });
    const broken = { ...good(), resourceMetadata: [{ via: 'header' as const, url: PRM_URL, response: answer(404, { method: 'GET' }) }] };
    expect(judge('auth.metadata-discovery', broken)).toMatchObject({ outcome: 'violated', message: expect.stringContaining('does not serve the document') });
    const none: AuthObs = {
      ...viaPath,
      resourceMetadata: [
        { via: 'path', url: PRM_URL, response: answer(404, { method: 'GET' }) },
        { via: 'root', url: `${AS}/.well-known/oauth-protected-resource`, response: answer(200, { method: 'GET', body: '<html>' }) },
      ],
    };
    expect(judge('auth.metadata-discovery', none)).toMatchObject({ outcome: 'violated', message: expect.stringContaining('not a JSON object') });
    const elsewhere = { ...good(), resourceMetadata: [{ via: 'header' as const, url: 'https://far.example/prm', response: { ...answer(0), status: undefined, error: 'on another host (far.example); mcpspec reads it only with --allow-open-world' } }] };
    expect(judge('auth.metadata-discovery', elsewhere).outcome).toBe('untestable');
  });

  it('auth.metadata-servers: empty, absent or not URLs fails; no document is untestable', () => {
    const withServers = (servers: unknown): AuthObs => {
      const doc = { ...PRM, authorization_servers: servers };
      return { ...good(), resourceMetadata: [{ via: 'header', url: PRM_URL, response: answer(200, { method: 'GET', body: doc }), document: doc }] };
    };
    expect(judge('auth.metadata-servers', withServers([])).outcome).toBe('violated');
    expect(judge('auth.metadata-servers', withServers(undefined)).outcome).toBe('violated');
    expect(judge('auth.metadata-servers', withServers(['auth.example'])).outcome).toBe('violated');
    expect(judge('auth.metadata-servers', { ...good(), resourceMetadata: [] }).outcome).toBe('untestable');
  });

  it('auth.metadata-resource: identical to the URL it was fetched for (case and default port aside); the root document names the origin', () => {
    const withResource = (resource: unknown, via: 'header' | 'path' | 'root' = 'header'): AuthObs => {
      const doc = { ...PRM, resource };
      return { ...good(), resourceMetadata: [{ via, url: PRM_URL, response: answer(200, { method: 'GET', body: doc }), document: doc }] };
    };
    expect(judge('auth.metadata-resource', withResource('HTTP://127.0.0.1:4000/mcp')).outcome).toBe('holds');
    expect(judge('auth.metadata-resource', withResource('http://127.0.0.1:4000/')).outcome).toBe('violated');
    expect(judge('auth.metadata-resource', withResource('http://127.0.0.1:4000/mcp/')).outcome).toBe('violated');
    expect(judge('auth.metadata-resource', withResource('http://127.0.0.1:4000/mcp#x')).outcome).toBe('violated');
    expect(judge('auth.metadata-resource', withResource(undefined)).outcome).toBe('violated');
    expect(judge('auth.metadata-resource', withResource('http://localhost:4000/mcp'))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('test it with that URL') });
    expect(judge('auth.metadata-resource', withResource('http://127.0.0.1:4000', 'root')).outcome).toBe('holds');
    expect(judge('auth.metadata-resource', withResource(ENDPOINT, 'root')).outcome).toBe('violated');
  });

  it('auth.challenge-scope: a challenge without scope warns; no challenge to read is untestable', () => {
    expect(judge('auth.challenge-scope', { ...good(), anonymous: answer(401, { headers: { 'www-authenticate': `Bearer resource_metadata="${PRM_URL}"` } }) }).outcome).toBe('violated');
    expect(judge('auth.challenge-scope', { ...good(), anonymous: answer(401) }).outcome).toBe('untestable');
  });

  it('auth.server-metadata: an issuer that differs, or no metadata at any URI, fails; servers on other hosts are untestable', () => {
    const withAs = (document: Record<string, unknown> | undefined, status = 200): AuthObs => ({
      ...good(),
      servers: [{ identifier: AS, tried: [{ url: `${AS}/.well-known/oauth-authorization-server`, response: answer(status, { method: 'GET', body: document }), ...(document ? { document } : {}) }] }],
    });
    expect(judge('auth.server-metadata', withAs({ ...AS_METADATA, issuer: `${AS}/` }))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('names issuer') });
    expect(judge('auth.server-metadata', withAs(undefined, 404))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('no metadata') });
    expect(judge('auth.server-metadata', { ...good(), servers: [{ identifier: 'https://far.example', tried: [], notFetched: 'on another host (far.example); mcpspec reads it only with --allow-open-world' }] }).outcome).toBe('untestable');
    expect(judge('auth.server-metadata', { ...good(), servers: [] }).outcome).toBe('untestable');
  });

  it('auth.server-pkce: S256 missing fails; no metadata read is untestable', () => {
    const doc = { ...AS_METADATA, code_challenge_methods_supported: ['plain'] };
    const plain: AuthObs = { ...good(), servers: [{ identifier: AS, tried: [{ url: `${AS}/.well-known/oauth-authorization-server`, response: answer(200, { method: 'GET', body: doc }), document: doc }] }] };
    expect(judge('auth.server-pkce', plain).outcome).toBe('violated');
    expect(judge('auth.server-pkce', { ...good(), servers: [] }).outcome).toBe('untestable');
  });

  it('auth.offline-access: offline_access in the challenge\'s scope or in scopes_supported warns; either alone is judged', () => {
    const o = good();
    const challenged: AuthObs = { ...o, anonymous: answer(401, { headers: { 'www-authenticate': 'Bearer resource_metadata="x", scope="mcp offline_access"' } }) };
    expect(judge('auth.offline-access', challenged)).toMatchObject({ outcome: 'violated', message: expect.stringContaining('the 401 challenge (scope="mcp offline_access") names offline_access') });
    const doc = { ...PRM, scopes_supported: ['mcp', 'offline_access'] };
    const listed: AuthObs = { ...o, resourceMetadata: [{ via: 'header', url: PRM_URL, response: answer(200, { url: PRM_URL, method: 'GET', body: doc }), document: doc }] };
    expect(judge('auth.offline-access', listed)).toMatchObject({ outcome: 'violated', message: expect.stringContaining('the Protected Resource Metadata (scopes_supported ["mcp","offline_access"]) names') });
    // A scope that merely contains the word is another scope.
    const lookalike: AuthObs = { ...o, anonymous: answer(401, { headers: { 'www-authenticate': 'Bearer scope="offline_access_logs"' } }) };
    expect(judge('auth.offline-access', lookalike).outcome).toBe('holds');
    expect(judge('auth.offline-access', { ...o, resourceMetadata: [] })).toMatchObject({ outcome: 'holds', message: 'no offline_access in the challenge' });
    expect(judge('auth.offline-access', { ...o, anonymous: answer(403), resourceMetadata: [] }).outcome).toBe('untestable');
  });

  it('auth.server-https: HTTPS endpoints hold; plain HTTP on another host fails; on loopback it is skipped, not judged', () => {
    const withDoc = (doc: Record<string, unknown>): AuthObs => ({ ...good(), servers: [{ identifier: String(doc.issuer), tried: [{ url: `${String(doc.issuer)}/.well-known/oauth-authorization-server`, response: answer(200, { method: 'GET', body: doc }), document: doc }] }] });
    const secure = { issuer: 'https://auth.example', authorization_endpoint: 'https://auth.example/authorize', token_endpoint: 'https://auth.example/token', registration_endpoint: 'https://auth.example/register', jwks_uri: 'https://auth.example/jwks', scopes_supported: ['mcp'] };
    expect(judge('auth.server-https', withDoc(secure))).toMatchObject({ outcome: 'holds', message: '1 authorization server(s), every endpoint HTTPS' });
    expect(judge('auth.server-https', withDoc({ ...secure, token_endpoint: 'http://auth.example/token' }))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('not HTTPS: https://auth.example: token_endpoint http://auth.example/token') });
    expect(judge('auth.server-https', withDoc({ ...secure, revocation_endpoint: 'http://auth.example/revoke' })).outcome).toBe('violated');
    expect(judge('auth.server-https', withDoc({ ...secure, issuer: 'http://127.0.0.1:9000', token_endpoint: 'http://localhost:9000/token' }))).toMatchObject({ outcome: 'skip', message: expect.stringContaining('on this machine (issuer http://127.0.0.1:9000, and 1 more)') });
    // A loopback endpoint does not excuse a remote one.
    expect(judge('auth.server-https', withDoc({ ...secure, issuer: 'http://127.0.0.1:9000', token_endpoint: 'http://auth.example/token' })).outcome).toBe('violated');
    expect(judge('auth.server-https', { ...good(), servers: [] }).outcome).toBe('untestable');
  });

  it('auth.server-iss: metadata without authorization_response_iss_parameter_supported: true warns; no metadata read is untestable', () => {
    const withFlag = (flag: unknown): AuthObs => {
      const { authorization_response_iss_parameter_supported: _flag, ...rest } = AS_METADATA;
      const doc = { ...rest, ...(flag === undefined ? {} : { authorization_response_iss_parameter_supported: flag }) };
      return { ...good(), servers: [{ identifier: AS, tried: [{ url: `${AS}/.well-known/oauth-authorization-server`, response: answer(200, { method: 'GET', body: doc }), document: doc }] }] };
    };
    expect(judge('auth.server-iss', withFlag(true)).outcome).toBe('holds');
    expect(judge('auth.server-iss', withFlag(undefined))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('authorization_response_iss_parameter_supported is absent') });
    expect(judge('auth.server-iss', withFlag('true'))).toMatchObject({ outcome: 'violated', message: expect.stringContaining('is "true"') });
    expect(judge('auth.server-iss', { ...good(), servers: [] }).outcome).toBe('untestable');
  });
});
