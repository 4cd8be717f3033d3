// Answers a plain request cannot be judged on: a 2026-07-28 server may refuse a request that did not
// declare a client capability it needs (-32021, MT-05) or ask for input first (input_required, IR-01).
// Checks of plain tools/call, prompts/get and resources/read leave those answers to the mrtr.* checks,
// where mcpspec declares the capabilities and plays the rounds.

import { META_CLIENT_CAPABILITIES } from '../../protocol/meta.js';
import { errorCode, errorOf, isObj, resultOf } from '../kit/exchange.js';
import type { Exchange } from '../ports/session.js';
import { sentRequest } from '../kit/request-shape.js';

/** Whether `declared` covers every capability (and sub-capability) `required` names. */
function covers(declared: Record<string, unknown>, required: Record<string, unknown>): boolean {
  return Object.entries(required).every(([k, v]) => k in declared && (!isObj(v) || !isObj(declared[k]) || covers(declared[k] as Record<string, unknown>, v)));
}

/** The capabilities a request declared in its `_meta` (modern); `{}` when none. */
export function declaredCapabilities(ex: Exchange): Record<string, unknown> {
  const meta = sentRequest(ex)?.params?._meta;
  const caps = isObj(meta) ? meta[META_CLIENT_CAPABILITIES] : undefined;
  return isObj(caps) ? caps : {};
}

/** -32021 naming a client capability the request did not declare: a refusal the spec asks for. */
export function refusedForUndeclared(ex: Exchange): boolean {
  if (errorCode(ex) !== -32021) return false;
  const data = errorOf(ex)?.data;
  const required = isObj(data) ? data.requiredCapabilities : undefined;
  return isObj(required) && Object.keys(required).length > 0 && !covers(declaredCapabilities(ex), required);
}

/** An InputRequiredResult (2026-07-28). */
export function askedForInput(ex: Exchange): boolean {
  return resultOf(ex)?.resultType === 'input_required';
}

/** Left to the mrtr.* checks: a capability refusal or a request for input. */
export function needsCapableClient(ex: Exchange): boolean {
  return refusedForUndeclared(ex) || askedForInput(ex);
}
