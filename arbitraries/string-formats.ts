import fc from 'fast-check';
import { FLOAT32_MAX, INT_FORMAT_RANGES } from '../protocol/formats.js';
import type { Draw, Rng } from './rng.js';

const word = fc.constantFrom('alpha', 'beta', 'gamma', 'notes', 'report', 'data', 'item', 'user', 'main', 'docs', 'a1', 'x');
const host = fc.constantFrom('example.com', 'api.example.org', 'localhost', 'mcp.example.dev', '127.0.0.1');
const pathSegments = fc.array(word, { minLength: 0, maxLength: 3 });

const uri = fc.oneof(
  fc.tuple(fc.constantFrom('https', 'http'), host, pathSegments).map(([s, h, p]) => `${s}://${h}/${p.join('/')}`),
  pathSegments.map((p) => `file:///${['tmp', ...p].join('/')}.txt`),
  fc.tuple(word, fc.nat({ max: 999 })).map(([w, n]) => `mcp-test://${w}/${n}`),
);

const uriTemplate = fc.oneof(
  fc.tuple(host, word).map(([h, w]) => `https://${h}/${w}/{id}`),
  fc.constant('file:///{path}'),
  fc.tuple(word).map(([w]) => `mcp-test://${w}/{name}/{version}`),
);

const isoDate = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2035-12-31T23:59:59Z'), noInvalidDate: true })
  .map((d) => d.toISOString());

// Identifier-like strings built from character units: fc.stringMatching is far slower on hot paths.
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
function identifier(rest: string, maxRest: number): fc.Arbitrary<string> {
  return fc
    .tuple(fc.constantFrom(...LOWER), fc.string({ unit: fc.constantFrom(...rest), maxLength: maxRest }))
    .map(([head, tail]) => head + tail);
}

const email = fc
  .tuple(identifier(`${LOWER}0123456789`, 7), fc.constantFrom('example.com', 'example.org', 'mail.example.dev'))
  .map(([u, d]) => `${u}@${d}`);

const base64 = fc.uint8Array({ maxLength: 24 }).map((b) => Buffer.from(b).toString('base64'));

function intRange(min: number, max: number): fc.Arbitrary<number> {
  // keep realistic magnitudes while honouring the range
  const lo = Math.max(min, -1_000_000);
  const hi = Math.min(max, 1_000_000);
  return fc.integer({ min: lo, max: hi });
}

/** Generators for string and numeric formats; `undefined` for a format mcpspec does not model. */
export function formatArbitrary(format: string): fc.Arbitrary<unknown> | undefined {
  switch (format) {
    case 'uri':
    case 'iri':
    case 'uri-reference':
    case 'iri-reference':
      return uri;
    case 'uri-template':
      return uriTemplate;
    case 'date-time':
      return isoDate;
    case 'date':
      return isoDate.map((s) => s.slice(0, 10));
    case 'time':
      return isoDate.map((s) => s.slice(11));
    case 'email':
    case 'idn-email':
      return email;
    case 'byte':
    case 'base64':
      return base64;
    case 'uuid':
      return fc.uuid();
    case 'hostname':
    case 'idn-hostname':
      return fc.constantFrom('example.com', 'localhost', 'mcp.example.dev');
    case 'ipv4':
      return fc.ipV4();
    case 'ipv6':
      return fc.ipV6();
    case 'const':
      return undefined; // the sibling `const` keyword decides the value
    case 'float':
      return fc.double({ min: -FLOAT32_MAX, max: FLOAT32_MAX, noNaN: true, noDefaultInfinity: true });
    case 'double':
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e12, max: 1e12 });
    default: {
      const range = INT_FORMAT_RANGES[format];
      return range ? intRange(range[0], range[1]) : undefined;
    }
  }
}

/** The JSON type a format applies to (ajv ignores a format on values of other types). */
export function formatType(format: string): 'string' | 'number' | undefined {
  if (INT_FORMAT_RANGES[format] || format === 'float' || format === 'double') return 'number';
  if (format === 'const') return undefined;
  return 'string';
}

/** Strings that break a format, most realistic first; each is checked against ajv before use. */
export function brokenFormatValues(format: string): unknown[] {
  switch (format) {
    case 'uri':
    case 'iri':
      return ['not a uri', 'relative/path only', '://missing-scheme'];
    case 'uri-reference':
    case 'iri-reference':
      return ['http://exa mple.com/ space', '\\\\backslash'];
    case 'uri-template':
      return ['https://example.com/{unclosed', 'https://example.com/}{'];
    case 'date-time':
      return ['yesterday', '2025-13-45T99:99:99Z', '2025-01-01'];
    case 'date':
      return ['2025-13-45', 'tomorrow'];
    case 'time':
      return ['25:61:00Z', 'noon'];
    case 'email':
    case 'idn-email':
      return ['no-at-sign.example.com', 'two@@example.com'];
    case 'byte':
    case 'base64':
      return ['***not base64***', 'abc'];
    case 'uuid':
      return ['not-a-uuid', '1234'];
    case 'hostname':
    case 'idn-hostname':
      return ['-bad-.example', 'under_score.example'];
    case 'ipv4':
      return ['256.1.1.1', '1.2.3'];
    case 'ipv6':
      return ['12345::', ':::'];
    case 'float':
      return [1e39, -1e39];
    case 'double':
      return [];
    default: {
      const range = INT_FORMAT_RANGES[format];
      if (!range) return [];
      return [range[0] - 1 >= -(2 ** 64) ? range[0] - 1 : 0.5, 0.5, range[1] * 2 + 2];
    }
  }
}

