// auth.* on the server side: authorization over HTTP (docs/requirements-authorization.md), as an
// OAuth client meets it before it has a token: the 401 challenge, an invalid token refused, the
// Protected Resource Metadata (RFC 9728) and the authorization servers' metadata (RFC 8414: issuer,
// PKCE, iss, HTTPS endpoints); a server that serves requests without credentials is a skip for all
// of them. The client side (auth.client-*) is in ./client.ts.

import { SPEC } from '../../protocol/spec-links.js';
import { ALL_VERSIONS } from '../../protocol/versions.js';
import { bearerChallenge } from '../../protocol/www-authenticate.js';
import type { Evidence } from '../../results/verdict.js';
import { check, holds, skip, untestable, violated, type Check, type CheckDefinition, type Judgement } from '../kit/check.js';
import { gated, type Precondition } from '../kit/judge.js';
import type { PlainHttpResponse } from '../ports/plain-http.js';
import { authorizationScenario, type AuthObs, type FetchedDocument, type ResourceMetadataFetch } from './server-scenario.js';
import { isLoopbackHost } from '../../protocol/loopback.js';
import { HTTP, parsedUrl, sameResource, SCOPED } from './common.js';

/** The OpenID Connect scope that asks for a refresh token. */
const OFFLINE_ACCESS = 'offline_access';

/** What an answer was, in a few words. */
function described(r: PlainHttpResponse): string {
  if (r.aborted) return 'not answered before the run ended';
  if (r.timedOut) return `no answer within the timeout (${Math.round(r.elapsedMs)} ms)`;
  if (r.error !== undefined) return `failed: ${r.error}`;
  const type = r.headers['content-type'];
  return `HTTP ${r.status}${type ? ` (${type.split(';')[0]})` : ''}`;
}

/** The request with a made-up token was sent and answered: otherwise it gives nothing to judge. */
const bogusAnswered: Precondition<AuthObs> = (o) => {
  const r = o.bogus;
  if (!r) return untestable('no request with an invalid token was sent');
  if (r.aborted || r.timedOut || r.error !== undefined) return untestable(`the request with an invalid token was ${described(r)}`);
  return undefined;
};

function evidence(what: string, r: PlainHttpResponse, extra: Partial<Evidence> = {}): Evidence {
  const e: Evidence = { what: `${what}: ${r.method} ${r.url}`, seq: r.seq, ...extra };
  if (r.status !== undefined) e.http = { status: r.status, contentType: r.headers['content-type'], body: r.body.slice(0, 400) };
  if (r.headers['www-authenticate'] !== undefined && extra.actual === undefined) e.actual = `WWW-Authenticate: ${r.headers['www-authenticate']}`;
  return e;
}

/** Whether the server requires authorization at all; a judgement when the checks cannot go on. */
const serverProtected: Precondition<AuthObs> = (o) => {
  const a = o.anonymous;
  if (a.aborted) return untestable('the run ended before the request without credentials was answered');
  if (a.timedOut || a.error !== undefined) return untestable(`the request without credentials was ${described(a)}`);
  if (a.status !== 401 && a.status !== 403) return skip(`the server answered a request without an Authorization header with HTTP ${a.status}: it does not require authorization`);
  return undefined;
};

function found(o: AuthObs): ResourceMetadataFetch | undefined {
  return o.resourceMetadata.find((f) => f.document);
}


function resourceHint(resource: string, expected: string): string {
  try {
    const [r, e] = [new URL(resource), new URL(expected)];
    if (r.hostname !== e.hostname && isLoopbackHost(r.hostname) && isLoopbackHost(e.hostname)) {
      return ` (mcpspec reached the server as ${e.hostname}; if its clients use ${r.hostname}, test it with that URL)`;
    }
  } catch {
    // not URLs: the message already says what the value is
  }
  return '';
}

function tried(docs: FetchedDocument[]): string {
  return docs.map((d) => `${d.url}: ${described(d.response)}${d.response.status === 200 && !d.document ? ', not a JSON object' : ''}`).join('; ');
}

