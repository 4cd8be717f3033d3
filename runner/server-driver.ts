// The driver for a server under test: mcpspec is its client. Each scenario gets a fresh session (a
// fresh process on stdio); silence is decided only after the whole timeout, and a target that
// stops answering even a fence request is declared hung once and restarted where it can be. An
// HTTP server given with a start command is started once for the run and stopped at its end.

import { setMaxListeners } from 'node:events';
import { DEFAULT_MODERN_VERSION, eraOf, isModernVersion, judgedVersion, type SpecVersion, type VersionChoice } from '../protocol/versions.js';
import { describeExit, unexpectedExits } from '../suites/kit/target-exit.js';
import type { EraInfo, Finding, PeerInfo, TargetInfo } from '../results/run.js';
import type { Recording } from '../results/wire.js';
import type { RunObservations } from '../suites/kit/observations.js';
import type { Exchange, ProbeOptions, RawConnection, Session } from '../suites/ports/session.js';
import { scenarioOptions, type AskedHook, type EndpointScenarioContext, type GenerationOptions, type RunOptions, type SafetyOptions, type Scenario, type ScenarioContext, type TimingOptions } from '../suites/kit/scenario.js';
import { HandshakeError, type BaseSession } from './base-session.js';
import type { Driver, ScenarioOutcome } from './engine.js';
import { HttpTransport } from './http-transport.js';
import { LegacySession } from './legacy-session.js';
import { LanePool } from './probe-lanes.js';
import { Recorder } from './recorder.js';
import { openSession, STARTUP_ALLOWANCE_MS, STARTUP_FACTOR } from './session.js';
import { ParamHeaderBook } from './param-header-book.js';
import { ServerForRun } from './server-for-run.js';
import { ServerStartError, settledWithin, type StartCommand } from './started-server.js';
import { StdioTransport } from './stdio-transport.js';
import { makeSandbox, type EnvOptions, type TargetSandbox } from './target-env.js';
import { BackgroundReads } from './background-reads.js';
import { plainHttp } from './plain-http.js';
import { TargetStartError, type Transport, type TransportFactory } from './transport.js';

/**
 * What to start or connect to: a command over stdio, or an HTTP endpoint with the headers every
 * request carries (and, for the server driver, the command that serves it: started once per run).
 */
export type ServerTarget = { kind: 'stdio'; command: string; args: string[]; cwd?: string } | { kind: 'http'; url: string; headers?: Record<string, string>; start?: StartCommand };

/**
 * What the server driver takes besides the target: the options it uses itself or hands to the
 * scenarios it runs (selection, schedule and reporting are the engine's).
 */
export interface ServerDriverOptions {
  /** The version spoken and judged by (--spec-version); auto: detected by the first session. */
  specVersion: VersionChoice;
  /** The environment of a stdio target (with the target, where it runs). */
  env?: EnvOptions;
  /** Every session's request timeout; scenarios read it too. */
  timing: TimingOptions;
  /** For the scenarios: what they may call. */
  safety: SafetyOptions;
  /** For the scenarios' generators; the seed also answers the server's requests. */
  generation: GenerationOptions;
  /** Connections (its own session included) a scenario may use for id-less probes on stdio. Default 6. */
  maxLanes?: number;
  /** An HTTP target with a start command: how long the server may take to accept connections. */
  startTimeoutMs?: number;
}

/** The start timeout when none is given: the start-up allowance a stdio target gets, at least 10 s. */
export function defaultStartTimeoutMs(timeoutMs: number): number {
  return Math.min(STARTUP_ALLOWANCE_MS, Math.max(10_000, STARTUP_FACTOR * timeoutMs));
}

/** Why a scenario under way when the started server died has no verdicts. */
const SERVER_DIED = 'the started server exited during this scenario (see the crash finding)';

