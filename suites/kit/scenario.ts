// A scenario: a scripted interaction with the peer under test whose observations checks judge.
// Scenarios touch only the ports (suites/ports/); checks are pure functions of the observations.

import type { Role, TransportKind } from '../../results/check-record.js';
import type { SpecVersion } from '../../protocol/versions.js';
import type { ClientExit, ScriptedServer } from '../ports/scripted-server.js';
import type { Exchange, ProbeOptions, RawConnection, Session } from '../ports/session.js';
import type { PlainHttpRequest, PlainHttpResponse } from '../ports/plain-http.js';

/** What the user allows mcpspec to do to the target (--allow-destructive, --allow-open-world): scenarios ask before they call a tool. */
export interface SafetyOptions {
  /** Call tools whose annotations do not say read-only / non-destructive. */
  allowDestructive: boolean;
  /** Call tools marked openWorldHint: true (they reach outside the machine). */
  allowOpenWorld: boolean;
}

/** How long one wait may last (--timeout, --tool-timeout): sessions, drivers and scenarios wait by it. */
export interface TimingOptions {
  /** Per-request timeout: silence is a verdict only after it. */
  timeoutMs: number;
  /** Timeout for one generated tool call (default: the request timeout). */
  toolTimeoutMs?: number;
}

/** Generated inputs (--seed, --runs). */
export interface GenerationOptions {
  seed: number;
  /** Generated cases per property (tool arguments, near-valid requests). */
  runs: number;
}

/** What scenarios read (ctx.options): the run's safety, timing and generation options, and one fact of the run. */
export interface RunOptions extends SafetyOptions, TimingOptions, GenerationOptions {
  /** The run speaks 2026-07-28 over HTTP: a tool whose x-mcp-header declarations are invalid is not called (HM-10). */
  httpModern?: boolean;
}

// Each group taken field by field from a wider object (a report's options, the flat API options),
// so nothing else rides along with it.

export function safetyOf(o: SafetyOptions): SafetyOptions {
  return { allowDestructive: o.allowDestructive, allowOpenWorld: o.allowOpenWorld };
}

export function timingOf(o: TimingOptions): TimingOptions {
  return o.toolTimeoutMs === undefined ? { timeoutMs: o.timeoutMs } : { timeoutMs: o.timeoutMs, toolTimeoutMs: o.toolTimeoutMs };
}

export function generationOf(o: GenerationOptions): GenerationOptions {
  return { seed: o.seed, runs: o.runs };
}

/** The options a scenario reads, put together from their groups. */
export function scenarioOptions(safety: SafetyOptions, timing: TimingOptions, generation: GenerationOptions): RunOptions {
  return { ...safetyOf(safety), ...timingOf(timing), ...generationOf(generation) };
}

export interface AskedHook {
  before?(req: { id: string | number; method: string; params?: unknown }): Promise<void>;
  after?(req: { id: string | number; method: string; params?: unknown }): void;
}

/** What a server-role scenario gets: a fresh session on a freshly started target, and the run options. */
export interface ScenarioContext {
  session: Session;
  /** The version the run is judged by. */
  version: SpecVersion;
  options: RunOptions;
  /** Close the session and start the target again (a scenario that crashed it goes on). */
  reopen(): Promise<Session>;
  /** A fresh connection with no handshake at all, for first-message tests; closed by the engine. */
  openRaw(): Promise<RawConnection>;
  /**
   * Send a deliberately malformed or unusual message. Probes run in parallel; a probe whose answer
   * may lack an id (`idless`) shares its connection with no other such probe, so an id-less answer
   * is attributed to it alone (stdio opens extra connections when all are busy).
   */
  probe(body: unknown, opts?: ProbeOptions): Promise<Exchange>;
  /**
   * While set, `before` runs before mcpspec answers each request the server sends its client (legacy
   * sessions of this scenario) and `after` once that answer has been written; `undefined` clears it.
   * Absent where no server requests are answered.
   */
  whenAsked?(hook: AskedHook | undefined): void;
  /** Mark a request as deliberately invalid, so mcpspec's outbound check does not flag it. */
  deliberate<T extends Exchange>(ex: Promise<T>): Promise<T>;
  /** Ends when the run is interrupted or reaches its deadline. */
  readonly signal: AbortSignal;
}

