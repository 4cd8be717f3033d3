import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../suites/catalogue.js';
import type { Exchange, InputEnd } from '../../suites/ports/session.js';
import { runReference } from './run-reference.js';

const check = CHECKS.find((c) => c.id === 'stdio.exit-on-eof')!;
const ctx = { era: 'modern' as const, version: '2026-07-28' as const, transport: 'stdio' as const, capabilities: {} };
const answered = { id: 1, method: 'server/discover', request: {}, response: { jsonrpc: '2.0', id: 1, result: {} }, messages: [], timedOut: false, elapsedMs: 3, startedAt: 0, timeoutMs: 10_000, seq: [1, 2] } as Exchange;
const judge = (end: InputEnd | undefined, fence: Exchange = answered) => check.judge({ fence, end, timeoutMs: 10_000 }, ctx);

describe('stdio.exit-on-eof (IO-05)', () => {
  it('judges what the target did after stdin EOF, never a run that ended first', () => {
    expect(judge({ exited: true, exitCode: 0, elapsedMs: 12 })).toMatchObject({ outcome: 'holds', message: expect.stringContaining('12 ms') });
    expect(judge({ exited: false, elapsedMs: 10_000 })).toMatchObject({ outcome: 'violated', message: expect.stringContaining('10000 ms') });
    expect(judge({ exited: false, elapsedMs: 400, aborted: true }).outcome).toBe('untestable');
    expect(judge({ exited: true, alreadyExited: true, elapsedMs: 0 }).outcome).toBe('untestable');
    // A target that never answered is not asked to exit: nothing shows it read its input.
    expect(judge(undefined, { ...answered, response: undefined, timedOut: true }).outcome).toBe('untestable');
  });

  it('an exit after mcpspec closed stdin is no crash finding; a target that stays is a warning, not a hang', async () => {
    const ok = await runReference('stdio', '2026-07-28', [], { checks: [check] });
    expect(ok.checks.find((c) => c.id === check.id)?.status).toBe('pass');
    expect(ok.findings).toEqual([]);
    const stays = await runReference('stdio', '2026-07-28', ['stdio.exit-on-eof'], { checks: [check], timeoutMs: 1500 });
    expect(stays.checks.find((c) => c.id === check.id)).toMatchObject({ status: 'warn', message: expect.stringContaining('1500 ms') });
    expect(stays.findings).toEqual([]);
  });
});