const LAST_SENT_CHARS = 2000;
export class ServerDriver implements Driver {
  readonly role = 'server' as const;
  readonly transport: 'stdio' | 'http';
  readonly target: TargetInfo;
  private readonly recorder = new Recorder();
  private readonly exchanges: Exchange[] = [];
  private readonly deliberateSet = new WeakSet<object>();
  private readonly found: Finding[] = [];
  private readonly sandbox?: TargetSandbox;
  private readonly factory: TransportFactory;
  private version: SpecVersion = '2026-07-28';
  private versionChoice: VersionChoice;
  /** HTTP: the one server stopped answering; later waits end at once instead of each taking a timeout. */
  private readonly httpHung = (() => {
    const c = new AbortController();
    setMaxListeners(0, c.signal);
    return c;
  })();
  private hangDeclared = false;
  private starting?: Promise<{ era: EraInfo; peer: PeerInfo }>;
  private readonly startStop = new AbortController();
  /** Legacy HTTP: the first session, kept open for the scenarios that share a session (ended by afterScenarios). */
  private shared?: LegacySession;
  private slowNoted = false;
  /** Set when no session could be had (see unauthorized). */
  private noSession?: string;
  /** HTTP: the rest of answered SSE streams, read on until they end (http.sse-ends-after-response). */
  private readonly backgroundReads = new BackgroundReads();
  readonly spec: ServerTarget;
  /** Every session's request timeout. */
  private readonly timeoutMs: number;
  /** What scenarios read (ctx.options), but for httpModern, which is known once the version is. */
  private readonly forScenarios: RunOptions;
  /** Seeds the answers to the server's requests. */
  private readonly seed: number;
  private readonly maxLanes: number;
  /** HTTP with a start command: the server mcpspec started for the run. */
  private readonly server?: ServerForRun;
  /** Scenarios cut short by the started server's death: their lost connections are that death, not crashes of their own. */
  private readonly cutByDeath = new Set<string>();
  /** HTTP: the endpoint every new session talks to (a started server's `{port}` filled, once it is up). */
  private get endpoint(): string {
    return this.server?.url ?? (this.spec.kind === 'http' ? this.spec.url : '');
  }

  constructor(spec: ServerTarget, opts: ServerDriverOptions) {
    this.spec = spec;
    this.transport = spec.kind;
    this.versionChoice = opts.specVersion;
    this.timeoutMs = opts.timing.timeoutMs;
    this.forScenarios = scenarioOptions(opts.safety, opts.timing, opts.generation);
    this.seed = opts.generation.seed;
    this.maxLanes = opts.maxLanes ?? 6;
    // A started server's report names the URL and command as given (`{port}` kept): the same for every run and shard.
    this.target =
      spec.kind === 'stdio'
        ? { role: 'server', transport: 'stdio', command: spec.command, args: spec.args }
        : { role: 'server', transport: 'http', url: spec.url, ...(spec.start ? { start: { command: spec.start.command, args: spec.start.args } } : {}) };
    if (spec.kind === 'stdio') this.sandbox = makeSandbox(opts.env, spec.cwd);
    else if (spec.start) {
      // The started server gets what a stdio target gets: a temporary HOME and working folder, PATH and what the user passes.
      const sandbox = makeSandbox(opts.env);
      this.sandbox = sandbox;
      this.server = new ServerForRun(spec.url, spec.start, this.recorder, { cwd: sandbox.cwd, env: sandbox.env, startTimeoutMs: opts.startTimeoutMs ?? defaultStartTimeoutMs(this.timeoutMs) });
      // A legacy session kept for sharing died with its server: later scenarios open their own.
      this.server.onDeath = () => void this.endShared();
    }
    // Whichever session listed the tools, every HTTP tools/call of the run mirrors their x-mcp-header arguments.
    const paramHeaders = new ParamHeaderBook();
    const backgroundReads = this.backgroundReads;
    this.factory = (recorder) => {
      // A pretty-printed message is read anyway (stdio.newline-framing still fails on the note), so one
      // framing mistake is reported once instead of as a cascade of timeouts.
      if (spec.kind === 'stdio') return new StdioTransport({ command: spec.command, args: spec.args, cwd: this.sandbox!.cwd, env: this.sandbox!.env }, recorder, { acceptMultiLine: true });
      return new HttpTransport({ url: this.endpoint, headers: spec.headers }, recorder, { paramHeaders, backgroundReads });
    };
  }

