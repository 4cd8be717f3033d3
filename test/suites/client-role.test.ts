import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MODERN } from '../../protocol/versions.js';
import { ClientDriver } from '../../runner/client-driver.js';
import { runSuite } from '../../runner/engine.js';
import { isAlive, liveCount } from '../../runner/reaper.js';
import { check, holds, untestable, violated } from '../../suites/kit/check.js';
import type { ClientExit, Received } from '../../suites/ports/scripted-server.js';
import { clientScenario } from '../../suites/kit/scenario.js';

// The same engine runs a scenario in which mcpspec plays the server and judges a small client.
const META = 'io.modelcontextprotocol/protocolVersion';

const toyServer = clientScenario<{ exit: ClientExit; received: Received[] }>({
  id: 'toy.server',
  title: 'a scripted 2026-07-28 server answering discover and tools/list',
  versions: MODERN,
  async run({ server }) {
    server.handle((m) => {
      const msg = m as { id?: number; method?: string };
      if (msg.id === undefined) return undefined;
      if (msg.method === 'server/discover') return { jsonrpc: '2.0', id: msg.id, result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, ttlMs: 0, cacheScope: 'public' } };
      if (msg.method === 'tools/list') return { jsonrpc: '2.0', id: msg.id, result: { resultType: 'complete', tools: [], ttlMs: 0, cacheScope: 'public' } };
      return { jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'Method not found' } };
    });
    const exit = await server.runClient(10_000);
    return { exit, received: server.received() };
  },
});

const metaOnEveryRequest = check(toyServer, {
  id: 'toy.meta-on-every-request',
  title: 'the client names its protocol version in _meta on every request',
  requirements: ['MT-01'],
  level: 'MUST',
  versions: MODERN,
  role: 'client',
  spec: 'https://modelcontextprotocol.io/specification/2026-07-28/basic',
  judge({ received }) {
    const requests = received.filter((r) => typeof (r.message as { method?: unknown }).method === 'string' && 'id' in (r.message as object));
    if (requests.length === 0) return untestable('the client sent no request');
    const bad = requests.filter((r) => typeof (r.message as { params?: { _meta?: Record<string, unknown> } }).params?._meta?.[META] !== 'string');
    if (bad.length) return violated(`${bad.length} of ${requests.length} requests lack ${META}`, bad.map((r) => ({ what: 'request without _meta', actual: r.message })));
    return holds(`${requests.length} requests, each with ${META}`);
  },
});

async function judgeToy(flags: string[]) {
  const driver = new ClientDriver({ command: process.execPath, args: [resolve('test/helpers/toy-client.mjs'), '{url}', ...flags] }, { specVersion: '2026-07-28', timing: { timeoutMs: 10_000 }, safety: { allowDestructive: false, allowOpenWorld: false }, generation: { seed: 1, runs: 1 } });
  return runSuite(driver, { selection: { checks: [metaOnEveryRequest] }, schedule: { deadlineMs: 30_000 }, seed: 1 });
}

describe('the engine with mcpspec as the server of a client under test', () => {
  it('judges a correct client: pass, with the client role in the result', async () => {
    const run = await judgeToy([]);
    expect(run.role).toBe('client');
    expect(run.target).toMatchObject({ role: 'client', transport: 'http' });
    expect(run.checks).toEqual([expect.objectContaining({ id: 'toy.meta-on-every-request', role: 'client', status: 'pass' })]);
    expect(run.recording.events().filter((e) => e.dir === 'in' && e.kind === 'message')).toHaveLength(2);
    expect(liveCount()).toBe(0);
  });

  it('a client that leaves a process behind holding its output: the run does not wait on it, and it is reaped', async () => {
    const pidFile = join(mkdtempSync(join(tmpdir(), 'mcpspec-leftover-')), 'pid');
    const t0 = Date.now();
    const run = await judgeToy(['--leave-child', pidFile]);
    // The client's timeout is 10 s; the leftover would hold the pipes until the run's 30 s deadline.
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(run.checks[0]).toMatchObject({ status: 'pass' });
    expect(run.findings).toEqual([]);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    await new Promise((r) => setTimeout(r, 200));
    expect(isAlive(pid)).toBe(false);
    expect(liveCount()).toBe(0);
  });

  it('judges a faulty client: fail, with the offending request as evidence', async () => {
    const run = await judgeToy(['--omit-meta']);
    expect(run.checks[0]).toMatchObject({ status: 'fail', message: '1 of 2 requests lack io.modelcontextprotocol/protocolVersion' });
    expect(run.checks[0].evidence[0].actual).toMatchObject({ method: 'tools/list' });
  });
});
