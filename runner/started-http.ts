// An HTTP target that mcpspec starts itself (`--start -- <cmd>`): every transport starts the command
// afresh, waits until the endpoint's port accepts connections, speaks Streamable HTTP to it, and
// stops the process (and whatever it spawned) on close. Fuzz sequences and their shrink candidates
// each get a fresh server this way, as stdio targets do. A `{port}` in the URL and the command is
// replaced by a free port per start, so several servers can run at once; without it the URL's port
// is fixed and starts must not overlap (the caller runs one at a time).

import { spawn, type ChildProcess } from 'node:child_process';
import { createConnection, createServer } from 'node:net';
import type { CloseInfo } from '../results/wire.js';
import { HttpTransport, type HttpTarget, type HttpTransportOptions } from './http-transport.js';
import { listDescendants, registerLive, signalAll, isAlive } from './reaper.js';
import type { Recorder } from './recorder.js';
import { TailBuffer } from './tail-buffer.js';
import type { ExchangeOptions, ExchangeResult } from './transport.js';
import { TargetStartError } from './transport.js';

export interface StartCommand {
  command: string;
  args: string[];
}

export interface StartedHttpOptions extends HttpTransportOptions {
  /** Working directory and environment of the started process (the fuzz sandbox). */
  cwd?: string;
  env?: Record<string, string>;
  /** How long the started process may take to accept connections. */
  startTimeoutMs: number;
  /** After a signal, how long to wait before escalating (SIGTERM, then SIGKILL). */
  killGraceMs?: number;
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

function settledWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  let t: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((r) => {
    t = setTimeout(() => r(false), ms);
  });
  return Promise.race([p.then(() => true as const), timeout]).finally(() => clearTimeout(t));
}

const POLL_MS = 50;

export class StartedHttpTransport extends HttpTransport {
  private child?: ChildProcess;
  private readonly output = new TailBuffer();
  private exitInfo?: CloseInfo;
  private exited!: Promise<void>;
  private markExited!: () => void;
  private stopping = false;
  private unregister?: () => void;
  private readonly descendants = new Set<number>();
  private opening?: Promise<void>;

  constructor(
    private readonly urlTemplate: string,
    headers: Record<string, string> | undefined,
    private readonly start: StartCommand,
    recorder: Recorder,
    private readonly startOpts: StartedHttpOptions,
  ) {
    super({ url: urlTemplate, headers }, recorder, startOpts);
    this.exited = new Promise((r) => {
      this.markExited = r;
    });
  }

  /** The started process died: how (with its last output). */
  override get closed(): CloseInfo | undefined {
    return this.exitInfo ?? super.closed;
  }

