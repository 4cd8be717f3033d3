// An HTTP server mcpspec starts itself (`--url <endpoint> --start -- <command>`): started in the
// target's sandbox, counted as up once the endpoint's port accepts connections, and stopped with
// whatever it spawned (SIGTERM, then SIGKILL after a grace period). The reaper kills it if mcpspec
// itself ends first. What it prints (stdout and stderr) is kept, bounded, to explain a failure.
// A `{port}` in the URL, the command or its environment becomes one free port per start.
// Fuzz starts one per sequence (started-http.ts); `mcpspec server` one per run (server-driver.ts).

import { spawn, type ChildProcess } from 'node:child_process';
import { createConnection, createServer } from 'node:net';
import type { CloseInfo } from '../results/wire.js';
import { listDescendants, registerLive, signalAll, isAlive } from './reaper.js';
import type { Recorder } from './recorder.js';
import { TailBuffer } from './tail-buffer.js';
import { TargetStartError } from './transport.js';

export interface StartCommand {
  command: string;
  args: string[];
}

export interface StartedServerOptions {
  /** Working directory and environment of the started process (the target's sandbox). */
  cwd?: string;
  env?: Record<string, string>;
  /** How long the started process may take to accept connections. */
  startTimeoutMs: number;
  /** After a signal, how long to wait before escalating (SIGTERM, then SIGKILL). */
  killGraceMs?: number;
  /** Where its output goes (default: a buffer of its own); a server restarted in one run keeps one log. */
  output?: TailBuffer;
}

/** Why a started server never came up; `tail` is the end of what it printed, when that explains it. */
export class ServerStartError extends TargetStartError {
  constructor(
    message: string,
    code: string | undefined,
    readonly tail?: string,
  ) {
    super(message, code);
  }
}

export const PORT_PLACEHOLDER = '{port}';

/** The start command and URL use a `{port}` placeholder: every start gets its own free port. */
export function usesPortPlaceholder(url: string, start: StartCommand): boolean {
  return url.includes(PORT_PLACEHOLDER) || start.command.includes(PORT_PLACEHOLDER) || start.args.some((a) => a.includes(PORT_PLACEHOLDER));
}

