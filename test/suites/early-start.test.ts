// The CLI starts the server driver before it loads the suite, so the target answers the era probe
// meanwhile; the engine's start then joins that one. And the check ids the bundled CLI validates
// --only and --skip with, before anything is started, are the catalogue's.

import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../results/run.js';
import { runSuite } from '../../runner/engine.js';
import { driverOptionsOf, engineOptionsOf } from '../../runner/run-server.js';
import { ServerDriver } from '../../runner/server-driver.js';
import { CHECKS } from '../../suites/catalogue.js';
import { REPO_ROOT, startHttpTarget } from '../helpers/targets.js';
import { REFERENCE_OPTIONS } from './run-reference.js';

describe('starting the server driver before the engine runs', () => {
  it('sends the era probe once: the engine joins the start already under way', async () => {
    const server = await startHttpTarget('reference');
    try {
      const only = CHECKS.filter((c) => c.id === 'lifecycle.ping' || c.id === 'discover.result');
      const handshakeSends = (run: RunResult) => run.recording.events().filter((e) => e.dir === 'out' && e.source === 'handshake').length;
      const plain = await runSuite(new ServerDriver({ kind: 'http', url: server.url }, driverOptionsOf({ ...REFERENCE_OPTIONS, specVersion: 'auto' })), engineOptionsOf({ ...REFERENCE_OPTIONS, specVersion: 'auto', checks: only }));
      const driver = new ServerDriver({ kind: 'http', url: server.url }, driverOptionsOf({ ...REFERENCE_OPTIONS, specVersion: 'auto' }));
      const early = driver.start(new AbortController().signal);
      const run = await runSuite(driver, engineOptionsOf({ ...REFERENCE_OPTIONS, specVersion: 'auto', checks: only }));
      expect((await early).era).toEqual(run.era);
      expect(handshakeSends(plain)).toBeGreaterThan(0);
      expect(handshakeSends(run)).toBe(handshakeSends(plain));
      expect(run.checks.map((c) => c.status)).toEqual(plain.checks.map((c) => c.status));
      expect(run.checks.map((c) => c.status)).toContain('pass');
    } finally {
      await server.stop();
    }
  }, 30_000);

  it('a start that fails fails for every caller', async () => {
    // A port nothing listens on: the start fails at once, and the joiner sees the same failure.
    const driver = new ServerDriver({ kind: 'http', url: 'http://127.0.0.1:9/mcp' }, driverOptionsOf({ ...REFERENCE_OPTIONS, specVersion: 'auto' }));
    const first = driver.start(new AbortController().signal);
    const again = driver.start(new AbortController().signal);
    expect(again).toBe(first);
    await expect(first).rejects.toThrow(/connection refused|cannot reach/);
    await driver.close();
  });

  it('firstSent settles when the first request is on its way, before its answer (the CLI loads the suite then)', async () => {
    // A server that accepts connections and never answers: the start is still under way, the request is out.
    const seen: string[] = [];
    const silent = createServer((req) => {
      seen.push(req.method ?? '');
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/mcp`;
    try {
      const driver = new ServerDriver({ kind: 'http', url }, driverOptionsOf({ ...REFERENCE_OPTIONS, specVersion: 'auto', timeoutMs: 60_000 }));
      const stop = new AbortController();
      const early = driver.start(stop.signal);
      let settled = false;
      early.then(() => (settled = true), () => (settled = true));
      await driver.firstSent();
      expect(settled).toBe(false);
      stop.abort(new Error('done'));
      await expect(early).rejects.toThrow();
      await driver.close();
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  }, 30_000);

  it('firstSent settles when the start fails before anything was sent', async () => {
    const driver = new ServerDriver({ kind: 'stdio', command: '/nonexistent/mcpspec-target', args: [] }, driverOptionsOf({ ...REFERENCE_OPTIONS, specVersion: 'auto' }));
    const early = driver.start(new AbortController().signal);
    early.catch(() => undefined);
    await driver.firstSent();
    await expect(early).rejects.toThrow(/command not found|cannot start/);
    await driver.close();
  });

  it("a joiner's signal ends a start under way (the engine's deadline reaches an early start)", async () => {
    // A server that accepts connections and never answers.
    const silent = createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/mcp`;
    try {
      const driver = new ServerDriver({ kind: 'http', url }, driverOptionsOf({ ...REFERENCE_OPTIONS, specVersion: 'auto', timeoutMs: 60_000 }));
      const early = driver.start(new AbortController().signal);
      const engine = new AbortController();
      const joined = driver.start(engine.signal);
      const t0 = Date.now();
      setTimeout(() => engine.abort(new Error('deadline')), 200);
      await expect(joined).rejects.toThrow();
      await expect(early).rejects.toThrow();
      expect(Date.now() - t0).toBeLessThan(10_000);
      await driver.close();
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  }, 30_000);
});

describe('the check ids beside the bundled program', () => {
  it('are the catalogue\'s, in its order', () => {
    const ids = JSON.parse(readFileSync(join(REPO_ROOT, 'dist', 'cli', 'check-ids.json'), 'utf8')) as string[];
    expect(ids).toEqual(CHECKS.map((c) => c.id));
  });
});
