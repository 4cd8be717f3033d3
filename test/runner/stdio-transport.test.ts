import { afterEach, describe, expect, it } from 'vitest';
import { Recorder } from '../../runner/recorder.js';
import { StdioTransport } from '../../runner/stdio-transport.js';
import { TargetStartError } from '../../runner/transport.js';
import { liveCount } from '../../runner/reaper.js';
import { FAKE_STDIO, fakeStdio, pidAlive, req, waitFor } from './helpers.js';

const open: StdioTransport[] = [];
async function start(env: Record<string, string> = {}, opts = {}): Promise<StdioTransport> {
  const t = fakeStdio(env, new Recorder(), opts);
  open.push(t);
  await t.open();
  return t;
}

/**
 * Started and answering: for the tests whose timeouts are short, so that the fake server's own Node
 * start-up (seconds on a loaded machine) is not inside the wait they measure.
 */
async function ready(env: Record<string, string> = {}): Promise<StdioTransport> {
  const t = await start(env);
  const warm = await t.exchange(req(0, 'echo'), { expectId: 0, timeoutMs: 30_000 });
  if (warm.timedOut || warm.response === undefined) throw new Error('the fake stdio server did not answer its warm-up echo');
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

  it('attributes only the response; a notification before it stays in the recording', async () => {
    const t = await start();
    const r = await t.exchange(req(7, 'notify-then-respond'), { expectId: 7, timeoutMs: 3000 });
    expect(r.messages).toEqual([{ jsonrpc: '2.0', id: 7, result: { done: true } }]);
    expect((r.response as { id: number }).id).toBe(7);
    const note = t.recorder.events().find((e) => e.dir === 'in' && (e.message as { method?: string } | undefined)?.method === 'notifications/message');
    expect(note?.kind).toBe('message');
    expect(r.seq).not.toContain(note?.seq);
  });

  it('ends on a loosely matching id (1 vs "1") so the suite can flag the id type', async () => {
    const t = await start();
    const r = await t.exchange(req(5, 'wrong-id-type'), { expectId: 5, timeoutMs: 3000 });
    expect(r.timedOut).toBe(false);
    expect((r.response as { id: unknown }).id).toBe('5');
  });

  it('ends a notification when `until` settles, not before; what it provokes is recorded', async () => {
    const t = await start();
    let release!: () => void;
    const until = new Promise<void>((r) => (release = r));
    setTimeout(() => release(), 200);
    const poked = await t.exchange({ jsonrpc: '2.0', method: 'notifications/poke' }, { idless: true, until, timeoutMs: 5000 });
    expect(poked.timedOut).toBe(false);
    expect(poked.elapsedMs).toBeGreaterThanOrEqual(180);
    expect(poked.elapsedMs).toBeLessThan(2000);
    expect(poked.response).toBeUndefined();
    // a notification the target sends back is not an answer: it is recorded, not attributed
    expect(poked.messages).toEqual([]);
    // (it may arrive after `until` ended the wait on a busy machine: give it a moment)
    const poked2 = () => t.recorder.events().some((e) => e.dir === 'in' && (e.message as { method?: string } | undefined)?.method === 'notifications/poked');
    for (let i = 0; i < 100 && !poked2(); i++) await new Promise((r) => setTimeout(r, 20));
    expect(poked2()).toBe(true);
    // a notification is not a request: no timeout incident when `until` ends it
    expect(t.recorder.incidents().filter((f) => f.type === 'timeout')).toEqual([]);
  });

  it('sends strings verbatim; an id-less answer (parse error, id null) goes to the single id-less message', async () => {
    const t = await start();
    const r = await t.exchange('{"jsonrpc": "2.0", "id": 1, "method": ', { idless: true, timeoutMs: 3000 });
    expect(r.timedOut).toBe(false);
    expect(r.response).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    const out = t.recorder.events().find((e) => e.dir === 'out');
    expect(out?.raw).toBe('{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(out?.message).toBeUndefined();
    expect(r.seq).toHaveLength(2);
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
    // the server's request is recorded (and answered), not attributed to the exchange
    expect(dflt.messages).toEqual([dflt.response]);
    const srvReq = t.recorder.events().find((e) => e.dir === 'in' && (e.message as { method?: string } | undefined)?.method === 'roots/list');
    expect(srvReq?.message).toMatchObject({ id: 'srv-1' });

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

describe('StdioTransport waiting rules', () => {
  const unmatched = (t: StdioTransport) => t.recorder.events().filter((e) => e.note === 'unmatched-response');
  const unattributed = (t: StdioTransport) => t.recorder.events().filter((e) => e.note === 'unattributed-response');

  it('does not give a late answer to the next request: it is noted as a late unmatched response', async () => {
    const t = await start();
    const first = await t.exchange(req(1, 'delay', { ms: 400 }), { expectId: 1, timeoutMs: 150 });
    expect(first.timedOut).toBe(true);
    expect(first.response).toBeUndefined();
    // the next request is still waiting when the late answer (id 1) arrives
    const second = await t.exchange(req(2, 'delay', { ms: 500 }), { expectId: 2, timeoutMs: 3000 });
    expect(second.timedOut).toBe(false);
    expect(second.response).toEqual({ jsonrpc: '2.0', id: 2, result: { delayedMs: 500 } });
    expect(second.messages).toEqual([second.response]);
    const notes = unmatched(t);
    expect(notes).toHaveLength(1);
    expect(notes[0].data).toEqual({ id: 1, late: true });
    expect(notes[0].message).toEqual({ jsonrpc: '2.0', id: 1, result: { delayedMs: 400 } });
    // the note is evidence on its own, outside both exchanges
    expect(first.seq).not.toContain(notes[0].seq);
    expect(second.seq).not.toContain(notes[0].seq);
  });

  it('notes a second answer to a request that was answered already as such', async () => {
    const t = await start();
    const r = await t.exchange(req(1, 'twice'), { expectId: 1, timeoutMs: 3000 });
    expect(r.response).toEqual({ jsonrpc: '2.0', id: 1, result: { answer: 1 } });
    await t.exchange(req(2, 'ping'), { expectId: 2, timeoutMs: 3000 }); // the second answer came before this one's
    const notes = unmatched(t);
    expect(notes.map((e) => e.data)).toEqual([{ id: 1, late: false, again: true }]);
    expect(notes[0].raw).toMatch(/second answer with id 1/);
    expect(notes[0].message).toEqual({ jsonrpc: '2.0', id: 1, result: { answer: 2 } });
  });

  it('notes a response nobody asked for as unmatched, not late', async () => {
    const t = await ready();
    const r = await t.exchange(req(1, 'echo'), { expectId: 99, timeoutMs: 300 });
    expect(r.timedOut).toBe(true);
    expect(unmatched(t).map((e) => e.data)).toEqual([{ id: 1, late: false }]);
  });

  it('does not give a late id-less answer to the next request: it is noted as unattributed', async () => {
    const t = await start({ FAKE_PARSE: 'late:400' });
    const probe = await t.exchange('{not json', { idless: true, timeoutMs: 150 });
    expect(probe.timedOut).toBe(true);
    expect(t.recorder.events().find((e) => e.kind === 'timeout')?.raw).toMatch(/id-less message within 150 ms/);
    const next = await t.exchange(req(2, 'delay', { ms: 500 }), { expectId: 2, timeoutMs: 3000 });
    expect(next.response).toEqual({ jsonrpc: '2.0', id: 2, result: { delayedMs: 500 } });
    const notes = unattributed(t);
    expect(notes).toHaveLength(1);
    expect(notes[0].data).toMatchObject({ candidates: 0 });
    expect((notes[0].message as { error: { message: string } }).error.message).toBe('Parse error (late)');
  });

  // PRODUCT BUG (reported): a timed-out id-less message leaves no trace in the transport, so its
  // late id-less answer goes to the next id-less message that is alone on the connection (and that
  // message's own answer is then noted as unattributed). Remove `.fails` once fixed.
  it('does not give a late id-less answer to the next id-less message', async () => {
    const t = await start({ FAKE_PARSE: 'late:400' });
    const first = await t.exchange('{first', { idless: true, timeoutMs: 150 });
    expect(first.timedOut).toBe(true);
    const second = await t.exchange('{second', { idless: true, timeoutMs: 1000 });
    expect((second.response as { error?: { message?: string } } | undefined)?.error?.message).not.toBe('Parse error (late)');
  });

  it('matches answers that come out of order by id', async () => {
    const t = await start();
    const [slow, fast] = await Promise.all([
      t.exchange(req(1, 'delay', { ms: 300 }), { expectId: 1, timeoutMs: 3000 }),
      t.exchange(req(2, 'delay', { ms: 20 }), { expectId: 2, timeoutMs: 3000 }),
    ]);
    expect(slow.response).toEqual({ jsonrpc: '2.0', id: 1, result: { delayedMs: 300 } });
    expect(fast.response).toEqual({ jsonrpc: '2.0', id: 2, result: { delayedMs: 20 } });
    expect(fast.elapsedMs).toBeLessThan(slow.elapsedMs);
    expect(unmatched(t)).toEqual([]);
  });

  it('prefers an exact id over a loose one: 1 and "1" outstanding each get their own answer', async () => {
    const t = await start();
    const [num, str] = await Promise.all([
      t.exchange(req(1, 'delay', { ms: 50 }), { expectId: 1, timeoutMs: 3000 }),
      t.exchange(req('1', 'delay', { ms: 250 }), { expectId: '1', timeoutMs: 3000 }),
    ]);
    expect((num.response as { id: unknown }).id).toBe(1);
    expect((str.response as { id: unknown }).id).toBe('1');
  });

  it('attributes an id-less answer without an id member, and a batch answer, to the single id-less message', async () => {
    const noId = await start({ FAKE_PARSE: 'noid' });
    const a = await noId.exchange('][', { idless: true, timeoutMs: 3000 });
    expect(a.response).toEqual({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } });

    const t = await start();
    const batch = [req(1, 'echo'), req(2, 'tools/list')];
    const b = await t.exchange(batch, { idless: true, timeoutMs: 3000 });
    expect(b.response).toEqual([
      { jsonrpc: '2.0', id: 1, result: { batched: 'echo' } },
      { jsonrpc: '2.0', id: 2, result: { batched: 'tools/list' } },
    ]);
    // an array is not one JSON-RPC message: it is recorded as noise, and still attributed
    expect(t.recorder.events().find((e) => b.seq.includes(e.seq) && e.dir === 'in')?.kind).toBe('noise');
  });

  it('attributes no id-less answer while two id-less messages are outstanding', async () => {
    const t = await start();
    // Timeouts long enough that both answers come while both are outstanding, on a loaded machine too.
    const [a, b] = await Promise.all([
      t.exchange('{oops', { idless: true, timeoutMs: 3000 }),
      t.exchange('{oops again', { idless: true, timeoutMs: 3000 }),
    ]);
    expect(a.response).toBeUndefined();
    expect(b.response).toBeUndefined();
    expect(a.timedOut && b.timedOut).toBe(true);
    expect(unattributed(t).map((e) => e.data)).toEqual([{ candidates: 2 }, { candidates: 2 }]);
    // an id-less message does not take an answer with an id either
    const c = await t.exchange(req(3, 'echo'), { idless: true, timeoutMs: 3000 });
    expect(c.response).toBeUndefined();
    expect(unmatched(t).map((e) => e.data)).toEqual([{ id: 3, late: false }]);
  });

  it('an id-less message and a request side by side: each answer goes where it belongs', async () => {
    const t = await start();
    const [probe, request] = await Promise.all([
      t.exchange('{"broken"', { idless: true, timeoutMs: 3000 }),
      t.exchange(req(4, 'delay', { ms: 100 }), { expectId: 4, timeoutMs: 3000 }),
    ]);
    expect((probe.response as { error: { code: number } }).error.code).toBe(-32700);
    expect((request.response as { id: number }).id).toBe(4);
  });

  it('waits the whole timeout: an answer after most of it is still received', async () => {
    const t = await ready();
    const r = await t.exchange(req(1, 'delay', { ms: 600 }), { expectId: 1, timeoutMs: 1200 });
    expect(r.timedOut).toBe(false);
    expect(r.response).toEqual({ jsonrpc: '2.0', id: 1, result: { delayedMs: 600 } });
    expect(r.elapsedMs).toBeGreaterThanOrEqual(590);
    // and so does an id-less message (no short quiet window)
    const slow = await ready({ FAKE_PARSE: 'late:600' });
    const p = await slow.exchange('{', { idless: true, timeoutMs: 1200 });
    expect(p.timedOut).toBe(false);
    expect((p.response as { error: { message: string } }).error.message).toBe('Parse error (late)');
  });

  it('ends a wait at once with aborted when the signal fires, and never starts one on an aborted signal', async () => {
    const t = await start();
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const r = await t.exchange(req(1, 'hang'), { expectId: 1, timeoutMs: 10_000, signal: ac.signal });
    expect(r.aborted).toBe(true);
    expect(r.timedOut).toBe(false);
    expect(r.elapsedMs).toBeLessThan(1000);
    expect(t.recorder.incidents().filter((f) => f.type === 'timeout')).toEqual([]);

    const idless = await t.exchange('{', { idless: true, timeoutMs: 10_000, signal: ac.signal });
    expect(idless.aborted).toBe(true);
    expect(idless.elapsedMs).toBeLessThan(500);
    // the transport is still usable without a signal
    expect((await t.exchange(req(2, 'echo'), { expectId: 2, timeoutMs: 3000 })).response).toBeDefined();
  });

  it('ends every wait when the target dies, with its close info', async () => {
    const t = await start();
    const [waiting, crash] = await Promise.all([
      t.exchange(req(1, 'hang'), { expectId: 1, timeoutMs: 10_000 }),
      t.exchange(req(2, 'crash'), { expectId: 2, timeoutMs: 10_000 }),
    ]);
    expect(waiting.closed?.exitCode).toBe(3);
    expect(crash.closed?.exitCode).toBe(3);
    expect(waiting.timedOut).toBe(false);
  });
});

describe('StdioTransport environment', () => {
  const envOf = async (t: StdioTransport): Promise<Record<string, string>> => {
    open.push(t);
    await t.open();
    const r = await t.exchange(req(1, 'env'), { expectId: 1, timeoutMs: 3000 });
    return (r.response as { result: { env: Record<string, string> } }).result.env;
  };

  it('passes only PATH when no environment is given', async () => {
    process.env.MCPSPEC_TEST_SECRET = 'do-not-leak';
    try {
      const env = await envOf(new StdioTransport({ command: process.execPath, args: [FAKE_STDIO] }));
      expect(env.PATH).toBe(process.env.PATH);
      expect(env.MCPSPEC_TEST_SECRET).toBeUndefined();
      expect(Object.keys(env).filter((k) => k !== 'PATH')).toEqual([]);
    } finally {
      delete process.env.MCPSPEC_TEST_SECRET;
    }
  });

  it('uses the given environment as the whole environment (nothing merged in)', async () => {
    process.env.MCPSPEC_TEST_SECRET = 'do-not-leak';
    try {
      const env = await envOf(new StdioTransport({ command: process.execPath, args: [FAKE_STDIO], env: { ONLY: 'this' } }));
      expect(env).toEqual({ ONLY: 'this' });
    } finally {
      delete process.env.MCPSPEC_TEST_SECRET;
    }
  });
});
