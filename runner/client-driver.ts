// The driver for a client under test: mcpspec plays a scripted server. Each scenario gets a fresh
// endpoint and starts the client afresh: over HTTP a listener whose URL replaces `{url}`; over stdio
// a relay listener, and `{server}` (several argv words) / `{server-json}` start mcpspec's scripted
// server program, which connects back. What the client sends is recorded and judged. A harness
// written to the official suite's client contract (officialHarness) gets the URL as its last argument
// and the official scenario name that fits each run in its environment (official-harness.ts).

import { setMaxListeners } from 'node:events';
import { execa } from 'execa';
import { META_CLIENT_CAPABILITIES, META_CLIENT_INFO } from '../protocol/meta.js';
import { isObj } from '../protocol/jsonrpc.js';
import { judgedVersion, MODERN, type SpecVersion } from '../protocol/versions.js';
import type { TransportKind } from '../results/check-record.js';
import type { EraInfo, Finding, PeerInfo, TargetInfo } from '../results/run.js';
import type { Recording } from '../results/wire.js';
import { crashOf, describeExit, stderrSummary } from '../suites/kit/client-exit.js';
import type { RunObservations } from '../suites/kit/observations.js';
import type { ClientExit, Received, ScriptedServer } from '../suites/ports/scripted-server.js';
import { scenarioOptions, type ClientScenarioContext, type GenerationOptions, type PlainRun, type RunOptions, type SafetyOptions, type Scenario, type TimingOptions } from '../suites/kit/scenario.js';
import { modernMetaOf, runScript } from '../suites/client/scripted-server.js';
import { officialNamesFor, START_RUN } from '../suites/client/official-harness-map.js';
import { OFFICIAL_FIXTURE_TOOLS, officialDefaultVersion } from '../suites/client/official-scenario-names.js';
import type { Driver, ScenarioOutcome } from './engine.js';
import { openCanary } from './canary.js';
import { HttpListener } from './http-listener.js';
import { harnessEnv, refusedScenario } from './official-harness.js';
import { registerLive } from './reaper.js';
import { Recorder } from './recorder.js';
import { RelayListener } from './relay-listener.js';
import { TailBuffer } from './tail-buffer.js';
import { withHeadlessBrowser, makeSandbox, type EnvOptions, type TargetSandbox } from './target-env.js';
import { TargetStartError } from './transport.js';

export interface ClientTarget {
  command: string;
  /** Arguments; `{url}` (HTTP) or `{server}` / `{server-json}` (stdio) are replaced per scenario. */
  args: string[];
  /** Default http. */
  transport?: TransportKind;
  /**
   * A harness written to the official suite's client contract (HTTP only): the URL goes last unless
   * the command places `{url}`, and each run gets MCP_CONFORMANCE_SCENARIO (and the rest) as that suite sets them.
   */
  officialHarness?: boolean;
}

/** What the client runs of one scenario (or of the start) came to under the official contract, beside their exits. */
interface HarnessState {
  /** Every official name mcpspec gave was refused (the harness ended before sending anything): why, for the scenario's checks. */
  declined?: string;
}

/** What the client driver takes besides the target (selection, schedule and reporting are the engine's). */
export interface ClientDriverOptions {
  /** `auto`: the era of the client's first message against the plain server decides. */
  specVersion: SpecVersion | 'auto';
  /** The client's environment (with the target, where it runs). */
  env?: EnvOptions;
  /** The client's working directory (default: a fresh temporary folder). */
  cwd?: string;
  /** How long one client run may take; scenarios read it too. */
  timing: TimingOptions;
  /** For the scenarios. */
  safety: SafetyOptions;
  /** For the scenarios' generated answers. */
  generation: GenerationOptions;
}

export const URL_PLACEHOLDER = '{url}';
export const SERVER_PLACEHOLDER = '{server}';
export const SERVER_JSON_PLACEHOLDER = '{server-json}';

/** Which placeholders a transport accepts; a client command must contain one of them. */
export function placeholdersOf(transport: TransportKind): string[] {
  return transport === 'http' ? [URL_PLACEHOLDER] : [SERVER_PLACEHOLDER, SERVER_JSON_PLACEHOLDER];
}

export function hasPlaceholder(target: ClientTarget): boolean {
  const words = [target.command, ...target.args];
  return placeholdersOf(target.transport ?? 'http').some((p) => words.some((w) => w.includes(p)));
}

/** Quote one word for a command line shown inside another word. */
function shellWord(w: string): string {
  return /^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}

