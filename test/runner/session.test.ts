import { afterEach, describe, expect, it } from 'vitest';
import { HttpTransport } from '../../runner/http-transport.js';
import { openLegacySession, type LegacySession } from '../../runner/legacy-session.js';
import { openModernSession, withModernMeta, type ModernSession } from '../../runner/modern-session.js';
import { Recorder } from '../../runner/recorder.js';
import { HandshakeError, openSession, type Session } from '../../runner/session.js';
import { StdioTransport } from '../../runner/stdio-transport.js';
import { TargetStartError } from '../../runner/transport.js';
import { startFakeHttp, type FakeHttp } from './fake-http-server.js';
import { FAKE_STDIO, fakeStdio } from './helpers.js';

const sessions: Session[] = [];
const servers: FakeHttp[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
function keep<T extends Session>(s: T): T {
  sessions.push(s);
  return s;
}
async function fakeHttp(mode: 'legacy' | 'modern' | 'legacy-plain'): Promise<FakeHttp> {
  const s = await startFakeHttp({ mode });
  servers.push(s);
  return s;
}
const stdioFactory = (env: Record<string, string>) => (rec: Recorder) =>
  new StdioTransport({ command: process.execPath, args: [FAKE_STDIO], env }, rec, { closeGraceMs: 500, killGraceMs: 500 });

const PV = 'io.modelcontextprotocol/protocolVersion';
const CAPS = 'io.modelcontextprotocol/clientCapabilities';
const INFO = 'io.modelcontextprotocol/clientInfo';

describe('legacy session', () => {
  it('runs initialize, reads the result and sends notifications/initialized (stdio)', async () => {
    const s = keep(await openLegacySession(fakeStdio(), { version: '2025-11-25', timeoutMs: 3000 }));
    expect(s.era).toBe('legacy');
    expect(s.version).toBe('2025-11-25');
    expect(s.serverInfo).toEqual({ name: 'fake-stdio', version: '1.0.0' });
    expect(s.capabilities).toEqual({ tools: {} });
    expect(s.instructions).toBe('be nice');
    expect(s.initialized).toBe(true);
    expect(s.handshake.request).toEqual({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'mcpspec', version: '0.1.0' } },
    });
    const sent = s.recorder.events().filter((e) => e.dir === 'out').map((e) => (e.message as { method: string }).method);
    expect(sent).toEqual(['initialize', 'notifications/initialized']);

    const ex = await s.request('tools/list');
    expect(ex.id).toBe(2);
    expect(ex.method).toBe('tools/list');
    expect(ex.request).toEqual({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect((ex.response as { result: { tools: unknown[] } }).result.tools).toHaveLength(1);
    expect(ex.seqRange.to).toBeGreaterThanOrEqual(ex.seqRange.from);
  });

  it('can leave out notifications/initialized and send it later', async () => {
    const s = keep(await openLegacySession(fakeStdio(), { skipInitialized: true, timeoutMs: 3000 }));
    expect(s.initialized).toBe(false);
    expect(s.recorder.events().filter((e) => e.dir === 'out')).toHaveLength(1);
    const ex = await s.sendInitialized();
    expect(ex.request).toEqual({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(s.initialized).toBe(true);
  });

  it('keeps the session but notes a version mcpspec does not speak', async () => {
    const s = keep(await openLegacySession(fakeStdio({ FAKE_VERSION: '2024-11-05' }), { timeoutMs: 3000 }));
    expect(s.version).toBe('2024-11-05');
    expect(s.recorder.events().some((e) => e.note === 'unknown-version')).toBe(true);
  });

  it('sets session id and protocol version header on HTTP', async () => {
    const srv = await fakeHttp('legacy');
    const t = new HttpTransport({ url: srv.url });
    const s = keep(await openLegacySession(t, { version: '2025-06-18', timeoutMs: 3000 }));
    expect(s.version).toBe('2025-06-18');
    await s.request('echo/headers');
    const h = srv.seen.at(-1)?.headers ?? {};
    expect(h['mcp-session-id']).toBe('sess-123');
    expect(h['mcp-protocol-version']).toBe('2025-06-18');
    expect(h['mcp-method']).toBeUndefined(); // modern headers are off in the legacy era
    // initialized was a 202
    expect(srv.seen.find((x) => x.json?.method === 'notifications/initialized')).toBeDefined();
  });

  it('throws HandshakeError naming the request and quoting stderr when the target dies', async () => {
    const err = await openSession(stdioFactory({ FAKE_INIT: 'crash' }), { specVersion: '2025-11-25', timeoutMs: 3000 }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(HandshakeError);
    const he = err as HandshakeError;
    expect(he.message).toMatch(/the target exited with code 5 before answering initialize \(id 1\)/);
    expect(he.message).toContain('fatal: cannot open database');
    expect(he.exchange.closed?.exitCode).toBe(5);
  });

  it('throws HandshakeError when initialize is never answered', async () => {
    const started = Date.now();
    const err = await openSession(stdioFactory({ FAKE_INIT: 'hang' }), { specVersion: '2025-11-25', timeoutMs: 500 }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(HandshakeError);
    expect((err as Error).message).toMatch(/initialize \(id 1\) was never answered within 500 ms/);
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it('throws HandshakeError when initialize is rejected', async () => {
    const err = await openSession(stdioFactory({ FAKE_INIT: 'error' }), { specVersion: '2025-11-25', timeoutMs: 3000 }).catch(
      (e: unknown) => e,
    );
    expect((err as Error).message).toMatch(/initialize \(id 1\) was rejected: -32602/);
  });

  it('passes TargetStartError through openSession', async () => {
    const err = await openSession((rec) => new StdioTransport({ command: 'mcpspec-no-such-cmd', args: [] }, rec), {
      specVersion: 'auto',
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TargetStartError);
  });
});

describe('modern session', () => {
  it('uses server/discover as the handshake and injects _meta into every request', async () => {
    const s = keep(await openModernSession(fakeStdio({ FAKE_MODE: 'modern' }), { timeoutMs: 3000 }));
    expect(s.era).toBe('modern');
    expect(s.version).toBe('2026-07-28');
    expect(s.serverInfo).toEqual({ name: 'fake-modern', version: '2.0.0' });
    expect(s.capabilities).toEqual({ tools: {} });
    expect(s.instructions).toBe('modern fake');
    expect(s.supportedVersions).toEqual(['2026-07-28']);
    expect((s.handshake.request as { method: string }).method).toBe('server/discover');

    const ex = await s.request('echo', { a: 1, _meta: { progressToken: 'p1' } });
    const sentParams = (ex.response as { result: { params: Record<string, unknown> } }).result.params;
    expect(sentParams).toEqual({
      a: 1,
      _meta: {
        [PV]: '2026-07-28',
        [CAPS]: {},
        [INFO]: { name: 'mcpspec', version: '0.1.0' },
        progressToken: 'p1',
      },
    });
  });

  it('metaOverrides merges and deletes keys; meta replaces or removes _meta', async () => {
    const s = keep(await openModernSession(fakeStdio({ FAKE_MODE: 'modern' }), { timeoutMs: 3000 }));
    const params = async (opts: Parameters<ModernSession['request']>[2]) =>
      ((await s.request('echo', { x: 1 }, opts)).request as { params: Record<string, unknown> }).params;

    expect(await params({ metaOverrides: { [CAPS]: undefined, [PV]: '1900-01-01' } })).toEqual({
      x: 1,
      _meta: { [PV]: '1900-01-01', [INFO]: { name: 'mcpspec', version: '0.1.0' } },
    });
    expect(await params({ meta: 'none' })).toEqual({ x: 1 });
    expect(await params({ meta: { custom: true } })).toEqual({ x: 1, _meta: { custom: true } });
    // the session's defaults are not changed by overrides
    expect(((await params({})) as { _meta: Record<string, unknown> })._meta[CAPS]).toEqual({});
    // notifications carry no automatic _meta
    const n = await s.notify('notifications/cancelled', { requestId: 99 }, { quietMs: 50 });
    expect(n.request).toEqual({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } });
  });

  it('withModernMeta keeps caller _meta keys over the automatic ones', () => {
    expect(withModernMeta({ _meta: { [PV]: 'mine' } }, { [PV]: 'auto', k: 1 })).toEqual({ _meta: { [PV]: 'mine', k: 1 } });
  });

  it('raw() sends bodies verbatim without _meta', async () => {
    const s = keep(await openModernSession(fakeStdio({ FAKE_MODE: 'modern' }), { timeoutMs: 3000 }));
    const ex = await s.raw({ jsonrpc: '2.0', id: 'r1', method: 'echo', params: {} }, { expectId: 'r1', timeoutMs: 3000 });
    expect(ex.id).toBe('r1');
    expect((ex.response as { result: { params: unknown } }).result.params).toEqual({});
  });

  it('sets MCP-Protocol-Version and mirror headers on HTTP', async () => {
    const srv = await fakeHttp('modern');
    const s = keep(await openModernSession(new HttpTransport({ url: srv.url }), { timeoutMs: 3000 }));
    expect(s.serverInfo?.name).toBe('fake-http-modern');
    const ex = await s.request('tools/call', { name: 'echo', arguments: {} });
    expect((ex.response as { result: { mcpName: string } }).result.mcpName).toBe('echo');
    const h = srv.seen.at(-1)?.headers ?? {};
    expect(h['mcp-protocol-version']).toBe('2026-07-28');
    expect(h['mcp-method']).toBe('tools/call');
    // header removal reaches the server and is judged there
    const bad = await s.request('tools/call', { name: 'echo' }, { headers: { 'MCP-Protocol-Version': undefined } });
    expect(bad.http?.status).toBe(400);
    expect((bad.response as { error: { code: number } }).error.code).toBe(-32020);
  });

  it('throws HandshakeError listing supported versions on -32022', async () => {
    const t = fakeStdio({ FAKE_MODE: 'modern-32022' });
    const err = await openModernSession(t, { timeoutMs: 3000 }).catch((e: unknown) => e);
    await t.close(); // the caller owns a transport it passed in
    expect((err as Error).message).toBe('server does not support protocol version 2026-07-28 (it supports: 2026-07-28)');
    expect((err as HandshakeError).exchange.method).toBe('server/discover');
  });
});

describe('era detection', () => {
  it.each([
    ['modern', 'modern', /server\/discover answered/],
    ['modern-32022', 'modern', /modern error -32022/],
    ['legacy', 'legacy', /server\/discover got -32601 \(Method not found\); fell back to initialize/],
    ['legacy-silent', 'legacy', /no answer within 400 ms; fell back/],
    ['legacy-crash', 'legacy', /exited with code 4 on server\/discover; fell back/],
  ])('stdio %s server -> %s', async (mode, era, reason) => {
    const { detectEra } = await import('../../runner/detect-era.js');
    const d = await detectEra(stdioFactory({ FAKE_MODE: mode }), { probeTimeoutMs: 400 });
    expect(d.era).toBe(era);
    expect(d.reason).toMatch(reason);
    expect(d.probe?.method).toBe('server/discover');
  });

  it.each([
    ['modern', 'modern', /server\/discover answered/],
    ['legacy', 'legacy', /got -32000 .*HTTP 400/],
    ['legacy-plain', 'legacy', /HTTP 400 without a JSON-RPC response/],
  ] as const)('http %s server -> %s', async (mode, era, reason) => {
    const { detectEra } = await import('../../runner/detect-era.js');
    const srv = await fakeHttp(mode);
    const d = await detectEra((rec) => new HttpTransport({ url: srv.url }, rec));
    expect(d.era).toBe(era);
    expect(d.reason).toMatch(reason);
  });

  it('openSession auto: a legacy stdio server gets a fresh process for initialize', async () => {
    const rec = new Recorder();
    const s = keep(
      await openSession(stdioFactory({ FAKE_MODE: 'legacy-silent' }), { specVersion: 'auto', timeoutMs: 3000, probeTimeoutMs: 300, recorder: rec }),
    );
    expect(s.era).toBe('legacy');
    expect(s.detection?.reason).toMatch(/no answer within 300 ms/);
    const starts = rec.events().filter((e) => e.note === 'process-start');
    expect(starts).toHaveLength(2);
    expect(starts[0].data?.pid).not.toBe(starts[1].data?.pid);
    expect((s as LegacySession).initialized).toBe(true);
    expect((await s.request('tools/list')).response).toBeDefined();
  });

  it('openSession auto: a modern server keeps the probe transport', async () => {
    const rec = new Recorder();
    const s = keep(await openSession(stdioFactory({ FAKE_MODE: 'modern' }), { specVersion: 'auto', timeoutMs: 3000, recorder: rec }));
    expect(s.era).toBe('modern');
    expect(s.detection?.era).toBe('modern');
    expect(rec.events().filter((e) => e.note === 'process-start')).toHaveLength(1);
  });

  it('openSession auto over HTTP falls back to a legacy session on the same endpoint', async () => {
    const srv = await fakeHttp('legacy');
    const s = keep(await openSession((rec) => new HttpTransport({ url: srv.url }, rec), { specVersion: 'auto', timeoutMs: 3000 }));
    expect(s.era).toBe('legacy');
    expect(s.version).toBe('2025-11-25');
    const init = srv.seen.find((x) => x.json?.method === 'initialize');
    expect(init?.headers['mcp-method']).toBeUndefined();
    expect(init?.headers['mcp-protocol-version']).toBeUndefined();
  });
});
