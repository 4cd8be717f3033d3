// Logging in 2026-07-28 (LG-01): a few tools, prompts and resources, one request at a time (so a log
// message belongs to the request it came during), three times: without a log level, at `debug` and
// at `warning`. Only run against a server that declares `logging`.

import { MODERN } from '../../protocol/versions.js';
import type { WireEvent } from '../../results/wire.js';
import { isObj } from '../exchange.js';
import type { Exchange } from '../ports.js';
import { scenario } from '../scenario.js';
import { requestsToTry } from './input-required.js';

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
    for (const level of [undefined, 'debug', 'warning']) {
      for (const s of starts.slice(0, MAX_ITEMS)) {
        if (ctx.signal.aborted) break;
        const from = session.events().length;
        const timeoutMs = s.method === 'tools/call' ? (options.toolTimeoutMs ?? options.timeoutMs) : options.timeoutMs;
        const params = level === undefined ? s.params : { ...s.params, _meta: { [LOG_LEVEL_META]: level } };
        const exchange = await session.request(s.method, params, { timeoutMs });
        const logs = session.events().slice(from).filter(isLog).map((e) => ((e.message as { params?: unknown }).params ?? {}) as Record<string, unknown>);
        calls.push({ target: s.target, level, exchange, logs });
      }
    }
    return { calls };
  },
});
