// The driver for a client under test: mcpspec plays a scripted server. Each scenario gets a fresh
// listener and starts the client afresh with the endpoint substituted for `{url}` in its command;
// what the client sends is recorded and judged.

import { setMaxListeners } from 'node:events';
import { execa } from 'execa';
import { judgedVersion, MODERN, type SpecVersion } from '../protocol/versions.js';
import type { EraInfo, Finding, PeerInfo, TargetInfo } from '../results/run.js';
import type { Recording } from '../results/wire.js';
import type { RunObservations } from '../suites/observations.js';
import type { ClientExit, ScriptedServer } from '../suites/ports.js';
import type { ClientScenarioContext, RunOptions, Scenario } from '../suites/scenario.js';
import type { Driver, ScenarioOutcome } from './engine.js';
import { HttpListener } from './http-listener.js';
import { registerLive } from './reaper.js';
import { Recorder } from './recorder.js';
import { TailBuffer } from './tail-buffer.js';
import { makeSandbox, type EnvOptions } from './target-env.js';

export interface ClientTarget {
  command: string;
  /** Arguments; `{url}` is replaced by the scripted server's endpoint. */
  args: string[];
}

export interface ClientDriverOptions extends RunOptions {
  specVersion: SpecVersion;
  env?: EnvOptions;
}

export const URL_PLACEHOLDER = '{url}';

export class ClientDriver implements Driver {
  readonly role = 'client' as const;
  readonly transport = 'http' as const;
  readonly target: TargetInfo;
  private readonly recorder = new Recorder();
  private readonly found: Finding[] = [];

  constructor(
    readonly spec: ClientTarget,
    private readonly opts: ClientDriverOptions,
  ) {
    this.target = { role: 'client', transport: 'http', command: spec.command, args: spec.args };
  }

  async start(): Promise<{ era: EraInfo; peer: PeerInfo }> {
    const version = judgedVersion(this.opts.specVersion);
    const era: EraInfo = { era: MODERN.includes(version) ? 'modern' : 'legacy', version, judgedBy: version, detected: false, reason: `--spec-version ${this.opts.specVersion}` };
    // A client declares its capabilities on its own requests; nothing is known before it speaks.
    return { era, peer: { capabilities: {} } };
  }

  async runScenario(s: Scenario, runSignal: AbortSignal): Promise<ScenarioOutcome> {
    const recorder = new Recorder({ parent: this.recorder, source: s.id });
    const listener = new HttpListener(recorder);
    const url = await listener.listen();
    const sandbox = makeSandbox(this.opts.env);
    const stop = new AbortController();
    setMaxListeners(0, stop.signal);
    const onRun = () => stop.abort(runSignal.reason);
    runSignal.addEventListener('abort', onRun, { once: true });
    const server: ScriptedServer = {
      kind: 'http',
      handle: (h) => listener.handle((m, headers) => h(m, headers)),
      received: () => listener.received(),
      runClient: (timeoutMs = this.opts.timeoutMs) => this.runClient(url, sandbox, timeoutMs, stop.signal, s.id),
    };
    const ctx: ClientScenarioContext = { server, version: judgedVersion(this.opts.specVersion), options: this.opts, signal: stop.signal };
    try {
      return { observed: await s.run(ctx) };
    } finally {
      runSignal.removeEventListener('abort', onRun);
      await listener.close();
      sandbox.dispose();
    }
  }

  observations(): RunObservations {
    return { exchanges: [], events: this.recorder.events(), version: judgedVersion(this.opts.specVersion), transport: 'http', deliberate: () => false };
  }

  findings(): Finding[] {
    return this.found;
  }

  recording(): Recording {
    return this.recorder;
  }

  async close(): Promise<void> {}

  /** Start the client with `{url}` substituted; it is stopped (and its process tree reaped) at the timeout or the run's end. */
  private async runClient(url: string, sandbox: ReturnType<typeof makeSandbox>, timeoutMs: number, signal: AbortSignal, scenario: string): Promise<ClientExit> {
    const args = this.spec.args.map((a) => a.split(URL_PLACEHOLDER).join(url));
    const stderr = new TailBuffer();
    const stdout = new TailBuffer();
    const child = execa(this.spec.command, args, { cwd: sandbox.cwd, env: { ...sandbox.env, MCPSPEC_SCENARIO: scenario }, extendEnv: false, stdin: 'ignore', buffer: false, reject: false, detached: true, forceKillAfterDelay: 2000, cancelSignal: signal, timeout: timeoutMs });
    const unregister = registerLive({ killNow: () => killGroup(child.pid, 'SIGKILL') });
    child.stdout?.on('data', (c: Buffer) => stdout.push(c.toString('utf8')));
    child.stderr?.on('data', (c: Buffer) => stderr.push(c.toString('utf8')));
    const res = await child;
    killGroup(child.pid, 'SIGKILL'); // whatever the client left running goes with it
    unregister();
    const exit: ClientExit = { exitCode: res.exitCode ?? null, signal: res.signal ?? null, timedOut: res.timedOut === true, stderrTail: stderr.toString(), stdoutTail: stdout.toString() };
    if (exit.timedOut) this.found.push({ kind: 'hang', scenario, message: `the client was still running after ${timeoutMs} ms and was stopped` });
    return exit;
  }
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}
