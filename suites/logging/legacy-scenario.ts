// Logging in 2025-era sessions (LG-02, 2025-11-25 server/utilities/logging): `logging/setLevel` is
// session-wide. mcpspec sets `debug` and makes a few requests one at a time (to see whether the
// server logs at all, and below which level), then sets `warning` and makes the same requests: from
// that acknowledgement on, every notifications/message of the session is judged against `warning`.
// Last, a level that does not exist (deliberately invalid). Only run against a server that declares
// `logging`.

import { LEGACY } from '../../protocol/versions.js';
import type { WireEvent } from '../../results/wire.js';
import { isObj } from '../kit/exchange.js';
import type { Exchange } from '../ports/session.js';
import { scenario } from '../kit/scenario.js';
import { requestsToTry } from '../input-required/flows.js';
import { LOG_LEVELS } from './scenario.js';

const MAX_ITEMS = 3;
export const INVALID_LEVEL = 'mcpspec-not-a-level';

export interface LevelRound {
  level: string;
  /** The logging/setLevel exchange. */
  set: Exchange;
  /** The requests made at this level. */
  requests: Exchange[];
  /** notifications/message params received after the acknowledgement (until the next setLevel). */
  logs: { params: Record<string, unknown>; seq: number }[];
}

export interface LegacyLoggingObs {
  rounds: LevelRound[];
  /** logging/setLevel with a level that does not exist. */
  invalid?: Exchange;
}

const isLog = (e: WireEvent) => e.dir === 'in' && e.kind === 'message' && isObj(e.message) && e.message.method === 'notifications/message' && !('id' in e.message);

/** The index of a level in severity order, -1 when it is none of the eight. */
export const severity = (level: unknown) => LOG_LEVELS.indexOf(String(level));

export const legacyLoggingScenario = scenario<LegacyLoggingObs>({
  id: 'logging-legacy',
  title: 'logging/setLevel debug, a few requests, logging/setLevel warning, the same requests; then an invalid level',
  versions: LEGACY,
  async run(ctx) {
    const { session, options } = ctx;
    const { starts } = await requestsToTry(ctx, { want: MAX_ITEMS });
    const rounds: LevelRound[] = [];
    for (const level of ['debug', 'warning']) {
      if (ctx.signal.aborted) break;
      const set = await session.request('logging/setLevel', { level });
      // Everything after the answer counts, a log written right behind it (and read before this line runs) included.
      const answeredAt = set.seq.length ? Math.max(...set.seq) : session.events().at(-1)?.seq ?? 0;
      const requests: Exchange[] = [];
      for (const s of starts.slice(0, MAX_ITEMS)) {
        if (ctx.signal.aborted) break;
        const timeoutMs = s.method === 'tools/call' ? (options.toolTimeoutMs ?? options.timeoutMs) : options.timeoutMs;
        requests.push(await session.request(s.method, s.params, { timeoutMs }));
      }
      // stdio: a log written after the last response shows before the fence's answer.
      requests.push(await session.fence());
      const logs = session.events().filter((e) => e.seq > answeredAt).filter(isLog).map((e) => ({ params: ((e.message as { params?: unknown }).params ?? {}) as Record<string, unknown>, seq: e.seq }));
      rounds.push({ level, set, requests, logs });
    }
    const invalid = ctx.signal.aborted ? undefined : await ctx.deliberate(session.request('logging/setLevel', { level: INVALID_LEVEL }));
    return { rounds, invalid };
  },
});
