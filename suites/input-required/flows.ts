// input_required (2026-07-28 MRTR, IR-01..IR-17), black-box, for the capable-client scenario: what
// to try (every tool mcpspec may call with generated arguments, every prompt, the listed resources),
// one flow driven to its end (each InputRequiredResult answered with generated results and retried:
// new id, original params + inputResponses + requestState echoed byte for byte, until the request
// completes or the round bound is reached), and wrong retries of round 1 on purpose.

import fc from 'fast-check';
import { inputResponse } from '../../arbitraries/input-responses.js';
import { schemaArbitraries } from '../../arbitraries/schema-arbitraries.js';
import { META_CLIENT_CAPABILITIES } from '../../protocol/meta.js';
import { isObj, listAll, resultOf } from '../kit/exchange.js';
import type { Exchange } from '../ports/session.js';
import type { ScenarioContext } from '../kit/scenario.js';
import { mayCall, schemaProblem, type Tool } from '../tools/scenario.js';
import { gentleSchema } from '../tools/gentle-arguments.js';

type Obj = Record<string, unknown>;

/** What mcpspec declares while it plays a capable client. */
export const CAPABLE_CLIENT = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };
/** Rounds of one flow before mcpspec stops retrying (reported). */
export const MAX_ROUNDS = 8;
export const UNREQUESTED_KEY = 'mcpspec_unrequested';
export const MALFORMED_RESPONSE = 'mcpspec: not an input response';
/** The official conformance suite's fixture tools (called first when listed and callable). */
const CONFORMANCE_PREFIXES = ['test_input_required', 'test_mrtr'];
const MAX_TOOLS = 10;
const MAX_PROMPTS = 5;
const MAX_RESOURCES = 5;

export interface Flow {
  /** e.g. `tools/call confirm_echo`. */
  target: string;
  method: string;
  /** The original params (without `_meta`). */
  params: Obj;
  /** Round 1 is the original request; each later one a retry. */
  rounds: Exchange[];
  /** What mcpspec answered to the inputRequests of each round that had some (by round index). */
  answers: Record<number, Obj>;
  end: 'complete' | 'error' | 'undecided' | 'bound' | 'stopped';
  /** The first round again, declaring no client capability (IR-04). */
  reduced?: Exchange;
  /** Retry of round 1 without the responses it asked for (state echoed). */
  missing?: Exchange;
  /** Retry of round 1 whose first response is not a result at all. */
  malformed?: Exchange;
  /** Retry of round 1 with one unrequested response added. */
  extra?: Exchange;
  /** Retry of round 1 with its requestState altered. */
  tampered?: Exchange;
}

export const isInputRequired = (ex: Exchange | undefined) => resultOf(ex)?.resultType === 'input_required';
const undecided = (ex: Exchange) => !ex.response && (ex.timedOut || !!ex.aborted);

function capable(caps: Obj) {
  return { metaOverrides: { [META_CLIENT_CAPABILITIES]: caps } };
}

/** The retry params: original params plus the responses and the state, echoed as received (IR-06, IR-07). */
export function retryParams(params: Obj, answers: Obj | undefined, state: unknown): Obj {
  const p: Obj = { ...params };
  if (answers) p.inputResponses = answers;
  if (typeof state === 'string') p.requestState = state;
  return p;
}

function answer(requests: Obj, version: string, seed: number): Obj {
  const out: Obj = {};
  let i = 0;
  for (const [key, req] of Object.entries(requests)) {
    const r = inputResponse(req, version, seed + i++);
    if (r !== undefined) out[key] = r;
  }
  return out;
}

/** A different state of the same length: its last character changed. */
export function tamper(state: string): string {
  if (state.length === 0) return 'mcpspec-tampered';
  const last = state[state.length - 1];
  return state.slice(0, -1) + (last === 'A' ? 'B' : 'A');
}

/** One flow to its end: round 1 (with `firstMeta`, e.g. a progressToken), then a retry per InputRequiredResult. */
export async function drive(ctx: ScenarioContext, target: string, method: string, params: Obj, seed: number, firstMeta?: Obj): Promise<Flow> {
  const { session, options } = ctx;
  const timeoutMs = method === 'tools/call' ? (options.toolTimeoutMs ?? options.timeoutMs) : options.timeoutMs;
  const send = (p: Obj, caps: Obj = CAPABLE_CLIENT) => session.request(method, p, { ...capable(caps), timeoutMs });
  const flow: Flow = { target, method, params, rounds: [], answers: {}, end: 'stopped' };
  let ex = await send(firstMeta ? { ...params, _meta: firstMeta } : params);
  for (;;) {
    flow.rounds.push(ex);
    if (undecided(ex)) return { ...flow, end: 'undecided' };
    const r = resultOf(ex);
    if (!r) return { ...flow, end: 'error' };
    if (r.resultType !== 'input_required') return { ...flow, end: 'complete' };
    if (flow.rounds.length >= MAX_ROUNDS) return { ...flow, end: 'bound' };
    const requests = isObj(r.inputRequests) ? r.inputRequests : undefined;
    // Nothing to answer and no state to echo: a retry would only repeat the request (mrtr.shape judges it).
    if (!requests && typeof r.requestState !== 'string') return { ...flow, end: 'stopped' };
    const answers = requests ? answer(requests, ctx.version, seed + flow.rounds.length * 7) : undefined;
    if (answers) flow.answers[flow.rounds.length - 1] = answers;
    ex = await send(retryParams(params, answers, r.requestState));
  }
}