/** A URL that parses, with the placeholder standing for some port (for validation only). */
export function urlForValidation(url: string): string {
  return url.split(PORT_PLACEHOLDER).join('1');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function canConnect(host: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    let settled = false;
    const done = (ok: boolean) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

function hostPort(url: string): { host: string; port: number } {
  const u = new URL(url);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const port = u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
  return { host, port };
}

/** Whether `p` settles within `ms` (never rejects). */
export function settledWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  let t: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((r) => {
    t = setTimeout(() => r(false), ms);
  });
  return Promise.race([p.then(() => true as const), timeout]).finally(() => clearTimeout(t));
}

/** Resolves when `signal` aborts (never, without one). */
function abortedPromise(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (!signal) return;
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

const POLL_MS = 50;
/** The end of the output a start error quotes (the whole bounded tail stays readable through printed()). */
const ERROR_TAIL_CHARS = 2000;

export class StartedServer {
  private child?: ChildProcess;
  private readonly output: TailBuffer;
  private exitInfo?: CloseInfo;
  /** Resolves once the process has exited (or could not be spawned). */
  readonly exited: Promise<void>;
  private markExited!: () => void;
  private stopping = false;
  /** stop() was called: a launch still on its way must not spawn anything. */
  private stopRequested = false;
  private unregister?: () => void;
  private readonly descendants = new Set<number>();
  private served: string;
  /** Called once when the process exits without mcpspec stopping it. */
  onDeath?: (info: CloseInfo) => void;

  constructor(
    private readonly urlTemplate: string,
    private readonly start: StartCommand,
    private readonly recorder: Recorder,
    private readonly opts: StartedServerOptions,
  ) {
    this.served = urlTemplate;
    this.output = opts.output ?? new TailBuffer();
    this.exited = new Promise((r) => {
      this.markExited = r;
    });
  }

  /** The URL it serves (`{port}` filled in once launched). */
  get url(): string {
    return this.served;
  }

  /** The process id (undefined before launch, or when it could not be spawned). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** A process was spawned (it may have failed or exited since). */
  get spawned(): boolean {
    return this.child !== undefined;
  }

  /** How it exited, once it has (whoever ended it). */
  get exit(): CloseInfo | undefined {
    return this.exitInfo;
  }

  /** How it exited, if it did so without mcpspec stopping it. */
  get died(): CloseInfo | undefined {
    return this.exitInfo && !this.stopping ? this.exitInfo : undefined;
  }

  /** What it printed, stdout and stderr as they came (the last 64 KiB). */
  printed(): string {
    return this.output.toString();
  }

  /** The command line, for messages. */
  describe(): string {
    return `"${[this.start.command, ...this.start.args].join(' ')}"`;
  }

  /**
   * Start the command and wait until the URL's port accepts connections; resolves to the URL served.
   * A process that cannot be spawned, exits first, or does not listen within the start timeout is
   * stopped and a ServerStartError says which; so is the wait, when `signal` aborts it.
   */
  async launch(signal?: AbortSignal): Promise<string> {
    let url = this.urlTemplate;
    let { command, args } = this.start;
    let env = this.opts.env ?? { PATH: process.env.PATH ?? '' };
    if (usesPortPlaceholder(url, this.start)) {
      const port = String(await freePort());
      const fill = (s: string) => s.split(PORT_PLACEHOLDER).join(port);
      url = fill(url);
      command = fill(command);
      args = args.map(fill);
      // `--env PORT={port}`: servers that take their port from the environment.
      env = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, fill(v)]));
    }
    this.served = url;
    const { host, port } = hostPort(url);
    const describe = `"${[command, ...args].join(' ')}"`;
    // Something else answering on a fixed port would be tested instead of the started server.
    if (await canConnect(host, port, 1000)) throw new ServerStartError(`cannot start ${describe}: ${host}:${port} already accepts connections before it was started (another server is listening there)`, 'EADDRINUSE');
    if (this.stopRequested) throw new ServerStartError(`${describe} was stopped before it started`, 'EINTR');
    const child = spawn(command, args, { cwd: this.opts.cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: false, windowsHide: true });
    this.child = child;
    child.stdin?.on('error', () => undefined);
    child.stdout?.setEncoding('utf8').on('data', (c: string) => this.output.push(c));
    child.stderr?.setEncoding('utf8').on('data', (c: string) => this.output.push(c));
    const spawnError = new Promise<Error>((resolve) => child.once('error', resolve));
    child.once('exit', (code, sig) => {
      this.exitInfo = { exitCode: code, signal: sig, stderrTail: this.output.toString() };
      this.recorder.record({
        dir: 'note',
        channel: 'http',
        kind: 'process-exit',
        raw: this.stopping ? `started server exited (code ${code}, signal ${sig}) after mcpspec stopped it` : `started server exited unexpectedly (code ${code}, signal ${sig})`,
        data: this.stopping ? { exitCode: code, signal: sig, expected: true, pid: child.pid } : { exitCode: code, signal: sig, expected: false, pid: child.pid, stderrTail: this.output.toString().slice(-ERROR_TAIL_CHARS) },
      });
      this.markExited();
      if (!this.stopping) this.onDeath?.(this.exitInfo);
    });
    child.once('error', () => this.markExited());
    this.unregister = registerLive({ killNow: () => this.killNow() });
    this.recorder.note('http', 'process-start', `started pid ${child.pid}: ${[command, ...args].join(' ')} (serving ${url})`, { pid: child.pid, command, args, url });

    const deadline = Date.now() + this.opts.startTimeoutMs;
    const interrupted = abortedPromise(signal);
    const tail = () => this.output.toString().slice(-ERROR_TAIL_CHARS);
    for (;;) {
      const failed = await Promise.race([spawnError, settledWithin(this.exited, 0).then(() => undefined)]);
      if (failed instanceof Error) {
        const code = (failed as NodeJS.ErrnoException).code;
        await this.stop();
        throw new ServerStartError(`cannot start ${describe}: ${code === 'ENOENT' ? 'command not found' : failed.message}`, code);
      }
      if (this.exitInfo) {
        await this.stop();
        throw new ServerStartError(`${describe} exited (code ${this.exitInfo.exitCode}, signal ${this.exitInfo.signal}) before accepting connections on ${host}:${port}`, undefined, tail());
      }
      if (signal?.aborted) {
        await this.stop();
        throw new ServerStartError(`interrupted while waiting for ${describe} to accept connections on ${host}:${port}`, 'EINTR', tail());
      }
      if (await canConnect(host, port, 1000)) {
        // Known now, while it runs: a wrapper (npm start, a shell) that dies first would leave them to init.
        for (const d of listDescendants(child.pid ?? -1)) this.descendants.add(d);
        return url;
      }
      if (Date.now() >= deadline) {
        await this.stop();
        throw new ServerStartError(`${describe} did not accept connections on ${host}:${port} within ${this.opts.startTimeoutMs} ms`, 'ETIMEDOUT', tail());
      }
      await Promise.race([settledWithin(this.exited, POLL_MS), interrupted]);
    }
  }

  /** Stop it and everything it spawned: SIGTERM, then SIGKILL after the grace period. Idempotent. */
  async stop(): Promise<void> {
    this.stopRequested = true;
    const child = this.child;
    if (!child || child.pid === undefined) {
      this.unregister?.();
      return;
    }
    if (!this.exitInfo) {
      this.stopping = true;
      for (const d of listDescendants(child.pid)) this.descendants.add(d);
      child.stdin?.end();
      child.kill('SIGTERM');
      signalAll([...this.descendants], 'SIGTERM');
      const grace = this.opts.killGraceMs ?? 2000;
      if (!(await settledWithin(this.exited, grace))) {
        this.killNow();
        await settledWithin(this.exited, 2000);
      }
    }
    const left = [...this.descendants].filter(isAlive);
    if (left.length) signalAll(left, 'SIGKILL');
    this.unregister?.();
  }

  /** Synchronous last resort (exit and signal handlers): SIGKILL it and its whole tree. */
  killNow(): void {
    const child = this.child;
    if (!child || child.pid === undefined) return;
    if (this.exitInfo) {
      signalAll([...this.descendants].filter(isAlive), 'SIGKILL');
      return;
    }
    // mcpspec ends it: its exit is not the target's doing.
    this.stopping = true;
    for (const d of listDescendants(child.pid)) this.descendants.add(d);
    signalAll([child.pid, ...this.descendants], 'SIGKILL');
  }
}