/**
 * What a sessionless scenario gets (server role, HTTP): no MCP session is opened, so it runs even
 * when the server refuses mcpspec one (a server that requires authorization mcpspec has no token for).
 */
export interface EndpointScenarioContext {
  /** The MCP endpoint under test. */
  endpoint: string;
  version: SpecVersion;
  options: RunOptions;
  /** The names of the headers the user gave the target (`--header`), e.g. Authorization. */
  targetHeaderNames: string[];
  /** One plain HTTP request, with the request timeout; recorded, never judged as JSON-RPC. */
  http(req: PlainHttpRequest): Promise<PlainHttpResponse>;
  readonly signal: AbortSignal;
}

/**
 * What a client-role scenario gets: mcpspec plays a scripted server, starts the client under test
 * against it, and observes what the client sends.
 */
export interface ClientScenarioContext {
  server: ScriptedServer;
  version: SpecVersion;
  options: RunOptions;
  readonly signal: AbortSignal;
  /** How the client ran against the plain scripted server at the start (a baseline to compare with). */
  plain?: PlainRun;
}

/** The client's run against the plain (dual-era, JSON-answering) scripted server. */
export interface PlainRun {
  exit: ClientExit;
  /** The methods of the messages it sent, in order. */
  methods: string[];
}

export interface Scenario<O = any, C = any> {
  id: string;
  title: string;
  role: Role;
  versions: SpecVersion[];
  transports?: TransportKind[];
  /** Legacy sessions that must not send `notifications/initialized` yet. */
  skipInitialized?: boolean;
  /**
   * Legacy sessions offer these client capabilities in initialize (default none); mcpspec then
   * answers the server's requests for them with generated results.
   */
  legacyCapabilities?: Record<string, unknown>;
  /** Legacy HTTP sessions open the standalone GET stream (HL-05) as SDK clients do, before `notifications/initialized`. */
  legacyStandaloneStream?: boolean;
  /**
   * Only reads, offers no client capabilities and judges no handshake of its own: where sessions
   * can be shared (legacy over HTTP) it runs on the run's first session beside other such scenarios,
   * which spares the target a session (initialize, initialized, DELETE) per scenario.
   */
  sharesSession?: boolean;
  /** Client role, stdio: the scripted server writes log lines to its stderr, as many servers do (IO-03). */
  serverStderr?: boolean;
  /**
   * Client role: the client gets a browser that approves at once (BROWSER and xdg-open-like names
   * on its PATH, runner/headless-browser.ts), for clients that authorize by opening a URL.
   */
  headlessBrowser?: boolean;
  /**
   * Server role, HTTP: the scenario opens no MCP session; it gets an EndpointScenarioContext and
   * speaks plain HTTP to the endpoint (and to the documents it names).
   */
  sessionless?: boolean;
  /**
   * Sessionless, but it needs the endpoint to serve mcpspec: where mcpspec has no credentials for a
   * server that requires them (a limited run), it is skipped like the scenarios that open a session.
   */
  needsAccess?: boolean;
  /**
   * Longer scenarios start first so they overlap the rest; 'first' before those (a scenario that waits
   * out a quiet period or the server's own tasks, longer than any other's work).
   */
  startEarly?: boolean | 'first';
  run(ctx: C): Promise<O>;
}

/** A scenario where mcpspec is the client of the server under test. */
export function scenario<O>(s: Omit<Scenario<O, ScenarioContext>, 'role'>): Scenario<O, ScenarioContext> {
  return { ...s, role: 'server' };
}

/** A server-role scenario that opens no MCP session: plain HTTP to the endpoint under test. */
export function endpointScenario<O>(s: Omit<Scenario<O, EndpointScenarioContext>, 'role' | 'sessionless' | 'transports'>): Scenario<O, EndpointScenarioContext> {
  return { ...s, role: 'server', sessionless: true, transports: ['http'] };
}

/** A scenario where mcpspec plays the server of the client under test. */
export function clientScenario<O>(s: Omit<Scenario<O, ClientScenarioContext>, 'role'>): Scenario<O, ClientScenarioContext> {
  return { ...s, role: 'client' };
}