/** Substitute the placeholders: `{server}` as a whole word becomes several words. */
export function expandCommand(target: ClientTarget, values: { url?: string; server?: { command: string; args: string[] } }): string[] {
  const out: string[] = [];
  for (const w of [target.command, ...target.args]) {
    if (values.server && w === SERVER_PLACEHOLDER) {
      out.push(values.server.command, ...values.server.args);
      continue;
    }
    let x = w;
    if (values.url) x = x.split(URL_PLACEHOLDER).join(values.url);
    if (values.server) {
      x = x.split(SERVER_JSON_PLACEHOLDER).join(JSON.stringify(values.server));
      x = x.split(SERVER_PLACEHOLDER).join([values.server.command, ...values.server.args].map(shellWord).join(' '));
    }
    out.push(x);
  }
  return out;
}

/** What a client declared: its first modern request's _meta, or its initialize params. */
export function declaredBy(received: Received[]): { capabilities: Record<string, unknown>; info?: Record<string, unknown>; era?: 'modern' | 'legacy' } {
  for (const r of received) {
    const m = r.message;
    if (!isObj(m) || typeof m.method !== 'string' || !('id' in m)) continue;
    const meta = modernMetaOf(m.params);
    if (meta) {
      const caps = meta[META_CLIENT_CAPABILITIES];
      const info = meta[META_CLIENT_INFO];
      return { capabilities: isObj(caps) ? caps : {}, info: isObj(info) ? info : undefined, era: 'modern' };
    }
    if (m.method === 'initialize' && isObj(m.params)) {
      const caps = m.params.capabilities;
      const info = m.params.clientInfo;
      return { capabilities: isObj(caps) ? caps : {}, info: isObj(info) ? info : undefined, era: 'legacy' };
    }
  }
  return { capabilities: {} };
}

export class ClientDriver implements Driver {
  readonly role = 'client' as const;
  readonly transport: TransportKind;
  readonly target: TargetInfo;
  private readonly recorder = new Recorder();
  private readonly found: Finding[] = [];
  /** Wall time of the client's run against the plain server at start (the bench's baseline). */
  plainRunMs?: number;
  private plain?: PlainRun;
  private version: SpecVersion = '2026-07-28';

  /** What scenarios read (ctx.options). */
  private readonly forScenarios: RunOptions;
  readonly spec: ClientTarget;
  /** A harness declares what each official scenario asks for, not what it declared at start. */
  readonly declaresPerScenario: boolean;

  constructor(
    spec: ClientTarget,
    private readonly opts: ClientDriverOptions,
  ) {
    this.forScenarios = scenarioOptions(opts.safety, opts.timing, opts.generation);
    this.transport = spec.transport ?? 'http';
    if (spec.officialHarness && this.transport !== 'http') throw new Error('the official client contract is HTTP only');
    // The official suite appends the server URL to the harness's command.
    this.spec = spec.officialHarness && !hasPlaceholder(spec) ? { ...spec, args: [...spec.args, URL_PLACEHOLDER] } : spec;
    this.target = { role: 'client', transport: this.transport, command: this.spec.command, args: this.spec.args, ...(spec.officialHarness ? { officialHarness: true as const } : {}) };
    this.declaresPerScenario = spec.officialHarness === true;
  }

