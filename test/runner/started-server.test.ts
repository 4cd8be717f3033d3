// Starting an HTTP server (runner/started-server.ts): `{port}` filled everywhere, the wait for the
// port, stopping it and what it spawned (also when a wrapper died first and left its child behind).
import { afterEach, describe, expect, it } from 'vitest';
import { liveCount } from '../../runner/reaper.js';
import { Recorder } from '../../runner/recorder.js';
import { ServerStartError, StartedServer } from '../../runner/started-server.js';
import { LISTEN, pidAlive, pids, waitFor } from './helpers.js';

const NODE = process.execPath;
const URL_TEMPLATE = 'http://127.0.0.1:{port}/mcp';
const env = { PATH: process.env.PATH ?? '' };

const started: { stop(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.stop()));
  expect(liveCount()).toBe(0);
});

function server(args: string[], opts: { command?: string; env?: Record<string, string>; startTimeoutMs?: number } = {}, recorder = new Recorder()): StartedServer {
  const s = new StartedServer(URL_TEMPLATE, { command: opts.command ?? NODE, args }, recorder, { env: opts.env ?? env, startTimeoutMs: opts.startTimeoutMs ?? 15_000, killGraceMs: 1000 });
  started.push(s);
  return s;
}

describe('StartedServer', () => {
  it('fills {port} in the URL, the arguments and the environment with one free port, and is up once it accepts connections', async () => {
    const recorder = new Recorder();
    const s = server([LISTEN], { env: { ...env, PORT: '{port}' } }, recorder);
    const url = await s.launch();
    const port = new URL(url).port;
    expect(url).toBe(`http://127.0.0.1:${port}/mcp`);
    expect(await (await fetch(url)).text()).toBe('ok');
    expect(await pids(() => s.printed())).toEqual([s.pid]);
    expect(s.printed()).toContain(`up ${port} pid ${s.pid}`);
    await s.stop();
    expect(pidAlive(s.pid!)).toBe(false);
    const exit = recorder.events().find((e) => e.kind === 'process-exit');
    expect(exit?.data).toMatchObject({ expected: true, pid: s.pid });
    expect(s.died).toBeUndefined();
  });

  it('stop ends what a wrapper started too', async () => {
    const s = server(['-c', `"${NODE}" "${LISTEN}" "$1" & wait`, 'sh', '{port}'], { command: 'sh' });
    await s.launch();
    const [child] = await pids(() => s.printed());
    expect(child).toBeGreaterThan(0);
    expect(child).not.toBe(s.pid);
    await s.stop();
    expect(await waitFor(() => !pidAlive(child), 3000)).toBe(true);
    expect(pidAlive(s.pid!)).toBe(false);
  });

  it('a wrapper that dies on its own is a death; its orphaned server is still stopped', async () => {
    const recorder = new Recorder();
    const s = server(['-c', `"${NODE}" "${LISTEN}" "$1" & sleep 1; exit 4`, 'sh', '{port}'], { command: 'sh' }, recorder);
    await s.launch();
    const [child] = await pids(() => s.printed());
    await s.exited;
    expect(s.died).toMatchObject({ exitCode: 4 });
    expect(recorder.events().find((e) => e.kind === 'process-exit')?.data).toMatchObject({ expected: false, exitCode: 4 });
    expect(pidAlive(child)).toBe(true); // left to init by the wrapper
    await s.stop();
    expect(await waitFor(() => !pidAlive(child), 3000)).toBe(true);
  });

  it('a command that exits first, one that never listens, and a wait cut short all fail the start and leave nothing running', async () => {
    const early = server(['-e', 'console.log("no config"); process.exit(3)']);
    const e1 = await early.launch().catch((e: unknown) => e);
    expect(e1).toBeInstanceOf(ServerStartError);
    expect((e1 as Error).message).toMatch(/exited \(code 3, signal null\) before accepting connections on 127\.0\.0\.1:\d+$/);
    expect((e1 as ServerStartError).tail).toContain('no config');

    const t0 = Date.now();
    const silent = server(['-e', 'console.log("waiting"); setInterval(() => {}, 1000)'], { startTimeoutMs: 800 });
    const e2 = await silent.launch().catch((e: unknown) => e);
    expect((e2 as ServerStartError).code).toBe('ETIMEDOUT');
    expect((e2 as Error).message).toMatch(/did not accept connections on 127\.0\.0\.1:\d+ within 800 ms$/);
    expect(Date.now() - t0).toBeLessThan(6000);
    expect(pidAlive(silent.pid!)).toBe(false);

    const stop = new AbortController();
    const cut = server(['-e', 'setInterval(() => {}, 1000)']);
    setTimeout(() => stop.abort(), 300);
    const e3 = await cut.launch(stop.signal).catch((e: unknown) => e);
    expect((e3 as ServerStartError).code).toBe('EINTR');
    expect(pidAlive(cut.pid!)).toBe(false);
  });
});
