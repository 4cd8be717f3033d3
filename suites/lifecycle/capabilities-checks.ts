// capabilities.*: what a server did not declare, it does not serve, and what it declared, it serves (CAP-01, LC-07).

import { SPEC } from '../../protocol/spec-links.js';
import { ALL_VERSIONS, LEGACY } from '../../protocol/versions.js';
import { check, holds, oracle, untestable, violated } from '../kit/check.js';
import { errorCode, evidence, isObj, outcome, unanswerable } from '../kit/exchange.js';
import { every } from '../kit/judge.js';
import { undeclaredCapability } from './undeclared-capability-scenario.js';

/**
 * Methods that name nothing but themselves, by the capability that announces them: a declared
 * capability's method answered "method not found" is a capability announced and not served.
 */
const SERVED_BY: Record<string, string> = {
  'tools/list': 'tools',
  'prompts/list': 'prompts',
  'resources/list': 'resources',
  'resources/templates/list': 'resources',
  'logging/setLevel': 'logging',
  'completion/complete': 'completions',
};

export const capabilitiesChecks = [
  oracle({
    id: 'capabilities.declared-served',
    title: 'no method of a capability the server declared is answered -32601 (method not found)',
    requirements: ['LC-07', 'CAP-01'],
    level: 'MUST',
    versions: ALL_VERSIONS,
    spec: SPEC.basic26,
    judge({ exchanges, deliberate }, ctx) {
      return every(exchanges.filter((ex) => ex.method !== undefined && ex.method in SERVED_BY && isObj(ctx.capabilities[SERVED_BY[ex.method]]) && !deliberate(ex) && ex.response !== undefined), {
        none: 'no method of a declared capability was asked',
        offends: (ex) => errorCode(ex) === -32601,
        violated: (bad, judged) => `${bad.length} of ${judged.length} requests of declared capabilities got -32601: ${[...new Set(bad.map((ex) => `${ex.method} (${SERVED_BY[ex.method!]} declared)`))].join(', ')}`,
        evidence: (ex) => evidence(`${ex.method} got method not found`, ex, { expected: `a result: the server declared ${SERVED_BY[ex.method!]}` }),
        holds: (judged) => `${judged.length} requests of declared capabilities, none answered "method not found"`,
      });
    },
  }),
  check(undeclaredCapability, {
    id: 'capabilities.undeclared-method',
    title: 'a method of a capability the server did not declare gets -32601',
    requirements: ['CAP-01'],
    level: 'MUST',
    versions: LEGACY,
    spec: SPEC.basic25,
    judge({ probes }) {
      const asked = probes.filter((p) => !unanswerable(p.exchange));
      if (probes.length === 0) return untestable('the server declares every gated capability mcpspec knows (logging, completions, prompts, resources, tools)');
      if (asked.length === 0) return untestable('the run ended before the probes were answered');
      const bad = asked.filter((p) => errorCode(p.exchange) !== -32601);
      if (bad.length) {
        return violated(bad.map((p) => `${p.method} (capability ${p.capability} not declared) got ${outcome(p.exchange)}`).join('; '),
          bad.map((p) => evidence(`${p.method} without the ${p.capability} capability`, p.exchange, { expected: { error: { code: -32601 } } })));
      }
      return holds(asked.map((p) => `${p.method} (capability ${p.capability} not declared)`).join(', ') + ': -32601');
    },
  }),
];