  /**
   * Run the client once against a plain (dual-era) scripted server: it must connect and exit, or
   * nothing can be judged. What it declares there gates the checks.
   */
  async start(signal: AbortSignal): Promise<{ era: EraInfo; peer: PeerInfo }> {
    const t0 = Date.now();
    let received: Received[] = [];
    const harness: HarnessState = {};
    const exit = await this.withEndpoint(START_RUN, new Recorder(), signal, async (server) => {
      runScript(server, { modern: true, legacy: true, timeoutMs: this.opts.timing.timeoutMs });
      const exit = await server.runClient();
      received = server.received();
      return exit;
    }, { harness });
    this.plainRunMs = Date.now() - t0;
    if (signal.aborted) throw new TargetStartError('interrupted before the client was judged');
    if (harness.declined) throw new TargetStartError(harness.declined);
    const where = this.spec.officialHarness ? 'the server URL it was given as its last argument' : this.transport === 'http' ? 'the {url} endpoint' : 'the {server} it was given';
    const tail = lastLine(exit.stderrTail);
    if (received.length === 0) {
      if (exit.timedOut) throw new TargetStartError(`the client never connected to ${where}: it sent nothing in ${this.opts.timing.timeoutMs} ms and was stopped`);
      throw new TargetStartError(`the client ${describeExit(exit)} without sending anything to ${where}${tail ? ` (stderr: ${tail})` : ''}`);
    }
    // A client that wrote lines no server can read (a log line, a message over several lines) may wait for an
    // answer that never comes: that is its own nonconformance (client.stdio-lines), judged like the rest.
    const unreadable = received.some((r) => typeof r.message === 'string');
    if (exit.timedOut && !unreadable) {
      const last = received[received.length - 1].message;
      const method = isObj(last) && typeof last.method === 'string' ? last.method : 'a message';
      throw new TargetStartError(`the client connected (${received.length} message${received.length > 1 ? 's' : ''}, last ${method}) but was still running after --timeout ${this.opts.timing.timeoutMs} ms: mcpspec client needs a client command that exits when its work is done`);
    }
    this.plain = { exit, methods: methodsOf(received) };
    const declared = declaredBy(received);
    let era: EraInfo;
    if (this.opts.specVersion === 'auto') {
      const asked = declared.era === 'legacy' ? initializeVersion(received) : '2026-07-28';
      this.version = judgedVersion(asked);
      era = { era: declared.era ?? 'modern', version: asked, judgedBy: this.version, detected: true, reason: declared.era === 'legacy' ? `the client started with initialize (${asked})` : 'the client started with a 2026-07-28 request' };
    } else {
      this.version = this.opts.specVersion;
      era = { era: MODERN.includes(this.version) ? 'modern' : 'legacy', version: this.version, judgedBy: this.version, detected: false, reason: `--spec-version ${this.opts.specVersion}` };
    }
    return { era, peer: { capabilities: declared.capabilities, ...(declared.info ? { info: declared.info } : {}) } };
  }

  async runScenario(s: Scenario, runSignal: AbortSignal): Promise<ScenarioOutcome> {
    const recorder = new Recorder({ parent: this.recorder, source: s.id });
    const harness: HarnessState = {};
    const observed = await this.withEndpoint(s.id, recorder, runSignal, (server, signal) => {
      const ctx: ClientScenarioContext = { server, version: this.version, options: this.forScenarios, signal, plain: this.plain };
      return s.run(ctx);
    }, { serverStderr: s.serverStderr, headlessBrowser: s.headlessBrowser, harness });
    if (runSignal.aborted) return { aborted: runSignal.reason instanceof Error && runSignal.reason.message === 'interrupted' ? 'the run was interrupted' : 'the overall deadline passed' };
    // mcpspec's choice of name, not the client's fault: nothing to judge.
    if (harness.declined) return { untestable: harness.declined };
    return { observed };
  }

  /** A fresh endpoint for one client run (or several, in one scenario), closed and reaped afterwards. */
  private async withEndpoint<T>(
    name: string,
    recorder: Recorder,
    runSignal: AbortSignal,
    body: (server: ScriptedServer, signal: AbortSignal) => Promise<T>,
    { serverStderr = false, headlessBrowser = false, harness = {} }: { serverStderr?: boolean; headlessBrowser?: boolean; harness?: HarnessState } = {},
  ): Promise<T> {
    const stop = new AbortController();
    setMaxListeners(0, stop.signal);
    const onRun = () => stop.abort(runSignal.reason);
    runSignal.addEventListener('abort', onRun, { once: true });
    // A harness gets the official suite's path (its scenario is in its environment); other clients see the scenario in theirs.
    const path = this.spec.officialHarness ? '/mcp' : `/mcp/${encodeURIComponent(name)}`;
    const http = this.transport === 'http' ? new HttpListener(recorder, path, stop.signal) : undefined;
    const relay = this.transport === 'stdio' ? new RelayListener(recorder, stop.signal) : undefined;
    const sandboxes: TargetSandbox[] = [];
    try {
      const url = http ? await http.listen() : undefined;
      // The browser reports to the listener's origin whether the client's callback took the redirect.
      const newSandbox = () => {
        const sb = makeSandbox(this.opts.env, this.opts.cwd);
        if (headlessBrowser) withHeadlessBrowser(sb, http?.browserReportUrl);
        sandboxes.push(sb);
        return sb;
      };
      let sandbox = newSandbox();
      if (relay) await relay.listen();
      const endpoint = (http ?? relay)!.endpoint;
      const argv = expandCommand(this.spec, { url, server: relay?.command(name, { stderr: serverStderr }) });
      let alsoListed: readonly Record<string, unknown>[] = [];
      const launch = (timeoutMs: number, env: Record<string, string> = {}, officialScenario?: string) => this.launch(argv, sandbox, timeoutMs, stop.signal, recorder, name, env, officialScenario);
      const server: ScriptedServer = {
        kind: this.transport,
        handle: (h) => endpoint.handle(h),
        send: (m) => relay?.send(m) ?? false,
        waitFor: (match, ms) => endpoint.waitFor(match, ms),
        pause: (ms) => endpoint.pause(ms),
        received: () => endpoint.received(),
        runClient: async (timeoutMs = this.opts.timing.timeoutMs, env: Record<string, string> = {}) => {
          if (this.spec.officialHarness) {
            return this.runHarness(name, timeoutMs, harness, () => endpoint.received().length, (tools) => (alsoListed = tools), (ms, official, n) => launch(ms, { ...env, ...official }, n));
          }
          const { exit, stoppedByUs } = await launch(timeoutMs, env);
          this.noteExit(name, exit, stoppedByUs, timeoutMs);
          return exit;
        },
        freshClientState: () => {
          sandbox = newSandbox();
        },
        get alsoListed() {
          return alsoListed;
        },
        canary: () => openCanary(stop.signal),
        ...(http ? { http } : {}),
      };
      return await body(server, stop.signal);
    } finally {
      runSignal.removeEventListener('abort', onRun);
      stop.abort(new Error('scenario over'));
      await http?.close();
      await relay?.close();
      for (const sb of sandboxes) sb.dispose();
    }
  }