  /** The process id of the started server (undefined before open). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  override open(): Promise<void> {
    this.opening ??= this.launch();
    return this.opening;
  }

  private async launch(): Promise<void> {
    let url = this.urlTemplate;
    let { command, args } = this.start;
    if (usesPortPlaceholder(url, this.start)) {
      const port = String(await freePort());
      const fill = (s: string) => s.split(PORT_PLACEHOLDER).join(port);
      url = fill(url);
      command = fill(command);
      args = args.map(fill);
    }
    (this.target as HttpTarget).url = url;
    const { host, port } = hostPort(url);
    // Something else answering on a fixed port would be fuzzed instead of the started server.
    if (await canConnect(host, port, 1000)) throw new TargetStartError(`cannot start "${[command, ...args].join(' ')}": ${host}:${port} already accepts connections before it was started (another server is listening there)`, 'EADDRINUSE');
    const child = spawn(command, args, { cwd: this.startOpts.cwd, env: this.startOpts.env ?? { PATH: process.env.PATH ?? '' }, stdio: ['pipe', 'pipe', 'pipe'], detached: false, windowsHide: true });
    this.child = child;
    child.stdin?.on('error', () => undefined);
    child.stdout?.setEncoding('utf8').on('data', (c: string) => this.output.push(c));
    child.stderr?.setEncoding('utf8').on('data', (c: string) => this.output.push(c));
    const spawnError = new Promise<Error>((resolve) => child.once('error', resolve));
    child.once('exit', (code, signal) => {
      this.exitInfo = { exitCode: code, signal, stderrTail: this.output.toString() };
      this.recorder.record({
        dir: 'note',
        channel: 'http',
        kind: 'process-exit',
        raw: this.stopping ? `started server exited (code ${code}, signal ${signal}) after mcpspec stopped it` : `started server exited unexpectedly (code ${code}, signal ${signal})`,
        data: this.stopping ? { exitCode: code, signal, expected: true, pid: child.pid } : { exitCode: code, signal, expected: false, pid: child.pid, stderrTail: this.output.toString().slice(-2000) },
      });
      this.markExited();
    });
    child.once('error', () => this.markExited());
    this.unregister = registerLive({ killNow: () => this.killNow() });
    this.recorder.note('http', 'process-start', `started pid ${child.pid}: ${[command, ...args].join(' ')} (serving ${url})`, { pid: child.pid, command, args, url });

    const deadline = Date.now() + this.startOpts.startTimeoutMs;
    const describe = () => `"${[command, ...args].join(' ')}"`;
    for (;;) {
      const failed = await Promise.race([spawnError, settledWithin(this.exited, 0).then(() => undefined)]);
      if (failed instanceof Error) {
        const code = (failed as NodeJS.ErrnoException).code;
        await this.stop();
        throw new TargetStartError(`cannot start ${describe()}: ${code === 'ENOENT' ? 'command not found' : failed.message}`, code);
      }
      if (this.exitInfo) {
        await this.stop();
        throw new TargetStartError(`${describe()} exited (code ${this.exitInfo.exitCode}, signal ${this.exitInfo.signal}) before accepting connections on ${host}:${port}\n${this.output.toString().slice(-2000)}`);
      }
      if (await canConnect(host, port, 1000)) return;
      if (Date.now() >= deadline) {
        await this.stop();
        throw new TargetStartError(`${describe()} did not accept connections on ${host}:${port} within ${this.startOpts.startTimeoutMs} ms\n${this.output.toString().slice(-2000)}`, 'ETIMEDOUT');
      }
      await settledWithin(this.exited, POLL_MS);
    }
  }

  override async exchange(body: unknown, opts: ExchangeOptions): Promise<ExchangeResult> {
    const r = await super.exchange(body, opts);
    if (r.closed || (r.streamBroken && r.response === undefined)) {
      // The connection broke: if the process is exiting, say how (the exit may trail the reset a little).
      await settledWithin(this.exited, 1000);
      if (this.exitInfo && !this.stopping) return { ...r, closed: this.exitInfo };
    } else if (this.exitInfo && !this.stopping) {
      return { ...r, closed: this.exitInfo };
    }
    return r;
  }

  override async close(): Promise<CloseInfo | undefined> {
    const died = this.exitInfo && !this.stopping ? this.exitInfo : undefined;
    if (!died && this.child) await super.close();
    await this.stop();
    return died ?? super.closed;
  }

  private async stop(): Promise<void> {
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
      const grace = this.startOpts.killGraceMs ?? 2000;
      if (!(await settledWithin(this.exited, grace))) {
        this.killNow();
        await settledWithin(this.exited, 2000);
      }
    }
    const left = [...this.descendants].filter(isAlive);
    if (left.length) signalAll(left, 'SIGKILL');
    this.unregister?.();
  }

  private killNow(): void {
    const child = this.child;
    if (!child || child.pid === undefined) return;
    if (this.exitInfo) {
      signalAll([...this.descendants].filter(isAlive), 'SIGKILL');
      return;
    }
    for (const d of listDescendants(child.pid)) this.descendants.add(d);
    signalAll([child.pid, ...this.descendants], 'SIGKILL');
  }
}