  /**
   * Reach the target: the first session fixes the era and version for the run (TargetStartError and
   * HandshakeError propagate). It may be called before the engine runs (the CLI does, so the target
   * answers while the suite's modules load); later calls join the first, and each one's signal ends it.
   */
  start(signal: AbortSignal): Promise<{ era: EraInfo; peer: PeerInfo }> {
    if (signal.aborted) this.startStop.abort(signal.reason);
    else signal.addEventListener('abort', () => this.startStop.abort(signal.reason), { once: true });
    this.starting ??= this.reach(this.startStop.signal);
    return this.starting;
  }

  /**
   * Settles once the first message is on its way to the target or the start has settled, whichever is
   * first. The CLI waits for it (bounded) before it loads the suite: compiling those modules would
   * otherwise hold the first request back.
   */
  firstSent(): Promise<void> {
    return new Promise<void>((resolve) => {
      const stop = this.recorder.watch((ev) => {
        if (ev.dir !== 'out') return;
        stop();
        resolve();
      });
      const settle = () => {
        stop();
        resolve();
      };
      (this.starting ?? Promise.resolve()).then(settle, settle);
    });
  }

  private async reach(signal: AbortSignal): Promise<{ era: EraInfo; peer: PeerInfo }> {
    await this.server?.launch(signal);
    let first: BaseSession;
    try {
      first = await openSession(this.factory, { specVersion: this.versionChoice, timeoutMs: this.timeoutMs, recorder: this.scenarioRecorder('handshake'), signal });
    } catch (e) {
      const unauthorized = this.unauthorized(e);
      if (unauthorized) return unauthorized;
      // Accepting connections and then dying is a failed start too; "cannot reach" would hide why.
      const lost = e instanceof TargetStartError || (e instanceof HandshakeError && e.kind === 'crash');
      if (this.server && lost) await settledWithin(this.server.exited, 1000); // the exit may trail the reset a little
      const died = this.server?.deathOf;
      if (died && this.server) {
        throw new ServerStartError(`${this.server.describe()} exited (code ${died.exitCode}, signal ${died.signal}) before mcpspec could open a session with it`, undefined, this.server.printed()?.slice(-2000));
      }
      throw e;
    }
    this.exchanges.push(first.handshake);
    if (first.detection?.probe) {
      this.exchanges.push(first.detection.probe);
      // A legacy server owes nothing to a modern probe sent before initialize (ED-02): not judged by the oracles' rules for requests.
      if (first.era === 'legacy') this.deliberateSet.add(first.detection.probe);
    }
    this.version = judgedVersion(first.version);
    const era: EraInfo = {
      era: first.era,
      version: first.version,
      judgedBy: this.version,
      detected: this.versionChoice === 'auto',
      reason: first.detection?.reason ?? `--spec-version ${this.versionChoice}`,
    };
    if (this.version !== first.version) this.found.push({ kind: 'note', message: `the server negotiated ${first.version}; mcpspec judges it by the ${this.version} rules` });
    const peer: PeerInfo = { info: first.serverInfo, capabilities: first.capabilities };
    if (first.instructions !== undefined) peer.instructions = first.instructions;
    // Kept for the scenarios that share a session, when it is the session they would have opened.
    if (first instanceof LegacySession && first.kind === 'http' && first.httpSessionId !== undefined && first.version === this.version) this.shared = first;
    else await first.close();
    this.noteCrashes();
    return { era, peer };
  }

  limited(): string | undefined {
    return this.noSession;
  }

