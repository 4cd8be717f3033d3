// jsonrpc.id-echo over the recording: a second answer to a request is named as such, an answer to
// nothing as an unknown id, and a late answer to a timed-out request is not held against the target.

import { describe, expect, it } from 'vitest';
import type { WireEvent } from '../../results/wire.js';
import { CHECKS } from '../../suites/catalogue.js';
import type { RunObservations } from '../../suites/observations.js';

const idEcho = CHECKS.find((c) => c.id === 'jsonrpc.id-echo')!;
const ctx = { era: 'legacy', version: '2025-11-25', transport: 'stdio', capabilities: {} } as const;
const note = (seq: number, data: Record<string, unknown>): WireEvent => ({ seq, t: seq, dir: 'note', channel: 'stdio', note: 'unmatched-response', raw: '', data, message: { jsonrpc: '2.0', id: data.id, result: {} } });
const run = (events: WireEvent[]): RunObservations => ({ exchanges: [], events, version: '2025-11-25', transport: 'stdio', deliberate: () => false });

describe('jsonrpc.id-echo', () => {
  it('names a second answer to an answered request, and quotes it without an "expected undefined"', () => {
    const j = idEcho.judge(run([note(5, { id: 1, late: false, again: true })]), ctx);
    expect(j.outcome).toBe('violated');
    expect(j.message).toMatch(/first: a second response with id 1 \(its request was answered already\): \{"jsonrpc":"2.0","id":1,"result":\{\}\}/);
    expect(j.message).not.toMatch(/undefined/);
  });

  it('names an answer to no request as an unknown id', () => {
    const j = idEcho.judge(run([note(5, { id: 7, late: false })]), ctx);
    expect(j.outcome).toBe('violated');
    expect(j.message).toMatch(/first: a response whose id matches no request mcpspec sent/);
  });

  it('does not count a late answer to a timed-out request', () => {
    expect(idEcho.judge(run([note(5, { id: 7, late: true })]), ctx).outcome).toBe('untestable');
  });
});
