// Client-role elicitation scenario: mcpspec's scripted server (both eras) answers the client's first
// tools/call by asking, in form mode, for a form whose fields carry defaults of every primitive type
// (SEP-1034) and enums of every shape (SEP-1330: untitled and titled single-select, the legacy
// enumNames, untitled and titled multi-select). 2026-07-28: an input_required result (no
// requestState) and the retry's inputResponses; 2025-11-25: an elicitation/create request on the
// call's stream before its result. Judged by client-checks.ts beside it.

import { isObj } from '../../protocol/jsonrpc.js';
import { META_SERVER_INFO } from '../../protocol/meta.js';
import type { Received } from '../ports/scripted-server.js';
import { clientScenario } from '../kit/scenario.js';
import { observe, type ClientObs } from '../client/client-run.js';
import { isResponse, paramsOf, type Msg } from '../client/client-reading.js';
import { plainResult, runScript, SCRIPTED_INFO } from '../client/scripted-server.js';

export const ELICITATION_VERSIONS = ['2025-11-25', '2026-07-28'] as const;

/** The form: five defaulted fields, five enum fields without a default. */
export const FORM_SCHEMA = {
  type: 'object',
  properties: {
    nickname: { type: 'string', title: 'Nickname', default: 'Ada' },
    seats: { type: 'integer', title: 'Seats', minimum: 1, maximum: 9, default: 2 },
    // A whole number: the JSON schemas (2025-11-25, 2026-07-28) type ElicitResult content values as
    // string, integer, boolean or string array, so a fractional default, applied, would break them.
    budget: { type: 'number', title: 'Budget', default: 20 },
    tier: { type: 'string', title: 'Tier', enum: ['basic', 'plus', 'gold'], default: 'plus' },
    newsletter: { type: 'boolean', title: 'Newsletter', default: false },
    colour: { type: 'string', title: 'Colour', enum: ['red', 'green', 'blue'] },
    size: { type: 'string', title: 'Size', oneOf: [{ const: 's', title: 'Small' }, { const: 'm', title: 'Medium' }, { const: 'l', title: 'Large' }] },
    seat: { type: 'string', title: 'Seat', enum: ['w', 'a'], enumNames: ['Window', 'Aisle'] },
    toppings: { type: 'array', title: 'Toppings', items: { type: 'string', enum: ['cheese', 'olives', 'basil'] } },
    extras: { type: 'array', title: 'Extras', items: { anyOf: [{ const: 'bag', title: 'Gift bag' }, { const: 'card', title: 'Card' }] } },
  },
} as const;

export const FORM_PARAMS = { mode: 'form', message: 'Booking details (every field may stay as it is)', requestedSchema: FORM_SCHEMA };

/** One form-mode elicitation the client answered. */
export interface FormAnswer {
  /** Where the answer came: a legacy response, or a retry's inputResponses. */
  where: string;
  received: Received;
  /** The ElicitResult, as sent. */
  result: unknown;
  /** JSON pointer to the result within the received message. */
  pointer: string;
}

export interface FormObs extends ClientObs {
  /** How many times the form was asked for. */
  asked: number;
  /** tools/call requests that came before the form was asked, their client having declared no form-mode elicitation. */
  undeclared: number;
  answers: FormAnswer[];
}

const FORM_KEY = 'booking';
const LEGACY_ID_PREFIX = 'mcpspec-form-';

const declaresForm = (capabilities: Record<string, unknown>) => {
  const e = capabilities.elicitation;
  return isObj(e) && (Object.keys(e).length === 0 || 'form' in e);
};

export const clientElicitationForms = clientScenario<FormObs>({
  id: 'client-elicitation-forms',
  title: 'a scripted server asking, on the first tools/call, for a form-mode elicitation with defaults of every primitive type and enums of every shape',
  versions: [...ELICITATION_VERSIONS],
  async run(ctx) {
    let asked = 0;
    let undeclared = 0;
    const legacyIds: string[] = [];
    const log = runScript(ctx.server, {
      modern: true,
      legacy: true,
      timeoutMs: ctx.options.timeoutMs,
      override(req, mctx) {
        if (req.method !== 'tools/call' || asked > 0) return undefined;
        if (!declaresForm(mctx.capabilities)) {
          undeclared++;
          return undefined;
        }
        asked++;
        if (mctx.era === 'modern') {
          const inputRequests = { [FORM_KEY]: { method: 'elicitation/create', params: FORM_PARAMS } };
          return { jsonrpc: '2.0', id: req.id, result: { resultType: 'input_required', inputRequests, _meta: { [META_SERVER_INFO]: SCRIPTED_INFO } } };
        }
        const id = `${LEGACY_ID_PREFIX}${asked}`;
        legacyIds.push(id);
        const response = { jsonrpc: '2.0', id: req.id, result: plainResult('tools/call', req.params, 'legacy') };
        const answered = ctx.server.waitFor((x) => isResponse(x.message) && (x.message as Msg).id === id, ctx.options.timeoutMs);
        return { scripted: true, before: [{ jsonrpc: '2.0', id, method: 'elicitation/create', params: FORM_PARAMS }], response: answered.then(() => response) };
      },
    });
    const obs = await observe(ctx, log);
    const answers: FormAnswer[] = [];
    for (const r of obs.received) {
      const m = r.message as Msg;
      if (isResponse(m) && legacyIds.includes(m.id as string) && 'result' in m) answers.push({ where: `the answer to elicitation/create (id ${String(m.id)})`, received: r, result: m.result, pointer: '/result' });
      const p = isObj(m) && m.method === 'tools/call' ? paramsOf(r) : undefined;
      const responses = p && isObj(p.inputResponses) ? p.inputResponses : undefined;
      if (asked && responses && FORM_KEY in responses) answers.push({ where: `tools/call retry: inputResponses.${FORM_KEY}`, received: r, result: responses[FORM_KEY], pointer: `/params/inputResponses/${FORM_KEY}` });
    }
    return { ...obs, asked, undeclared, answers };
  },
});
