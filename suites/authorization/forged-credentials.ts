// Credentials no authorization server issued, shaped the way real ones are (a server must refuse
// each, AZ-06, with a Bearer challenge, AZ-05): JSON Web Tokens an attacker can make without any key
// (unsigned `alg: none`, signed with a key of mcpspec's own, expired, for another audience), and
// Authorization headers that carry no usable bearer token at all (RFC 6750 §3.1 lets a server answer
// a malformed one 400 `invalid_request` instead of 401).

import { createHash, createHmac } from 'node:crypto';

export interface ForgedCredential {
  /** What it is, in a few words (shown in evidence). */
  kind: string;
  /** The whole Authorization header value. */
  authorization: string;
  /** A malformed header: 400 is an answer as good as 401. */
  malformed: boolean;
}

/** What the forged tokens claim: the issuer and resource the server's own metadata names, where known. */
export interface TokenClaims {
  issuer: string;
  audience: string;
  scope?: string;
}

/** Another resource's URL: a token minted for it must not open this one. */
export const OTHER_AUDIENCE = 'https://another-resource.mcpspec.invalid/mcp';

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function jwt(alg: 'none' | 'HS256', claims: Record<string, unknown>, key?: Buffer): string {
  const head = `${b64url({ alg, typ: 'JWT' })}.${b64url(claims)}`;
  return alg === 'none' ? `${head}.` : `${head}.${createHmac('sha256', key!).update(head).digest('base64url')}`;
}

/** Every forged credential mcpspec sends: the same for a given seed and time (the claims carry times). */
export function forgedCredentials(c: TokenClaims, seed: number, nowMs: number = Date.now()): ForgedCredential[] {
  const now = Math.floor(nowMs / 1000);
  // mcpspec's own key, from the seed (a run can be repeated): no authorization server knows it.
  const key = createHash('sha256').update(`mcpspec-forged-${seed}`).digest();
  const claims = (over: Record<string, unknown> = {}) => ({ iss: c.issuer, aud: c.audience, sub: `mcpspec-${seed}`, iat: now - 60, nbf: now - 60, exp: now + 3600, ...(c.scope ? { scope: c.scope } : {}), ...over });
  return [
    { kind: 'an unsigned JWT (alg "none")', authorization: `Bearer ${jwt('none', claims())}`, malformed: false },
    { kind: 'a JWT signed with a key no authorization server holds (HS256)', authorization: `Bearer ${jwt('HS256', claims(), key)}`, malformed: false },
    { kind: 'an expired JWT (exp an hour ago)', authorization: `Bearer ${jwt('HS256', claims({ iat: now - 7200, nbf: now - 7200, exp: now - 3600 }), key)}`, malformed: false },
    { kind: `a JWT for another audience (aud ${OTHER_AUDIENCE})`, authorization: `Bearer ${jwt('HS256', claims({ aud: OTHER_AUDIENCE }), key)}`, malformed: false },
    { kind: 'the Bearer scheme with no token', authorization: 'Bearer', malformed: true },
    { kind: 'a bearer "token" with spaces and characters RFC 6750 does not allow', authorization: 'Bearer not a token; ""', malformed: true },
    { kind: 'HTTP Basic credentials instead of a bearer token', authorization: `Basic ${Buffer.from(`mcpspec:${seed}`).toString('base64')}`, malformed: true },
    { kind: 'a token with no scheme', authorization: `mcpspec-not-issued-${seed}`, malformed: true },
  ];
}