  /**
   * An HTTP server that answered the handshake with 401: it requires authorization and mcpspec was
   * given no (working) credentials. The run goes on with the checks that need no session (auth.*),
   * judged by the version asked for (auto: the newest); everything else is a skip saying why.
   */
  private unauthorized(e: unknown): { era: EraInfo; peer: PeerInfo } | undefined {
    if (!(e instanceof HandshakeError) || this.spec.kind !== 'http' || e.exchange.http?.status !== 401) return undefined;
    const given = Object.keys(this.spec.headers ?? {}).some((h) => h.toLowerCase() === 'authorization');
    this.noSession = given
      ? `the server refused mcpspec's credentials (HTTP 401 to ${e.exchange.method ?? 'the handshake'}); only the authorization checks could run`
      : `the server requires authorization (HTTP 401 to ${e.exchange.method ?? 'the handshake'}) and mcpspec has no credentials: only the authorization checks could run; pass a token with --header "Authorization: Bearer <token>" to test the rest`;
    this.version = this.versionChoice === 'auto' ? DEFAULT_MODERN_VERSION : this.versionChoice;
    const reason = `no session: HTTP 401${this.versionChoice === 'auto' ? `; judged by the ${this.version} rules, --spec-version picks another` : ''}`;
    return { era: { era: eraOf(this.version), version: this.version, judgedBy: this.version, detected: false, reason }, peer: { capabilities: {} } };
  }

  async runScenario(s: Scenario, runSignal: AbortSignal): Promise<ScenarioOutcome> {
    // A started server that died is started again first (or the scenario says why it cannot run).
    const unavailable = await this.server?.ready(runSignal);
    if (unavailable) return { aborted: unavailable };
    if (runSignal.aborted) return { aborted: runSignalText(runSignal) };
    const stop = new AbortController();
    setMaxListeners(0, stop.signal); // every outstanding wait of the scenario listens for its end
    const onRun = () => stop.abort(runSignal.reason);
    runSignal.addEventListener('abort', onRun, { once: true });
    const onHung = () => stop.abort(new Error('hang'));
    this.httpHung.signal.addEventListener('abort', onHung, { once: true });
    const recorder = this.scenarioRecorder(s.id);
    // Its answers die with the started server: what it was doing is cut short, not judged.
    const life = this.server?.lifeSignal;
    const exited = this.server?.exited;
    const onDeath = () => stop.abort(new Error('exited'));
    life?.addEventListener('abort', onDeath, { once: true });
    const diedDuring = async (failed = false) => {
      if (!life || !exited) return false;
      // A broken or refused connection may come a moment before the exit that explains it.
      if (!life.aborted && (failed || unexpectedExits(recorder.events()).length > 0)) await settledWithin(exited, 1000);
      if (!life.aborted) return false;
      this.cutByDeath.add(s.id);
      return true;
    };
    const opened: { close(): Promise<unknown> }[] = [];
    // mcpspec answers the server's requests as a client that declared what the scenario offers.
    const offered = s.legacyCapabilities ?? {};
    let hook: AskedHook | undefined;
    // With the generators: loaded after the first contact began (see start), so by now it is there.
    const { capableClientHandler } = await import('./server-requests.js');
    const factory: TransportFactory = (rec) => {
      const t = this.factory(rec);
      const answer = capableClientHandler(this.version, offered, this.seed);
      t.onServerRequest = async (req) => {
        const h = hook;
        await h?.before?.(req).catch(() => undefined);
        const reply = answer(req);
        // The transport writes the reply as soon as this returns; `after` runs once that is done.
        if (h?.after) setImmediate(() => h.after!(req));
        return reply;
      };
      return t;
    };
    const open = async (skipInitialized = false): Promise<BaseSession> => {
      // The scenario's first session may be a view of the shared one (no handshake of its own to record).
      if (s.sharesSession && this.shared && !skipInitialized && opened.length === 0 && !stop.signal.aborted) {
        const view = LegacySession.attach(this.shared, factory(recorder) as HttpTransport, { timeoutMs: this.timeoutMs, signal: stop.signal });
        opened.push(view);
        return view;
      }
      const session = await openSession(factory, { specVersion: this.version, timeoutMs: this.timeoutMs, recorder, skipInitialized, signal: stop.signal, capabilities: s.legacyCapabilities, standaloneStream: s.legacyStandaloneStream });
      opened.push(session);
      this.exchanges.push(session.handshake);
      return session;
    };
    try {
      if (s.sessionless) return await this.runSessionless(s, recorder, stop.signal);
      const session = await open(s.skipInitialized);
      const ctx = this.context(s, session, open, recorder, stop, opened);
      ctx.whenAsked = (h) => void (hook = h);
      const observed = await s.run(ctx);
      if (await diedDuring()) return { aborted: SERVER_DIED };
      if (this.httpHung.signal.aborted || isHang(stop.signal)) return { aborted: 'the target stopped answering (see the hang finding)' };
      if (stop.signal.aborted) return { aborted: runSignalText(stop.signal) };
      return { observed };
    } catch (e) {
      if (e instanceof HandshakeError || e instanceof TargetStartError) {
        if (await diedDuring(e instanceof TargetStartError || e.kind === 'crash')) return { aborted: SERVER_DIED };
        const kind = e instanceof HandshakeError ? e.kind : 'crash';
        if (stop.signal.aborted && !this.httpHung.signal.aborted) return { aborted: runSignalText(stop.signal) };
        this.addFinding({
          kind: kind === 'refused' ? 'precondition' : kind,
          scenario: s.id,
          message: `the target could not be started or initialized for this scenario: ${e.message}`,
          stderrTail: e instanceof HandshakeError ? e.stderrTail?.slice(-2000) : undefined,
        });
        return { aborted: e.message };
      }
      throw e;
    } finally {
      runSignal.removeEventListener('abort', onRun);
      this.httpHung.signal.removeEventListener('abort', onHung);
      life?.removeEventListener('abort', onDeath);
      await Promise.all(opened.map((o) => o.close().catch(() => undefined)));
      this.noteCrashes();
    }
  }

