// Plain HTTP requests beside the MCP transport, for sessionless scenarios (authorization): a request
// without credentials, the metadata documents an OAuth client reads. Bounded like every other read,
// timed out, recorded (the body as a note, so the stream oracles never take a metadata document or
// an HTTP error body for a JSON-RPC message), and the user's headers only ever go to the target's
// own origin.

import type { PlainHttpRequest, PlainHttpResponse } from '../suites/ports/plain-http.js';
import { readBounded } from './bounded-reader.js';
import { sendHttp } from './http-request.js';
import type { Recorder } from './recorder.js';
import { redactHeaders } from './redact.js';

/** Metadata documents and error bodies are small: a larger body is cut. */
const MAX_PLAIN_BODY = 256 * 1024;

export interface PlainHttpOptions {
  endpoint: string;
  /** The headers the user gave the target (`--header`). */
  targetHeaders: Record<string, string>;
  timeoutMs: number;
  recorder: Recorder;
  /** The scenario's end (run deadline, interrupt). */
  signal: AbortSignal;
}

/** Merge header overrides case-insensitively; `undefined` removes. */
function merge(base: Record<string, string>, overrides: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = { ...base };
  for (const [name, value] of Object.entries(overrides)) {
    for (const k of Object.keys(out)) if (k.toLowerCase() === name.toLowerCase()) delete out[k];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

export async function plainHttp(req: PlainHttpRequest, o: PlainHttpOptions): Promise<PlainHttpResponse> {
  const started = Date.now();
  const url = req.url ?? o.endpoint;
  const out: PlainHttpResponse = { url, method: req.method, headers: {}, body: '', timedOut: false, elapsedMs: 0, seq: [] };
  let sameOrigin = false;
  try {
    sameOrigin = new URL(url).origin === new URL(o.endpoint).origin;
  } catch {
    out.error = `not a URL: ${url}`;
    return out;
  }
  const headers = merge(req.targetHeaders && sameOrigin ? o.targetHeaders : {}, req.headers ?? {});
  out.seq.push(o.recorder.record({ dir: 'out', channel: 'http', raw: req.body ?? '', http: { method: req.method, headers: redactHeaders(headers), url } }).seq);
  const timeout = AbortSignal.timeout(o.timeoutMs);
  const signal = AbortSignal.any([timeout, o.signal]);
  try {
    const res = await sendHttp(url, { method: req.method, headers, body: req.body, signal });
    out.status = res.status;
    out.headers = res.headers;
    out.url = res.url;
    let text = '';
    const read = await readBounded(res.body, MAX_PLAIN_BODY, (t) => void (text += t));
    out.body = text;
    if (read.overflow) {
      out.truncated = true;
      res.body.destroy();
    }
    out.seq.push(o.recorder.record({ dir: 'in', channel: 'http', kind: 'http-response', raw: '', http: { method: req.method, status: res.status, headers: redactHeaders(res.headers), url: res.url } }).seq);
    if (text) out.seq.push(o.recorder.note('http', 'plain-http-body', text).seq);
  } catch (e) {
    if (o.signal.aborted) out.aborted = true;
    else if (timeout.aborted) out.timedOut = true;
    else out.error = e instanceof Error ? e.message : String(e);
  }
  out.elapsedMs = Date.now() - started;
  return out;
}
