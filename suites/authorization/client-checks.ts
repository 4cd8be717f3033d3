// auth.client-*: a client under test against mcpspec's scripted server behind OAuth
// (docs/requirements-authorization.md, AZ-10 and later): discovery, registration (application_type,
// redirect URIs, grant types, client authentication by the registered method, metadata documents,
// pre-registered credentials, server binding), PKCE, resource (and its exact published form), state,
// the bearer header, scope (offline_access only where listed), the metadata's issuer, the
// authorization response's iss, refresh, and step-up (bounded when it never succeeds). A client that does not try to authorize (it is optional) leaves them
// untestable. The server side (auth.*) is in ./server-checks.ts.

import { createHash } from 'node:crypto';
import { isObj } from '../../protocol/jsonrpc.js';
import { SPEC } from '../../protocol/spec-links.js';
import { ALL_VERSIONS } from '../../protocol/versions.js';
import type { Evidence } from '../../results/verdict.js';
import { describeExit } from '../kit/client-exit.js';
import { check, holds, untestable, violated, type Check, type CheckDefinition, type Judgement } from '../kit/check.js';
import { every, firstOffenders, gated, type Precondition } from '../kit/judge.js';
import { PRE_REGISTERED_ENV, type OAuthRequest } from './authorization-server.js';
import type { Received } from '../ports/scripted-server.js';
import { absentIssServer, authorizationServer, cimdServer, confidentialServer, movedServer, wrongResourceServer, noIssServer, scopeFromMetadataServer, scopeFromNowhereServer, wellKnownServer, stepUpServer, trailingSlashIssServer, unadvertisedIssServer, wrongIssServer, wrongIssuerServer, wrongStateServer, absentStateServer, expiryServer, scopeUnlistedServer, noPkceServer, oidcOnlyServer, secretPostServer, publicClientServer, preRegisteredServer, scopeRetryServer, rootResourceServer, type AuthClientObs } from './client-scenarios.js';
import { isLoopbackHost } from '../../protocol/loopback.js';
import { HTTP, parsedUrl, sameResource, SCOPED } from './common.js';

/** The root well-known Protected Resource Metadata URI, tried after the path-inserted one (RFC 9728 §3). */
const PRM_ROOT = '/.well-known/oauth-protected-resource';

/** base64url(SHA-256(verifier)): the S256 code challenge (RFC 7636 §4.2). */
function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/** Refused by the gate the authorization server puts before the endpoint: 401 (no token it issued), 403 (step-up scenario: insufficient_scope). */
const unauthorized = (r: Received) => r.refused === 401;
const insufficientScope = (r: Received) => r.refused === 403;
const isGet = (r: OAuthRequest, path: string) => r.method === 'GET' && r.path === path;
/** The recording sequence number of an OAuth request's answer (its own, when it has none recorded). */
const answered = (r: OAuthRequest) => r.answerSeq ?? r.seq;
const isCodeExchange = (r: OAuthRequest) => r.method === 'POST' && r.path === '/token' && r.body?.grant_type === 'authorization_code';

/** A scenario with a baseline run: the OAuth requests of the baseline (correct server), and of the judged run. */
function split(o: AuthClientObs): [OAuthRequest[], OAuthRequest[]] {
  const n = o.baseline ?? 0;
  return [o.oauth.requests.slice(0, n), o.oauth.requests.slice(n)];
}
/**
 * A baseline scenario whose judged run serves one document the client must not use: the OAuth
 * requests after the client read it, or why nothing shows (the baseline went no further, or the
 * document was never read). `baseline` and `document` word the two reasons.
 */
function afterReading(o: AuthClientObs, read: (r: OAuthRequest) => boolean, words: { baseline: string; document: string }): OAuthRequest[] | Judgement {
  const [baseline, reqs] = split(o);
  if (!baseline.some(isFlowStep)) return untestable(`${words.baseline} the client did not register, authorize or ask for a token either: nothing shows it refused`);
  const at = reqs.findIndex(read);
  if (at < 0) return untestable(`the client never read ${words.document}`);
  return reqs.slice(at + 1);
}

/** The endpoint a request went to, at whichever authorization server (the last segment of its path). */
const endpointOf = (r: OAuthRequest) => r.path.slice(r.path.lastIndexOf('/'));
const isFlowStep = (r: OAuthRequest) => (r.method === 'GET' && endpointOf(r) === '/authorize') || (r.method === 'POST' && (endpointOf(r) === '/register' || endpointOf(r) === '/token'));

const isRefresh = (r: OAuthRequest) => r.method === 'POST' && endpointOf(r) === '/token' && r.body?.grant_type === 'refresh_token';
/** Why a client in the expiry scenario gave nothing to judge on refreshes. */
const noRefresh = (o: AuthClientObs) =>
  o.oauth.expired.length ? 'the client did not refresh its expired token (it may have authorized again, or given up)' : 'no token expired: the client made no second request with its first token';
/** The dynamic registration requests a client sent, at whichever authorization server. */
const registrationRequests = (o: AuthClientObs) => o.oauth.requests.filter((r) => r.method === 'POST' && endpointOf(r) === '/register');
/** The application types OpenID Connect Dynamic Client Registration defines. */
const APPLICATION_TYPES = ['native', 'web'];

/**
 * The application_type redirect URIs call for (2026-07-28 client registration): "native" when every
 * one is a loopback HTTP(S) URL or has a custom scheme, "web" when every one is HTTP(S) on a
 * non-local host; undefined when they are mixed or missing (either may fit).
 */
export function fittingApplicationType(redirectUris: unknown): 'native' | 'web' | undefined {
  if (!Array.isArray(redirectUris) || redirectUris.length === 0) return undefined;
  const kinds = new Set(
    redirectUris.map((u) => {
      try {
        const url = new URL(String(u));
        return url.protocol !== 'http:' && url.protocol !== 'https:' ? 'native' : isLoopbackHost(url.hostname) ? 'native' : 'web';
      } catch {
        return 'unknown';
      }
    }),
  );
  return kinds.size === 1 && !kinds.has('unknown') ? ([...kinds][0] as 'native' | 'web') : undefined;
}

/** Whether the client tried to authorize at all (authorization is optional for clients). */
const unlessTried: Precondition<AuthClientObs> = (o) => {
  if (o.oauth.requests.length > 0) return undefined;
  if (o.received.some(unauthorized)) return untestable(`the client got 401 and made no OAuth request (it may not support authorization; it ${describeExit(o.exit)})`);
  return untestable('the client sent nothing to the protected endpoint');
};

function authClientCheck(d: Omit<CheckDefinition<AuthClientObs>, 'requires' | 'role'>, scenario = authorizationServer): Check<AuthClientObs> {
  return check(scenario, { ...d, role: 'client', requires: HTTP, judge: gated([unlessTried], d.judge) });
}

const oauthEvidence = (what: string, r: OAuthRequest, extra: Partial<Evidence> = {}): Evidence => ({ what: `${what}: ${r.method} ${r.path}`, request: r.body ?? r.query, seq: [r.seq], ...extra });

/**
 * Why the redirect that answered an authorization request never reached the client, when mcpspec's
 * headless browser (which the client opened) could not load the client's callback; undefined when it
 * was delivered or the client followed the redirect itself.
 */
function undelivered(o: AuthClientObs, authorize: OAuthRequest): string | undefined {
  if (authorize.code === undefined) return undefined;
  const visit = o.oauth.browser.find((v) => v.visited.some((u) => u.includes(`code=${authorize.code}`)));
  if (visit?.error === undefined) return undefined;
  const callback = visit.visited.at(-1) ?? '';
  return `the browser could not load its callback ${callback.split('?')[0]} (${visit.error})`;
}

/** Why none of these authorization requests' responses reached the client, or undefined when one did. */
function neverDelivered(o: AuthClientObs, authorizes: OAuthRequest[]): string | undefined {
  const why = authorizes.map((a) => undelivered(o, a));
  return why.length > 0 && why.every((w) => w !== undefined) ? why[0] : undefined;
}

/**
 * Authorization requests, one per authorization: a client whose browser could not be opened (or
 * whose callback did not answer) may open the same URL again through each opener it knows, and
 * those loads share a `state` (or at least a code challenge).
 */