/** Wrong retries of round 1, on purpose (IR-04, IR-10, IR-11). */
export async function probe(ctx: ScenarioContext, flow: Flow): Promise<void> {
  const first = resultOf(flow.rounds[0]);
  if (!first || first.resultType !== 'input_required') return;
  const timeoutMs = flow.method === 'tools/call' ? (ctx.options.toolTimeoutMs ?? ctx.options.timeoutMs) : ctx.options.timeoutMs;
  const send = (p: Obj, caps: Obj = CAPABLE_CLIENT) => ctx.session.request(flow.method, p, { ...capable(caps), timeoutMs });
  const state = first.requestState;
  const keys = isObj(first.inputRequests) ? Object.keys(first.inputRequests) : [];
  const answers = flow.answers[0];
  const jobs: Promise<void>[] = [send(flow.params, {}).then((ex) => void (flow.reduced = ex))];
  if (keys.length > 0 && answers) {
    jobs.push(send(retryParams(flow.params, {}, state)).then((ex) => void (flow.missing = ex)));
    jobs.push(ctx.deliberate(send(retryParams(flow.params, { ...answers, [keys[0]]: MALFORMED_RESPONSE }, state))).then((ex) => void (flow.malformed = ex)));
    jobs.push(send(retryParams(flow.params, { ...answers, [UNREQUESTED_KEY]: { action: 'decline' } }, state)).then((ex) => void (flow.extra = ex)));
  }
  // Only a retry that got past round 1 shows what an accepted state looks like.
  if (typeof state === 'string' && flow.rounds.length > 1) jobs.push(send(retryParams(flow.params, answers, tamper(state))).then((ex) => void (flow.tampered = ex)));
  await Promise.all(jobs);
}

function conformanceFirst(a: Tool, b: Tool): number {
  const rank = (t: Tool) => (CONFORMANCE_PREFIXES.some((p) => t.name.startsWith(p)) ? 0 : 1);
  return rank(a) - rank(b);
}

export interface Start {
  target: string;
  method: string;
  params: Obj;
}

/**
 * What a scenario may try on the target: every tool mcpspec may call (conformance fixture tools
 * first) with arguments generated from its inputSchema, every prompt with its required arguments,
 * the listed resources; bounded. A scenario that uses only the first `want` of them, or only the
 * tools, says so: prompts and resources are then listed only when the tools do not give enough.
 */
export async function requestsToTry(ctx: ScenarioContext, need: { want?: number; toolsOnly?: boolean } = {}): Promise<{ starts: Start[]; notTried: string[] }> {
  const { session, options } = ctx;
  const caps = session.capabilities;
  const starts: Start[] = [];
  const notTried: string[] = [];
  const list = (cap: string, method: string) => (cap in caps ? listAll((c) => session.request(method, c === undefined ? {} : { cursor: c }), cap) : undefined);
  const others = () => Promise.all([list('prompts', 'prompts/list'), list('resources', 'resources/list')]);
  // Listed beside the tools only when every request may be used.
  const [tools, both] = await Promise.all([list('tools', 'tools/list'), need.toolsOnly || need.want !== undefined ? undefined : others()]);
  let [prompts, resources] = both ?? [undefined, undefined];
  const callable = (tools?.items ?? []).filter((t): t is Tool => typeof t.name === 'string').sort(conformanceFirst);
  for (const tool of callable) {
    const why = mayCall(tool, options) ?? schemaProblem(tool.inputSchema);
    if (why) {
      notTried.push(`${tool.name}: ${why}`);
      continue;
    }
    // starts holds only tools so far
    if (starts.length >= Math.min(MAX_TOOLS, need.want ?? Infinity)) break;
    let args: unknown;
    try {
      args = fc.sample(schemaArbitraries(gentleSchema(tool.inputSchema as Obj), { maxDepth: 3 }).valid, { seed: options.seed, numRuns: 1 })[0];
    } catch {
      notTried.push(`${tool.name}: no valid arguments could be generated`);
      continue;
    }
    starts.push({ target: `tools/call ${tool.name}`, method: 'tools/call', params: { name: tool.name, arguments: args } });
  }
  // A scenario that wants a few requests gets prompts and resources only when the tools fell short.
  if (!need.toolsOnly && need.want !== undefined && starts.length < need.want) [prompts, resources] = await others();
  for (const p of (prompts?.items ?? []).slice(0, MAX_PROMPTS)) {
    if (typeof p.name !== 'string') continue;
    const declared = (Array.isArray(p.arguments) ? p.arguments : []).filter(isObj);
    const args = Object.fromEntries(declared.filter((a) => a.required === true && typeof a.name === 'string').map((a) => [a.name as string, 'mcpspec']));
    starts.push({ target: `prompts/get ${p.name}`, method: 'prompts/get', params: { name: p.name, arguments: args } });
  }
  for (const r of (resources?.items ?? []).slice(0, MAX_RESOURCES)) {
    if (typeof r.uri === 'string') starts.push({ target: `resources/read ${r.uri}`, method: 'resources/read', params: { uri: r.uri } });
  }
  return { starts, notTried };
}
