// A change of the tool list, provoked black-box (CA-10, SB-12; 2025 tools "List Changed
// Notification"): when the server declares `tools.listChanged` and lists a tool known to change the
// list (the official conformance suite's `test_trigger_tool_change`), mcpspec lists the tools, calls
// that tool (only if it may: read-only or non-destructive, or --allow-destructive), waits (bounded by
// the request timeout) for `notifications/tools/list_changed`, and lists the tools again.
// 2026-07-28: the notification is asked for on a `subscriptions/listen` stream (toolsListChanged),
// opened and acknowledged before the call. 2025-era: it comes on the session (stdio), or over HTTP on
// the call's own stream (mcpspec opens no standalone GET stream, so one sent there is not seen).

// The prompt list the same way (SB-12; the official suite's sep-2575 prompts list-changed rule): a
// server that declares `prompts.listChanged` and lists a tool known to change its prompts
// (`test_trigger_prompt_change`) is listened to with promptsListChanged while that tool is called.
// No other way to make a server change its prompts is known, so without such a tool nothing is judged.

import fc from 'fast-check';
import { schemaArbitraries } from '../../arbitraries/schema-arbitraries.js';
import { ALL_VERSIONS, MODERN, type SpecVersion } from '../../protocol/versions.js';
import type { WireEvent } from '../../results/wire.js';
import { isObj, listAll } from '../kit/exchange.js';
import type { Exchange } from '../ports/session.js';
import { eventAfter } from '../kit/event-after.js';
import { gentleSchema } from '../tools/gentle-arguments.js';
import { scenario, type ScenarioContext } from '../kit/scenario.js';
import { mayCall, schemaProblem, type Tool } from '../tools/scenario.js';

/** Tools known to change the tool list when called (the official conformance suite's fixture names). */
export const TOOL_CHANGE_TRIGGERS = ['test_trigger_tool_change'];
/** Tools known to change the prompt list when called (the official conformance suite's fixture names). */
export const PROMPT_CHANGE_TRIGGERS = ['test_trigger_prompt_change'];
const ACK = 'notifications/subscriptions/acknowledged';

/** A list whose change mcpspec provokes: where it is declared, read, asked for and notified. */
export interface ChangingList {
  /** The capability that declares listChanged, and the list's name in messages ("tool list"). */
  capability: 'tools' | 'prompts';
  noun: string;
  method: string;
  key: string;
  /** The subscriptions/listen filter key. */
  filter: string;
  notification: string;
  triggers: string[];
}

export const TOOLS_LIST: ChangingList = { capability: 'tools', noun: 'tool list', method: 'tools/list', key: 'tools', filter: 'toolsListChanged', notification: 'notifications/tools/list_changed', triggers: TOOL_CHANGE_TRIGGERS };
export const PROMPTS_LIST: ChangingList = { capability: 'prompts', noun: 'prompt list', method: 'prompts/list', key: 'prompts', filter: 'promptsListChanged', notification: 'notifications/prompts/list_changed', triggers: PROMPT_CHANGE_TRIGGERS };

export interface ListChangeObs {
  /** The server declares <capability>.listChanged. */
  declared: boolean;
  /** Why nothing was changed (no trigger listed, or not callable). */
  noTrigger?: string;
  trigger?: string;
  /** 2026-07-28: the listen request, if its acknowledgement never came. */
  listenFailed?: Exchange;
  call?: Exchange;
  /** The first list_changed notification after the call was sent. */
  notified?: WireEvent;
  /** How long mcpspec waited for it (0: not waited for, see `unseeable`). */
  waitedMs: number;
  /** 2025-era HTTP: a notification not on the call's stream cannot be seen. */
  unseeable: boolean;
  before?: unknown[];
  after?: unknown[];
}

const listed = async (ctx: ScenarioContext, method: string, key: string) => (await listAll((c) => ctx.session.request(method, c === undefined ? {} : { cursor: c }), key)).items;

function listChangeScenario(list: ChangingList, id: string, title: string, versions: SpecVersion[]) {
  const isChanged = (e: WireEvent) => e.dir === 'in' && isObj(e.message) && e.message.method === list.notification;
  return scenario<ListChangeObs>({
    id,
    title,
    versions,
    async run(ctx) {
      const { session, options } = ctx;
      const caps = session.capabilities;
      const declared = isObj(caps[list.capability]) && (caps[list.capability] as Record<string, unknown>).listChanged === true;
      const obs: ListChangeObs = { declared, waitedMs: 0, unseeable: false };
      if (!declared) return obs;
      const before = await listed(ctx, list.method, list.key);
      const tools = list.capability === 'tools' ? before : 'tools' in caps ? await listed(ctx, 'tools/list', 'tools') : [];
      const trigger = tools.find((t): t is Tool => typeof t.name === 'string' && list.triggers.includes(t.name));
      if (!trigger) return { ...obs, noTrigger: `no tool known to change the ${list.noun} is listed (${list.triggers.join(', ')})` };
      const why = mayCall(trigger, options) ?? schemaProblem(trigger.inputSchema);
      if (why) return { ...obs, noTrigger: `${trigger.name}: ${why}` };
      let args: unknown = {};
      try {
        [args] = fc.sample(schemaArbitraries(gentleSchema(trigger.inputSchema as Record<string, unknown>), { maxDepth: 2 }).valid, { seed: options.seed, numRuns: 1 });
      } catch {
        return { ...obs, noTrigger: `${trigger.name}: no valid arguments could be generated` };
      }
      const modern = session.era === 'modern';
      const stopListen = new AbortController();
      let listen: Promise<Exchange> | undefined;
      try {
        if (modern) {
          const listenId = `mcpspec-listen-${list.capability}-change`;
          const from = session.events().length;
          listen = session.request('subscriptions/listen', { notifications: { [list.filter]: true } }, { id: listenId, signal: stopListen.signal, timeoutMs: options.timeoutMs * 3 });
          const ack = await Promise.race([eventAfter(ctx, from, (e) => e.dir === 'in' && isObj(e.message) && e.message.method === ACK, options.timeoutMs), listen.then(() => undefined)]);
          if (!ack) {
            stopListen.abort();
            return { ...obs, trigger: trigger.name, listenFailed: await listen };
          }
        }
        const from = session.events().length;
        const call = await session.request('tools/call', { name: trigger.name, arguments: args }, { timeoutMs: options.toolTimeoutMs ?? options.timeoutMs });
        // 2025-era HTTP: only the call's own stream can be seen; anything else went to a GET stream.
        const unseeable = !modern && session.kind === 'http';
        const waitMs = unseeable ? 0 : options.timeoutMs;
        const started = Date.now();
        const notified = await eventAfter(ctx, from, isChanged, waitMs);
        const after = await listed(ctx, list.method, list.key);
        return { ...obs, trigger: trigger.name, call, notified, waitedMs: notified ? Date.now() - started : waitMs, unseeable, before, after };
      } finally {
        stopListen.abort();
        if (listen) await listen;
      }
    },
  });
}

export const toolsChangeScenario = listChangeScenario(
  TOOLS_LIST,
  'tools-change',
  'tools/list, a call of a tool known to change the list, the list_changed notification (2026-07-28: on a listen stream), tools/list again',
  ALL_VERSIONS,
);

export const promptsChangeScenario = listChangeScenario(
  PROMPTS_LIST,
  'prompts-change',
  'prompts/list, a listen stream asking for promptsListChanged, a call of a tool known to change the prompt list, the notification on that stream, prompts/list again',
  MODERN,
);
