// The scripted authorization side of a client-role HTTP run: how it misbehaves on purpose, and the
// log the checks read afterwards.

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

/**
 * What mcpspec's headless browser reports after loading an authorization URL a client opened: the
 * URLs it loaded, in order, and how the last one (normally the client's own callback) answered, or
 * why it could not be loaded.
 */
export interface BrowserVisit {
  visited: string[];
  /** HTTP status of the last URL loaded. */
  status?: number;
  /** Why the last URL could not be loaded (ECONNREFUSED, a timeout, ...). */
  error?: string;
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
