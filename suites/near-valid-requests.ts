import fc from 'fast-check';
import { messages } from '../arbitraries/messages.js';
import type { NearValid } from '../arbitraries/near-valid.js';
import { ALL_VERSIONS, check, holds, untestable, violated } from './check.js';
import { errorCode, evidence, isObj, outcome } from './exchange.js';
import { warmLatency } from './jsonrpc.js';
import { ProbeClock, probeTimeout, scenario } from './scenario.js';
import { SPEC } from './spec-links.js';
import type { Exchange, Session } from '../runner/session-types.js';

interface Sent {
  method: string;
  nearValid: NearValid;
  exchange: Exchange;
  /** The target had died on this message (it was restarted for the next). */
  crashed: boolean;
  /** Dropping `id` made the request a notification: no answer is the right answer. */
  notification: boolean;
}

interface NearValidObs {
  sent: Sent[];
}

const LISTS: [string, string][] = [['tools', 'tools/list'], ['resources', 'resources/list'], ['prompts', 'prompts/list']];

/** Methods safe to fuzz on any server: no side effects, only what the server declared. */
function fuzzableMethods(session: Session): string[] {
  const base = session.era === 'modern' ? ['server/discover'] : ['ping'];
  return [...base, ...LISTS.filter(([cap]) => cap in session.capabilities).map(([, m]) => m)];
}

/**
 * A cursor is an opaque value the server issued; a generated one would be refused as an invalid
 * cursor whatever else the request says. Keep it only where the mutation is the cursor itself.
 */
function withoutMadeUpCursor(nv: NearValid): unknown {
  const v = nv.value;
  if (!isObj(v) || !isObj(v.params) || !('cursor' in v.params) || nv.label.path.startsWith('/params/cursor')) return v;
  const { cursor: _made_up, ...params } = v.params;
  return { ...v, params };
}

export const nearValidRequests = scenario<NearValidObs>({
  id: 'robustness.near-valid',
  title: 'near-valid requests generated from the schema (one constraint broken each)',
  versions: ALL_VERSIONS,
  async run(ctx) {
    let { session } = ctx;
    const m = messages(ctx.version);
    const methods = fuzzableMethods(session);
    const arb = fc.oneof(...methods.map((method) => m.request(method).nearValid.map((nv) => ({ method, nv }))));
    const cases = fc.sample(arb, { numRuns: ctx.options.runs, seed: ctx.options.seed });
    const sent: Sent[] = [];
    const warm = await warmLatency(session);
    const clock = new ProbeClock(probeTimeout(ctx.options, warm), warm);
    for (const { method, nv } of cases) {
      const v = withoutMadeUpCursor(nv);
      const id = isObj(v) && (typeof v.id === 'string' || typeof v.id === 'number') && !nv.label.path.startsWith('/id') ? v.id : undefined;
      const notification = isObj(v) && typeof v.method === 'string' && !('id' in v);
      const t = clock.timeoutMs;
      const exchange = await ctx.deliberate(
        session.raw(v, { expectId: id, anyResponse: id === undefined && !notification, timeoutMs: t, quietMs: notification ? 300 : t }),
      );
      if (!notification) clock.observe(exchange);
      const crashed = !!exchange.closed;
      sent.push({ method, nearValid: nv, exchange, crashed, notification });
      if (crashed) session = await ctx.reopen();
    }
    return { sent };
  },
  checks: [
    check<NearValidObs>({
      id: 'robustness.survives-near-valid',
      title: 'every near-valid request is answered (with its id when readable) and the server stays up',
      requirements: ['JR-04', 'JR-06'],
      level: 'MUST',
      versions: ALL_VERSIONS,
      spec: SPEC.basic26,
      judge({ sent }) {
        if (sent.length === 0) return untestable('no near-valid request was generated');
        const bad = sent.filter((s) => s.crashed || (!s.notification && !isObj(s.exchange.response)));
        if (bad.length) {
          const crashes = bad.filter((s) => s.crashed).length;
          return violated(
            `${bad.length} of ${sent.length} near-valid requests went unanswered${crashes ? ` (${crashes} crashed the server)` : ''}; first: ${bad[0].nearValid.label.keyword} at ${bad[0].nearValid.label.path || '/'} (${bad[0].nearValid.label.mutation}) -> ${outcome(bad[0].exchange)}`,
            bad.slice(0, 3).map((s) => evidence(`${s.method}: ${s.nearValid.label.mutation} at ${s.nearValid.label.path || '/'}`, s.exchange, { pointer: s.nearValid.label.path, expected: 'a JSON-RPC response' })),
          );
        }
        const notes = sent.filter((s) => s.notification).length;
        return holds(`${sent.length - notes} near-valid requests, all answered${notes ? `; ${notes} without an id (notifications) did not crash it` : ''}`);
      },
    }),
    check<NearValidObs>({
      id: 'robustness.rejects-near-valid',
      title: 'near-valid requests are refused with an error rather than served',
      requirements: ['JR-06'],
      level: 'SHOULD',
      versions: ALL_VERSIONS,
      spec: SPEC.basic26,
      judge({ sent }) {
        const answered = sent.filter((s) => !s.notification && isObj(s.exchange.response));
        if (answered.length === 0) return untestable('no near-valid request was answered at all');
        const served = answered.filter((s) => errorCode(s.exchange) === undefined);
        if (served.length) {
          return violated(
            `${served.length} of ${answered.length} answered near-valid requests were served as if valid; first: ${served[0].nearValid.label.mutation} at ${served[0].nearValid.label.path || '/'}`,
            served.slice(0, 3).map((s) => evidence(`${s.method}: ${s.nearValid.label.mutation}`, s.exchange, { pointer: s.nearValid.label.path, expected: 'an error response' })),
          );
        }
        return holds(`${answered.length} near-valid requests, all refused with an error`);
      },
    }),
  ],
});
