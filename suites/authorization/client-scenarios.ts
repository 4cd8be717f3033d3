// The client scenarios behind OAuth: mcpspec's scripted server (the plain dual-era one) answers 401
// until the client brings a token from the scripted authorization server on the same origin
// (authorization-server.ts, a profile on the scripted server's HTTP primitives), which misbehaves in
// one way a scenario. Judged by client-checks.ts beside it.

import { ALL_VERSIONS, MODERN, type SpecVersion } from '../../protocol/versions.js';
import { PRE_REGISTERED_ENV, requireAuthorization, type OAuthLog, type OAuthOptions } from './authorization-server.js';
import { clientScenario } from '../kit/scenario.js';
import { runScript } from '../client/scripted-server.js';
import { observe, type ClientObs } from '../client/client-run.js';

export interface AuthClientObs extends ClientObs {
  oauth: OAuthLog;
  /** Scenarios with a baseline run: how many OAuth requests it made (the judged run's come after). */
  baseline?: number;
}

/**
 * The plain dual-era server behind the scripted OAuth side (authorization-server.ts), with a browser
 * that approves at once. `misbehave`: the client first runs against a correct authorization server
 * (the baseline: how far it goes when nothing is wrong), then again, from a fresh HOME, with the
 * issuer misbehaving, so a client that stops early anyway is not taken for one that refused.
 */
function behindOAuth(id: string, title: string, opts: OAuthOptions & { misbehave?: OAuthOptions; keepState?: boolean } = {}, versions: SpecVersion[] = ALL_VERSIONS) {
  const { misbehave, keepState, ...first } = opts;
  return clientScenario<AuthClientObs>({
    id,
    title,
    versions,
    transports: ['http'],
    headlessBrowser: true,
    async run(ctx) {
      if (!ctx.server.http) throw new Error(`${id} needs an HTTP scripted server`);
      const authorization = requireAuthorization(ctx.server.http, first);
      const oauth = authorization.log;
      const log = runScript(ctx.server, { modern: true, legacy: true, timeoutMs: ctx.options.timeoutMs });
      // Pre-registration scenario: the client is given the credentials the authorization server knows.
      const pre = oauth.preRegistered;
      const env = pre ? { [PRE_REGISTERED_ENV]: JSON.stringify({ client_id: pre.clientId, client_secret: pre.secret, issuer: oauth.identifier }) } : undefined;
      if (!misbehave) return { ...(await observe(ctx, log, env)), oauth };
      await ctx.server.runClient();
      const baseline = oauth.requests.length;
      // The judged run starts as the baseline did: no tokens or registration kept from it (a client
      // that stored them would otherwise take a different path, e.g. a refresh, and not be comparable).
      if (!keepState) ctx.server.freshClientState?.();
      authorization.configure(misbehave);
      return { ...(await observe(ctx, log)), oauth, baseline };
    },
  });
}

/**
 * Every request without a token the scripted authorization server issued gets 401 with a Bearer
 * challenge naming resource_metadata and scope; the same origin serves both metadata documents,
 * registration, an authorize endpoint that redirects at once with a code, and tokens. A client that
 * supports authorization (it is optional) is judged on the flow.
 */
export const authorizationServer = behindOAuth(
  'client-authorization',
  'the plain scripted server behind OAuth: 401 with a Bearer challenge until the client brings a token from the scripted authorization server on the same origin',
);

/**
 * The same, but the authorization server's metadata names another issuer than the identifier the
 * resource metadata lists (RFC 8414 §3.3): a client must not use it, so it never registers,
 * authorizes or asks for a token there.
 */
export const wrongIssuerServer = behindOAuth(
  'client-authorization-wrong-issuer',
  'the scripted server behind OAuth, its authorization server metadata naming another issuer than the identifier it is fetched for',
  { misbehave: { wrongIssuer: true } },
);

/**
 * The same, but the authorization server metadata has no code_challenge_methods_supported: it does
 * not support PKCE, and a client must refuse to go on (no registration, authorization or token request).
 */
export const noPkceServer = behindOAuth(
  'client-authorization-no-pkce',
  'the scripted server behind OAuth, its authorization server metadata without code_challenge_methods_supported',
  { misbehave: { noPkce: true } },
  ['2025-11-25', '2026-07-28'],
);

/**
 * The same, but the Protected Resource Metadata names another resource than the endpoint it is
 * fetched for (RFC 9728 §3.3): a client must not use it, so it never goes on to the authorization
 * server it names.
 */
export const wrongResourceServer = behindOAuth(
  'client-authorization-wrong-resource',
  'the scripted server behind OAuth, its protected resource metadata naming another resource than the endpoint',
  { misbehave: { wrongResource: true } },
);