  private readonly deliberate = (ex: Exchange): boolean => this.deliberateSet.has(ex);

  /** A scenario that opens no MCP session: plain HTTP to the endpoint (authorization). */
  private async runSessionless(s: Scenario, recorder: Recorder, signal: AbortSignal): Promise<ScenarioOutcome> {
    if (this.spec.kind !== 'http') return { harness: `scenario ${s.id} needs an HTTP target` };
    const { headers = {} } = this.spec;
    const endpoint = this.endpoint;
    const ctx: EndpointScenarioContext = {
      endpoint,
      version: this.version,
      options: { ...this.forScenarios, httpModern: isModernVersion(this.version) },
      targetHeaderNames: Object.keys(headers),
      signal,
      http: (req) => plainHttp(req, { endpoint, targetHeaders: headers, timeoutMs: this.timeoutMs, recorder, signal }),
    };
    const observed = await s.run(ctx);
    if (signal.aborted) return { aborted: runSignalText(signal) };
    return { observed };
  }

  observations(): RunObservations {
    return { exchanges: this.exchanges, events: this.recorder.events(), version: this.version, transport: this.transport, deliberate: this.deliberate };
  }

  /** Loads the outbound check and the version's validators (and their formats) and runs them once. */
  async warmUp(): Promise<void> {
    const { outboundProblems } = await import('./outbound-check.js');
    outboundProblems([...this.exchanges], this.deliberate, this.version);
  }

  async afterScenarios(signal: AbortSignal): Promise<void> {
    await this.endShared();
    // Streams still open after their answer end within a request timeout of it, or now if the run ends.
    await this.backgroundReads.settled(signal);
    this.noteCrashes(true);
    const { outboundProblems } = await import('./outbound-check.js');
    for (const problem of outboundProblems(this.exchanges, this.deliberate, this.version)) this.addFinding({ kind: 'harness', message: problem });
  }

  findings(): Finding[] {
    return this.found;
  }

  recording(): Recording {
    return this.recorder;
  }

  /** The output of the server mcpspec started for the run (undefined when it started none). */
  serverOutput(): string | undefined {
    return this.server?.printed();
  }

  /** The server mcpspec started exited on its own, before the run ended. */
  serverDied(): boolean {
    return this.server?.died === true;
  }

