// Logging in 2025-era sessions (LG-02, 2025-11-25 server/utilities/logging): `logging/setLevel` is
// session-wide. mcpspec sets `debug` and makes a few requests one at a time (to see whether the
// server logs at all, and below which level), then sets `warning` and makes the same requests; the
// log messages judged against a level are those that surely came after the server applied it and
// that the requests provoke, not a timer (see roundLogs). Last, a level that does not exist
// (deliberately invalid). Only run against a server that declares `logging`.

import { LEGACY } from '../../protocol/versions.js';
import type { Exchange, Session } from '../ports/session.js';
import { scenario } from '../kit/scenario.js';
import { requestsToTry } from '../input-required/flows.js';
import { LOG_LEVELS, logsBetween, tiedLogs } from './scenario.js';

const MAX_ITEMS = 3;
export const INVALID_LEVEL = 'mcpspec-not-a-level';

export interface LevelRound {
  level: string;
  /** The logging/setLevel exchange. */
  set: Exchange;
  /** The requests made at this level. */
  requests: Exchange[];
  /** notifications/message params surely sent at this level (see roundLogs), with where they were read. */
  logs: { params: Record<string, unknown>; seq: number[] }[];
}

export interface LegacyLoggingObs {
  rounds: LevelRound[];
  /** logging/setLevel with a level that does not exist. */
  invalid?: Exchange;
}

/** The index of a level in severity order, -1 when it is none of the eight. */
export const severity = (level: unknown) => LOG_LEVELS.indexOf(String(level));

/**
 * The log messages of a round that surely came after the server applied its level. HTTP: those on
 * the setLevel answer's stream after the answer, and on the streams of the requests made after it
 * (the standalone GET stream is not ordered against POST answers: a log written there before the
 * server handled setLevel can be read after the acknowledgement). stdio (read in order): those read
 * while a request sent after the fence that followed the acknowledgement was outstanding. Logs
 * between requests (a timer's) are left out, so whether a round has any does not rest on timing.
 */
function roundLogs(session: Session, set: Exchange, requests: Exchange[]): LevelRound['logs'] {
  const of = (ex: Exchange, logs: { params: Record<string, unknown>; seq?: number }[]) => logs.map((l) => ({ params: l.params, seq: l.seq !== undefined ? [l.seq] : ex.seq.slice(0, 2) }));
  const fromSet = session.kind === 'http' ? of(set, tiedLogs(session, set).after) : [];
  return [...fromSet, ...requests.flatMap((ex) => {
    const { before, after } = tiedLogs(session, ex);
    return of(ex, [...before, ...after]);
  })];
}

/** stdio: the log messages read after the setLevel answer and before the answer to the fence sent behind it. */
function behindAck(session: Session, set: Exchange, fence: Exchange): LevelRound['logs'] {
  if (set.response === undefined || fence.response === undefined || set.seq.length < 2 || fence.seq.length < 2) return [];
  const from = Math.max(...set.seq);
  const to = Math.max(...fence.seq);
  return logsBetween(session, from, to).map((l) => ({ params: l.params, seq: [l.seq] }));
}

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
      // stdio (read in order): a fence behind the acknowledgement; a log read between the two was
      // written after the server applied the level (and acknowledged it), within one turnaround, so a
      // timer's rarely lands there, while a server that logs below the level right away is seen.
      const fence = session.kind === 'stdio' && !ctx.signal.aborted ? await session.fence() : undefined;
      const requests: Exchange[] = [];
      for (const s of starts.slice(0, MAX_ITEMS)) {
        if (ctx.signal.aborted) break;
        const timeoutMs = s.method === 'tools/call' ? (options.toolTimeoutMs ?? options.timeoutMs) : options.timeoutMs;
        requests.push(await session.request(s.method, s.params, { timeoutMs }));
      }
      const logs = [...(fence ? behindAck(session, set, fence) : []), ...roundLogs(session, set, requests)];
      rounds.push({ level, set, requests, logs });
    }
    const invalid = ctx.signal.aborted ? undefined : await ctx.deliberate(session.request('logging/setLevel', { level: INVALID_LEVEL }));
    return { rounds, invalid };
  },
});
