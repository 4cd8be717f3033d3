// completion.complete: completion/complete about an argument the server lists gets a CompleteResult.

import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../suites/catalogue.js';
import type { Exchange } from '../../suites/ports/session.js';
import type { CompletionAsk } from '../../suites/prompts/scenario.js';

const check = CHECKS.find((c) => c.id === 'completion.complete')!;
const ctx = { era: 'modern', version: '2026-07-28', transport: 'stdio', capabilities: { completions: {} } } as const;
const ex = (response?: unknown, extra: Partial<Exchange> = {}): Exchange => ({
  request: { jsonrpc: '2.0', id: 1, method: 'completion/complete' }, method: 'completion/complete', messages: response ? [response] : [], ...(response ? { response } : {}),
  timedOut: !response, elapsedMs: 1, startedAt: 0, timeoutMs: 1000, seq: [1], ...extra,
});
const answer = (completion: unknown): CompletionAsk => ({ what: 'prompt greet, argument name', exchange: ex({ jsonrpc: '2.0', id: 1, result: { completion } }) });
const judge = (known: CompletionAsk[]) => check.judge({ unknownRef: ex(), known }, ctx);

describe('completion.complete', () => {
  it('holds on values (none at all is an answer too), with a count total and a boolean hasMore', () => {
    expect(judge([answer({ values: ['Ada', 'Alan'], total: 2, hasMore: false }), answer({ values: [] })])).toEqual({
      outcome: 'holds',
      message: '2 completion request(s) (prompt greet, argument name; prompt greet, argument name) answered with values (2, 0)',
      evidence: [],
    });
  });

  it('is violated by an error, a malformed completion, more than 100 values, or silence', () => {
    const err = judge([{ what: 'template x://{id}, variable id', exchange: ex({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Internal error' } }) }]);
    expect(err.outcome).toBe('violated');
    expect(err.message).toBe('1 of 1 completion requests about what the server lists got no CompleteResult; first: template x://{id}, variable id: got error -32603 "Internal error"');
    expect(judge([answer(undefined)]).message).toMatch(/without a completion object/);
    expect(judge([answer({ values: [1] })]).message).toMatch(/other than strings/);
    expect(judge([answer({ values: Array.from({ length: 101 }, (_, i) => String(i)) })]).message).toMatch(/holds 101 items \(at most 100\)/);
    expect(judge([answer({ values: [], total: -1 })]).message).toMatch(/completion.total is -1/);
    expect(judge([answer({ values: [], hasMore: 'no' })]).message).toMatch(/completion.hasMore is "no"/);
    expect(judge([{ what: 'prompt p, argument a', exchange: ex() }]).outcome).toBe('violated');
  });

  it('is untestable with nothing listed to complete, or no answer before the run ended', () => {
    expect(judge([])).toEqual({ outcome: 'untestable', message: 'no listed prompt has an argument and no listed resource template a variable to complete' });
    expect(judge([{ what: 'prompt p, argument a', exchange: ex(undefined, { aborted: true }) }])).toEqual({ outcome: 'untestable', message: 'the run ended before the answers came' });
  });
});
