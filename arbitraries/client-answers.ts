// Answers a scripted server gives a client under fuzzing: for the list methods a client asks
// (tools/list, prompts/list, resources/list), results that break exactly one schema constraint
// (near-valid) or that are valid but odd (generated from the schema: unusual names, optional
// members present or absent, unicode, long strings). A plan is the answers in the order they are
// served, per method; requests beyond the plan get the plain scripted answer. Pure data.

import fc from 'fast-check';
import type { SchemaDocument } from '../protocol/schema-registry.js';
import { definitionArbitraries } from './schema-arbitraries.js';

export type AnswerVariant = 'near-valid' | 'odd-valid';

export interface ClientAnswer {
  method: string;
  variant: AnswerVariant;
  /** The `result` served (the scripted server adds jsonrpc and the request's id). */
  result: unknown;
  /** What a near-valid result breaks (`path keyword`). */
  label?: string;
}

/** The list methods answered from the plan, and the schema definitions of their results. */
export const CLIENT_ANSWER_METHODS: Record<string, string> = { 'tools/list': 'ListToolsResult', 'prompts/list': 'ListPromptsResult', 'resources/list': 'ListResourcesResult' };

/** One answer of a list method: near-valid (weight 2) or odd but valid (weight 1). */
export function clientAnswerArbitrary(schema: SchemaDocument, version: string, methods: string[] = Object.keys(CLIENT_ANSWER_METHODS)): fc.Arbitrary<ClientAnswer> {
  return fc.oneof(
    ...methods.map((method) => {
      const arbs = definitionArbitraries(schema, CLIENT_ANSWER_METHODS[method], { specVersion: version, maxDepth: 2 });
      return fc.oneof(
        { weight: 2, arbitrary: arbs.nearValid.map((nv): ClientAnswer => ({ method, variant: 'near-valid', result: nv.value, label: `${nv.label.path || '/'} ${nv.label.keyword}` })) },
        { weight: 1, arbitrary: arbs.valid.map((v): ClientAnswer => ({ method, variant: 'odd-valid', result: v })) },
      );
    }),
  );
}

/** A plan: 1..maxLength answers, served in order to the requests of their methods. */
export function clientAnswerPlanArbitrary(schema: SchemaDocument, version: string, opts: { maxLength?: number; methods?: string[] } = {}): fc.Arbitrary<ClientAnswer[]> {
  return fc.array(clientAnswerArbitrary(schema, version, opts.methods), { minLength: 1, maxLength: opts.maxLength ?? 4 });
}
