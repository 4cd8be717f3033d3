// Logging in 2026-07-28 (LG-01): a few tools, prompts and resources, one request at a time (so a log
// message belongs to the request it came during), three times: without a log level, at `debug` and
// at `warning`. Run on any server: one that does not declare `logging` must send no log message at all.

import { MODERN } from '../../protocol/versions.js';
import type { WireEvent } from '../../results/wire.js';
import { isObj } from '../kit/exchange.js';
import type { Exchange } from '../ports/session.js';
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
  /** notifications/message params received while it was outstanding. */
  logs: Record<string, unknown>[];
  /** notifications/message params received after its response, before the next request went out (LG-01: too late). */
  late: Record<string, unknown>[];
}

export interface LoggingObs {
  calls: LoggedCall[];
}

const isLog = (e: WireEvent) => e.dir === 'in' && e.kind === 'message' && isObj(e.message) && e.message.method === 'notifications/message' && !('id' in e.message);

export const loggingScenario = scenario<LoggingObs>({
  id: 'logging',
  title: 'requests without a log level, at debug and at warning, one at a time, and the log messages each got',
  versions: MODERN,
  async run(ctx) {
    const { session, options } = ctx;
    const { starts } = await requestsToTry(ctx, { want: MAX_ITEMS });
    const calls: LoggedCall[] = [];
    // Events are read from where the previous call's reading stopped, so a log written right behind a
    // response (even in the same chunk) is seen and placed: before this request went out it is the
    // previous call's late one; between this request and its response it is this call's; after the
    // response, this call's late one.
    let cursor = session.events().length;
    const place = (events: WireEvent[], call: LoggedCall | undefined, prev: LoggedCall | undefined) => {
      const sentAt = call ? events.findIndex((e) => e.dir === 'out' && isObj(e.message) && e.message.id === call.exchange.id && 'method' in e.message) : events.length;
      const answeredAt = call ? events.findIndex((e) => e.dir === 'in' && isObj(e.message) && e.message.id === call.exchange.id && !('method' in e.message)) : -1;
      events.forEach((e, i) => {
        if (!isLog(e)) return;
        const params = ((e.message as { params?: unknown }).params ?? {}) as Record<string, unknown>;
        if (sentAt >= 0 && i < sentAt) prev?.late.push(params);
        else if (call && answeredAt >= 0 && i > answeredAt) call.late.push(params);
        else call?.logs.push(params);
      });
    };
    for (const level of [undefined, 'debug', 'warning']) {
      for (const s of starts.slice(0, MAX_ITEMS)) {
        if (ctx.signal.aborted) break;
        const timeoutMs = s.method === 'tools/call' ? (options.toolTimeoutMs ?? options.timeoutMs) : options.timeoutMs;
        const params = level === undefined ? s.params : { ...s.params, _meta: { [LOG_LEVEL_META]: level } };
        const exchange = await session.request(s.method, params, { timeoutMs });
        const call: LoggedCall = { target: s.target, level, exchange, logs: [], late: [] };
        const events = session.events();
        place(events.slice(cursor), call, calls.at(-1));
        cursor = events.length;
        calls.push(call);
      }
    }
    // What came after the last response, while the requests above were being read.
    place(session.events().slice(cursor), undefined, calls.at(-1));
    return { calls };
  },
});