/**
 * The same, but between the two client runs the resource moves to a second authorization server: the
 * resource metadata names it instead. The client keeps what it stored in the first run (its HOME),
 * as it would on a user's machine; credentials registered at the first server must not be used at
 * the second (2026-07-28, authorization server binding).
 */
export const movedServer = behindOAuth(
  'client-authorization-moved',
  'the scripted server behind OAuth, its resource metadata naming a second authorization server on the client\'s second run',
  { misbehave: { migrated: true }, keepState: true },
  MODERN,
);

/**
 * The same, but the authorization response's `iss` names another issuer while the metadata says
 * responses carry it (RFC 9207, required of clients by 2026-07-28): the client must not send that
 * code to the token endpoint.
 */
export const wrongIssServer = behindOAuth(
  'client-authorization-wrong-iss',
  'the scripted server behind OAuth, its authorization response carrying an iss that is not the authorization server\'s',
  { misbehave: { iss: 'another' } },
  MODERN,
);

/** The same, but the authorization response carries no iss although the metadata says responses do: the client must reject it. */
export const absentIssServer = behindOAuth(
  'client-authorization-iss-absent',
  'the scripted server behind OAuth, its authorization response carrying no iss although its metadata says responses carry one',
  { misbehave: { iss: 'absent' } },
  MODERN,
);

/** The same, but the metadata does not say responses carry iss and the response carries another issuer's: a present iss is compared all the same. */
export const unadvertisedIssServer = behindOAuth(
  'client-authorization-iss-unadvertised',
  'the scripted server behind OAuth, its metadata silent about iss and its authorization response carrying another issuer\'s',
  { misbehave: { iss: 'another', issAdvertised: false } },
  MODERN,
);

/** The same, but the response's iss is the issuer with a trailing slash: equal only after URL normalization, which the comparison must not apply. */
export const trailingSlashIssServer = behindOAuth(
  'client-authorization-iss-trailing-slash',
  'the scripted server behind OAuth, its authorization response carrying the issuer with a trailing slash as iss',
  { misbehave: { iss: 'trailing-slash' } },
  MODERN,
);

/** The same, but neither the metadata nor the response says anything about iss: the client must go on and exchange its code. */
export const noIssServer = behindOAuth(
  'client-authorization-no-iss',
  'the scripted server behind OAuth, neither its metadata nor its authorization response saying anything of iss',
  { misbehave: { iss: 'absent', issAdvertised: false } },
  MODERN,
);

/**
 * The same, but the authorization response carries another state than the request's (security
 * considerations: clients use and verify state): the client should discard it, no code exchanged.
 */
export const wrongStateServer = behindOAuth(
  'client-authorization-wrong-state',
  'the scripted server behind OAuth, its authorization response carrying another state than the authorization request',
  { misbehave: { state: 'another' } },
);

/** The same, but the authorization response leaves the request's state out: the client should discard it. */
export const absentStateServer = behindOAuth(
  'client-authorization-state-absent',
  'the scripted server behind OAuth, its authorization response carrying no state although the authorization request had one',
  { misbehave: { state: 'absent' } },
);

/**
 * The same, but the first access token expires after one MCP request: the next request presenting it
 * gets 401 invalid_token. A client that keeps its refresh token refreshes (a refreshed token does not
 * expire); one that does not authorizes again.
 */
export const expiryServer = behindOAuth(
  'client-authorization-expiry',
  'the scripted server behind OAuth, its first access token expiring after one MCP request (401 invalid_token)',
  { expireAfter: 1 },
);

/**
 * The same, but a tools/call needs a scope the first challenge did not name: with its first token the
 * client gets 403 insufficient_scope naming that scope, and should step up (authorize again for both
 * scopes) and call again.
 */
export const stepUpServer = behindOAuth(
  'client-authorization-step-up',
  'the scripted server behind OAuth, its tools/call needing a scope the first 401 did not name (403 insufficient_scope)',
  { stepUp: true },
  ['2025-11-25', '2026-07-28'],
);

/**
 * The same, but nothing points the way: the 401 challenge names no resource_metadata (the client
 * constructs the well-known URIs, path-inserted first), and the authorization server's issuer has a
 * path and serves its metadata only through OpenID Connect discovery with path insertion, the second
 * of the three URIs clients must try in order.
 */
export const wellKnownServer = behindOAuth(
  'client-authorization-well-known',
  'the scripted server behind OAuth, its challenge naming no resource_metadata and its authorization server (an issuer with a path) found only through OpenID Connect discovery',
  { wellKnown: true },
  ['2025-11-25', '2026-07-28'],
);

/**
 * The same, but the authorization server (an issuer without a path) serves its metadata only through
 * OpenID Connect discovery: a client tries the OAuth 2.0 URI first, then OpenID Connect's.
 */
export const oidcOnlyServer = behindOAuth(
  'client-authorization-oidc',
  'the scripted server behind OAuth, its authorization server (an issuer without a path) found only through OpenID Connect discovery',
  { oidcOnly: true },
  ['2025-11-25', '2026-07-28'],
);

