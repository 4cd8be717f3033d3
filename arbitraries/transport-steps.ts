// Transport-layer fuzz steps: the same requests as other steps, framed or labelled unusually for
// the transport in use. stdio: one message split over several writes (at arbitrary byte offsets,
// one of them possibly inside a multi-byte UTF-8 character), several messages joined in one write
// (optionally with blank lines between them). HTTP: unusual but legal headers, near-valid headers
// (the spec prescribes a rejection for some, nothing for others), and a request that prefers an
// SSE answer, read to the end of its stream. Pure data and fast-check arbitraries; the runner
// (fuzz/run-sequence.ts) sends and judges them.

import fc from 'fast-check';
import { messages } from './messages.js';

/**
 * HTTP header variants. Legal: `accept-q` (q-values, SSE preferred), `accept-extra` (further types
 * and a wildcard), `charset` (`application/json; charset=utf-8`), `odd-case` (header names in odd
 * case), `extra-header` (an unknown `X-` header). Near-valid where the spec prescribes a rejection:
 * `bad-protocol-version` (HL-08 / HM-06: 400), `method-mismatch` (2026-07-28 only, HM-08: 400 +
 * -32020). Near-valid where the spec prescribes no server behaviour (the rule binds the client):
 * `accept-json-only` (HL-01 / HM-01), `wrong-content-type` (`text/plain`).
 */
export type HeaderVariant =
  | 'accept-q'
  | 'accept-extra'
  | 'charset'
  | 'odd-case'
  | 'extra-header'
  | 'bad-protocol-version'
  | 'method-mismatch'
  | 'accept-json-only'
  | 'wrong-content-type';

/** Header variants the spec says a server must refuse, with the requirement IDs that say so. */
export const REJECTED_HEADER_VARIANTS: Partial<Record<HeaderVariant, { legacy?: string[]; modern?: string[]; why: string }>> = {
  'bad-protocol-version': { legacy: ['HL-08'], modern: ['HM-06'], why: 'an unsupported MCP-Protocol-Version header is answered with 400' },
  'method-mismatch': { modern: ['HM-08'], why: 'an Mcp-Method header that does not match the body is answered with 400 and -32020' },
};

/** Header variants that break a rule (the client's or the server's): the request is near-valid. */
export const NEAR_VALID_HEADER_VARIANTS: HeaderVariant[] = ['bad-protocol-version', 'method-mismatch', 'accept-json-only', 'wrong-content-type'];

export interface FramedRequest {
  method: string;
  params: Record<string, unknown>;
}

export type TransportStep =
  /**
   * stdio: one request written in pieces. `cuts` are fractions (0..1) of its UTF-8 byte length,
   * each mapped to an offset strictly inside the line; `inChar` adds a cut inside the first
   * multi-byte character (the request's id then carries one).
   */
  | { kind: 'split'; method: string; params: Record<string, unknown>; cuts: number[]; inChar: boolean }
  /** stdio: 2-3 requests in one write, with `blankLines` empty lines between them. */
  | { kind: 'joined'; requests: FramedRequest[]; blankLines: number }
  /** HTTP: a request with unusual or near-valid headers. */
  | { kind: 'headers'; method: string; params: Record<string, unknown>; variant: HeaderVariant }
  /** HTTP: a request that prefers an SSE answer; an SSE answer is read to the end of its stream. */
  | { kind: 'sse'; method: string; params: Record<string, unknown>; tool?: string };

