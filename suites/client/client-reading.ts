// Reading what a client under test sent, for the client checks of every spec area: message kinds,
// evidence, the target and params of a request, how a crash makes a scenario's judgement moot, and
// (for oracles) the client's messages over the whole run.

import { isObj } from '../../protocol/jsonrpc.js';
import type { Evidence } from '../../results/verdict.js';
import type { WireEvent } from '../../results/wire.js';
import { violated, type Judgement } from '../kit/check.js';
import { crashOf } from '../kit/client-exit.js';
import { clipJson } from '../kit/exchange.js';
import type { RunObservations } from '../kit/observations.js';
import type { Received } from '../ports/scripted-server.js';
import type { ClientObs } from './client-run.js';

export type Msg = Record<string, unknown>;
export const isRequest = (m: unknown): m is Msg & { method: string } => isObj(m) && typeof m.method === 'string' && 'id' in m;
export const isNotification = (m: unknown): m is Msg & { method: string } => isObj(m) && typeof m.method === 'string' && !('id' in m);
export const isResponse = (m: unknown): m is Msg => isObj(m) && typeof m.method !== 'string' && ('result' in m || 'error' in m);
export const requestsOf = (received: Received[]) => received.filter((r) => isRequest(r.message));
export const ev = (what: string, r: Received, extra: Partial<Evidence> = {}): Evidence => ({ what, actual: clipJson(r.message, 800), seq: [r.seq], ...extra });
export const paramsOf = (r: Received): Msg => (isObj((r.message as Msg).params) ? ((r.message as Msg).params as Msg) : {});
export const sameId = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
/** An id as a map key. */
export const idKey = (id: unknown) => JSON.stringify(id);

/** The name or uri a request targets (what identifies its chain of rounds). */
export function targetOf(params: unknown): string {
  if (!isObj(params)) return '';
  return typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : '';
}

/** The crash or hang that makes a scenario's judgement moot, as a violation of the check at hand. */
export function endedBadly(o: ClientObs, what: string): Judgement | undefined {
  const crash = crashOf(o.exit);
  if (crash) return violated(`the client crashed ${what}: ${crash}`, [{ what: 'client exit', actual: { ...o.exit, stderrTail: o.exit.stderrTail.slice(-600), stdoutTail: undefined } }]);
  return undefined;
}

// ---------------------------------------------------------------- every client message of the run (oracles)

/** The JSON-RPC messages the client sent in the run (batches not included). */
export const fromClient = (events: WireEvent[]) => events.filter((e) => e.dir === 'in' && e.kind === 'message');
/** What the client sent in the run (every scenario), in order. */
export const clientMessages = (obs: RunObservations): WireEvent[] => obs.events.filter((e) => e.dir === 'in' && (e.kind === 'message' || Array.isArray(e.message)));
/** The near-valid scenario (robustness/client-scenarios.ts). */
const NEAR_VALID_SCENARIO = 'client-near-valid';
/** Single messages the client sent outside the near-valid scenario: what it sends after near-valid answers may carry their broken values (client.near-valid-survives judges that). */
export const judgedClientMessages = (obs: RunObservations): WireEvent[] => clientMessages(obs).filter((e) => !Array.isArray(e.message) && e.source !== NEAR_VALID_SCENARIO);

/** A client's pings come on its own clock (a keepalive): how many fall in a run says nothing about it. */
export function withoutPings(methods: readonly string[]): string[] {
  return methods.filter((m) => m !== 'ping');
}
