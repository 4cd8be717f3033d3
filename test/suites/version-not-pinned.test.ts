// version.not-pinned: 2026-07-28 requests after an opener without version _meta are judged against
// a baseline served on a properly opened connection; an opener's own answer is never judged.

import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../suites/catalogue.js';
import type { Exchange } from '../../suites/ports.js';
import type { NotPinnedObs } from '../../suites/scenarios/discover.js';

const notPinned = CHECKS.find((c) => c.id === 'version.not-pinned')!;
const ctx = { era: 'modern', version: '2026-07-28', transport: 'stdio', capabilities: { tools: {} } } as const;
const ex = (method: string, response?: unknown, extra: Partial<Exchange> = {}): Exchange => ({
  request: { jsonrpc: '2.0', id: 1, method }, method, messages: response ? [response] : [], ...(response ? { response } : {}),
  timedOut: !response, elapsedMs: 1, startedAt: 0, timeoutMs: 1000, seq: [1], ...extra,
});
const DISCOVERED = { jsonrpc: '2.0', id: 2, result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: {} } };
const LISTED = { jsonrpc: '2.0', id: 3, result: { resultType: 'complete', tools: [] } };
const obs = (o: Partial<NotPinnedObs> = {}): NotPinnedObs => ({
  claimless: ex('tools/list', { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'missing _meta' } }),
  discover: ex('server/discover', DISCOVERED),
  list: ex('tools/list', LISTED),
  baseline: ex('tools/list', LISTED),
  listMethod: 'tools/list',
  ...o,
});

describe('version.not-pinned', () => {
  it('holds when both later requests are served by 2026-07-28 rules, whatever the opener got', () => {
    expect(notPinned.judge(obs(), ctx).outcome).toBe('holds');
    expect(notPinned.judge(obs({ claimless: ex('tools/list') }), ctx).outcome).toBe('holds');
  });

  it('is violated by a discover refused as unknown, or a list answered without resultType', () => {
    const refused = notPinned.judge(obs({ discover: ex('server/discover', { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'Method not found' } }) }), ctx);
    expect(refused.outcome).toBe('violated');
    expect(refused.message).toMatch(/server\/discover on the same connection got error -32601/);
    const legacy = notPinned.judge(obs({ list: ex('tools/list', { jsonrpc: '2.0', id: 3, result: { tools: [] } }) }), ctx);
    expect(legacy.outcome).toBe('violated');
    expect(legacy.message).toMatch(/tools\/list on the same connection got a result without resultType/);
  });

  it('is untestable when the baseline is not served either, or the run ended first', () => {
    const broken = ex('tools/list', { jsonrpc: '2.0', id: 9, result: { tools: [] } });
    expect(notPinned.judge(obs({ baseline: broken, list: broken }), ctx).outcome).toBe('untestable');
    expect(notPinned.judge(obs({ discover: ex('server/discover', undefined, { aborted: true }) }), ctx).outcome).toBe('untestable');
  });

  it('is untestable, not violated, when the target exits or falls silent after the opener', () => {
    const exited = notPinned.judge(obs({ discover: ex('server/discover', undefined, { timedOut: false, closed: { exitCode: 1, signal: null, stderrTail: '' } }) }), ctx);
    expect(exited).toEqual({ outcome: 'untestable', message: 'after the opener without _meta, server/discover got the target exited (code 1): no answer to read the rules from' });
    expect(notPinned.judge(obs({ list: ex('tools/list') }), ctx).message).toMatch(/tools\/list got no answer within the 1000 ms timeout/);
  });
});