export interface TransportProfile {
  transport: 'stdio' | 'http';
  era: 'legacy' | 'modern';
  version: string;
  /** Side-effect-free request methods the target declared (as in TargetProfile.methods). */
  methods: string[];
  /** A tool that may be called with `{}`-free valid arguments, for SSE steps (optional). */
  sseTools?: { name: string; arguments: fc.Arbitrary<unknown> }[];
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function framed(version: string, method: string): fc.Arbitrary<FramedRequest> {
  return messages(version)
    .request(method)
    .valid.map((msg) => {
      const p = isObj(msg) && isObj(msg.params) ? { ...msg.params } : {};
      delete p._meta;
      delete p.cursor;
      return { method, params: p };
    });
}

/** Transport-layer steps for a profile (none when it has no side-effect-free method to frame). */
export function transportStepArbitrary(profile: TransportProfile): fc.Arbitrary<TransportStep> | undefined {
  if (profile.methods.length === 0) return undefined;
  const request = fc.oneof(...profile.methods.map((m) => framed(profile.version, m)));
  if (profile.transport === 'stdio') {
    const split = fc
      .record({ r: request, cuts: fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { minLength: 1, maxLength: 3 }), inChar: fc.boolean() })
      .map(({ r, cuts, inChar }): TransportStep => ({ kind: 'split', method: r.method, params: r.params, cuts, inChar }));
    const joined = fc
      .record({ requests: fc.array(request, { minLength: 2, maxLength: 3 }), blankLines: fc.oneof({ weight: 2, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 2 }) }) })
      .map((j): TransportStep => ({ kind: 'joined', ...j }));
    return fc.oneof({ weight: 2, arbitrary: split }, { weight: 1, arbitrary: joined });
  }
  const variants: HeaderVariant[] = ['accept-q', 'accept-extra', 'charset', 'odd-case', 'extra-header', 'bad-protocol-version', 'accept-json-only', 'wrong-content-type'];
  if (profile.era === 'modern') variants.push('method-mismatch');
  // The variants whose rejection the spec prescribes are drawn more often: they are the ones judged.
  const variant = fc.oneof(...variants.map((v) => ({ weight: v in REJECTED_HEADER_VARIANTS ? 3 : 1, arbitrary: fc.constant(v) })));
  const headers = fc.record({ r: request, variant }).map(({ r, variant }): TransportStep => ({ kind: 'headers', method: r.method, params: r.params, variant }));
  const sseParts: fc.Arbitrary<TransportStep>[] = [request.map((r): TransportStep => ({ kind: 'sse', method: r.method, params: r.params }))];
  for (const t of profile.sseTools ?? []) {
    sseParts.push(t.arguments.map((args): TransportStep => ({ kind: 'sse', method: 'tools/call', params: { name: t.name, arguments: args }, tool: t.name })));
  }
  return fc.oneof({ weight: 3, arbitrary: headers }, { weight: 1, arbitrary: fc.oneof(...sseParts) });
}

/** The byte offsets at which a split step cuts its line (strictly inside it, ascending, unique). */
export function splitOffsets(bytes: Uint8Array, cuts: number[], inChar: boolean): number[] {
  const n = bytes.length;
  if (n < 2) return [];
  const out = new Set<number>(cuts.map((c) => 1 + Math.min(n - 2, Math.floor(c * (n - 1)))));
  if (inChar) {
    // The first lead byte of a multi-byte character (0b11xxxxxx): cut right after it.
    const lead = bytes.findIndex((b) => (b & 0xc0) === 0xc0);
    if (lead >= 0 && lead + 1 < n) out.add(lead + 1);
  }
  return [...out].sort((a, b) => a - b);
}

/** The id a split step with `inChar` gives its request: a string with multi-byte characters. */
export function multiByteId(position: number): string {
  return `é-${position}-\u{1F600}`;
}

/** The header overrides of a variant, given the request's method (for Mcp-Method). */
export function headerOverrides(variant: HeaderVariant, method: string): Record<string, string | undefined> {
  switch (variant) {
    case 'accept-q':
      return { Accept: 'text/event-stream;q=0.9, application/json;q=1.0' };
    case 'accept-extra':
      return { Accept: 'application/json, text/event-stream, text/plain;q=0.1, */*;q=0.01' };
    case 'charset':
      return { 'Content-Type': 'application/json; charset=utf-8' };
    case 'odd-case':
      return { 'CONTENT-type': 'application/json', aCCEPT: 'application/json, text/event-stream' };
    case 'extra-header':
      return { 'X-Mcpspec-Fuzz': 'odd but legal', 'X-Empty': '' };
    case 'bad-protocol-version':
      return { 'MCP-Protocol-Version': '1999-01-01' };
    case 'method-mismatch':
      return { 'Mcp-Method': method === 'tools/list' ? 'prompts/list' : 'tools/list' };
    case 'accept-json-only':
      return { Accept: 'application/json' };
    case 'wrong-content-type':
      return { 'Content-Type': 'text/plain' };
  }
}

/** A one-line description of a transport step. */
export function describeTransportStep(s: TransportStep): string {
  const clip = (v: unknown) => {
    const t = JSON.stringify(v) ?? 'undefined';
    return t.length > 80 ? `${t.slice(0, 60)}…(${t.length} chars)` : t;
  };
  switch (s.kind) {
    case 'split':
      return `${s.method} ${clip(s.params)} written in pieces (cuts at ${s.cuts.map((c) => c.toFixed(2)).join(', ')}${s.inChar ? ', and inside a multi-byte character' : ''})`;
    case 'joined':
      return `${s.requests.map((r) => r.method).join(' + ')} joined in one write${s.blankLines ? ` with ${s.blankLines} blank line(s) between` : ''}`;
    case 'headers':
      return `${s.method} ${clip(s.params)} with headers: ${s.variant}`;
    case 'sse':
      return `${s.tool ? `tools/call ${s.tool}` : s.method} ${clip(s.params)} preferring an SSE answer, read to the end`;
  }
}
