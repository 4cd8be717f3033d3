// progress.*: progress notifications (PR-01; 2026-07-28 basic/patterns/progress, 2025-11-25
// basic/utilities/progress): only for a token of an active request, strictly increasing, none
// after the response.

import { SPEC } from '../../protocol/spec-links.js';
import { ALL_VERSIONS } from '../../protocol/versions.js';
import type { Evidence } from '../../results/verdict.js';
import { check, holds, untestable, violated } from '../kit/check.js';
import { firstOffenders } from '../kit/judge.js';
import { capableClientScenario } from '../input-required/capable-client-scenario.js';

export const progressChecks = [
  check(capableClientScenario, {
    id: 'progress.notifications',
    title: 'progress notifications carry the token of a request still in flight, and their progress strictly increases',
    requirements: ['PR-01'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    requires: { anyCapability: ['tools', 'prompts', 'resources'] },
    spec: SPEC.progress26,
    judge({ requests, notifications, answeredAt }) {
      if (requests.length === 0) return untestable('nothing could be requested with a progressToken');
      if (notifications.length === 0) return untestable(`none of ${requests.length} requests with a progressToken got a progress notification`);
      const tokens = new Set(requests.map((r) => r.token));
      const last = new Map<unknown, number>();
      const bad: Evidence[] = [];
      for (const n of notifications) {
        const token = n.params.progressToken;
        const progress = n.params.progress;
        if (typeof token !== 'string' || !tokens.has(token)) bad.push({ what: `a progress notification for token ${JSON.stringify(token)}, which no request of the session carried`, actual: n.params, seq: [n.seq] });
        else if (answeredAt[token] !== undefined && n.seq > answeredAt[token]) bad.push({ what: `a progress notification for ${token} after its request was answered`, actual: n.params, seq: [answeredAt[token], n.seq] });
        else if (typeof progress !== 'number') bad.push({ what: `progress ${JSON.stringify(progress)} is not a number`, actual: n.params, seq: [n.seq] });
        else if (last.has(token) && !(progress > last.get(token)!)) bad.push({ what: `progress for ${token} went from ${last.get(token)} to ${progress}`, actual: n.params, expected: `more than ${last.get(token)}`, seq: [n.seq] });
        if (typeof progress === 'number') last.set(token, progress);
      }
      if (bad.length) return violated(`${bad.length} of ${notifications.length} progress notifications break PR-01; first: ${bad[0].what}`, firstOffenders(bad));
      return holds(`${notifications.length} progress notifications for ${last.size} requests, each increasing and before its response`);
    },
  }),
];
