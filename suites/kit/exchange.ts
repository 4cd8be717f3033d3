// Reading exchanges: error codes, results, short descriptions and evidence for verdicts.

import { isObj } from '../../protocol/jsonrpc.js';
import type { Evidence } from '../../results/verdict.js';
import { holds, violated, type Judgement } from './check.js';
import type { Exchange } from '../ports/session.js';

export { isObj };
type Obj = Record<string, unknown>;

/** The JSON-RPC error object of the exchange's response, if it is an error. */
export function errorOf(ex: Exchange | undefined): { code: unknown; message: unknown; data?: unknown } | undefined {
  const r = ex?.response;
  return isObj(r) && isObj(r.error) ? (r.error as { code: unknown; message: unknown; data?: unknown }) : undefined;
}

export function errorCode(ex: Exchange | undefined): number | undefined {
  const c = errorOf(ex)?.code;
  return typeof c === 'number' ? c : undefined;
}

export function resultOf(ex: Exchange | undefined): Obj | undefined {
  const r = ex?.response;
  return isObj(r) && isObj(r.result) ? r.result : undefined;
}

/** A short description of how the exchange ended, for messages. */
export function outcome(ex: Exchange | undefined): string {
  if (!ex) return 'not sent';
  if (ex.closed) return `the target exited (code ${ex.closed.exitCode ?? 'none'}${ex.closed.signal ? `, signal ${ex.closed.signal}` : ''})`;
  if (ex.aborted && !ex.response) return 'the run ended before an answer came';
  if (ex.streamBroken && !ex.response) return `the response stream (HTTP ${ex.http?.status ?? '?'}) ended before the answer came`;
  if (ex.timedOut && !ex.response) return `no answer within the ${ex.timeoutMs} ms timeout`;
  const err = errorOf(ex);
  if (err) return `error ${String(err.code)} "${clip(String(err.message), 80)}"${ex.http ? ` (HTTP ${ex.http.status})` : ''}`;
  if (resultOf(ex)) return `a result${ex.http ? ` (HTTP ${ex.http.status})` : ''}`;
  if (ex.http) return `HTTP ${ex.http.status} with no JSON-RPC response`;
  return 'no response';
}

export function evidence(what: string, ex: Exchange | undefined, extra: Partial<Evidence> = {}): Evidence {
  const e: Evidence = { what, request: clipJson(ex?.request), response: clipJson(ex?.response) };
  if (ex?.http) e.http = { status: ex.http.status, contentType: ex.http.contentType, body: clip(ex.http.body, 400) };
  if (ex?.closed) e.actual = { exited: ex.closed.exitCode, signal: ex.closed.signal, stderrTail: clip(ex.closed.stderrTail, 600) };
  else if (ex?.timedOut && !ex.response) e.actual = `no answer within the ${ex.timeoutMs} ms timeout`;
  if (ex?.seq.length) e.seq = ex.seq.slice(0, 20);
  return { ...e, ...extra };
}

export function clip(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

/** Keep evidence small: long strings are cut, deep structures summarised. */
export function clipJson(v: unknown, budget = 1200): unknown {
  if (v === undefined) return undefined;
  if (typeof v === 'string') return clip(v, 400);
  const s = JSON.stringify(v);
  if (s === undefined || s.length <= budget) return v;
  return { excerpt: clip(s, budget) };
}

/** Follow nextCursor until the end, refusing loops and bounding the pages. */
export async function listAll(
  request: (cursor?: string) => Promise<Exchange>,
  key: string,
  maxPages = 50,
): Promise<{ items: Obj[]; pages: Exchange[]; loop?: { cursor: string; page: number }; truncated: boolean; failed?: Exchange }> {
  const items: Obj[] = [];
  const pages: Exchange[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const ex = await request(cursor);
    pages.push(ex);
    const result = resultOf(ex);
    if (!result) return { items, pages, truncated: false, failed: ex };
    const list = result[key];
    if (Array.isArray(list)) items.push(...list.filter(isObj));
    const next = result.nextCursor;
    if (typeof next !== 'string') return { items, pages, truncated: false };
    if (seen.has(next)) return { items, pages, loop: { cursor: next, page: page + 1 }, truncated: false };
    seen.add(next);
    cursor = next;
  }
  return { items, pages, truncated: true };
}

/** The common judgement "this request must be refused with error `code`". */
export function expectErrorCode(ex: Exchange | undefined, code: number, what: string, passed = String(code)): Judgement {
  if (errorCode(ex) === code) return holds(passed);
  return violated(`${what} got ${outcome(ex)}`, [evidence(what, ex, { expected: { error: { code } } })]);
}

/** The exchange got no answer because the run ended, not because the target was silent. */
export function unanswerable(ex: Exchange | undefined): boolean {
  return !!ex && !ex.response && !!ex.aborted;
}

/**
 * Items for evidence, one of each kind first (the kind with digits ignored), then repeats: many
 * copies of one problem must not hide another. `max` items, more when there are more kinds (up to
 * `maxKinds`).
 */
export function oneOfEachFirst<T>(items: readonly T[], kindOf: (item: T) => string, max = 3, maxKinds = 8): T[] {
  const firsts = new Map<string, T>();
  for (const item of items) {
    const kind = kindOf(item).replace(/\d+/g, '#');
    if (!firsts.has(kind)) firsts.set(kind, item);
  }
  const distinct = [...firsts.values()];
  return [...distinct, ...items.filter((i) => !distinct.includes(i))].slice(0, Math.max(max, Math.min(distinct.length, maxKinds)));
}
