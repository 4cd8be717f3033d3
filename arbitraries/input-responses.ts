// What a correct client answers to a request a server sends it (2026-07-28: embedded in an
// InputRequiredResult; legacy: a real JSON-RPC request): a value generated from the schema of the
// request's result type. An elicitation's `content` is generated from its own `requestedSchema`.

import fc from 'fast-check';
import { messages } from './messages.js';
import { schemaArbitraries } from './schema-arbitraries.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The result definition that answers each server-to-client request method. */
export const RESULT_OF: Record<string, string> = {
  'elicitation/create': 'ElicitResult',
  'sampling/createMessage': 'CreateMessageResult',
  'roots/list': 'ListRootsResult',
};

function sample<T>(arb: fc.Arbitrary<T>, seed: number): T {
  return fc.sample(arb, { seed, numRuns: 1 })[0];
}

/**
 * A valid result for `request` (`{method, params}`) in `version`'s schema, or undefined when the
 * method is not one a client answers. Elicitations are accepted: form mode with content generated
 * from `requestedSchema` (a schema that cannot be generated from is declined), URL mode with consent.
 */
export function inputResponse(request: unknown, version: string, seed: number): unknown {
  if (!isObj(request) || typeof request.method !== 'string') return undefined;
  const def = RESULT_OF[request.method];
  if (!def) return undefined;
  const m = messages(version);
  const result = m.of(def);
  if (request.method !== 'elicitation/create') return sample(result.valid, seed);
  const params = isObj(request.params) ? request.params : {};
  if (params.mode === 'url') return { action: 'accept' };
  const schema = params.requestedSchema;
  if (!isObj(schema)) return { action: 'accept', content: {} };
  try {
    const content = sample(schemaArbitraries(schema, { maxDepth: 1 }).valid, seed);
    const answer = { action: 'accept', content };
    if (result.validate(answer)) return answer;
  } catch {
    // falls through: a requestedSchema nothing can satisfy is declined
  }
  return { action: 'decline' };
}
