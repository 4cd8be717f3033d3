import { afterEach, describe, expect, it } from 'vitest';
import { Recorder } from '../../runner/recorder.js';
import { StdioTransport } from '../../runner/stdio-transport.js';
import { TargetStartError } from '../../runner/transport.js';
import { liveCount } from '../../runner/reaper.js';
import { fakeStdio, pidAlive, req, waitFor } from './helpers.js';

const open: StdioTransport[] = [];
async function start(env: Record<string, string> = {}, opts = {}): Promise<StdioTransport> {
  const t = fakeStdio(env, new Recorder(), opts);
  open.push(t);
  await t.open();
  return t;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

describe('StdioTransport', () => {
  it('ends an exchange on the response with the expected id', async () => {
    const t = await start();
    const [a, b] = await Promise.all([
      t.exchange(req(1, 'echo', { n: 1 }), { expectId: 1, timeoutMs: 3000 }),
      t.exchange(req('two', 'echo', { n: 2 }), { expectId: 'two', timeoutMs: 3000 }),
    ]);
    expect(a.timedOut).toBe(false);
    expect(a.response).toEqual({ jsonrpc: '2.0', id: 1, result: { params: { n: 1 } } });
    expect(b.response).toEqual({ jsonrpc: '2.0', id: 'two', result: { params: { n: 2 } } });
  });

  it('collects notifications that arrive before the response', async () => {
    const t = await start();
    const r = await t.exchange(req(7, 'notify-then-respond'), { expectId: 7, timeoutMs: 3000 });
    expect(r.messages).toHaveLength(2);
    expect((r.messages[0] as { method: string }).method).toBe('notifications/message');
    expect((r.response as { id: number }).id).toBe(7);
  });

  it('ends on a loosely matching id (1 vs "1") so the suite can flag the id type', async () => {
    const t = await start();
    const r = await t.exchange(req(5, 'wrong-id-type'), { expectId: 5, timeoutMs: 3000 });
    expect(r.timedOut).toBe(false);
    expect((r.response as { id: unknown }).id).toBe('5');
  });

  it('waits quietMs after a notification and captures unsolicited answers', async () => {
    const t = await start();
    const quiet = await t.exchange({ jsonrpc: '2.0', method: 'notifications/other' }, { timeoutMs: 3000, quietMs: 150 });
    expect(quiet.messages).toEqual([]);
    expect(quiet.timedOut).toBe(false);
    expect(quiet.elapsedMs).toBeGreaterThanOrEqual(140);
    expect(quiet.elapsedMs).toBeLessThan(1500);
    const poked = await t.exchange({ jsonrpc: '2.0', method: 'notifications/poke' }, { timeoutMs: 3000, quietMs: 150 });
    expect(poked.messages).toEqual([{ jsonrpc: '2.0', method: 'notifications/poked', params: { from: 'fake' } }]);
  });

  it('sends strings verbatim and can end on any response (parse error with id null)', async () => {
    const t = await start();
    const r = await t.exchange('{"jsonrpc": "2.0", "id": 1, "method": ', { anyResponse: true, timeoutMs: 3000 });
    expect((r.response as { error: { code: number } }).error.code).toBe(-32700);
    const out = t.recorder.events().find((e) => e.dir === 'out');
    expect(out?.raw).toBe('{"jsonrpc": "2.0", "id": 1, "method": ');
  });

  it('records a non-JSON stdout line as noise', async () => {
    const t = await start({ FAKE_BANNER: 'Server ready on stdio!' });
    const r = await t.exchange(req(1, 'noise'), { expectId: 1, timeoutMs: 3000 });
    expect(r.response).toBeDefined();
    const noise = t.recorder.events().filter((e) => e.kind === 'noise').map((e) => e.raw);
    expect(noise).toEqual(['Server ready on stdio!', 'this is not json']);
    const findings = t.recorder.incidents().filter((f) => f.type === 'noise');
    expect(findings).toHaveLength(2);
  });

  it('detects a JSON-RPC message pretty-printed over several lines', async () => {
    const t = await start();
    const r = await t.exchange(req(3, 'pretty'), { expectId: 3, timeoutMs: 800 });
    expect(r.timedOut).toBe(true); // a strict client cannot read it
    const note = t.recorder.events().find((e) => e.note === 'multi-line-message');
    expect(note?.message).toEqual({ jsonrpc: '2.0', id: 3, result: { pretty: true } });
    expect(t.recorder.incidents().map((f) => f.type)).toEqual(expect.arrayContaining(['noise', 'multi-line-message', 'timeout']));
  });

  it('can accept a multi-line message when asked to', async () => {
    const t = await start({}, { acceptMultiLine: true });
    const r = await t.exchange(req(3, 'pretty'), { expectId: 3, timeoutMs: 3000 });
    expect(r.timedOut).toBe(false);
    expect(r.response).toEqual({ jsonrpc: '2.0', id: 3, result: { pretty: true } });
  });

  it('cuts over-long lines and records a finding', async () => {
    const t = await start({}, { maxLineChars: 1000 });
    const r = await t.exchange(req(1, 'big', { size: 5000 }), { expectId: 1, timeoutMs: 1000 });
    expect(r.timedOut).toBe(true);
    expect(t.recorder.incidents().map((f) => f.type)).toContain('line-too-long');
    const cut = t.recorder.events().find((e) => e.truncated);
    expect(cut?.raw.length).toBe(1000);
    // the stream stays usable after the long line
    const next = await t.exchange(req(2, 'echo'), { expectId: 2, timeoutMs: 3000 });
    expect(next.response).toBeDefined();
  });

  it('reports a crash mid-exchange with exit code, stderr tail and last sent message', async () => {
    const t = await start();
    const r = await t.exchange(req(9, 'crash'), { expectId: 9, timeoutMs: 5000 });
    expect(r.timedOut).toBe(false);
    expect(r.closed?.exitCode).toBe(3);
    expect(r.closed?.stderrTail).toContain('boom: something went badly wrong');
    expect(r.closed?.lastSent).toBe(JSON.stringify(req(9, 'crash')));
    expect(t.closed).toEqual(r.closed);
    expect(t.recorder.incidents().map((f) => f.type)).toContain('crash');
    // later exchanges return at once with the same close info
    const after = await t.exchange(req(10, 'echo'), { expectId: 10, timeoutMs: 5000 });
    expect(after.closed?.exitCode).toBe(3);
    expect(after.elapsedMs).toBeLessThan(100);
  });

  it('times out a hanging request within its timeout', async () => {
    const t = await start();
    const started = Date.now();
    const r = await t.exchange(req(4, 'hang'), { expectId: 4, timeoutMs: 400 });
    expect(r.timedOut).toBe(true);
    expect(Date.now() - started).toBeLessThan(1500);
    const ev = t.recorder.events().find((e) => e.kind === 'timeout');
    expect(ev?.data).toMatchObject({ expectId: 4, timeoutMs: 400 });
  });

  it('answers server->client requests through onServerRequest, default -32601', async () => {
    const t = await start();
    const dflt = await t.exchange(req(1, 'server-request'), { expectId: 1, timeoutMs: 3000 });
    const reply = (dflt.response as { result: { reply: { error: { code: number } } } }).result.reply;
    expect(reply.error.code).toBe(-32601);
    expect((dflt.messages[0] as { method: string }).method).toBe('roots/list');

    t.onServerRequest = (r) => ({ jsonrpc: '2.0', id: r.id, result: { roots: [] } });
    const custom = await t.exchange(req(2, 'server-request'), { expectId: 2, timeoutMs: 3000 });
    expect((custom.response as { result: { reply: unknown } }).result.reply).toEqual({
      jsonrpc: '2.0',
      id: 'srv-1',
      result: { roots: [] },
    });
    const outs = t.recorder.events().filter((e) => e.dir === 'out').map((e) => e.message);
    expect(outs).toContainEqual({ jsonrpc: '2.0', id: 'srv-1', result: { roots: [] } });
  });

  it('rejects open() with TargetStartError when the command does not exist', async () => {
    const t = new StdioTransport({ command: 'mcpspec-no-such-command-xyz', args: ['--x'] });
    const err = await t.open().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TargetStartError);
    expect((err as Error).message).toMatch(/cannot start "mcpspec-no-such-command-xyz --x": command not found/);
    expect(await t.close()).toBeUndefined();
  });

  it('records stderr lines and keeps a tail', async () => {
    const t = await start();
    await t.exchange(req(1, 'echo'), { expectId: 1, timeoutMs: 3000 });
    expect(t.stderrTail()).toContain('fake server started');
    expect(t.recorder.events().some((e) => e.channel === 'stderr' && e.raw.startsWith('fake server started'))).toBe(true);
  });
});