/**
 * Realistic values for plain `{ "type": "string" }` properties by name, so generated messages read
 * like real traffic. Used only where the schema puts no other constraint on the string.
 */
export function hintedString(property: string, specVersion: string | undefined): fc.Arbitrary<string> | undefined {
  switch (property) {
    case 'protocolVersion':
    case 'io.modelcontextprotocol/protocolVersion':
      return fc.constant(specVersion ?? '2025-11-25');
    case 'uri':
    case 'url':
      return uri as fc.Arbitrary<string>;
    case 'uriTemplate':
      return uriTemplate;
    case 'resultType':
      return fc.constant('complete');
    case 'method':
      return fc.constantFrom('tools/list', 'tools/call', 'resources/read', 'prompts/get', 'notifications/progress');
    case 'mimeType':
      return fc.constantFrom('text/plain', 'application/json', 'text/markdown', 'image/png', 'audio/wav');
    case 'name':
      return identifier(`${LOWER}0123456789_`, 15);
    case 'version':
      return fc.tuple(fc.nat({ max: 9 }), fc.nat({ max: 20 }), fc.nat({ max: 40 })).map((v) => v.join('.'));
    case 'cursor':
    case 'nextCursor':
    case 'requestState':
    case 'taskId':
    case 'progressToken':
      return base64.filter((s) => s.length > 0);
    case 'title':
    case 'description':
    case 'text':
    case 'message':
    case 'statusMessage':
    case 'instructions':
      return fc.array(word, { minLength: 1, maxLength: 6 }).map((w) => w.join(' '));
    case 'data':
    case 'blob':
      return base64;
    default:
      return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// The same formats and hints as plain draws from a seeded stream, for the compiled generators
// (arbitraries/compiled.ts). Same shapes of values as the arbitraries above.

const WORDS = ['alpha', 'beta', 'gamma', 'notes', 'report', 'data', 'item', 'user', 'main', 'docs', 'a1', 'x'];
const HOSTS = ['example.com', 'api.example.org', 'localhost', 'mcp.example.dev', '127.0.0.1'];
const HOSTNAMES = ['example.com', 'localhost', 'mcp.example.dev'];
const MAIL_DOMAINS = ['example.com', 'example.org', 'mail.example.dev'];
const HEX = '0123456789abcdef';
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DATE_MIN = Date.UTC(2000, 0, 1);
const DATE_SPAN = Date.UTC(2035, 11, 31, 23, 59, 59) - DATE_MIN;

function drawSegments(r: Rng): string[] {
  const n = r.int(4);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(r.pick(WORDS));
  return out;
}

const drawUri: Draw<string> = (r) => {
  switch (r.int(3)) {
    case 0:
      return `${r.int(2) ? 'https' : 'http'}://${r.pick(HOSTS)}/${drawSegments(r).join('/')}`;
    case 1:
      return `file:///${['tmp', ...drawSegments(r)].join('/')}.txt`;
    default:
      return `mcp-test://${r.pick(WORDS)}/${r.int(1000)}`;
  }
};

const drawUriTemplate: Draw<string> = (r) => {
  switch (r.int(3)) {
    case 0:
      return `https://${r.pick(HOSTS)}/${r.pick(WORDS)}/{id}`;
    case 1:
      return 'file:///{path}';
    default:
      return `mcp-test://${r.pick(WORDS)}/{name}/{version}`;
  }
};

const drawIsoDate: Draw<string> = (r) => new Date(DATE_MIN + Math.floor(r.float() * DATE_SPAN)).toISOString();

function drawIdentifier(r: Rng, rest: string, maxRest: number): string {
  let s = LOWER[r.int(26)];
  const n = r.int(maxRest + 1);
  for (let i = 0; i < n; i++) s += rest[r.int(rest.length)];
  return s;
}

/** Base64 of 0..maxBytes random bytes (so also the empty string unless `minBytes` says otherwise). */
export function drawBase64(r: Rng, minBytes = 0, maxBytes = 24): string {
  const n = minBytes + r.int(maxBytes - minBytes + 1);
  // Character codes first, one string at the end: concatenating four pieces per 3 bytes made a
  // chain of small strings per value (the bulk of drawing a blob).
  const codes: number[] = [];
  for (let i = 0; i < n; i += 3) {
    const left = Math.min(3, n - i);
    const bits = r.int(1 << (8 * left)) << (8 * (3 - left));
    codes.push(B64_CODES[(bits >>> 18) & 63], B64_CODES[(bits >>> 12) & 63], left > 1 ? B64_CODES[(bits >>> 6) & 63] : PAD, left > 2 ? B64_CODES[bits & 63] : PAD);
  }
  return String.fromCharCode.apply(null, codes);
}
const B64_CODES = Array.from(B64, (c) => c.charCodeAt(0));
const PAD = '='.charCodeAt(0);

function hex(r: Rng, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += HEX[r.int(16)];
  return s;
}

const drawUuid: Draw<string> = (r) => `${hex(r, 8)}-${hex(r, 4)}-4${hex(r, 3)}-${HEX[8 + r.int(4)]}${hex(r, 3)}-${hex(r, 12)}`;

function drawIntIn(r: Rng, min: number, max: number): number {
  const lo = Math.max(min, -1_000_000);
  const hi = Math.min(max, 1_000_000);
  return r.range(lo, hi);
}

/** A double in [-bound, bound]: mostly small, realistic magnitudes; sometimes an integer or the bound. */
function drawDouble(r: Rng, bound: number): number {
  switch (r.int(8)) {
    case 0:
      return r.range(-1000, 1000);
    case 1:
      return r.int(2) ? bound : -bound;
    case 2:
      return (r.float() * 2 - 1) * bound || 0;
    default:
      return Math.round((r.float() * 2 - 1) * 1e6) / 1000 || 0;
  }
}

/** Plain draws for string and numeric formats; `undefined` for a format mcpspec does not model. */
export function formatDraw(format: string): Draw | undefined {
  switch (format) {
    case 'uri':
    case 'iri':
    case 'uri-reference':
    case 'iri-reference':
      return drawUri;
    case 'uri-template':
      return drawUriTemplate;
    case 'date-time':
      return drawIsoDate;
    case 'date':
      return (r) => drawIsoDate(r).slice(0, 10);
    case 'time':
      return (r) => drawIsoDate(r).slice(11);
    case 'email':
    case 'idn-email':
      return (r) => `${drawIdentifier(r, `${LOWER}0123456789`, 7)}@${r.pick(MAIL_DOMAINS)}`;
    case 'byte':
    case 'base64':
      return (r) => drawBase64(r);
    case 'uuid':
      return drawUuid;
    case 'hostname':
    case 'idn-hostname':
      return (r) => r.pick(HOSTNAMES);
    case 'ipv4':
      return (r) => `${r.int(256)}.${r.int(256)}.${r.int(256)}.${r.int(256)}`;
    case 'ipv6':
      return (r) => Array.from({ length: 8 }, () => r.int(0x10000).toString(16)).join(':');
    case 'const':
      return undefined;
    case 'float':
      return (r) => drawDouble(r, FLOAT32_MAX);
    case 'double':
      return (r) => drawDouble(r, 1e12);
    default: {
      const range = INT_FORMAT_RANGES[format];
      return range ? (r) => drawIntIn(r, range[0], range[1]) : undefined;
    }
  }
}

const METHODS = ['tools/list', 'tools/call', 'resources/read', 'prompts/get', 'notifications/progress'];
const MIME_TYPES = ['text/plain', 'application/json', 'text/markdown', 'image/png', 'audio/wav'];

/** `hintedString` as a plain draw: realistic values for open string properties, by name. */
export function hintedDraw(property: string, specVersion: string | undefined): Draw<string> | undefined {
  switch (property) {
    case 'protocolVersion':
    case 'io.modelcontextprotocol/protocolVersion': {
      const v = specVersion ?? '2025-11-25';
      return () => v;
    }
    case 'uri':
    case 'url':
      return drawUri;
    case 'uriTemplate':
      return drawUriTemplate;
    case 'resultType':
      return () => 'complete';
    case 'method':
      return (r) => r.pick(METHODS);
    case 'mimeType':
      return (r) => r.pick(MIME_TYPES);
    case 'name':
      return (r) => drawIdentifier(r, `${LOWER}0123456789_`, 15);
    case 'version':
      return (r) => `${r.int(10)}.${r.int(21)}.${r.int(41)}`;
    case 'cursor':
    case 'nextCursor':
    case 'requestState':
    case 'taskId':
    case 'progressToken':
      return (r) => drawBase64(r, 1);
    case 'title':
    case 'description':
    case 'text':
    case 'message':
    case 'statusMessage':
    case 'instructions':
      return (r) => drawWords(r, 1, 6);
    case 'data':
    case 'blob':
      return (r) => drawBase64(r);
    default:
      return undefined;
  }
}

/** `count` words (between min and max) joined by spaces. */
export function drawWords(r: Rng, min: number, max: number, words: readonly string[] = WORDS): string {
  const n = min + r.int(max - min + 1);
  let s = words[r.int(words.length)];
  for (let i = 1; i < n; i++) s += ' ' + words[r.int(words.length)];
  return s;
}
