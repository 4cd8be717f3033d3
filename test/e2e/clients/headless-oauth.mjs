// An OAuth client provider for the SDK wrappers (sdk1-client.mjs, sdk2-client.mjs) with no browser:
// the SDK does discovery, registration, PKCE and the token exchange; "opening" the authorization URL
// is a GET whose redirect is read for the code, as a user who approves at once would produce.
const REDIRECT_URI = 'http://127.0.0.1:1/callback';

/**
 * Static client credentials from mcpspec's MCPSPEC_CLIENT_CREDENTIALS (set only where its authorization
 * server has no registration), as an application configured with pre-registered ones has them.
 */
export function staticClientFromEnv() {
  const raw = process.env.MCPSPEC_CLIENT_CREDENTIALS;
  return raw ? JSON.parse(raw) : undefined;
}

/** `staticClient`: pre-registered credentials ({ client_id, client_secret }), handed to the SDK as its client information. */
export function headlessProvider(staticClient) {
  // An application that publishes a client ID metadata document names its URL (mcpspec client --env MCP_CLIENT_METADATA_URL=...).
  const metadataUrl = process.env.MCP_CLIENT_METADATA_URL || undefined;
  let clientInformation = staticClient ? { client_id: staticClient.client_id, ...(staticClient.client_secret ? { client_secret: staticClient.client_secret } : {}) } : undefined;
  let tokens;
  let verifier;
  let callback;
  return {
    get redirectUrl() {
      return REDIRECT_URI;
    },
    get clientMetadataUrl() {
      return metadataUrl;
    },
    get clientMetadata() {
      return { client_name: 'mcpspec SDK test client', redirect_uris: [REDIRECT_URI], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
    },
    clientInformation: () => clientInformation,
    saveClientInformation: (info) => void (clientInformation = info),
    tokens: () => tokens,
    saveTokens: (t) => void (tokens = t),
    saveCodeVerifier: (v) => void (verifier = v),
    codeVerifier: () => verifier,
    async redirectToAuthorization(url) {
      const res = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(8000) });
      const location = res.headers.get('location');
      callback = location ? new URL(location).searchParams : undefined;
    },
    /** The query of the last authorization redirect (code, state, iss), once. */
    takeCallback() {
      const c = callback;
      callback = undefined;
      return c;
    },
  };
}

/**
 * Connect; on UnauthorizedError (the SDK started the flow and "redirected"), finish it and connect
 * again on a fresh transport with the same provider. At most twice. `whole`: hand finishAuth the whole
 * callback query (the 2.x SDK takes it and checks its iss, RFC 9207); otherwise the code alone (1.x).
 */
export async function connectWithOAuth(client, makeTransport, provider, UnauthorizedError, whole = false) {
  for (let attempt = 0; ; attempt++) {
    const transport = makeTransport();
    try {
      await client.connect(transport);
      return transport;
    } catch (e) {
      const query = provider.takeCallback();
      const code = query?.get('code') ?? undefined;
      if (!(e instanceof UnauthorizedError) || code === undefined || attempt >= 1) throw e;
      await transport.finishAuth(whole ? query : code);
    }
  }
}

/**
 * Run one request; when it fails with UnauthorizedError after the SDK started a new authorization
 * (a step-up: a 403 insufficient_scope asked for more scope), finish that authorization the same way
 * and run the request once more, as an application does.
 */
export async function withReauthorization(fn, transport, provider, UnauthorizedError, whole = false) {
  try {
    return await fn();
  } catch (e) {
    const query = provider.takeCallback();
    const code = query?.get('code') ?? undefined;
    if (!(e instanceof UnauthorizedError) || code === undefined || !transport?.finishAuth) throw e;
    await transport.finishAuth(whole ? query : code);
    return fn();
  }
}
