// The WWW-Authenticate header (RFC 9110 §11.6.1): one or more challenges, each a scheme and its
// auth-params (`name=token` or `name="quoted string"`). Enough to read an OAuth Bearer challenge
// (RFC 6750 §3: realm, scope, error; RFC 9728 §5.1: resource_metadata); token68 forms are skipped.

export interface Challenge {
  /** As sent; compare case-insensitively. */
  scheme: string;
  /** Parameter names in lower case (they are case-insensitive). */
  params: Record<string, string>;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+/;

export function parseChallenges(header: string): Challenge[] {
  const out: Challenge[] = [];
  let current: Challenge | undefined;
  let i = 0;
  const skip = () => {
    while (i < header.length && (header[i] === ' ' || header[i] === '\t')) i++;
  };
  while (i < header.length) {
    skip();
    if (header[i] === ',') {
      i++;
      continue;
    }
    const m = TOKEN.exec(header.slice(i));
    if (!m) break; // not a header this parser can read further: keep what it read
    i += m[0].length;
    skip();
    if (header[i] !== '=') {
      current = { scheme: m[0], params: {} };
      out.push(current);
      continue;
    }
    // A token68 ("abc==", a credential blob after the scheme) is not a parameter: skip its '=' signs.
    if (/^=+\s*(,|$)/.test(header.slice(i))) {
      while (header[i] === '=') i++;
      continue;
    }
    i++;
    skip();
    let value = '';
    if (header[i] === '"') {
      i++;
      while (i < header.length && header[i] !== '"') {
        if (header[i] === '\\' && i + 1 < header.length) i++;
        value += header[i++];
      }
      i++;
    } else {
      const v = TOKEN.exec(header.slice(i));
      value = v ? v[0] : '';
      i += value.length;
    }
    if (current) current.params[m[0].toLowerCase()] = value;
  }
  return out;
}

/** The Bearer challenge of a header, if it has one. */
export function bearerChallenge(header: string | undefined): Challenge | undefined {
  return header === undefined ? undefined : parseChallenges(header).find((c) => c.scheme.toLowerCase() === 'bearer');
}