function distinctAuthorizations(authorizes: OAuthRequest[]): OAuthRequest[] {
  const seen = new Set<string>();
  return authorizes.filter((a) => {
    const key = a.query.state ?? a.query.code_challenge ?? JSON.stringify(a.query);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** What the authorization responses of a scenario said of iss, for messages. */
function issSaid(o: AuthClientObs): string {
  const iss = o.oauth.responseIss === undefined ? 'no iss' : `iss=${o.oauth.responseIss}`;
  return `${iss}, the metadata ${o.oauth.issAdvertised ? 'advertising' : 'not advertising'} iss, the issuer being ${o.oauth.issuer}`;
}


/** Token requests, at whichever authorization server. */
const isTokenRequest = (r: OAuthRequest) => r.method === 'POST' && endpointOf(r) === '/token';
/** A token request for evidence, its secrets redacted. */
const redacted = (t: OAuthRequest): OAuthRequest => ({
  ...t,
  ...(t.body ? { body: { ...t.body, ...(t.body.client_secret !== undefined ? { client_secret: '(redacted)' } : {}), ...(t.body.refresh_token !== undefined ? { refresh_token: '(redacted)' } : {}) } } : {}),
  ...(t.basic ? { basic: { id: t.basic.id, secret: '(redacted)' } } : {}),
});
/** How a token request authenticated the client, for evidence. */
const authenticatedBy = (t: OAuthRequest) => (t.basic ? 'HTTP Basic' : typeof t.body?.client_secret === 'string' ? 'client_secret in the form' : 'none');

/**
 * A token request's departure from the registered token endpoint method (RFC 7591 §3.2.1: the
 * registration response says the method; RFC 6749 §2.3.1 client_secret_basic and _post, §3.2.1 a
 * public client's client_id), or undefined when it keeps to it.
 */
export function tokenAuthProblem(t: OAuthRequest, method: 'client_secret_post' | 'none', clientId: string, secret?: string): string | undefined {
  const grant = `${String(t.body?.grant_type ?? 'a')} token request`;
  const inForm = t.body?.client_secret;
  if (method === 'client_secret_post') {
    if (t.basic) return `${grant} with HTTP Basic (client_secret_basic), a method the authorization server does not list${typeof inForm === 'string' ? ' (and the secret in the form too)' : ''}`;
    if (typeof inForm !== 'string') return `${grant} without client_secret in the form (no client authentication)`;
    if (inForm !== secret) return `${grant} whose client_secret is not the one issued`;
    if (t.body?.client_id !== clientId) return `${grant} without its client_id in the form (client_secret_post sends both)`;
    return undefined;
  }
  if (t.basic) return `${grant} with HTTP Basic credentials (${t.basic.secret ? 'a secret' : 'an empty secret'}) although the client is registered as a public client (none)`;
  if (inForm !== undefined) return `${grant} with a client_secret in the form although none was issued (a public client)`;
  if (t.body?.client_id !== clientId) return `${grant} without client_id in the form (a public client names itself there)`;
  return undefined;
}

/** auth.client-token-auth-post and -none: token requests as a client registered for `method`, judged one by one. */
function tokenAuthJudge(method: 'client_secret_post' | 'none') {
  return (o: AuthClientObs): Judgement => {
    const regs = o.oauth.registrations.filter((r) => (method === 'none' ? r.secret === undefined : r.method === method && r.secret !== undefined));
    if (regs.length === 0) return untestable(`the client did not register dynamically here (no ${method === 'none' ? 'public client' : 'client_secret_post registration'} to judge)`);
    const byClient = new Map(regs.map((r) => [r.clientId, r]));
    const tokens = o.oauth.requests.filter((r) => isTokenRequest(r) && r.clientId !== undefined && byClient.has(r.clientId));
    if (tokens.length === 0) return untestable('the client made no token request as the client it registered');
    const bad = tokens.map((t) => tokenAuthProblem(t, method, t.clientId!, byClient.get(t.clientId!)!.secret)).filter((p): p is string => p !== undefined);
    const expected = method === 'none' ? 'none (client_id in the form, no secret)' : 'client_secret_post (client_id and client_secret in the form)';
    const ev = tokens.slice(0, 3).map((t) => oauthEvidence('token request', redacted(t), { expected: { authentication: expected }, actual: authenticatedBy(t) }));
    const listed = `the authorization server lists only ${method} in token_endpoint_auth_methods_supported and registered the client for it`;
    if (bad.length) return violated(`${listed}: ${bad[0]}${bad.length > 1 ? ` (and ${bad.length - 1} more)` : ''}`, ev);
    return holds(`${tokens.length} token request(s), each authenticated as ${expected}`, ev);
  };
}

/** The official suite's bound on authorization attempts when a scope upgrade never succeeds (scope-retry-limit): the first and two step-ups. */
export const MAX_AUTHORIZATIONS = 3;

type ResponseRecord = Pick<CheckDefinition<AuthClientObs>, 'id' | 'title' | 'requirements' | 'level' | 'versions' | 'spec'>;

/**
 * A check on what a client does with an authorization response, one scenario a misbehaviour: the
 * client runs first against a correct authorization server (the baseline: it exchanged its code
 * there), then against one whose response it must refuse (no code exchanged after it) or, for
 * `proceed`, accept. `said` tells what the response said; `unless` gives the reason the judged run
 * has nothing to show (e.g. the request had no state to verify).
 */
function responseCheck(
  record: ResponseRecord,
  scenario: typeof wrongIssServer,
  said: (o: AuthClientObs, authorize: OAuthRequest) => string,
  { expect = 'refuse', unless }: { expect?: 'refuse' | 'proceed'; unless?: (authorize: OAuthRequest) => string | undefined } = {},
): Check<AuthClientObs> {
  return authClientCheck(
    {
      ...record,
      judge(o) {
        const [baseline, reqs] = split(o);
        if (!baseline.some(isCodeExchange)) return untestable('with a correct authorization server the client did not exchange its code either: nothing shows what it does with this response');
        const first = reqs.findIndex((r) => isGet(r, '/authorize'));
        if (first < 0) return untestable('the client made no authorization request');
        const nothing = unless?.(reqs[first]);
        if (nothing) return untestable(nothing);
        const exchanged = reqs.slice(first + 1).filter(isCodeExchange);
        const ev = [oauthEvidence('authorization request', reqs[first]), ...exchanged.slice(0, 2).map((r) => oauthEvidence('code exchanged', r))];
        const lost = exchanged.length === 0 ? neverDelivered(o, reqs.filter((r) => isGet(r, '/authorize'))) : undefined;
        if (lost) return untestable(`the authorization response never reached the client: ${lost}`);
        const what = said(o, reqs[first]);
        if (expect === 'proceed') {
          if (exchanged.length === 0) return violated(`after an authorization response with ${what}, the client did not exchange its code: it must go on`, ev);
          return holds(`exchanged its code after an authorization response with ${what}`, ev);
        }
        if (exchanged.length) return violated(`the authorization response had ${what}, and the client sent its code to the token endpoint anyway`, ev);
        return holds(`no code exchanged after an authorization response with ${what}`, ev);
      },
    },
    scenario,
  );
}

/** RFC 9207 §2.4 as 2026-07-28 tabulates it (AZ-16), one scenario a row of the table. */
const issCheck = ({ id, title }: { id: string; title: string }, scenario: typeof wrongIssServer, expect: 'refuse' | 'proceed' = 'refuse') =>
  responseCheck({ id, title, requirements: ['AZ-16'], level: 'MUST', versions: ['2026-07-28'], spec: SPEC.authorization26 }, scenario, issSaid, { expect });

/** What an authorization response did with the request's state, for messages. */
function stateSaid(o: AuthClientObs, authorize: OAuthRequest): string {
  const sent = authorize.query.state ?? '';
  return o.oauth.responseState === 'absent' ? `no state, the request having had state=${sent}` : `state=${sent}-not-yours, the request having had state=${sent}`;
}

/** Security considerations (AZ-29): a client that sent no state has none to verify. */
const stateSent = (authorize: OAuthRequest) => (authorize.query.state ? undefined : 'the client sent no state, so there is none to verify (auth.client-state judges that)');

export const authClientChecks = [
  authClientCheck({
    id: 'auth.client-discovery',
    title: 'after a 401 the client reads the Protected Resource Metadata the challenge names, then the authorization server metadata, before authorizing',
    requirements: ['AZ-10'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    spec: SPEC.authorizationDiscovery26,
    judge(o) {
      const reqs = o.oauth.requests;
      const prmPath = new URL(o.oauth.resourceMetadataUrl).pathname;
      const prm = reqs.findIndex((r) => isGet(r, prmPath));
      const asMeta = reqs.findIndex((r) => r.method === 'GET' && (r.path === new URL(o.oauth.serverMetadataUrl).pathname || r.path.startsWith('/.well-known/openid-configuration')));
      const step = reqs.findIndex(isFlowStep);
      const ev = reqs.slice(0, 6).map((r) => oauthEvidence('OAuth request', r));
      if (prm < 0) return violated(`the client never read the Protected Resource Metadata the challenge named (${o.oauth.resourceMetadataUrl}); its OAuth requests: ${reqs.map((r) => `${r.method} ${r.path}`).join(', ')}`, ev);
      if (asMeta >= 0 && asMeta < prm) return violated('the client read the authorization server metadata before the Protected Resource Metadata that names the authorization server', ev);
      if (step >= 0 && (asMeta < 0 || asMeta > step)) return violated(`the client's ${reqs[step].method} ${reqs[step].path} came before it read the authorization server metadata`, ev);
      if (asMeta < 0) return untestable('the client read the Protected Resource Metadata and went no further');
      return holds('read the Protected Resource Metadata at the challenge\'s URL, then the authorization server metadata, before authorizing', ev);
    },
  }),
  authClientCheck(
    {
      id: 'auth.client-prm-well-known',
      title: 'after a 401 that names no resource_metadata, the client requests the well-known Protected Resource Metadata URIs, path-inserted first',
      requirements: ['AZ-18'],
      level: 'MUST',
      versions: SCOPED,
      spec: SPEC.authorizationDiscovery26,
      judge(o) {
        const inserted = new URL(o.oauth.resourceMetadataUrl).pathname;
        const tried = o.oauth.requests.filter((r) => r.method === 'GET' && (r.path === inserted || r.path === PRM_ROOT));
        const ev = tried.slice(0, 3).map((r) => oauthEvidence(`Protected Resource Metadata request (HTTP ${r.status})`, r));
        if (tried.length === 0) return violated(`after a 401 naming no resource_metadata the client requested neither well-known URI (${inserted}, then ${PRM_ROOT}); its OAuth requests: ${o.oauth.requests.slice(0, 6).map((r) => `${r.method} ${r.path}`).join(', ')}`, o.oauth.requests.slice(0, 3).map((r) => oauthEvidence('OAuth request', r)));
        if (tried[0].path !== inserted) return violated(`the client requested the root well-known URI ${PRM_ROOT} before the one with the endpoint's path inserted (${inserted})`, ev);
        const then = [...new Set(tried.map((r) => r.path))].slice(1);
        return holds(`requested ${inserted} first${then.length ? `, then ${then.join(', ')}` : ''}`, ev);
      },
    },
    wellKnownServer,
  ),
  authClientCheck(
    {
      id: 'auth.client-as-well-known',
      title: 'for an issuer with a path, the client tries the authorization server metadata URIs in order: OAuth path-inserted, OpenID Connect path-inserted, OpenID Connect path-appended',
      requirements: ['AZ-19'],
      level: 'MUST',
      versions: SCOPED,
      spec: SPEC.authorizationDiscovery26,
      judge(o) {
        const issuer = new URL(o.oauth.identifier);
        const order = [`/.well-known/oauth-authorization-server${issuer.pathname}`, `/.well-known/openid-configuration${issuer.pathname}`, `${issuer.pathname}/.well-known/openid-configuration`];
        const prm = o.oauth.requests.findIndex((r) => r.method === 'GET' && r.path === new URL(o.oauth.resourceMetadataUrl).pathname && r.status === 200);
        if (prm < 0) return untestable('the client never read the Protected Resource Metadata that names the authorization server');
        const tried = o.oauth.requests.slice(prm + 1).filter((r) => r.method === 'GET' && order.includes(r.path));
        const ev = tried.slice(0, 3).map((r) => oauthEvidence(`authorization server metadata request (HTTP ${r.status})`, r));
        const served = order[1];
        const ranks = tried.map((r) => order.indexOf(r.path));
        const firstServed = ranks.indexOf(1);
        if (firstServed < 0) return violated(`the authorization server ${o.oauth.identifier} publishes its metadata at ${served} (OpenID Connect discovery, path inserted), and the client never requested it; it tried: ${tried.map((r) => r.path).join(', ') || 'none of the three URIs'}`, ev);
        if (!ranks.slice(0, firstServed).includes(0)) return violated(`the client requested ${served} without first trying ${order[0]} (OAuth metadata, path inserted), which comes first`, ev);
        if (ranks.slice(0, firstServed).includes(2)) return violated(`the client requested ${order[2]} (path appended) before ${served} (path inserted)`, ev);
        return holds(`tried ${order[0]} (404), then read ${served}`, ev);
      },
    },
    wellKnownServer,
  ),
  authClientCheck(
    {
      id: 'auth.client-as-oidc',
      title: 'for an issuer without a path, the client tries OAuth 2.0 authorization server metadata, then OpenID Connect discovery, and reads the one served',
      requirements: ['AZ-19'],
      level: 'MUST',
      versions: SCOPED,
      spec: SPEC.authorizationDiscovery26,
      judge(o) {
        const order = ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration'];
        const prm = o.oauth.requests.findIndex((r) => r.method === 'GET' && r.path === new URL(o.oauth.resourceMetadataUrl).pathname && r.status === 200);
        if (prm < 0) return untestable('the client never read the Protected Resource Metadata that names the authorization server');
        const tried = o.oauth.requests.slice(prm + 1).filter((r) => r.method === 'GET' && order.includes(r.path));
        const ev = tried.slice(0, 2).map((r) => oauthEvidence(`authorization server metadata request (HTTP ${r.status})`, r));
        const oidc = tried.findIndex((r) => r.path === order[1]);
        if (oidc < 0) return violated(`the authorization server ${o.oauth.identifier} publishes its metadata only at ${order[1]} (OpenID Connect discovery), and the client never requested it; it tried: ${tried.map((r) => r.path).join(', ') || 'neither URI'}`, ev);
        if (!tried.slice(0, oidc).some((r) => r.path === order[0])) return violated(`the client requested ${order[1]} without first trying ${order[0]} (OAuth 2.0 metadata), which comes first`, ev);
        return holds(`tried ${order[0]} (404), then read ${order[1]}`, ev);
      },
    },
    oidcOnlyServer,
  ),
  authClientCheck({
    id: 'auth.client-pkce',
    title: 'the authorization request carries an S256 code_challenge, and the token request its code_verifier',
    requirements: ['AZ-11'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    spec: SPEC.authorizationSecurity26,
    judge(o) {
      const authorizes = o.oauth.requests.filter((r) => isGet(r, '/authorize'));
      if (authorizes.length === 0) return untestable('the client made no authorization request');
      const bad: string[] = [];
      const ev: Evidence[] = [];
      for (const a of authorizes) {
        if (!a.query.code_challenge || a.query.code_challenge_method !== 'S256') {
          bad.push(`an authorization request with code_challenge ${a.query.code_challenge ? 'present' : 'absent'} and code_challenge_method ${a.query.code_challenge_method ?? 'absent'}`);
          ev.push(oauthEvidence('authorization request', a, { expected: { code_challenge_method: 'S256' } }));
        }
      }
      const exchanges = o.oauth.requests.filter(isCodeExchange);
      for (const t of exchanges) {
        const from = authorizes.find((a) => a.code !== undefined && a.code === t.body?.code);
        const verifier = t.body?.code_verifier;
        if (typeof verifier !== 'string') bad.push('a token request without code_verifier');
        else if (from?.query.code_challenge && s256(verifier) !== from.query.code_challenge) bad.push('a token request whose code_verifier does not hash (S256) to the code_challenge of its authorization request');
        else continue;
        ev.push(oauthEvidence('token request', t));
      }
      if (bad.length) return violated(bad.join('; '), ev);
      return holds(`${authorizes.length} authorization request(s) with an S256 challenge${exchanges.length ? `, ${exchanges.length} code exchange(s) with the matching verifier` : ''}`);
    },
  }),
  authClientCheck({
    id: 'auth.client-resource',
    title: 'authorization and token requests name the MCP server in resource (RFC 8707)',
    requirements: ['AZ-12'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    spec: SPEC.authorization26,
    judge(o) {
      const asked = o.oauth.requests.filter((r) => isGet(r, '/authorize') || (r.method === 'POST' && r.path === '/token'));
      const resourceOf = (r: OAuthRequest) => (r.method === 'GET' ? r.query.resource : r.body?.resource);
      return every(asked, {
        none: 'the client made no authorization or token request',
        offends: (r) => typeof resourceOf(r) !== 'string' || !sameResource(resourceOf(r) as string, o.oauth.resource),
        violated: (bad) => `${bad.length} of ${asked.length} authorization/token requests without resource ${o.oauth.resource}; first, ${bad[0].method} ${bad[0].path}: resource ${JSON.stringify(resourceOf(bad[0])) ?? 'absent'}`,
        evidence: (r) => oauthEvidence('OAuth request', r, { expected: { resource: o.oauth.resource }, actual: resourceOf(r) }),
        holds: () => `${asked.length} authorization/token request(s), each with resource ${o.oauth.resource}`,
      });
    },
  }),
  authClientCheck(
    {
      id: 'auth.client-refresh-resource',
      title: 'a token refresh names the MCP server in resource too (RFC 8707): the expired token is refreshed for the same resource',
      requirements: ['AZ-12'],
      level: 'MUST',
      versions: ALL_VERSIONS,
      spec: SPEC.authorization26,
      judge(o) {
        const refreshes = o.oauth.requests.filter(isRefresh);
        if (refreshes.length === 0) return untestable(noRefresh(o));
        const bad = refreshes.filter((r) => typeof r.body?.resource !== 'string' || !sameResource(r.body.resource, o.oauth.resource));
        const ev = (bad.length ? bad : refreshes).slice(0, 2).map((r) => oauthEvidence('refresh request', { ...r, body: { ...r.body, refresh_token: '(redacted)' } }, { expected: { resource: o.oauth.resource }, actual: r.body?.resource ?? '(absent)' }));
        if (bad.length) return violated(`${bad.length} of ${refreshes.length} refresh request(s) without resource ${o.oauth.resource} (resource ${JSON.stringify(bad[0].body?.resource) ?? 'absent'}): every token request names the MCP server`, ev);
        return holds(`${refreshes.length} refresh request(s), each with resource ${o.oauth.resource}`, ev);
      },
    },
    expiryServer,
  ),
  authClientCheck(
    {
      id: 'auth.client-refresh-grant',
      title: 'a client that refreshes its tokens registered with refresh_token among its grant_types',
      requirements: ['AZ-32'],
      level: 'SHOULD',
      versions: ['2026-07-28'],
      spec: SPEC.authorization26,
      judge(o) {
        if (!o.oauth.requests.some(isRefresh)) return untestable(noRefresh(o));
        const regs = registrationRequests(o);
        if (regs.length === 0) return untestable('the client refreshed without registering dynamically here (a client ID metadata document or pre-registered credentials are not seen)');
        const lacking = regs.find((r) => !Array.isArray(r.body?.grant_types) || !r.body.grant_types.includes('refresh_token'));
        const ev = [oauthEvidence('registration request', lacking ?? regs[0], { expected: { grant_types: ['authorization_code', 'refresh_token'] }, actual: (lacking ?? regs[0]).body?.grant_types ?? '(absent)' })];
        if (lacking) {
          const said = lacking.body?.grant_types;
          return violated(`the client refreshes its tokens but registered with grant_types ${said === undefined ? 'absent (["authorization_code"] by default, RFC 7591)' : JSON.stringify(said)}, without refresh_token`, ev);
        }
        return holds('refreshed, and registered with refresh_token among its grant_types', ev);
      },
    },
    expiryServer,
  ),
  authClientCheck({
    id: 'auth.client-bearer',
    title: 'with a token, every request to the MCP server carries it as Authorization: Bearer, never in the query',
    requirements: ['AZ-13'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    spec: SPEC.authorization26,
    judge(o) {
      const inQuery = o.received.filter((r) => /[?&]access_token=/.test(r.query ?? ''));
      if (inQuery.length) return violated(`${inQuery.length} request(s) carry the token in the URI query (access_token=)`, firstOffenders(inQuery).map((r) => ({ what: `${r.httpMethod ?? 'POST'} ?${(r.query ?? '').slice(1, 40)}…`, seq: [r.seq] })));
      // Ordered by recording sequence, not by clock: what arrived after the token was sent could carry it.
      const issued = o.oauth.requests.find((r) => r.method === 'POST' && r.path === '/token' && r.status === 200);
      if (issued === undefined) return untestable('the client obtained no token');
      const after = o.received.filter((r) => r.seq > answered(issued));
      const bearer = (r: Received) => /^Bearer\s+(\S+)$/i.exec(r.headers?.authorization ?? '')?.[1];
      return every(after, {
        none: 'the client sent nothing to the MCP server after it obtained its token',
        offends: (r) => !o.oauth.tokens.includes(bearer(r) ?? ''),
        violated: (bad) => `${bad.length} of ${after.length} requests after the token was issued lack it in Authorization: Bearer`,
        evidence: (r) => ({ what: `${r.httpMethod ?? 'POST'} ${isObj(r.message) ? String(r.message.method ?? 'response') : ''}`, actual: r.headers?.authorization ? 'another value' : '(absent)', seq: [r.seq] }),
        holds: () => `${after.length} request(s) after the token was issued, each with Authorization: Bearer and the token`,
      });
    },
  }),
  authClientCheck({
    id: 'auth.client-scope',
    title: 'the authorization request asks for the scope the 401 challenge named',
    requirements: ['AZ-14'],
    level: 'SHOULD',
    versions: SCOPED,
    spec: SPEC.authorization26,
    judge(o) {
      const authorizes = o.oauth.requests.filter((r) => isGet(r, '/authorize'));
      if (authorizes.length === 0) return untestable('the client made no authorization request');
      const challenged = o.oauth.scope;
      if (challenged === undefined) return untestable('the challenge named no scope');
      const bad = authorizes.filter((a) => !(a.query.scope ?? '').split(' ').includes(challenged));
      if (bad.length) return violated(`the authorization request asks for scope ${JSON.stringify(bad[0].query.scope) ?? '(absent)'}, not the challenge's "${challenged}"`, bad.slice(0, 2).map((a) => oauthEvidence('authorization request', a, { expected: { scope: challenged } })));
      return holds(`scope "${authorizes[0].query.scope}"`);
    },
  }),
  authClientCheck(
    {
      id: 'auth.client-scope-authoritative',
      title: 'the challenge\'s scope is authoritative: the authorization request asks for every scope the 401 named, also one scopes_supported does not list',
      requirements: ['AZ-33'],
      level: 'MUST',
      versions: SCOPED,
      spec: SPEC.authorization26,
      judge(o) {
        const first = o.oauth.requests.find((r) => isGet(r, '/authorize'));
        if (first === undefined) return untestable('the client made no authorization request');
        const challenged = (o.oauth.scope ?? '').split(' ').filter(Boolean);
        const asked = (first.query.scope ?? '').split(' ');
        const missing = challenged.filter((s) => !asked.includes(s));
        const ev = [oauthEvidence('authorization request', first, { expected: { scope: o.oauth.scope }, actual: first.query.scope ?? '(absent)' })];
        const listed = JSON.stringify(o.oauth.scopesSupported ?? []);
        if (missing.length) return violated(`the 401 challenged scope "${o.oauth.scope}", and the authorization request asks for ${first.query.scope === undefined ? 'no scope' : `"${first.query.scope}"`}, leaving out ${missing.join(', ')}${missing.some((m) => !(o.oauth.scopesSupported ?? []).includes(m)) ? ` (not in scopes_supported ${listed}: the challenge is authoritative all the same)` : ''}`, ev);
        return holds(`asked for "${first.query.scope}", every challenged scope (scopes_supported being ${listed})`, ev);
      },
    },
    scopeUnlistedServer,
  ),
  authClientCheck(
    {
      id: 'auth.client-scope-supported',
      title: 'when the 401 challenge names no scope, the authorization request asks for every scope in the Protected Resource Metadata\'s scopes_supported',
      requirements: ['AZ-20'],
      level: 'SHOULD',
      versions: SCOPED,
      spec: SPEC.authorization26,
      judge(o) {
        const first = o.oauth.requests.find((r) => isGet(r, '/authorize'));
        if (first === undefined) return untestable('the client made no authorization request');
        const wanted = o.oauth.scopesSupported ?? [];
        const asked = (first.query.scope ?? '').split(' ').filter(Boolean);
        const missing = wanted.filter((w) => !asked.includes(w));
        const ev = [oauthEvidence('authorization request', first, { expected: { scope: wanted.join(' ') } })];
        if (missing.length) return violated(`the challenge named no scope and the resource metadata lists scopes_supported ${JSON.stringify(wanted)}, but the authorization request asks for ${first.query.scope === undefined ? 'no scope' : `scope "${first.query.scope}"`} (without ${missing.join(', ')})`, ev);
        return holds(`scope "${first.query.scope}", the resource metadata's scopes_supported`, ev);
      },
    },
    scopeFromMetadataServer,
  ),
  authClientCheck(
    {
      id: 'auth.client-scope-omitted',
      title: 'when neither the 401 challenge nor the metadata names a scope, the authorization request has no scope parameter',
      requirements: ['AZ-20'],
      level: 'SHOULD',
      versions: SCOPED,
      spec: SPEC.authorization26,
      judge(o) {
        const first = o.oauth.requests.find((r) => isGet(r, '/authorize'));
        if (first === undefined) return untestable('the client made no authorization request');
        const ev = [oauthEvidence('authorization request', first)];
        if (first.query.scope !== undefined) return violated(`no challenge or metadata names a scope, but the authorization request asks for scope "${first.query.scope}" (it should leave scope out)`, ev);
        return holds('no scope parameter', ev);
      },
    },
    scopeFromNowhereServer,
  ),
  authClientCheck(
    {
      id: 'auth.client-token-auth',
      title: 'registered for client_secret_basic, the client authenticates its token requests with HTTP Basic and the secret it was issued',
      requirements: ['AZ-23'],
      level: 'MUST',
      versions: ALL_VERSIONS,
      spec: SPEC.authorizationRegistration26,
      judge(o) {
        const issued = new Map(o.oauth.registrations.filter((r) => r.secret !== undefined).map((r) => [r.clientId, r]));
        const tokens = o.oauth.requests.filter((r) => r.method === 'POST' && endpointOf(r) === '/token' && r.clientId !== undefined && issued.has(r.clientId));
        if (issued.size === 0) return untestable('the client did not register (no client_secret was issued to it)');
        if (tokens.length === 0) return untestable('the client made no token request as the client it registered');
        const bad: string[] = [];
        for (const t of tokens) {
          const reg = issued.get(t.clientId!)!;
          const inForm = typeof t.body?.client_secret === 'string';
          if (!t.basic) bad.push(`${t.body?.grant_type ?? 'a'} token request without HTTP Basic${inForm ? ' (the secret in the form: client_secret_post)' : ' (no client authentication)'}`);
          else if (t.basic.id !== reg.clientId || t.basic.secret !== reg.secret) bad.push(`${t.body?.grant_type ?? 'a'} token request whose HTTP Basic credentials are not the client_id and secret issued${t.basic.id === reg.clientId ? ' (wrong secret, or not form-urlencoded before base64)' : ''}`);
          else if (inForm) bad.push(`${t.body?.grant_type ?? 'a'} token request with the secret both in HTTP Basic and in the form (one method a request)`);
        }
        const ev = tokens.slice(0, 3).map((t) => oauthEvidence('token request', { ...t, body: { ...t.body, ...(t.body?.client_secret ? { client_secret: '(redacted)' } : {}) } }, { expected: { authentication: 'client_secret_basic' }, actual: t.basic ? 'HTTP Basic' : typeof t.body?.client_secret === 'string' ? 'client_secret in the form' : 'none' }));
        if (bad.length) return violated(`registered for client_secret_basic: ${bad[0]}${bad.length > 1 ? ` (and ${bad.length - 1} more)` : ''}`, ev);
        return holds(`${tokens.length} token request(s), each with HTTP Basic and the issued secret`, ev);
      },
    },
    confidentialServer,
  ),
  authClientCheck({
    id: 'auth.client-application-type',
    title: 'a client that registers dynamically says its application_type ("native" or "web") in the registration request',
    requirements: ['AZ-26'],
    level: 'MUST',
    versions: ['2026-07-28'],
    spec: SPEC.authorizationRegistration26,
    judge(o) {
      const regs = registrationRequests(o);
      if (regs.length === 0) return untestable('the client did not register dynamically');
      const ev = regs.slice(0, 2).map((r) => oauthEvidence('registration request', r, { expected: { application_type: 'native or web' }, actual: r.body?.application_type ?? '(absent)' }));
      const bad = regs.find((r) => !APPLICATION_TYPES.includes(r.body?.application_type as string));
      if (bad) {
        const said = bad.body?.application_type;
        return violated(said === undefined ? 'the registration request has no application_type (an OpenID Connect server takes that as "web", which refuses loopback redirect URIs)' : `the registration request's application_type is ${JSON.stringify(said)}, neither "native" nor "web"`, ev);
      }
      return holds(`application_type ${[...new Set(regs.map((r) => JSON.stringify(r.body?.application_type)))].join(', ')}`, ev);
    },
  }),
  authClientCheck({
    id: 'auth.client-application-type-fit',
    title: 'the registered application_type fits the redirect URIs: "native" for loopback or custom-scheme redirects, "web" for redirects to a non-local host',
    requirements: ['AZ-27'],
    level: 'SHOULD',
    versions: ['2026-07-28'],
    spec: SPEC.authorizationRegistration26,
    judge(o) {
      const regs = registrationRequests(o).filter((r) => APPLICATION_TYPES.includes(r.body?.application_type as string));
      if (regs.length === 0) return untestable('the client sent no registration request with an application_type (auth.client-application-type judges that)');
      for (const r of regs) {
        const expected = fittingApplicationType(r.body?.redirect_uris);
        const ev = [oauthEvidence('registration request', r, { expected: { application_type: expected ?? 'native or web' }, actual: r.body?.application_type })];
        if (expected !== undefined && r.body?.application_type !== expected) {
          return violated(`the registration asks for application_type "${String(r.body?.application_type)}" with redirect URIs ${JSON.stringify(r.body?.redirect_uris)}, which make it a ${expected} application ("${expected}")`, ev);
        }
      }
      const r = regs[0];
      return holds(`application_type "${String(r.body?.application_type)}" with redirect URIs ${JSON.stringify(r.body?.redirect_uris)}`, [oauthEvidence('registration request', r)]);
    },
  }),
  authClientCheck({
    id: 'auth.client-redirect-registered',
    title: 'the client authorizes with a redirect_uri it registered: the authorization request\'s redirect_uri is one of the redirect_uris of the registration that issued its client_id',
    requirements: ['AZ-28'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    spec: SPEC.authorizationSecurity26,
    judge(o) {
      // What each registration asked for, by the client_id it was issued.
      const asked = new Map(o.oauth.registrations.map((g) => [g.clientId, o.oauth.requests.find((r) => r.seq === g.seq)?.body?.redirect_uris]));
      const authorizes = o.oauth.requests.filter((r) => isGet(r, '/authorize') && asked.has(r.query.client_id ?? ''));
      if (authorizes.length === 0) return untestable('the client made no authorization request as a client it registered dynamically (a client ID metadata document or pre-registered credentials are not seen here)');
      for (const a of authorizes) {
        const registered = asked.get(a.query.client_id!);
        const list = Array.isArray(registered) ? registered.map(String) : [];
        const ev = [oauthEvidence('authorization request', a, { expected: { redirect_uri: list.length === 1 ? list[0] : list }, actual: a.query.redirect_uri ?? '(absent)' })];
        if (a.query.redirect_uri === undefined) {
          if (list.length !== 1) return violated(`the authorization request has no redirect_uri, and the client registered ${list.length} redirect URIs (with several, or none, the request must name one)`, ev);
          continue;
        }
        if (!list.includes(a.query.redirect_uri)) return violated(`the authorization request's redirect_uri ${a.query.redirect_uri} is not one the client registered (${JSON.stringify(list)}); redirect URIs must be registered, and compared exactly`, ev);
      }
      const a = authorizes[0];
      return holds(`redirect_uri ${a.query.redirect_uri ?? '(the one registered)'}, registered with client_id ${a.query.client_id}`, [oauthEvidence('authorization request', a)]);
    },
  }),
  authClientCheck({
    id: 'auth.client-redirect-https',
    title: 'every redirect URI the client registers or authorizes with is on localhost (loopback) or HTTPS',
    requirements: ['AZ-36'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    spec: SPEC.authorizationSecurity26,
    judge(o) {
      const used = [
        ...registrationRequests(o).flatMap((r) => (Array.isArray(r.body?.redirect_uris) ? r.body.redirect_uris : []).map((u) => ({ uri: String(u), r, where: 'registered' }))),
        ...o.oauth.requests.filter((r) => isGet(r, '/authorize') && r.query.redirect_uri !== undefined).map((r) => ({ uri: r.query.redirect_uri!, r, where: 'authorization request' })),
      ];
      if (used.length === 0) return untestable('the client registered no redirect URI and named none in an authorization request');
      const bad = used.filter(({ uri }) => {
        const url = parsedUrl(uri);
        return !(url?.protocol === 'https:' || ((url?.protocol === 'http:' || url?.protocol === 'https:') && isLoopbackHost(url.hostname)));
      });
      if (bad.length) return violated(`redirect URI ${bad[0].uri} (${bad[0].where}) is neither on localhost nor HTTPS`, bad.slice(0, 2).map(({ r, where }) => oauthEvidence(where === 'registered' ? 'registration request' : 'authorization request', r)));
      const uris = [...new Set(used.map((u) => u.uri))];
      return holds(`redirect URI${uris.length > 1 ? 's' : ''} ${uris.join(', ')}`, [oauthEvidence('OAuth request', used[0].r)]);
    },
  }),
  authClientCheck({
    id: 'auth.client-state',
    title: 'the client uses state: every authorization request carries one',
    requirements: ['AZ-29'],
    level: 'SHOULD',
    versions: ALL_VERSIONS,
    spec: SPEC.authorizationSecurity26,
    judge(o) {
      const authorizes = distinctAuthorizations(o.oauth.requests.filter((r) => isGet(r, '/authorize')));
      if (authorizes.length === 0) return untestable('the client made no authorization request');
      const without = authorizes.find((a) => !a.query.state);
      if (without) return violated('the authorization request has no state parameter: nothing ties the response to it (a forged or replayed response cannot be told apart)', [oauthEvidence('authorization request', without)]);
      return holds(`state on ${authorizes.length === 1 ? 'the authorization request' : `all ${authorizes.length} authorization requests`}`, [oauthEvidence('authorization request', authorizes[0])]);
    },
  }),
  authClientCheck(
    {
      id: 'auth.client-cimd',
      title: 'when the authorization server takes client ID metadata documents, the client uses its document\'s HTTPS URL as client_id rather than registering',
      requirements: ['AZ-24'],
      level: 'SHOULD',
      versions: SCOPED,
      spec: SPEC.authorizationRegistration26,
      judge(o) {
        const authorize = o.oauth.requests.find((r) => isGet(r, '/authorize'));
        if (authorize === undefined) return untestable('the client made no authorization request');
        const clientId = authorize.query.client_id ?? '';
        const ev = [oauthEvidence('authorization request', authorize)];
        let url: URL | undefined;
        try {
          url = new URL(clientId);
        } catch {
          url = undefined;
        }
        if (url === undefined) {
          const registered = o.oauth.registrations.some((r) => r.clientId === clientId);
          return violated(`the authorization server advertises client_id_metadata_document_supported, and the client ${registered ? 'registered dynamically' : 'used a client_id that is not a URL'} (client_id ${clientId || '(none)'}) instead of naming a client ID metadata document by its URL`, ev);
        }
        if (url.protocol !== 'https:' || url.pathname === '/' || url.pathname === '') return violated(`the client_id ${clientId} is a URL but not an HTTPS URL with a path, as a client ID metadata document's must be`, ev);
        return holds(`client_id ${clientId}, its metadata document (no registration)`, ev);
      },
    },
    cimdServer,
  ),
  authClientCheck(
    {
      id: 'auth.client-prm-resource',
      title: 'the client does not authorize with Protected Resource Metadata whose resource is not the MCP server it fetched it for (RFC 9728)',
      requirements: ['AZ-21'],
      level: 'MUST',
      versions: ALL_VERSIONS,
      spec: SPEC.authorizationDiscovery26,
      judge(o) {
        const prmPath = new URL(o.oauth.resourceMetadataUrl).pathname;
        const isAsMetadata = (r: OAuthRequest) => r.method === 'GET' && r.path.includes('/.well-known/') && !r.path.startsWith(PRM_ROOT);
        const after = afterReading(o, (r) => isGet(r, prmPath) && r.status === 200, { baseline: 'with correct resource metadata', document: 'the Protected Resource Metadata' });
        if (!Array.isArray(after)) return after;
        // What matters is that nothing is registered, authorized or issued for the wrong resource;
        // reading the listed server's public metadata first is harmless (the SDKs check afterwards).
        const used = after.filter(isFlowStep);
        if (used.length) return violated(`the resource metadata names resource ${o.oauth.prmResource}, not ${o.oauth.resource}, and the client went on with the authorization server it lists: ${used.slice(0, 4).map((r) => `${r.method} ${r.path}`).join(', ')}`, firstOffenders(used).map((r) => oauthEvidence('used the mismatched resource metadata', r)));
        const peeked = after.some(isAsMetadata) ? ' (after reading its authorization server\'s metadata)' : '';
        return holds(`no registration, authorization or token request after resource metadata naming ${o.oauth.prmResource} (fetched for ${o.oauth.resource})${peeked}`);
      },
    },
    wrongResourceServer,
  ),
  authClientCheck(
    {
      id: 'auth.client-as-binding',
      title: 'when the resource metadata names a new authorization server, the client registers there anew and presents no client_id the previous one issued',
      requirements: ['AZ-22'],
      level: 'MUST',
      versions: ['2026-07-28'],
      spec: SPEC.authorizationRegistration26,
      judge(o) {
        const [baseline, reqs] = split(o);
        const first = o.oauth.registrations.filter((r) => r.server !== o.oauth.identifier);
        if (!baseline.some((r) => r.method === 'POST' && endpointOf(r) === '/register') || first.length === 0) return untestable('the client did not register at the first authorization server (no dynamic registration): it has no registered credentials to reuse');
        const newServer = new URL(o.oauth.identifier).pathname;
        const atNew = reqs.filter((r) => r.path.startsWith(`${newServer}/`));
        const stale = new Set(first.map((r) => r.clientId));
        const reused = atNew.filter((r) => r.clientId !== undefined && stale.has(r.clientId));
        const ev = firstOffenders(reused).map((r) => oauthEvidence(`client_id ${r.clientId} from the previous authorization server`, r));
        if (reused.length) return violated(`the client presented client_id ${reused[0].clientId}, registered at ${first[0].server}, to the new authorization server ${o.oauth.identifier}: ${firstOffenders(reused).map((r) => `${r.method} ${r.path}`).join(', ')}`, ev);
        const steps = atNew.filter(isFlowStep);
        if (steps.length === 0) return untestable(`the client did not go on to the new authorization server ${o.oauth.identifier}`);
        const registered = steps.some((r) => r.method === 'POST' && r.path === `${newServer}/register`);
        return holds(`${registered ? 'registered anew at' : 'used a client_id of its own (not one the previous server issued) at'} ${o.oauth.identifier}: ${steps.slice(0, 3).map((r) => `${r.method} ${r.path}`).join(', ')}`, steps.slice(0, 3).map((r) => oauthEvidence('at the new authorization server', r)));
      },
    },
    movedServer,
  ),
  authClientCheck(
    {
      id: 'auth.client-issuer',
      title: 'the client does not use authorization server metadata whose issuer is not the identifier it was fetched for',
      requirements: ['AZ-15'],
      level: 'MUST',
      versions: ALL_VERSIONS,
      spec: SPEC.authorizationDiscovery26,
      judge(o) {
        const after = afterReading(o, (r) => isGet(r, new URL(o.oauth.serverMetadataUrl).pathname), { baseline: 'with correct metadata', document: 'the authorization server metadata' });
        if (!Array.isArray(after)) return after;
        const used = after.filter(isFlowStep);
        if (used.length) {
          return violated(`the metadata names issuer ${o.oauth.issuer}, not ${o.oauth.identifier}, and the client used it anyway: ${used.map((r) => `${r.method} ${r.path}`).join(', ')}`, firstOffenders(used).map((r) => oauthEvidence('used the mismatched metadata', r)));
        }
        return holds(`refused the metadata naming issuer ${o.oauth.issuer} (fetched for ${o.oauth.identifier}): no registration, authorization or token request followed`);
      },
    },
    wrongIssuerServer,
  ),
  authClientCheck(
    {
      id: 'auth.client-pkce-required',
      title: 'the client refuses to go on with an authorization server whose metadata has no code_challenge_methods_supported (no PKCE)',
      requirements: ['AZ-34'],
      level: 'MUST',
      versions: SCOPED,
      spec: SPEC.authorizationSecurity26,
      judge(o) {
        const after = afterReading(o, (r) => isGet(r, new URL(o.oauth.serverMetadataUrl).pathname), { baseline: 'with PKCE advertised', document: 'the authorization server metadata' });
        if (!Array.isArray(after)) return after;
        const used = after.filter(isFlowStep);
        if (used.length) return violated(`the authorization server metadata has no code_challenge_methods_supported (no PKCE support), and the client went on: ${used.map((r) => `${r.method} ${r.path}`).join(', ')}`, firstOffenders(used).map((r) => oauthEvidence('went on without PKCE support', r)));
        return holds('refused the authorization server without code_challenge_methods_supported: no registration, authorization or token request followed');
      },
    },
    noPkceServer,
  ),
  issCheck({ id: 'auth.client-iss', title: 'the client does not exchange a code whose authorization response names another issuer in iss (RFC 9207)' }, wrongIssServer),
  issCheck({ id: 'auth.client-iss-absent', title: 'the client does not exchange a code whose authorization response lacks the iss its authorization server\'s metadata promises (RFC 9207)' }, absentIssServer),
  issCheck({ id: 'auth.client-iss-unadvertised', title: 'the client compares a present iss with the issuer even when the metadata does not advertise iss, and does not exchange the code of a mismatch' }, unadvertisedIssServer),
  issCheck({ id: 'auth.client-iss-exact', title: 'the client compares iss with the issuer as plain strings: an iss equal only after URL normalization (a trailing slash) is refused' }, trailingSlashIssServer),
  issCheck({ id: 'auth.client-iss-optional', title: 'the client exchanges its code when neither the metadata nor the authorization response says anything of iss' }, noIssServer, 'proceed'),
  responseCheck(
    { id: 'auth.client-state-mismatch', title: 'the client discards an authorization response whose state is not the one its request carried: no code exchanged', requirements: ['AZ-29'], level: 'SHOULD', versions: ALL_VERSIONS, spec: SPEC.authorizationSecurity26 },
    wrongStateServer,
    stateSaid,
    { unless: stateSent },
  ),
  responseCheck(
    { id: 'auth.client-state-missing', title: 'the client discards an authorization response without the state its request carried: no code exchanged', requirements: ['AZ-29'], level: 'SHOULD', versions: ALL_VERSIONS, spec: SPEC.authorizationSecurity26 },
    absentStateServer,
    stateSaid,
    { unless: stateSent },
  ),
  authClientCheck(
    {
      id: 'auth.client-step-up',
      title: 'after a 403 insufficient_scope the client authorizes again for the union of its scopes and the challenged ones, and retries',
      requirements: ['AZ-17'],
      level: 'SHOULD',
      versions: SCOPED,
      spec: SPEC.authorization26,
      judge(o) {
        const refused = o.received.filter(insufficientScope);
        const needed = o.oauth.stepUpScope;
        if (refused.length === 0 || needed === undefined) return untestable('the client never reached the call that needs more scope (no 403 insufficient_scope)');
        const refusedSeq = refused[0].seq;
        const earlier = o.oauth.requests.filter((r) => isGet(r, '/authorize') && r.seq < refusedSeq).flatMap((r) => (r.query.scope ?? '').split(' ').filter(Boolean));
        const wanted = [...new Set([...earlier, needed])];
        const loads = o.oauth.requests.filter((r) => isGet(r, '/authorize') && r.seq > refusedSeq);
        const again = distinctAuthorizations(loads);
        const ev = [{ what: `403 insufficient_scope to ${isObj(refused[0].message) ? String(refused[0].message.method) : 'a request'}`, seq: [refused[0].seq] }, ...again.slice(0, 2).map((r) => oauthEvidence('authorization request after the 403', r))];
        if (again.length === 0) {
          const refreshed = o.oauth.requests.some((r) => r.method === 'POST' && r.path === '/token' && r.body?.grant_type === 'refresh_token' && r.seq > refusedSeq);
          const only = refreshed ? ' (it only refreshed its token, and a refresh cannot add scope: RFC 6749 §6)' : '';
          return violated(`after the 403 insufficient_scope (scope="${needed}") the client did not authorize again${only}`, ev);
        }
        if (again.length > 3) return violated(`the client authorized ${again.length} more times after the 403: a step-up retries a few times at most`, ev);
        const asked = (again[0].query.scope ?? '').split(' ');
        const missing = wanted.filter((s) => !asked.includes(s));
        if (missing.length) return violated(`the step-up authorization asks for scope "${again[0].query.scope ?? ''}", without ${missing.join(', ')} (wanted the union: ${wanted.join(' ')})`, ev);
        const stepped = o.oauth.requests.find((r) => r.method === 'POST' && r.path === '/token' && r.status === 200 && r.seq > again[0].seq);
        if (stepped === undefined) {
          // The client asked for the right authorization, but its callback refused mcpspec's browser even after the
          // browser's grace for a callback not yet listening (mcp-remote's proxy starts its callback server only
          // after opening the browser). A response it never received says nothing of what it does with one.
          const lost = neverDelivered(o, loads);
          if (lost) return untestable(`the client asked for the step-up authorization (scope "${again[0].query.scope ?? ''}"), but its response never reached the client: ${lost}; whether it would exchange the code and retry cannot show`);
          return violated('the client asked for the step-up authorization but never exchanged its code for a new token', ev);
        }
        const retried = o.received.some((r) => r.seq > answered(stepped) && !insufficientScope(r) && isObj(r.message) && r.message.method === 'tools/call');
        if (!retried) return violated('the client stepped up its authorization but did not send the refused call again', ev);
        return holds(`after the 403 it authorized again for "${again[0].query.scope}" and the call went through`, ev);
      },
    },
    stepUpServer,
  ),

  authClientCheck(
    {
      id: 'auth.client-token-auth-post',
      title: 'registered for client_secret_post (the only token endpoint method the authorization server lists), the client sends its client_id and secret in the token request\'s form, not in HTTP Basic',
      requirements: ['AZ-23'],
      level: 'MUST',
      versions: ALL_VERSIONS,
      spec: SPEC.authorizationRegistration26,
      judge: tokenAuthJudge('client_secret_post'),
    },
    secretPostServer,
  ),
  authClientCheck(
    {
      id: 'auth.client-token-auth-none',
      title: 'registered as a public client (token_endpoint_auth_method none, the only method the authorization server lists), the client sends no secret and no HTTP Basic credentials, only its client_id',
      requirements: ['AZ-23'],
      level: 'MUST',
      versions: ALL_VERSIONS,
      spec: SPEC.authorizationRegistration26,
      judge: tokenAuthJudge('none'),
    },
    publicClientServer,
  ),
  authClientCheck(
    {
      id: 'auth.client-pre-registered',
      title: 'where the authorization server offers neither dynamic registration nor client ID metadata documents, a client given pre-registered credentials authorizes and authenticates with them',
      requirements: ['AZ-37'],
      level: 'SHOULD',
      versions: SCOPED,
      spec: SPEC.authorizationRegistration26,
      judge(o) {
        const pre = o.oauth.preRegistered;
        if (pre === undefined) return untestable('the authorization server had no pre-registered client');
        const steps = o.oauth.requests.filter((r) => isGet(r, '/authorize') || isTokenRequest(r));
        const tried = registrationRequests(o).length ? ` (it sent a registration request, to an endpoint the metadata does not name: HTTP ${registrationRequests(o)[0].status})` : '';
        if (steps.length === 0) return untestable(`the client made no authorization or token request${tried}: the authorization server has no registration endpoint, and the client did not use the pre-registered credentials it was given in ${PRE_REGISTERED_ENV} (a harness, in MCP_CONFORMANCE_CONTEXT); a client with no option to read them has none (it ${describeExit(o.exit)})`);
        const bad: { r: OAuthRequest; why: string }[] = [];
        for (const r of steps) {
          if (r.clientId !== pre.clientId) bad.push({ r, why: `${r.method} ${r.path} presents client_id ${r.clientId ?? '(none)'}, not the pre-registered ${pre.clientId}` });
          else if (isTokenRequest(r) && !(r.basic?.id === pre.clientId && r.basic.secret === pre.secret)) {
            bad.push({ r, why: `the token request does not authenticate with the pre-registered secret in HTTP Basic, the only method the authorization server lists (${r.basic ? 'another secret in HTTP Basic' : typeof r.body?.client_secret === 'string' ? 'the secret in the form' : 'no client authentication'})` });
          }
        }
        const ev = (bad.length ? bad.map((b) => b.r) : steps).slice(0, 3).map((r) => oauthEvidence(isTokenRequest(r) ? 'token request' : 'authorization request', redacted(r), { expected: { client_id: pre.clientId } }));
        if (bad.length) return violated(`the client was given pre-registered credentials for ${o.oauth.identifier}, which offers no dynamic registration: ${bad[0].why}${bad.length > 1 ? ` (and ${bad.length - 1} more)` : ''}`, ev);
        return holds(`${steps.length} authorization/token request(s) as the pre-registered client ${pre.clientId}, the secret in HTTP Basic`, ev);
      },
    },
    preRegisteredServer,
  ),
  authClientCheck(
    {
      id: 'auth.client-step-up-limit',
      title: `when every retry gets 403 insufficient_scope again, the client stops authorizing after a few attempts (${MAX_AUTHORIZATIONS} authorizations in all at most)`,
      requirements: ['AZ-17'],
      level: 'SHOULD',
      versions: SCOPED,
      spec: SPEC.authorization26,
      judge(o) {
        const refused = o.received.filter(insufficientScope);
        if (refused.length === 0) return untestable('the client never reached the call the server refuses (no 403 insufficient_scope)');
        const authorizations = distinctAuthorizations(o.oauth.requests.filter((r) => isGet(r, '/authorize')));
        const again = authorizations.filter((r) => r.seq > refused[0].seq);
        const ev = [{ what: `${refused.length} × 403 insufficient_scope`, seq: refused.slice(0, 3).map((r) => r.seq) }, ...authorizations.slice(MAX_AUTHORIZATIONS, MAX_AUTHORIZATIONS + 2).map((r) => oauthEvidence('authorization request beyond the bound', r))];
        const said = `every tools/call gets 403 insufficient_scope whatever scope the token has, and the client authorized ${authorizations.length} time(s), ${again.length} after the first 403`;
        if (authorizations.length > MAX_AUTHORIZATIONS) return violated(`${said}: a step-up is retried no more than a few times, then treated as a permanent failure (at most ${MAX_AUTHORIZATIONS} authorizations in all)`, ev);
        if (again.length === 0) return untestable('the client did not authorize again after the 403 insufficient_scope: there is no step-up to bound (auth.client-step-up judges the step-up)');
        if (o.exit.timedOut) return untestable(`${said}, and was still running when stopped at the timeout: nothing shows it had stopped retrying`);
        return holds(`${said}, then stopped (${describeExit(o.exit)})`, ev);
      },
    },
    scopeRetryServer,
  ),
  authClientCheck({
    id: 'auth.client-offline-access',
    title: 'the client asks for offline_access only where the authorization server metadata lists it in scopes_supported (SEP-2207)',
    requirements: ['AZ-38'],
    level: 'SHOULD',
    versions: ['2026-07-28'],
    spec: SPEC.authorization26,
    judge(o) {
      const listed = o.oauth.scopesSupported ?? [];
      if (listed.includes('offline_access')) return untestable('the authorization server metadata lists offline_access: a client may ask for it');
      const asked = o.oauth.requests.filter((r) => isGet(r, '/authorize') || isTokenRequest(r));
      if (!asked.some((r) => isGet(r, '/authorize'))) return untestable('the client made no authorization request');
      const scopeOf = (r: OAuthRequest) => String((r.method === 'GET' ? r.query.scope : r.body?.scope) ?? '');
      return every(asked, {
        none: 'the client made no authorization or token request',
        offends: (r) => scopeOf(r).split(' ').includes('offline_access'),
        violated: (bad) => `the authorization server metadata's scopes_supported is ${JSON.stringify(listed)}, without offline_access, and ${bad.length} of ${asked.length} authorization/token requests ask for it (first, ${bad[0].method} ${bad[0].path}: scope "${scopeOf(bad[0])}"): a client may add offline_access only where the metadata lists it`,
        evidence: (r) => oauthEvidence('OAuth request', redacted(r), { actual: scopeOf(r) }),
        holds: () => `no offline_access in ${asked.length} authorization/token request(s) (scopes_supported ${JSON.stringify(listed)})`,
      });
    },
  }),
  authClientCheck(
    {
      id: 'auth.client-resource-exact',
      title: 'authorization and token requests send the Protected Resource Metadata\'s resource as published, byte for byte: a pathless origin is not given a trailing slash',
      requirements: ['AZ-39'],
      level: 'SHOULD',
      versions: SCOPED,
      spec: SPEC.authorization26,
      judge(o) {
        const published = o.oauth.publishedResource;
        const asked = o.oauth.requests.filter((r) => isGet(r, '/authorize') || isTokenRequest(r));
        const resourceOf = (r: OAuthRequest) => (r.method === 'GET' ? r.query.resource : r.body?.resource);
        return every(asked, {
          none: 'the client made no authorization or token request',
          offends: (r) => resourceOf(r) !== published,
          violated: (bad) => {
            const sent = resourceOf(bad[0]);
            const why = typeof sent === 'string' && sameResource(sent, published) ? ': the same URL after normalisation, but not the string the metadata publishes (a URL parser that appends "/" to a pathless origin is the usual cause); an authorization server compares it as a string' : '';
            return `the Protected Resource Metadata publishes resource "${published}", and ${bad.length} of ${asked.length} authorization/token requests send ${sent === undefined ? 'no resource' : `"${String(sent)}"`} (first, ${bad[0].method} ${bad[0].path})${why}`;
          },
          evidence: (r) => oauthEvidence('OAuth request', redacted(r), { expected: { resource: published }, actual: resourceOf(r) ?? '(absent)' }),
          holds: () => `${asked.length} authorization/token request(s), each with resource "${published}" exactly as published`,
        });
      },
    },
    rootResourceServer,
  ),
  authClientCheck(
    {
      id: 'auth.client-iss-match',
      title: 'the client exchanges its code when the authorization response\'s iss is its issuer and the metadata advertises iss (RFC 9207: the comparison passes)',
      requirements: ['AZ-16'],
      level: 'MUST',
      versions: ['2026-07-28'],
      spec: SPEC.authorization26,
      // The no-iss scenario's baseline run is this case (iss advertised, the issuer's own in the response); its
      // judged run (nothing said of iss) tells a client that refuses a matching iss from one whose flow stops anyway.
      judge(o) {
        const [baseline, judged] = split(o);
        const authorizes = baseline.filter((r) => isGet(r, '/authorize'));
        if (authorizes.length === 0) return untestable('the client made no authorization request with the correct authorization server');
        const exchanged = baseline.filter(isCodeExchange);
        const ev = [oauthEvidence('authorization request', authorizes[0]), ...exchanged.slice(0, 1).map((r) => oauthEvidence('code exchanged', r))];
        const said = `iss=${o.oauth.identifier} (the issuer itself, the metadata advertising iss)`;
        if (exchanged.length) return holds(`exchanged its code after an authorization response with ${said}`, ev);
        const lost = neverDelivered(o, authorizes);
        if (lost) return untestable(`the authorization response never reached the client: ${lost}`);
        if (!judged.some(isCodeExchange)) return untestable('the client did not exchange its code when nothing was said of iss either: its flow stops for another reason');
        return violated(`after an authorization response with ${said} the client did not exchange its code, though it did when nothing was said of iss: a matching iss must be accepted`, ev);
      },
    },
    noIssServer,
  ),
];
