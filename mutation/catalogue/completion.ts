// Mutations of the completion area (requirements digest §12 CP-01, CAP-01): the errors of
// completion/complete and the shape of its values (strings, at most 100: the schema is the rule,
// cited as JR-04 like the wire.schema check does).

import { isObj, onError, onResult } from '../edits.js';
import { withHttpStatus } from './input-required.js';
import { mutation, SERVER_ANY as server, type Mutation } from '../mutation.js';

export const COMPLETION_MUTATIONS: Mutation[] = [
  mutation({
    ...server,
    id: 'completion.over-100-values',
    requirements: ['JR-04'],
    related: ['CP-01'],
    description: 'completion/complete results carry 101 or more values (the list is padded with numbered variants of its first value)',
    ...onResult(['completion/complete'], (r) => {
      if (!isObj(r.completion) || !Array.isArray(r.completion.values)) return false;
      const values = r.completion.values as unknown[];
      const stem = typeof values[0] === 'string' ? values[0] : 'value';
      for (let i = values.length; i <= 100; i++) values.push(`${stem}-${i}`);
      r.completion.hasMore = false;
      if ('total' in r.completion) r.completion.total = values.length;
      return true;
    }),
  }),
  mutation({
    ...server,
    id: 'completion.values-not-strings',
    requirements: ['JR-04'],
    related: ['CP-01'],
    description: 'completion values are objects ({"value": "..."}) instead of strings',
    ...onResult(['completion/complete'], (r) => {
      if (!isObj(r.completion) || !Array.isArray(r.completion.values) || r.completion.values.length === 0) return false;
      r.completion.values = (r.completion.values as unknown[]).map((v) => ({ value: v }));
      return true;
    }),
  }),
  mutation({
    ...server,
    id: 'completion.invalid-ref-empty',
    requirements: ['CP-01'],
    description: 'completion/complete for an unknown prompt or resource (or bad arguments) gets an empty completion instead of -32602',
    ...onError(['completion/complete'], (e, ctx, m) => {
      if (e.code !== -32602) return false;
      delete m.error;
      const body = { completion: { values: [], total: 0, hasMore: false } };
      m.result = ctx.era === 'modern' ? { resultType: 'complete', ...body } : body;
      return true;
    }),
  }),
  mutation({
    ...server,
    id: 'completion.unsupported-served',
    requirements: ['CP-01'],
    related: ['CAP-01'],
    description: 'completion/complete at a server without completion support gets an empty completion instead of -32601',
    ...withHttpStatus(200, onError(['completion/complete'], (e, ctx, m) => {
      if (e.code !== -32601) return false;
      delete m.error;
      const body = { completion: { values: [] } };
      m.result = ctx.era === 'modern' ? { resultType: 'complete', ...body } : body;
      return true;
    })),
  }),
];