  async close(): Promise<void> {
    this.backgroundReads.endAll();
    await this.endShared(); // a run cut short never reached afterScenarios
    await this.server?.stop();
    this.sandbox?.dispose();
  }

  // --- internals -----------------------------------------------------------------------------

  private async endShared(): Promise<void> {
    const shared = this.shared;
    this.shared = undefined;
    await shared?.close().catch(() => undefined);
  }

  private scenarioRecorder(source: string): Recorder {
    // Each scenario keeps its own log (scenarios run at once); the run log gets tagged copies.
    return new Recorder({ parent: this.recorder, source });
  }

  private addFinding(f: Finding): void {
    if (f.kind === 'harness' && this.found.some((x) => x.kind === 'harness' && x.message === f.message)) return;
    this.found.push(f);
  }

  /** Crashes seen anywhere in the run log (a scenario may have restarted the target and gone on). */
  private crashSeqs = new Set<number>();
  private noteCrashes(final = false): void {
    // The same deaths robustness.stays-up judges (a clean exit is not a crash).
    for (const e of unexpectedExits(this.recorder.events())) {
      if (this.crashSeqs.has(e.seq) || !e.data) continue;
      if (this.server && e.data.exitCode === undefined) {
        // A lost connection to a started server waits for the end of the run: if that server's death
        // broke it (the scenario was cut short by it), the death is the crash, reported once.
        if (!final) continue;
        if (e.source !== undefined && this.cutByDeath.has(e.source)) {
          this.crashSeqs.add(e.seq);
          continue;
        }
      }
      this.crashSeqs.add(e.seq);
      const how = `the target ${describeExit(e)}`;
      // One finding per scenario and way of dying, with a count: a property that keeps crashing the
      // target while shrinking is one crash, seen many times.
      const same = this.found.find((f) => f.kind === 'crash' && f.scenario === e.source && f.message === how);
      if (same) {
        same.data = { ...same.data, count: Number(same.data?.count ?? 1) + 1 };
        continue;
      }
      const f: Finding = { kind: 'crash', scenario: e.source, message: how, data: { count: 1 } };
      if (typeof e.data.lastSent === 'string') f.lastSent = e.data.lastSent.slice(0, LAST_SENT_CHARS);
      if (typeof e.data.stderrTail === 'string') f.stderrTail = e.data.stderrTail.slice(-2000);
      this.found.push(f);
    }
  }

  /**
   * After a request went unanswered for its whole timeout: is the target alive? A fence request (or
   * one for an unknown method, sent beside it) answered means it only ignored that one message (the
   * check judges that); both unanswered means the target hung: said once, and on stdio the connection is dropped (the next
   * scenario starts a fresh process); on HTTP the run's remaining waits end at once.
   */
  private async afterSilence(s: Scenario, session: BaseSession, ex: Exchange, stop: AbortController): Promise<void> {
    if (stop.signal.aborted) return;
    const [fence, other] = await session.liveness();
    this.exchanges.push(fence, other);
    if ([fence, other].some((f) => f.response !== undefined || f.closed || f.aborted)) return;
    const lastSent = typeof ex.request === 'string' ? ex.request : JSON.stringify(ex.request);
    if (!this.hangDeclared) {
      this.hangDeclared = true;
      this.addFinding({
        kind: 'hang',
        scenario: s.id,
        message: `the target stopped answering: neither ${ex.method ?? 'a message'} nor a ${fence.method} sent after it were answered within the ${ex.timeoutMs} ms timeout`,
        lastSent: lastSent?.slice(0, LAST_SENT_CHARS),
      });
    }
    if (this.transport === 'http') this.httpHung.abort(new Error('hang'));
    else stop.abort(new Error('hang'));
  }

  private noteSlow(ex: Exchange): void {
    if (this.slowNoted || ex.response === undefined || ex.elapsedMs < ex.timeoutMs / 2) return;
    this.slowNoted = true;
    this.addFinding({ kind: 'slow', message: `the target took ${Math.round(ex.elapsedMs)} ms to answer ${ex.method ?? 'a message'} (timeout ${ex.timeoutMs} ms); answers within the timeout are judged like fast ones` });
  }