/** A Protected Resource Metadata document was found: the checks of its contents need one. */
const documentFound: Precondition<AuthObs> = (o) => (found(o) ? undefined : untestable('no Protected Resource Metadata document was found (auth.metadata-discovery judges that)'));

/** The authorization servers whose metadata was read, each with the document found. */
function serverMetadata(o: AuthObs): { id: string; doc: { response: PlainHttpResponse; document: Record<string, unknown> } }[] {
  return o.servers.flatMap((s) => {
    const found = s.tried.find((t) => t.document);
    return found?.document ? [{ id: s.identifier, doc: { response: found.response, document: found.document } }] : [];
  });
}

/** Some authorization server's metadata was read: the checks of its contents need one. */
const serverMetadataRead: Precondition<AuthObs> = (o) => (serverMetadata(o).length ? undefined : untestable('no authorization server metadata was read (auth.server-metadata says why)'));

/** Every auth.* check: judged on the authorization scenario, over HTTP, and only when the server requires authorization. */
function authCheck(d: Omit<CheckDefinition<AuthObs>, 'requires'>): Check<AuthObs> {
  return check(authorizationScenario, { ...d, requires: HTTP, judge: gated([serverProtected], d.judge) });
}

export const authChecks = [
  authCheck({
    id: 'auth.challenge',
    title: 'a request without credentials gets 401 (not 403) with a Bearer challenge (WWW-Authenticate); so does every 401 to an invalid, forged or malformed credential',
    requirements: ['AZ-05'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    spec: SPEC.authorization26,
    judge(o) {
      if (o.anonymous.status === 403) {
        return violated('a request without credentials got 403, not 401 with a challenge (403 is for a token whose scope is not enough)', [evidence('without credentials', o.anonymous)]);
      }
      const sent: [string, PlainHttpResponse | undefined][] = [['without credentials', o.anonymous], ['with an invalid token', o.bogus], ...o.forged.map((f): [string, PlainHttpResponse] => [`with ${f.credential.kind}`, f.response])];
      const answers = sent.filter((a): a is [string, PlainHttpResponse] => a[1]?.status === 401);
      const bare = answers.filter(([, r]) => !bearerChallenge(r.headers['www-authenticate']));
      if (bare.length) {
        const [what, r] = bare[0];
        return violated(`${bare.length} of ${answers.length} 401 answers have no Bearer challenge; first, to a request ${what}: WWW-Authenticate: ${r.headers['www-authenticate'] ?? 'absent'}`, bare.slice(0, 4).map(([w, x]) => evidence(w, x)));
      }
      return holds(`${answers.length} 401 answer(s), each with a Bearer challenge: ${o.anonymous.headers['www-authenticate']}`, answers.slice(0, 4).map(([w, r]) => evidence(w, r)));
    },
  }),
  authCheck({
    id: 'auth.invalid-token',
    title: 'a bearer token no authorization server issued is refused with 401',
    requirements: ['AZ-06'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    spec: SPEC.authorization26,
    judge: gated([bogusAnswered], (o) => {
      const r = o.bogus!;
      if (r.status === 401) return holds('a made-up bearer token got 401', [evidence('with an invalid token', r)]);
      if (r.status! >= 200 && r.status! < 300) return violated(`a bearer token no authorization server issued was accepted (HTTP ${r.status}): the server does not validate tokens`, [evidence('with an invalid token', r)]);
      return violated(`a made-up bearer token got HTTP ${r.status}, not 401`, [evidence('with an invalid token', r)]);
    }),
  }),
  authCheck({
    id: 'auth.invalid-token-error',
    title: 'the 401 for an invalid bearer token says so: error="invalid_token" in its Bearer challenge',
    requirements: ['AZ-25'],
    level: 'SHOULD',
    versions: ALL_VERSIONS,
    spec: SPEC.authorization26,
    judge: gated([bogusAnswered], (o) => {
      const r = o.bogus!;
      if (r.status !== 401) return untestable(`the invalid token got HTTP ${r.status}, not 401 (auth.invalid-token judges that)`);
      const header = r.headers['www-authenticate'];
      const error = bearerChallenge(header)?.params.error;
      const ev = [evidence('with an invalid token', r)];
      if (error === 'invalid_token') return holds('the 401 challenge says error="invalid_token"', ev);
      if (error !== undefined) return violated(`the 401 challenge for a token no authorization server issued says error="${error}", not "invalid_token"`, ev);
      return violated(`the 401 for a token no authorization server issued has no error attribute (WWW-Authenticate: ${header ?? 'absent'}): a client cannot tell a bad token from a missing one`, ev);
    }),
  }),
  authCheck({
    id: 'auth.forged-tokens',
    title: 'forged bearer tokens are refused with 401: an unsigned JWT (alg "none"), one signed with a key of mcpspec\'s own, an expired one, one for another audience',
    requirements: ['AZ-06', 'AZ-05'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    spec: SPEC.authorization26,
    judge: (o) => judgeForged(o, false),
  }),
  authCheck({
    id: 'auth.malformed-authorization',
    title: 'an Authorization header with no usable bearer token (no token, not a token, Basic, no scheme) is refused: 401, or 400 for a malformed request',
    requirements: ['AZ-06', 'AZ-05'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    spec: SPEC.authorization26,
    judge: (o) => judgeForged(o, true),
  }),
  authCheck({
    id: 'auth.metadata-discovery',
    title: 'the Protected Resource Metadata is found where clients look: the challenge\'s resource_metadata, or a well-known URI',
    requirements: ['AZ-01', 'AZ-03'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    spec: SPEC.authorizationDiscovery26,
    judge(o, ctx) {
      const fetches = o.resourceMetadata;
      if (fetches.some((f) => f.response.aborted)) return untestable('the run ended while the metadata was fetched');
      const header = fetches.find((f) => f.via === 'header');
      const challenge = o.anonymous.headers['www-authenticate'];
      if (ctx.version === '2025-06-18' && !header) {
        return violated(`the 401 challenge names no resource_metadata (WWW-Authenticate: ${challenge ?? 'absent'}); in 2025-06-18 that is where clients find the metadata`, [evidence('without credentials', o.anonymous)]);
      }
      if (header && !header.document) {
        if (header.response.error?.startsWith('on another host')) return untestable(`the challenge's resource_metadata ${header.url} is ${header.response.error}`);
        return violated(`the challenge's resource_metadata ${header.url} does not serve the document: ${tried([header])}`, [evidence('resource_metadata', header.response)]);
      }
      const doc = found(o);
      if (!doc) {
        return violated(`no Protected Resource Metadata: the 401 challenge names no resource_metadata, and ${tried(fetches)}`, fetches.map((f) => evidence(`well-known (${f.via})`, f.response)));
      }
      const where = doc.via === 'header' ? `the challenge's resource_metadata ${doc.url}` : `the well-known URI ${doc.url}`;
      return holds(`found at ${where}`, [evidence('Protected Resource Metadata', doc.response)]);
    },
  }),
  authCheck({
    id: 'auth.metadata-servers',
    title: 'the Protected Resource Metadata lists at least one authorization server, by URL',
    requirements: ['AZ-02'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    spec: SPEC.authorizationDiscovery26,
    judge: gated([documentFound], (o) => {
      const doc = found(o)!;
      const listed = doc.document!.authorization_servers;
      const ev = [evidence('Protected Resource Metadata', doc.response, { pointer: '/authorization_servers', actual: listed })];
      if (!Array.isArray(listed) || listed.length === 0) return violated(`authorization_servers is ${JSON.stringify(listed) ?? 'absent'}: it must list at least one authorization server`, ev);
      const bad = listed.filter((x) => typeof x !== 'string' || !/^https?:$/.test(safeProtocol(x)));
      if (bad.length) return violated(`authorization_servers has entries that are not http(s) URLs: ${bad.map((x) => JSON.stringify(x)).join(', ')}`, ev);
      return holds(`${listed.length} authorization server(s): ${listed.join(', ')}`, ev);
    }),
  }),
  authCheck({
    id: 'auth.metadata-resource',
    title: 'the Protected Resource Metadata names the resource it was fetched for (RFC 9728 §3.3)',
    requirements: ['AZ-04'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    spec: SPEC.authorizationDiscovery26,
    judge: gated([documentFound], (o) => {
      const doc = found(o)!;
      const resource = doc.document!.resource;
      const expected = doc.via === 'root' ? new URL(o.endpoint).origin : o.endpoint;
      const how = doc.via === 'header' ? `found through the challenge to a request for ${expected}` : `fetched for ${expected}`;
      const ev = [evidence('Protected Resource Metadata', doc.response, { pointer: '/resource', actual: resource, expected })];
      if (typeof resource !== 'string') return violated(`the document has no resource (${JSON.stringify(resource) ?? 'absent'}); ${how}, it must name that URL`, ev);
      if (resource.includes('#')) return violated(`resource ${resource} has a fragment`, ev);
      if (!sameResource(resource, expected)) return violated(`resource is ${resource}; ${how}, it must be identical: clients refuse the document otherwise${resourceHint(resource, expected)}`, ev);
      return holds(`resource ${resource}, ${how}`, ev);
    }),
  }),
  authCheck({
    id: 'auth.challenge-scope',
    title: 'the 401 challenge names the scopes the request needs (scope)',
    requirements: ['AZ-07'],
    level: 'SHOULD',
    versions: SCOPED,
    spec: SPEC.authorization26,
    judge(o) {
      if (o.anonymous.status !== 401) return untestable(`the request without credentials got HTTP ${o.anonymous.status}: no 401 challenge to read`);
      const challenge = bearerChallenge(o.anonymous.headers['www-authenticate']);
      if (!challenge) return untestable('the 401 has no Bearer challenge to read (auth.challenge judges that)');
      const ev = [evidence('without credentials', o.anonymous)];
      if (!challenge.params.scope) return violated(`the 401 challenge names no scope: ${o.anonymous.headers['www-authenticate']}`, ev);
      return holds(`scope="${challenge.params.scope}"`, ev);
    },
  }),
  authCheck({
    id: 'auth.offline-access',
    title: 'neither the 401 challenge\'s scope nor the Protected Resource Metadata\'s scopes_supported names offline_access (a refresh token is no resource requirement)',
    requirements: ['AZ-31'],
    level: 'SHOULD',
    versions: ['2026-07-28'],
    spec: SPEC.authorization26,
    judge(o) {
      const challenge = o.anonymous.status === 401 ? bearerChallenge(o.anonymous.headers['www-authenticate']) : undefined;
      const doc = found(o);
      if (!challenge && !doc) return untestable('neither a 401 Bearer challenge nor a Protected Resource Metadata document to read');
      const named: string[] = [];
      const ev: Evidence[] = [];
      if (challenge) {
        ev.push(evidence('without credentials', o.anonymous));
        if ((challenge.params.scope ?? '').split(' ').includes(OFFLINE_ACCESS)) named.push(`the 401 challenge (scope="${challenge.params.scope}")`);
      }
      if (doc) {
        const supported = doc.document!.scopes_supported;
        ev.push(evidence('Protected Resource Metadata', doc.response, { pointer: '/scopes_supported', actual: supported ?? '(absent)' }));
        if (Array.isArray(supported) && supported.includes(OFFLINE_ACCESS)) named.push(`the Protected Resource Metadata (scopes_supported ${JSON.stringify(supported)})`);
      }
      if (named.length) return violated(`${named.join(' and ')} name${named.length === 1 ? 's' : ''} ${OFFLINE_ACCESS}: whether to ask for a refresh token is the client's choice, not something the resource requires`, ev);
      return holds(`no ${OFFLINE_ACCESS} in ${[challenge ? 'the challenge' : '', doc ? 'scopes_supported' : ''].filter(Boolean).join(' or ')}`, ev);
    },
  }),
  authCheck({
    id: 'auth.server-metadata',
    title: 'each authorization server serves its metadata at a well-known URI, with its own identifier as issuer',
    requirements: ['AZ-08'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    spec: SPEC.authorizationDiscovery26,
    judge: gated([documentFound], (o) => {
      if (o.servers.length === 0) return untestable('the Protected Resource Metadata lists no authorization server to read');
      const read = o.servers.filter((s) => s.notFetched === undefined);
      if (read.length === 0) return untestable(o.servers.map((s) => `${s.identifier}: ${s.notFetched}`).join('; '));
      if (read.some((s) => s.tried.some((t) => t.response.aborted))) return untestable('the run ended while the metadata was fetched');
      const bad: string[] = [];
      const ev: Evidence[] = [];
      for (const s of read) {
        const doc = s.tried.find((t) => t.document);
        if (!doc) {
          bad.push(`${s.identifier}: no metadata (${tried(s.tried)})`);
          ev.push(...s.tried.map((t) => evidence(`metadata of ${s.identifier}`, t.response)));
        } else if (doc.document!.issuer !== s.identifier) {
          bad.push(`${s.identifier}: the document at ${doc.url} names issuer ${JSON.stringify(doc.document!.issuer) ?? '(absent)'}`);
          ev.push(evidence(`metadata of ${s.identifier}`, doc.response, { pointer: '/issuer', actual: doc.document!.issuer, expected: s.identifier }));
        } else ev.push(evidence(`metadata of ${s.identifier}`, doc.response));
      }
      if (bad.length) return violated(`${bad.join('; ')}: clients look there and use a document only when its issuer is identical to the identifier`, ev);
      const skipped = o.servers.length - read.length;
      return holds(`${read.length} authorization server(s), each with metadata naming it as issuer${skipped ? ` (${skipped} on another host not read)` : ''}`, ev);
    }),
  }),
  authCheck({
    id: 'auth.server-pkce',
    title: 'the authorization server metadata advertises PKCE S256 (code_challenge_methods_supported)',
    requirements: ['AZ-09'],
    level: 'MUST',
    versions: SCOPED,
    spec: SPEC.authorizationSecurity26,
    judge: gated([serverMetadataRead], (o) => {
      const docs = serverMetadata(o);
      const bad = docs.filter(({ doc }) => {
        const m = doc.document.code_challenge_methods_supported;
        return !Array.isArray(m) || !m.includes('S256');
      });
      const ev = docs.map(({ id, doc }) => evidence(`metadata of ${id}`, doc.response, { pointer: '/code_challenge_methods_supported', actual: doc.document.code_challenge_methods_supported }));
      if (bad.length) return violated(`${bad.map(({ id, doc }) => `${id}: code_challenge_methods_supported is ${JSON.stringify(doc.document.code_challenge_methods_supported) ?? 'absent'}`).join('; ')}; without S256 MCP clients refuse to authorize`, ev);
      return holds(`${docs.length} authorization server(s) advertise S256`, ev);
    }),
  }),
  authCheck({
    id: 'auth.server-iss',
    title: 'the authorization server metadata says its authorization responses carry iss (authorization_response_iss_parameter_supported: true, RFC 9207)',
    requirements: ['AZ-30'],
    level: 'SHOULD',
    versions: ['2026-07-28'],
    spec: SPEC.authorization26,
    judge: gated([serverMetadataRead], (o) => {
      const docs = serverMetadata(o);
      const said = (d: (typeof docs)[number]) => d.doc.document.authorization_response_iss_parameter_supported;
      const ev = docs.map((d) => evidence(`metadata of ${d.id}`, d.doc.response, { pointer: '/authorization_response_iss_parameter_supported', expected: true, actual: said(d) ?? '(absent)' }));
      const silent = docs.filter((d) => said(d) !== true);
      if (silent.length) {
        return violated(`${silent.map((d) => `${d.id}: authorization_response_iss_parameter_supported is ${JSON.stringify(said(d)) ?? 'absent'}`).join('; ')}: either its authorization responses carry no iss (a client cannot detect a mix-up), or they do and the metadata must say so`, ev);
      }
      return holds(`${docs.length} authorization server(s) advertise iss in authorization responses`, ev);
    }),
  }),
  authCheck({
    id: 'auth.server-https',
    title: 'every endpoint the authorization server metadata names (issuer, authorization, token, registration, ...) is served over HTTPS',
    requirements: ['AZ-35'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    spec: SPEC.authorizationSecurity26,
    judge: gated([serverMetadataRead], (o) => {
      const docs = serverMetadata(o);
      const plain: string[] = [];
      const local: string[] = [];
      const ev: Evidence[] = [];
      for (const { id, doc } of docs) {
        const named = Object.entries(doc.document).filter(([k, v]) => (k === 'issuer' || k === 'jwks_uri' || k.endsWith('_endpoint')) && typeof v === 'string') as [string, string][];
        for (const [k, v] of named) {
          const url = parsedUrl(v);
          if (url?.protocol === 'https:') continue;
          if (url?.protocol === 'http:' && isLoopbackHost(url.hostname)) local.push(`${k} ${v}`);
          else {
            plain.push(`${id}: ${k} ${v}`);
            ev.push(evidence(`metadata of ${id}`, doc.response, { pointer: `/${k}`, actual: v }));
          }
        }
      }
      if (plain.length) return violated(`not HTTPS: ${plain.slice(0, 4).join('; ')}${plain.length > 4 ? ` (and ${plain.length - 4} more)` : ''}; tokens and codes would cross the network in the clear`, ev);
      if (local.length) return skip(`the authorization server is on this machine (${local[0]}${local.length > 1 ? `, and ${local.length - 1} more` : ''}): plain HTTP on the loopback interface is how one tests locally; HTTPS is judged on an authorization server reached over the network`);
      return holds(`${docs.length} authorization server(s), every endpoint HTTPS`, docs.map(({ id, doc }) => evidence(`metadata of ${id}`, doc.response)));
    }),
  }),
];

function safeProtocol(x: unknown): string {
  try {
    return new URL(String(x)).protocol;
  } catch {
    return '';
  }
}

/**
 * The requests with forged tokens (or, `malformed`, with malformed Authorization headers): none may be
 * served; a refusal is 401 (a malformed header may get 400, RFC 6750 §3.1). The challenge every 401
 * carries is auth.challenge's to judge.
 */
function judgeForged(o: AuthObs, malformed: boolean): Judgement {
  const sent = o.forged.filter((f) => f.credential.malformed === malformed);
  const what = malformed ? 'malformed Authorization header' : 'forged token';
  if (sent.length === 0) return untestable(`no request with a ${what} was sent (the run ended first)`);
  const answered = sent.filter((f) => f.response.status !== undefined);
  if (answered.length === 0) return untestable(`no request with a ${what} was answered: ${described(sent[0].response)}`);
  const bad: Evidence[] = [];
  for (const { credential, response: r } of answered) {
    const status = r.status!;
    let why: string | undefined;
    if (status >= 200 && status < 300) why = `served (HTTP ${status}): the server does not check what it is given`;
    else if (status !== 401 && !(malformed && status === 400)) why = `HTTP ${status}, not 401${malformed ? ' (or 400 for a malformed request)' : ''}`;
    if (why) bad.push(evidence(`${credential.kind}: ${why}`, r, { actual: `Authorization: ${credential.authorization.slice(0, 120)}` }));
  }
  if (bad.length) return violated(`${bad.length} of ${answered.length} requests with a ${what} were not refused as they must be; first: ${bad[0].what}`, bad.slice(0, 4));
  const unanswered = sent.length - answered.length;
  return holds(`${answered.length} request(s) with a ${what} refused (${[...new Set(answered.map((f) => f.response.status))].join(', ')})${unanswered ? `; ${unanswered} not answered: ${described(sent.find((f) => f.response.status === undefined)!.response)}` : ''}`, answered.slice(0, 4).map((f) => evidence(f.credential.kind, f.response)));
}
