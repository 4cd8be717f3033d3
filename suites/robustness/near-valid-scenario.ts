import fc from 'fast-check';
import { messages } from '../../arbitraries/messages.js';
import type { NearValid } from '../../arbitraries/near-valid.js';
import { settleCases, shrinkFailure, startCases, type Counterexample, type Evaluated } from '../../arbitraries/property.js';
import { isObj } from '../../protocol/jsonrpc.js';
import { ALL_VERSIONS } from '../../protocol/versions.js';
import type { Exchange, Session } from '../ports/session.js';
import { scenario, type ScenarioContext } from '../kit/scenario.js';

export interface NearValidCase {
  method: string;
  nearValid: NearValid;
}

export interface Sent {
  exchange: Exchange;
  /** The target died on this message (the probe was retried alone to be sure). */
  crashed: boolean;
  /** Dropping `id` made the request a notification: no answer is the right answer. */
  notification: boolean;
}

export interface NearValidObs {
  seed: number;
  runs: number;
  cases: Evaluated<NearValidCase, Sent>[];
  /** The smallest case that went unanswered or crashed the target. */
  unanswered?: Counterexample<NearValidCase, Sent>;
  /** The smallest case that was served as if it were valid. */
  served?: Counterexample<NearValidCase, Sent>;
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

export const unansweredCase = (s: Sent) => s.crashed || (!s.notification && !isObj(s.exchange.response) && !s.exchange.aborted);
export const servedCase = (s: Sent) => !s.notification && isObj(s.exchange.response) && 'result' in s.exchange.response;

async function send(ctx: ScenarioContext, c: NearValidCase): Promise<Sent> {
  const v = withoutMadeUpCursor(c.nearValid);
  const readable = isObj(v) && (typeof v.id === 'string' || typeof v.id === 'number') && !c.nearValid.label.path.startsWith('/id');
  const notification = isObj(v) && typeof v.method === 'string' && !('id' in v);
  const expectId = readable ? (v.id as string | number) : undefined;
  // A readable id must come back on the answer (JR-06): such probes are matched by id and run side by
  // side; only a probe whose id was broken may be answered without one, so it needs a lane of its own.
  const idless = expectId === undefined;
  let exchange = await ctx.probe(v, { expectId, idless });
  // The connection died: send it again alone on a connection of its own (a fresh process) to know
  // whether it was this message that killed the target, and not another one sent beside it.
  if (exchange.closed) exchange = await ctx.probe(v, { expectId, idless: true, alone: true });
  return { exchange, crashed: !!exchange.closed, notification };
}

/** Near-valid requests generated from the schema (one constraint broken each), as a property. */
export const nearValidRequests = scenario<NearValidObs>({
  id: 'robustness.near-valid',
  title: 'near-valid requests generated from the schema (one constraint broken each)',
  versions: ALL_VERSIONS,
  startEarly: true,
  async run(ctx) {
    const m = messages(ctx.version);
    const methods = fuzzableMethods(ctx.session);
    const arb = fc.oneof(...methods.map((method) => m.request(method).nearValid.map((nearValid) => ({ method, nearValid }))));
    // Shrinking a silence costs a timeout per level; these messages are side-effect free, so a case or
    // candidate unanswered for a moment is taken as silent and the next level starts beside it, even
    // while the cases themselves are still out. Nothing starts after one timeout: the scenario ends
    // within two. The cases all go out at once (up to 32), so a target that drops them all costs one
    // timeout, not one per batch.
    const opts = {
      seed: ctx.options.seed,
      numRuns: ctx.options.runs,
      concurrency: Math.min(32, ctx.options.runs),
      shrinkBudgetMs: ctx.options.timeoutMs,
      speculateAfterMs: Math.min(500, ctx.options.timeoutMs / 10),
      // Guesses 500 ms apart while the cases wait out their timeout: eight levels deep before it ends.
      maxSpeculative: 8,
    };
    const evaluate = (c: NearValidCase) => send(ctx, c);
    const started = startCases(arb, opts, evaluate);
    // The two shrinks are independent: they wait side by side. For the second, silence is the pass:
    // a candidate slow to answer is likely not served, so its next siblings start beside it.
    const [unanswered, served] = await Promise.all([
      shrinkFailure(arb, opts, started, evaluate, unansweredCase),
      shrinkFailure(arb, { ...opts, slowMeans: 'passes' }, started, evaluate, servedCase),
    ]);
    const obs: NearValidObs = { seed: opts.seed, runs: opts.numRuns, cases: await settleCases(started), unanswered, served };
    return obs;
  },
});