  /** The methods the client sent to the plain server at start (undefined before start()). */
  get plainMethods(): string[] | undefined {
    return this.plain?.methods;
  }

  observations(): RunObservations {
    return { exchanges: [], events: this.recorder.events(), version: this.version, transport: this.transport, deliberate: () => false };
  }

  findings(): Finding[] {
    return this.found;
  }

  recording(): Recording {
    return this.recorder;
  }

  async close(): Promise<void> {}

  /**
   * One client run of `scenario` under the official contract: the first official name for it (at the
   * version under test), and the next whenever the harness refuses one (ends before sending anything).
   * A fallback is noted; when every name is refused the scenario is declined (`harness.declined`).
   */
  private async runHarness(
    scenario: string,
    timeoutMs: number,
    harness: HarnessState,
    sent: () => number,
    list: (tools: readonly Record<string, unknown>[]) => void,
    launch: (timeoutMs: number, env: Record<string, string>, officialScenario: string) => Promise<{ exit: ClientExit; stoppedByUs: boolean }>,
  ): Promise<ClientExit> {
    // The version under test; at start with auto, the one the official suite tells a harness when it is told none.
    const asked = this.opts.specVersion !== 'auto' ? this.opts.specVersion : scenario === START_RUN ? undefined : this.version;
    const names = officialNamesFor(scenario, asked ?? '2025-11-25');
    const refused: string[] = [];
    let last: ClientExit | undefined;
    // The last refused run (a refused name's run is not the scenario's), and how it ended: what a harness says when it has no handler for a name.
    const how = () => `${describeExit(last!)}${lastLine(last!.stderrTail) ? `; stderr: ${lastLine(last!.stderrTail)}` : ''}`;
    for (const name of names) {
      const before = sent();
      list(OFFICIAL_FIXTURE_TOOLS[name] ?? []);
      const { exit, stoppedByUs } = await launch(timeoutMs, harnessEnv(name, asked ?? officialDefaultVersion(name), scenario), name);
      if (stoppedByUs || !refusedScenario(exit, sent() > before)) {
        if (refused.length) {
          const message = `the harness refused MCP_CONFORMANCE_SCENARIO=${refused.join(', then ')} (it ended before sending anything: ${how()}): mcpspec ran ${scenario} as ${name}`;
          // Once per scenario, though a scenario may run the client twice.
          if (!this.found.some((f) => f.scenario === scenario && f.message === message)) this.found.push({ kind: 'note', scenario, message });
        }
        this.noteExit(scenario, exit, stoppedByUs, timeoutMs);
        return exit;
      }
      last = exit;
      refused.push(name);
    }
    harness.declined = `the harness ran none of the official scenarios mcpspec named for ${scenario} (${refused.join(', ')}): each ended before sending anything (${how()})`;
    return last!;
  }