/** The same, but the 401 challenge names no scope: the Protected Resource Metadata's scopes_supported (two scopes) is where a client finds what to ask for. */
export const scopeFromMetadataServer = behindOAuth(
  'client-authorization-scope-from-metadata',
  'the scripted server behind OAuth, its challenge naming no scope and its resource metadata listing two scopes_supported',
  { scopeFrom: 'metadata' },
  ['2025-11-25', '2026-07-28'],
);

/**
 * The same, but the 401 challenge names a scope scopes_supported does not list (beside one it does;
 * the metadata lists another): the challenge is authoritative, whatever its relation to the metadata.
 */
export const scopeUnlistedServer = behindOAuth(
  'client-authorization-scope-unlisted',
  'the scripted server behind OAuth, its challenge naming a scope its metadata\'s scopes_supported does not list',
  { scopeFrom: 'challenge-unlisted' },
  ['2025-11-25', '2026-07-28'],
);

/** The same, but no challenge or document names any scope: a client leaves scope out of its authorization request. */
export const scopeFromNowhereServer = behindOAuth(
  'client-authorization-no-scope',
  'the scripted server behind OAuth, with no scope in its challenge, its resource metadata or its authorization server metadata',
  { scopeFrom: 'none' },
  ['2025-11-25', '2026-07-28'],
);

/**
 * The same, but the authorization server registers every client as a confidential one for
 * `client_secret_basic` (with a secret), whatever it asked for, and lists only that token endpoint
 * method: the client authenticates its token requests that way.
 */
export const confidentialServer = behindOAuth(
  'client-authorization-confidential',
  'the scripted server behind OAuth, its authorization server registering every client for client_secret_basic',
  { confidential: true },
);

/**
 * The same, but the authorization server's metadata says it takes a Client ID Metadata Document URL
 * as client_id (it keeps its registration endpoint): a client that has such a document uses it
 * rather than registering.
 */
export const cimdServer = behindOAuth(
  'client-authorization-cimd',
  'the scripted server behind OAuth, its authorization server advertising client ID metadata documents beside dynamic registration',
  { cimd: true },
  ['2025-11-25', '2026-07-28'],
);

/**
 * The same, but the authorization server registers every client for `client_secret_post` (with a
 * secret), whatever it asked for, and lists only that token endpoint method: the client puts its
 * secret in the token request's form, not in HTTP Basic.
 */
export const secretPostServer = behindOAuth(
  'client-authorization-secret-post',
  'the scripted server behind OAuth, its authorization server registering every client for client_secret_post',
  { tokenAuth: 'client_secret_post' },
);

/**
 * The same, but the authorization server registers every client as a public one (`none`, no secret),
 * whatever it asked for, and lists only that token endpoint method: the client authenticates its
 * token requests with nothing but its client_id.
 */
export const publicClientServer = behindOAuth(
  'client-authorization-public',
  'the scripted server behind OAuth, its authorization server registering every client as a public client (token_endpoint_auth_method none)',
  { tokenAuth: 'none' },
);

/**
 * The same, but the authorization server offers neither dynamic registration (no registration_endpoint)
 * nor client ID metadata documents: it knows one pre-registered client (client_secret_basic), whose
 * credentials the client is given in MCPSPEC_CLIENT_CREDENTIALS (a harness written to the official
 * suite, in MCP_CONFORMANCE_CONTEXT). A client that has them uses them.
 */
export const preRegisteredServer = behindOAuth(
  'client-authorization-pre-registered',
  'the scripted server behind OAuth, its authorization server without dynamic registration or client ID metadata documents, the client given pre-registered credentials',
  { preRegistered: true },
  ['2025-11-25', '2026-07-28'],
);

/**
 * The same, but every tools/call gets 403 insufficient_scope, whatever scope its token was granted:
 * the scope upgrade never succeeds, and the client should stop authorizing again after a few attempts.
 */
export const scopeRetryServer = behindOAuth(
  'client-authorization-scope-retry',
  'the scripted server behind OAuth, its tools/call answered 403 insufficient_scope whatever scope the token carries',
  { stepUpNever: true },
  ['2025-11-25', '2026-07-28'],
);

/**
 * The same, but the 401 challenge names no resource_metadata and only the root well-known URI serves
 * the Protected Resource Metadata, about the origin: its resource is `http://127.0.0.1:PORT`, no
 * trailing slash. A client sends that string on as published; a URL parser's href would add a "/".
 */
export const rootResourceServer = behindOAuth(
  'client-authorization-root-resource',
  'the scripted server behind OAuth, its resource metadata only at the root well-known URI, its resource the origin without a trailing slash',
  { rootResource: true },
  ['2025-11-25', '2026-07-28'],
);
