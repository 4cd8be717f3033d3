// The values of the OpenTelemetry `_meta` keys (MT-09, 2026-07-28): `traceparent` and `tracestate` in
// W3C Trace Context form, `baggage` in W3C Baggage form. Each function says what is wrong, or undefined.

const HEX = (n: number) => `[0-9a-f]{${n}}`;
const TRACEPARENT = new RegExp(`^(${HEX(2)})-(${HEX(32)})-(${HEX(16)})-(${HEX(2)})(-.*)?$`);

export function traceparentProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return `traceparent is ${JSON.stringify(value)}, not a string`;
  const m = TRACEPARENT.exec(value);
  if (!m) return `traceparent ${JSON.stringify(value)} is not version-traceid-parentid-flags (2, 32, 16 and 2 lowercase hex digits)`;
  const [, version, traceId, parentId, , rest] = m;
  if (version === 'ff') return `traceparent ${JSON.stringify(value)} has the invalid version ff`;
  // Version 00 has exactly four fields; later versions may append more after a dash.
  if (version === '00' && rest !== undefined) return `traceparent ${JSON.stringify(value)} has fields after the flags (version 00 has four)`;
  if (/^0+$/.test(traceId)) return `traceparent ${JSON.stringify(value)} has an all-zero trace-id`;
  if (/^0+$/.test(parentId)) return `traceparent ${JSON.stringify(value)} has an all-zero parent-id`;
  return undefined;
}

const SIMPLE_KEY = '[a-z][a-z0-9_\\-*/]{0,255}';
const MULTI_TENANT_KEY = '[a-z0-9][a-z0-9_\\-*/]{0,240}@[a-z][a-z0-9_\\-*/]{0,13}';
// Printable ASCII but "," and "=", up to 256 characters, not ending in a space.
const STATE_VALUE = '[\\x20-\\x2b\\x2d-\\x3c\\x3e-\\x7e]{0,255}[\\x21-\\x2b\\x2d-\\x3c\\x3e-\\x7e]';
const STATE_MEMBER = new RegExp(`^(?:${SIMPLE_KEY}|${MULTI_TENANT_KEY})=${STATE_VALUE}$`);

export function tracestateProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return `tracestate is ${JSON.stringify(value)}, not a string`;
  const members = value.split(',').map((m) => m.replace(/^[ \t]+|[ \t]+$/g, '')).filter((m) => m !== '');
  if (members.length > 32) return `tracestate has ${members.length} list members (at most 32)`;
  const bad = members.find((m) => !STATE_MEMBER.test(m));
  if (bad !== undefined) return `tracestate member ${JSON.stringify(bad)} is not key=value (lowercase key, printable value without "," or "=")`;
  const keys = members.map((m) => m.slice(0, m.indexOf('=')));
  const twice = keys.find((k, i) => keys.indexOf(k) !== i);
  if (twice !== undefined) return `tracestate names the key ${JSON.stringify(twice)} twice`;
  return undefined;
}

// RFC 7230 token characters, and the octets a baggage value may hold unencoded.
const TOKEN = "[!#$%&'*+\\-.^_`|~0-9A-Za-z]+";
const BAGGAGE_VALUE = '(?:[\\x21\\x23-\\x2b\\x2d-\\x3a\\x3c-\\x5b\\x5d-\\x7e]|%[0-9A-Fa-f]{2})*';
const OWS = '[ \\t]*';
const PROPERTY = `${OWS}${TOKEN}${OWS}(?:=${OWS}${BAGGAGE_VALUE}${OWS})?`;
const BAGGAGE_MEMBER = new RegExp(`^${OWS}${TOKEN}${OWS}=${OWS}${BAGGAGE_VALUE}${OWS}(?:;${PROPERTY})*$`);

export function baggageProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return `baggage is ${JSON.stringify(value)}, not a string`;
  if (value.trim() === '') return 'baggage is empty (it needs at least one key=value member)';
  const bad = value.split(',').find((m) => !BAGGAGE_MEMBER.test(m));
  if (bad !== undefined) return `baggage member ${JSON.stringify(bad)} is not key=value[;property] (token key, unencoded value without spaces, quotes, "," ";" or "\\\\")`;
  return undefined;
}

export const TRACE_CONTEXT_KEYS = { traceparent: traceparentProblem, tracestate: tracestateProblem, baggage: baggageProblem } as const;