describe('StdioTransport shutdown', () => {
  it('closes stdin and the target exits on its own', async () => {
    const t = fakeStdio();
    await t.open();
    const pid = t.pid as number;
    const info = await t.close();
    expect(info?.exitCode).toBe(0);
    expect(pidAlive(pid)).toBe(false);
    const exit = t.recorder.events().find((e) => e.kind === 'process-exit');
    expect(exit?.data?.expected).toBe(true);
    expect(t.recorder.incidents().some((f) => f.type === 'crash')).toBe(false);
  });

  it('escalates to SIGKILL for a target that ignores stdin EOF and SIGTERM', async () => {
    const t = fakeStdio({ FAKE_IGNORE_EOF: '1', FAKE_IGNORE_TERM: '1' }, new Recorder(), { closeGraceMs: 300, killGraceMs: 300 });
    await t.open();
    const pid = t.pid as number;
    await t.exchange(req(1, 'echo'), { expectId: 1, timeoutMs: 3000 }); // make sure handlers are installed
    const started = Date.now();
    const info = await t.close();
    expect(info?.signal).toBe('SIGKILL');
    expect(pidAlive(pid)).toBe(false);
    expect(Date.now() - started).toBeLessThan(3000);
    // execa's forceKillAfterDelay (or our own fallback) sends the SIGKILL; the SIGTERM step is noted.
    expect(t.recorder.events().map((e) => e.note)).toContain('sigterm');
  });

  it('reaps a grandchild that ignores SIGTERM', async () => {
    const t = fakeStdio({}, new Recorder(), { closeGraceMs: 500, killGraceMs: 300 });
    await t.open();
    const r = await t.exchange(req(1, 'spawn-grandchild'), { expectId: 1, timeoutMs: 3000 });
    const grandchild = (r.response as { result: { pid: number } }).result.pid;
    expect(pidAlive(grandchild)).toBe(true);
    await t.close();
    expect(await waitFor(() => !pidAlive(grandchild), 2000)).toBe(true);
    expect(liveCount()).toBe(0);
  });

  it('uses the default 2 s grace periods', async () => {
    const t = fakeStdio({ FAKE_IGNORE_EOF: '1' });
    await t.open();
    const pid = t.pid as number;
    const started = Date.now();
    const info = await t.close();
    const took = Date.now() - started;
    expect(info?.signal).toBe('SIGTERM');
    expect(took).toBeGreaterThanOrEqual(1900);
    expect(took).toBeLessThan(4000);
    expect(pidAlive(pid)).toBe(false);
  });
});