  /** A crash or hang of the client in a scenario is a finding (the first run, at start, is judged by start()). */
  private noteExit(scenario: string, exit: ClientExit, stoppedByUs: boolean, timeoutMs: number): void {
    if (scenario === START_RUN || stoppedByUs) return;
    const crash = crashOf(exit);
    if (exit.timedOut) this.found.push({ kind: 'hang', scenario, message: `the client was still running after ${timeoutMs} ms and was stopped`, stderrTail: lastLine(exit.stderrTail) });
    else if (crash) this.found.push({ kind: 'crash', scenario, message: `the client crashed: ${crash}`, stderrTail: exit.stderrTail.slice(-2000) });
  }

  /** Start the client; it is stopped (and its process tree reaped) at the timeout or the run's end. */
  private async launch(argv: string[], sandbox: ReturnType<typeof makeSandbox>, timeoutMs: number, signal: AbortSignal, recorder: Recorder, scenario: string, env: Record<string, string>, officialScenario?: string): Promise<{ exit: ClientExit; stoppedByUs: boolean }> {
    const stderr = new TailBuffer();
    const stdout = new TailBuffer();
    const t0 = Date.now();
    const child = execa(argv[0], argv.slice(1), { cwd: sandbox.cwd, env: { ...sandbox.env, MCPSPEC_SCENARIO: scenario, ...env }, extendEnv: false, stdin: 'pipe', buffer: false, reject: false, detached: true, forceKillAfterDelay: 2000, cancelSignal: signal, timeout: timeoutMs });
    const unregister = registerLive({ killNow: () => killGroup(child.pid, 'SIGKILL') });
    // Its stdin stays open (a pipe nobody writes to, as a terminal nobody types into) until it exits:
    // some clients (mcp-remote's) take the end of their input as the order to quit.
    child.stdin?.on('error', () => {});
    child.stdout?.on('data', (c: Buffer) => stdout.push(c.toString('utf8')));
    child.stderr?.on('data', (c: Buffer) => stderr.push(c.toString('utf8')));
    // Once the client itself has exited (or was stopped at the timeout), what it left running in its
    // group may still hold the output pipes, and the run would wait on them until its deadline
    // (seen: mcp-remote's proxy, started by the client under test, waiting for an authorization callback).
    let leftovers: NodeJS.Timeout | undefined;
    child.once('exit', () => {
      leftovers = setTimeout(() => killGroup(child.pid, 'SIGKILL'), LEFTOVER_GRACE_MS);
      leftovers.unref();
    });
    const res = await child;
    clearTimeout(leftovers);
    child.stdin?.destroy();
    killGroup(child.pid, 'SIGKILL'); // whatever the client left running goes with it
    unregister();
    const stoppedByUs = res.isCanceled === true;
    const exit: ClientExit = {
      exitCode: res.exitCode ?? null,
      signal: res.timedOut || stoppedByUs ? null : (res.signal ?? null),
      timedOut: res.timedOut === true,
      stderrTail: stderr.toString(),
      stdoutTail: stdout.toString(),
      elapsedMs: Date.now() - t0,
    };
    if (res.failed && res.exitCode === undefined && !res.signal && !res.timedOut && !stoppedByUs) {
      // It could not be started at all (ENOENT, EACCES).
      exit.stderrTail += `\n${res.shortMessage ?? res.message}`;
      exit.exitCode = 127;
    }
    recorder.record({ dir: 'note', channel: 'stderr', raw: '', note: 'client-exit', data: { exitCode: exit.exitCode, signal: exit.signal, timedOut: exit.timedOut, elapsedMs: exit.elapsedMs, ...(officialScenario ? { officialScenario } : {}) } });
    return { exit, stoppedByUs };
  }
}

/** The protocolVersion of the client's first initialize. */
function initializeVersion(received: Received[]): string {
  const init = received.find((r) => isObj(r.message) && r.message.method === 'initialize');
  const p = isObj(init?.message) ? init.message.params : undefined;
  return isObj(p) && typeof p.protocolVersion === 'string' ? p.protocolVersion : '2025-11-25';
}

/** The methods a client sent (requests and notifications), in order. */
export function methodsOf(received: Received[]): string[] {
  return received.map((r) => (isObj(r.message) && typeof r.message.method === 'string' ? r.message.method : undefined)).filter((m): m is string => m !== undefined);
}

const lastLine = stderrSummary;

/** How long after the client exits what it left behind may still write to mcpspec's pipes. */
const LEFTOVER_GRACE_MS = 1000;

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}