  private context(
    s: Scenario,
    first: BaseSession,
    open: (skipInitialized?: boolean) => Promise<BaseSession>,
    recorder: Recorder,
    stop: AbortController,
    opened: { close(): Promise<unknown> }[],
  ): ScenarioContext {
    const keep = async (session: BaseSession, p: Promise<Exchange>): Promise<Exchange> => {
      const ex = await p;
      this.exchanges.push(ex);
      this.noteSlow(ex);
      if (ex.timedOut && ex.response === undefined && !ex.closed) await this.afterSilence(s, session, ex, stop);
      return ex;
    };
    const instrument = (session: BaseSession): Session =>
      new Proxy(session, {
        get: (target, prop, receiver) => {
          if (prop === 'request' || prop === 'notify' || prop === 'probe') {
            const fn = Reflect.get(target, prop, receiver) as (...a: unknown[]) => Promise<Exchange>;
            return (...args: unknown[]) => keep(target, fn.apply(target, args));
          }
          const v = Reflect.get(target, prop, receiver);
          return typeof v === 'function' ? v.bind(target) : v;
        },
      });
    const markDeliberate = async <T extends Exchange>(p: Promise<T>): Promise<T> => {
      const ex = await p;
      this.deliberateSet.add(ex);
      return ex;
    };
    let current = first;
    const lanes = new LanePool({
      first,
      open: () => open(),
      maxLanes: this.maxLanes,
      spawnAfterMs: 250,
    });
    const ctx: ScenarioContext = {
      session: instrument(first),
      version: this.version,
      options: { ...this.forScenarios, httpModern: this.transport === 'http' && isModernVersion(this.version) },
      signal: stop.signal,
      reopen: async () => {
        await current.close().catch(() => undefined);
        current = await open();
        ctx.session = instrument(current);
        return ctx.session;
      },
      openRaw: async (): Promise<RawConnection> => {
        const transport: Transport = this.factory(recorder);
        opened.push(transport);
        await transport.open();
        // Messages to a freshly started process wait for the process to start too: until the first
        // exchange on it ends, they get the same start-up allowance as a handshake (a loaded machine
        // can take seconds).
        let fresh = transport.kind === 'stdio';
        return {
          kind: transport.kind,
          send: (body, o) => {
            const startedAt = Date.now();
            const plain = o.timeoutMs ?? this.timeoutMs;
            const timeoutMs = fresh ? Math.max(plain, Math.min(STARTUP_ALLOWANCE_MS, STARTUP_FACTOR * plain)) : plain;
            const obj = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
            return transport.exchange(body, { expectId: o.expectId, idless: o.idless, timeoutMs, headers: o.headers, httpMethod: o.httpMethod, signal: stop.signal }).then((r) => {
              fresh = false;
              const ex: Exchange = { ...r, request: body, startedAt, timeoutMs, method: typeof obj.method === 'string' ? obj.method : undefined };
              if (typeof obj.id === 'string' || typeof obj.id === 'number') ex.id = obj.id;
              this.exchanges.push(ex);
              this.deliberateSet.add(ex);
              return ex;
            });
          },
        };
      },
      probe: (body: unknown, o: ProbeOptions = {}) => markDeliberate(keep(first, this.transport === 'stdio' && o.idless ? lanes.probe(body, o) : first.probe(body, o))),
      deliberate: markDeliberate,
    };
    // Extra lanes are closed with the scenario's other sessions: open() registered them.
    return ctx;
  }
}

function isHang(signal: AbortSignal): boolean {
  return signal.aborted && signal.reason instanceof Error && signal.reason.message === 'hang';
}

function runSignalText(signal: AbortSignal): string {
  const reason = signal.reason instanceof Error ? signal.reason.message : '';
  return reason === 'interrupted' ? 'the run was interrupted' : reason === 'hang' ? 'the target stopped answering' : 'the overall deadline passed';
}
