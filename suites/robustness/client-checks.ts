// client.near-valid-survives: a client under test served results that break one schema constraint
// (client-scenarios.ts beside it) neither crashes nor hangs, nor passes the broken data on (JR-04, EX-05).

import { SPEC } from '../../protocol/spec-links.js';
import { ALL_VERSIONS } from '../../protocol/versions.js';
import type { Evidence } from '../../results/verdict.js';
import { check, holds, untestable, violated } from '../kit/check.js';
import { crashOf, describeExit } from '../kit/client-exit.js';
import { firstOffenders } from '../kit/judge.js';
import { isRequest } from '../client/client-reading.js';
import { schemaProblem } from '../messages/client-checks.js';
import { nearValidAnswers } from './client-scenarios.js';

const nearValidSurvives = check(nearValidAnswers, {
  id: 'client.near-valid-survives',
  title: 'a client served a result that breaks one schema constraint neither crashes nor hangs, nor passes the broken data on in an invalid request',
  requirements: ['JR-04', 'EX-05'],
  level: 'MUST',
  versions: ALL_VERSIONS,
  role: 'client',
  spec: SPEC.basic26,
  judge(o, ctx) {
    if (o.served.length === 0) return untestable('the client listed nothing (tools, prompts, resources), so no near-valid result was served');
    const labels = o.served.map((s) => `${s.method}: ${s.label.keyword} at ${s.label.path || '/'}`);
    const crash = crashOf(o.exit);
    if (crash) return violated(`the client crashed (${crash}) after near-valid results (${labels.join('; ')})`, [{ what: 'client exit', actual: { exitCode: o.exit.exitCode, signal: o.exit.signal, stderrTail: o.exit.stderrTail.slice(-600) }, expected: labels }]);
    if (o.exit.timedOut) return violated(`the client hung after near-valid results (${labels.join('; ')})`, [{ what: 'client still running at the timeout', expected: labels }]);
    // Acting on them as valid: a request after the first near-valid answer that is itself invalid (it passed a broken value on).
    const first = Math.min(...o.served.map((x) => x.seq));
    const passedOn = o.received.filter((r) => r.seq > first && isRequest(r.message)).map((r) => schemaProblem({ seq: r.seq, t: 0, dir: 'in', channel: o.transport, raw: '', message: r.message }, ctx.version)).filter((p): p is Evidence => p !== undefined);
    if (passedOn.length) return violated(`after near-valid results (${labels.join('; ')}) the client sent ${passedOn.length} invalid request(s): it acted on broken data as valid; first: ${passedOn[0].what} (${passedOn[0].pointer || '/'}: ${String(passedOn[0].expected)})`, firstOffenders(passedOn));
    return holds(`${o.served.length} near-valid result(s) (${labels.join('; ')}); the client ${describeExit(o.exit)}`);
  },
});

export const robustnessClientChecks = [nearValidSurvives];
