// Logging in 2026-07-28 (LG-01): a few tools, prompts and resources, one request at a time (so a log
// message read while one is outstanding belongs to it), three times: without a log level, at `debug` and
// at `warning`. Run on any server: one that does not declare `logging` must send no log message at all.

import { MODERN } from '../../protocol/versions.js';
import type { WireEvent } from '../../results/wire.js';
import { isObj } from '../kit/exchange.js';
import type { Exchange, Session } from '../ports/session.js';
import { scenario } from '../kit/scenario.js';
import { requestsToTry } from '../input-required/flows.js';

export const LOG_LEVEL_META = 'io.modelcontextprotocol/logLevel';
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
const MAX_ITEMS = 3;

export interface LoggedCall {
  target: string;
  /** The level asked for, or undefined for none. */
  level?: string;
  exchange: Exchange;
  /** notifications/message params tied to it before its response (see tiedLogs). */
  logs: Record<string, unknown>[];
  /** After its response (LG-01: too late): HTTP on its stream; stdio read before the next request went out. */
  late: Record<string, unknown>[];
}

export interface LoggingObs {
  calls: LoggedCall[];
  /** Log messages of the session tied to none of the calls (a timer's, or written between requests): not judged. */
  untied?: number;
}

type Params = Record<string, unknown>;

export const isLog = (e: WireEvent) => e.dir === 'in' && e.kind === 'message' && isObj(e.message) && e.message.method === 'notifications/message' && !('id' in e.message);
const isLogMessage = (m: unknown): m is { params?: unknown } => isObj(m) && m.method === 'notifications/message' && !('id' in m);
const paramsOf = (m: unknown) => (((m as { params?: unknown }).params ?? {}) as Params);

/** The log messages read strictly between two recording positions (stdio is read in the server's order). */
export function logsBetween(session: Session, from: number, to: number): { params: Params; seq: number }[] {
  return session.events().flatMap((e) => (e.seq > from && e.seq < to && isLog(e) ? [{ params: paramsOf(e.message), seq: e.seq }] : []));
}

/**
 * The log messages that surely belong to one request, whatever a server logs on its own clock.
 * HTTP: those on the request's own response stream (before and after its response). stdio: those
 * read between the request and its response (the scenario adds those read right behind it).
 */
export function tiedLogs(session: Session, ex: Exchange): { before: { params: Params; seq?: number }[]; after: { params: Params; seq?: number }[] } {
  const before: { params: Params; seq?: number }[] = [];
  const after: { params: Params; seq?: number }[] = [];
  if (session.kind === 'http') {
    let answered = false;
    for (const m of ex.messages) {
      if (ex.response !== undefined && m === ex.response) answered = true;
      else if (isLogMessage(m)) (answered ? after : before).push({ params: paramsOf(m) });
    }
    return { before, after };
  }
  if (ex.response === undefined || ex.seq.length < 2) return { before, after };
  const from = Math.min(...ex.seq);
  const to = Math.max(...ex.seq);
  return { before: logsBetween(session, from, to), after };
}

export const loggingScenario = scenario<LoggingObs>({
  id: 'logging',
  title: 'requests without a log level, at debug and at warning, one at a time, and the log messages each got',
  versions: MODERN,
  async run(ctx) {
    const { session, options } = ctx;
    const { starts } = await requestsToTry(ctx, { want: MAX_ITEMS });
    const calls: LoggedCall[] = [];
    const first = session.events().at(-1)?.seq ?? 0;
    for (const level of [undefined, 'debug', 'warning']) {
      for (const s of starts.slice(0, MAX_ITEMS)) {
        if (ctx.signal.aborted) break;
        const timeoutMs = s.method === 'tools/call' ? (options.toolTimeoutMs ?? options.timeoutMs) : options.timeoutMs;
        const params = level === undefined ? s.params : { ...s.params, _meta: { [LOG_LEVEL_META]: level } };
        const exchange = await session.request(s.method, params, { timeoutMs });
        const { before, after } = tiedLogs(session, exchange);
        calls.push({ target: s.target, level, exchange, logs: before.map((l) => l.params), late: after.map((l) => l.params) });
      }
    }
    // stdio: a log read right behind a response, before the next request went out (or, after the last,
    // before a fence's answer), was written behind that response: too late for it (LG-01). The window is
    // one turnaround, so a timer's rarely lands there; later gaps are not judged.
    const fence = session.kind === 'stdio' && calls.length && !ctx.signal.aborted ? await session.fence() : undefined;
    if (session.kind === 'stdio') {
      calls.forEach((c, i) => {
        const answered = c.exchange.response !== undefined && c.exchange.seq.length >= 2 ? Math.max(...c.exchange.seq) : undefined;
        const next = i + 1 < calls.length ? Math.min(...calls[i + 1].exchange.seq) : fence?.response !== undefined ? Math.max(...fence.seq) : undefined;
        if (answered === undefined || next === undefined) return;
        c.late.push(...logsBetween(session, answered, next).map((l) => l.params));
      });
    }
    const all = session.events().filter((e) => e.seq > first && isLog(e)).length;
    const tied = calls.reduce((n, c) => n + c.logs.length + c.late.length, 0);
    return { calls, untied: Math.max(0, all - tied) };
  },
});
