// logging.*: log messages in 2026-07-28 (LG-01, server/utilities/logging): none for a request that
// did not set `io.modelcontextprotocol/logLevel`, and only at or above the level it set.

import { SPEC } from '../protocol/spec-links.js';
import { MODERN } from '../protocol/versions.js';
import type { Evidence } from '../results/verdict.js';
import { check, holds, untestable, violated } from './check.js';
import { clipJson } from './exchange.js';
import { LOG_LEVELS, loggingScenario } from './scenarios/logging.js';

export const loggingChecks = [
  check(loggingScenario, {
    id: 'logging.per-request',
    title: 'notifications/message only for a request that set a logLevel, and only at or above it',
    requirements: ['LG-01'],
    level: 'MUST',
    versions: MODERN,
    requires: { capabilities: ['logging'], anyCapability: ['tools', 'prompts', 'resources'] },
    spec: SPEC.logging26,
    judge({ calls }) {
      const answered = calls.filter((c) => c.exchange.response !== undefined);
      if (answered.length === 0) return untestable('nothing could be requested, or nothing was answered');
      const logs = calls.reduce((n, c) => n + c.logs.length, 0);
      if (logs === 0) return untestable(`none of ${calls.length} requests (without a level, at debug, at warning) got a log message`);
      const bad: Evidence[] = [];
      for (const c of calls) {
        for (const log of c.logs) {
          if (c.level === undefined) bad.push({ what: `${c.target} without a logLevel got a ${String(log.level)} message`, actual: clipJson(log), seq: c.exchange.seq.slice(0, 2) });
          else if (!(LOG_LEVELS.indexOf(String(log.level)) >= LOG_LEVELS.indexOf(c.level))) bad.push({ what: `${c.target} at logLevel ${c.level} got a ${String(log.level)} message`, actual: clipJson(log), expected: `${c.level} or above`, seq: c.exchange.seq.slice(0, 2) });
        }
      }
      if (bad.length) return violated(`${bad.length} of ${logs} log messages were not asked for; first: ${bad[0].what}`, bad.slice(0, 3));
      return holds(`${logs} log messages, each for a request that asked for its level or a lower one; none without a logLevel`);
    },
  }),
];
