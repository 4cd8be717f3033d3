// The HTTP server of a whole `mcpspec server --start` run (runner/server-for-run.ts): started again
// on a fresh port after it dies, one restart for everyone who asks at once, one log, and a limit.
import { afterEach, describe, expect, it } from 'vitest';
import { liveCount } from '../../runner/reaper.js';
import { Recorder } from '../../runner/recorder.js';
import { MAX_RESTARTS, ServerForRun } from '../../runner/server-for-run.js';
import { LISTEN, pidAlive, pids, pidsIn, waitFor } from './helpers.js';

const NODE = process.execPath;
const URL_TEMPLATE = 'http://127.0.0.1:{port}/mcp';
const env = { PATH: process.env.PATH ?? '' };

const started: { stop(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.stop()));
  expect(liveCount()).toBe(0);
});

describe('ServerForRun', () => {
  it('a server that dies is started again on a fresh port, one log for both; past the limit the rest of the run is given up', async () => {
    const run = new ServerForRun(URL_TEMPLATE, { command: NODE, args: [LISTEN, '{port}'] }, new Recorder(), { env, startTimeoutMs: 15_000, killGraceMs: 1000 });
    started.push(run);
    const first = await run.launch();
    const life = run.lifeSignal;
    expect(await run.ready()).toBeUndefined(); // up: nothing to do

    process.kill((await pids(() => run.printed()))[0], 'SIGKILL');
    expect(await waitFor(() => life.aborted, 5000)).toBe(true);
    expect(run.died).toBe(true);
    // Scenarios asking at once share one restart.
    const [a, b] = await Promise.all([run.ready(), run.ready()]);
    expect([a, b]).toEqual([undefined, undefined]);
    expect(run.url).not.toBe(first);
    expect(run.lifeSignal.aborted).toBe(false);
    expect(await (await fetch(run.url)).text()).toBe('ok');
    await pids(() => run.printed(), 2);
    expect(run.printed()).toMatch(/up \d+ pid \d+\n\n\[mcpspec: the server exited \(code null, signal SIGKILL\); starting it again\]\nup \d+ pid \d+/);

    for (let i = 1; i <= MAX_RESTARTS; i++) {
      const now = await pids(() => run.printed(), i + 1);
      process.kill(now[i], 'SIGKILL');
      await run.exited;
      const why = await run.ready();
      if (i < MAX_RESTARTS) expect(why).toBeUndefined();
      else expect(why).toBe(`the started server exited ${MAX_RESTARTS + 1} times; mcpspec stopped starting it again`);
    }
    expect(await run.ready()).toMatch(/stopped starting it again/);
    expect(pidsIn(run.printed()!).every((p) => !pidAlive(p))).toBe(true);
  });
});
