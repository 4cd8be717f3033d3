// logging.*: log messages in 2026-07-28 (LG-01, server/utilities/logging): none for a request that
// did not set `io.modelcontextprotocol/logLevel`, and only at or above the level it set; in 2025-era
// sessions (LG-02) `logging/setLevel`: acknowledged, honoured, and an unknown level refused.

import { SPEC } from '../../protocol/spec-links.js';
import { LEGACY, MODERN } from '../../protocol/versions.js';
import type { Evidence } from '../../results/verdict.js';
import { check, holds, untestable, violated } from '../kit/check.js';
import { clipJson, evidence, expectErrorCode, outcome, resultOf, unanswerable } from '../kit/exchange.js';
import { sentRequest } from '../kit/request-shape.js';
import { firstOffenders } from '../kit/judge.js';
import { INVALID_LEVEL, legacyLoggingScenario, severity } from './legacy-scenario.js';
import { LOG_LEVELS, loggingScenario } from './scenario.js';

export const loggingChecks = [
  check(loggingScenario, {
    id: 'logging.per-request',
    title: 'notifications/message only from a server that declares logging, for a request that set a logLevel, at or above it, before its response',
    requirements: ['LG-01'],
    level: 'MUST',
    versions: MODERN,
    // Not gated on `logging`: a server that does not declare it must send no log message at all.
    requires: { anyCapability: ['tools', 'prompts', 'resources'] },
    spec: SPEC.logging26,
    // Judged: the log messages tied to a request (scenario.ts, tiedLogs). One the server sends on its
    // own clock, or writes between requests, lands in a run or not by timing: never judged.
    judge({ calls, untied = 0 }, { capabilities }) {
      const answered = calls.filter((c) => c.exchange.response !== undefined);
      if (answered.length === 0) return untestable('nothing could be requested, or nothing was answered');
      const logs = calls.reduce((n, c) => n + c.logs.length + c.late.length, 0);
      const aside = untied ? `; ${untied} other log message(s) tied to no request were not judged` : '';
      if (logs === 0) return untestable(`none of ${calls.length} requests (without a level, at debug, at warning) got a log message of its own${aside}`);
      const declared = 'logging' in capabilities;
      const bad: Evidence[] = [];
      for (const c of calls) {
        for (const log of c.late) bad.push({ what: `${c.target} got a ${String(log.level)} message after its response`, actual: clipJson(log), expected: 'log messages before the final response', seq: c.exchange.seq.slice(0, 2) });
        for (const log of c.logs) {
          if (!declared) bad.push({ what: `${c.target} got a ${String(log.level)} message from a server whose capabilities lack logging`, actual: clipJson(log), seq: c.exchange.seq.slice(0, 2) });
          else if (c.level === undefined) bad.push({ what: `${c.target} without a logLevel got a ${String(log.level)} message`, actual: clipJson(log), seq: c.exchange.seq.slice(0, 2) });
          else if (!(LOG_LEVELS.indexOf(String(log.level)) >= LOG_LEVELS.indexOf(c.level))) bad.push({ what: `${c.target} at logLevel ${c.level} got a ${String(log.level)} message`, actual: clipJson(log), expected: `${c.level} or above`, seq: c.exchange.seq.slice(0, 2) });
        }
      }
      if (bad.length) return violated(`${bad.length} of ${logs} log messages were not asked for; first: ${bad[0].what}`, firstOffenders(bad));
      return holds(`${logs} log messages, each for a request that asked for its level or a lower one; none without a logLevel${aside}`);
    },
  }),
  check(legacyLoggingScenario, {
    id: 'logging.set-level',
    title: 'logging/setLevel is acknowledged with an empty result (2025-era sessions, logging declared)',
    requirements: ['LG-02'],
    level: 'MUST',
    versions: LEGACY,
    requires: { capabilities: ['logging'] },
    spec: SPEC.logging25,
    judge({ rounds }) {
      const sets = rounds.map((r) => r.set).filter((ex) => !unanswerable(ex));
      if (sets.length === 0) return untestable('the run ended before logging/setLevel was answered');
      const bad = sets.filter((ex) => !resultOf(ex));
      if (bad.length) return violated(`logging/setLevel ${String((sentRequest(bad[0])?.params as { level?: unknown } | undefined)?.level)} got ${outcome(bad[0])}`, bad.map((ex) => evidence('logging/setLevel', ex, { expected: { result: {} } })));
      return holds(`logging/setLevel ${rounds.map((r) => r.level).join(' and ')} acknowledged with a result`);
    },
  }),
  check(legacyLoggingScenario, {
    id: 'logging.set-level-filter',
    title: 'after logging/setLevel, notifications/message only at or above the level set',
    requirements: ['LG-02'],
    level: 'SHOULD',
    versions: LEGACY,
    requires: { capabilities: ['logging'] },
    spec: SPEC.logging25,
    judge({ rounds }) {
      const [low, high] = rounds;
      if (!low || !high || !resultOf(low.set) || !resultOf(high.set)) return untestable('logging/setLevel was not acknowledged, so no level was in force');
      const bad: Evidence[] = high.logs
        .filter((l) => severity(l.params.level) < severity(high.level))
        .map((l) => ({ what: `a ${String(l.params.level)} message after logging/setLevel ${high.level}`, actual: clipJson(l.params), expected: `${high.level} or above`, seq: l.seq }));
      if (bad.length) return violated(`${bad.length} of ${high.logs.length} log messages after logging/setLevel ${high.level} were below it; first: ${bad[0].what}`, firstOffenders(bad));
      const below = low.logs.filter((l) => severity(l.params.level) < severity(high.level)).length;
      if (low.logs.length + high.logs.length === 0) return untestable(`the server sent no log message while answering ${low.requests.length + high.requests.length} requests at levels ${low.level} and ${high.level}`);
      if (below === 0) return untestable(`at ${low.level} the server sent ${low.logs.length} log message(s), none below ${high.level}, so the level's effect cannot be seen`);
      return holds(`at ${low.level} the server sent ${below} message(s) below ${high.level}; after logging/setLevel ${high.level} none (${high.logs.length} at or above)`);
    },
  }),
  check(legacyLoggingScenario, {
    id: 'logging.set-level-invalid',
    title: 'logging/setLevel with a level that does not exist gets -32602',
    requirements: ['LG-02'],
    level: 'SHOULD',
    versions: LEGACY,
    requires: { capabilities: ['logging'] },
    spec: SPEC.logging25,
    judge({ invalid }) {
      if (!invalid || unanswerable(invalid)) return untestable('the run ended before the invalid level was answered');
      return expectErrorCode(invalid, -32602, `logging/setLevel ${INVALID_LEVEL}`, `logging/setLevel ${INVALID_LEVEL} got -32602`);
    },
  }),
];
