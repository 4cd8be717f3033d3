// stdio transport (IO26 / TR25): the target is a child process speaking newline-delimited JSON-RPC
// on stdin/stdout. Everything on stdout that is not one JSON-RPC message per line is recorded as
// noise (IO-02) so a check can flag it; stderr is kept as a bounded tail for crash reports (IO-03).

import { existsSync } from 'node:fs';
import type { ResultPromise } from 'execa';
import { idMatch, isJsonRpcMessage, isRequest, isResponse, responseId, serializeBody, tryParseJson, type RequestId } from '../protocol/jsonrpc.js';
import type { CloseInfo } from '../results/wire.js';
import type { InputEnd } from '../suites/ports/session.js';
import { LineSplitter, MAX_LINE_CHARS } from './line-splitter.js';
import { Recorder } from './recorder.js';
import { isAlive, listDescendants, registerLive, signalAll } from './reaper.js';
import { replyToServerRequest } from './server-request-reply.js';
import { TailBuffer } from './tail-buffer.js';
import { TargetStartError, type ExchangeOptions, type ExchangeResult, type ServerRequest, type Transport } from './transport.js';

export interface StdioTarget {
  command: string;
  args: string[];
  cwd?: string;
  /** The target's whole environment (see target-env.ts); mcpspec's own is not inherited. */
  env?: Record<string, string>;
}

export interface StdioTransportOptions {
  /** After closing stdin, how long the target gets to exit on its own (IO-05). Default 2000 ms. */
  closeGraceMs?: number;
  /** After SIGTERM, how long before SIGKILL. Default 2000 ms. */
  killGraceMs?: number;
  /**
   * Deliver a message that arrived pretty-printed over several lines as if it were valid. Off by
   * default: a strict client cannot read it, and the `multi-line-message` note records it either way.
   */
  acceptMultiLine?: boolean;
  maxLineChars?: number;
}

interface Pending {
  expectId?: RequestId;
  idless: boolean;
  shared: boolean;
  started: number;
  messages: unknown[];
  response?: unknown;
  seq: number[];
  timer?: NodeJS.Timeout;
  done: (r: { timedOut?: boolean; closed?: CloseInfo; aborted?: boolean; ambiguous?: boolean }) => void;
}

/** How many ids are remembered per connection (timed out, answered), so a late or second answer is not called unsolicited. */
const REMEMBERED_IDS = 1000;

/** Keep an id in a bounded set (the oldest goes first). */
function remember(set: Set<string>, id: RequestId): void {
  set.add(JSON.stringify(id));
  if (set.size > REMEMBERED_IDS) set.delete(set.values().next().value as string);
}

const LAST_SENT_CHARS = 4096;
const MULTILINE_MAX_LINES = 2000;
const MULTILINE_MAX_CHARS = 1024 * 1024;

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms).unref());
}

/** Resolves true if `p` settles within `ms` (false at once when `signal` aborts). */
async function within(p: Promise<unknown>, ms: number, signal?: AbortSignal): Promise<boolean> {
  let t: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const timeout = new Promise<false>((r) => {
    t = setTimeout(() => r(false), ms);
    onAbort = () => r(false);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  const ok = await Promise.race([p.then(() => true as const), timeout]);
  clearTimeout(t);
  if (onAbort) signal?.removeEventListener('abort', onAbort);
  return ok;
}

export class StdioTransport implements Transport {
  readonly kind = 'stdio' as const;
  onServerRequest?: (req: ServerRequest) => unknown;

  private proc?: ResultPromise;
  private pidValue?: number;
  private readonly stderr = new TailBuffer();
  private closedInfo?: CloseInfo;
  private closing = false;
  /** mcpspec closed stdin on purpose (endInput): an exit from now on is expected. */
  private inputEnded = false;
  private readonly active = new Set<Pending>();
  private lastSent?: string;
  private exited!: Promise<void>;
  private markExited!: () => void;
  private unregister?: () => void;
  private knownDescendants = new Set<number>();
  private noiseRun: string[] = [];
  private readonly timedOutIds = new Set<string>();
  /** Ids answered already: another answer with one of them is a second answer, not an unknown id. */
  private readonly answeredIds = new Set<string>();
  private idlessTaintedValue = false;
  private noiseRunChars = 0;
  private readonly opts: Required<StdioTransportOptions>;

  constructor(
    readonly target: StdioTarget,
    readonly recorder: Recorder = new Recorder(),
    opts: StdioTransportOptions = {},
  ) {
    this.opts = {
      closeGraceMs: opts.closeGraceMs ?? 2000,
      killGraceMs: opts.killGraceMs ?? 2000,
      acceptMultiLine: opts.acceptMultiLine ?? false,
      maxLineChars: opts.maxLineChars ?? MAX_LINE_CHARS,
    };
    this.exited = new Promise((r) => {
      this.markExited = r;
    });
  }

  get closed(): CloseInfo | undefined {
    return this.closedInfo;
  }

  /** An id-less message went unanswered: from now on no id-less answer is attributed here (it could be that one's late answer). */
  get idlessTainted(): boolean {
    return this.idlessTaintedValue;
  }

  /** The target's process id (undefined before open or after a failed spawn). */
  get pid(): number | undefined {
    return this.pidValue;
  }

  /** What the target printed on stderr so far (last 64 KiB). */
  stderrTail(): string {
    return this.stderr.toString();
  }

  private opening?: Promise<void>;

  /** Start the target. Idempotent: a second call returns the first call's promise. */
  open(): Promise<void> {
    this.opening ??= this.start();
    return this.opening;
  }

  private async start(): Promise<void> {
    const { command, args, cwd, env } = this.target;
    if (cwd !== undefined && !existsSync(cwd)) {
      throw new TargetStartError(`cannot start "${command}": working directory ${cwd} does not exist`, 'ENOENT');
    }
    // Loaded on first use: execa costs ~0.1 s to import, which runs against an HTTP URL never need.
    const { execa } = await import('execa');
    const proc = execa(command, args, {
      cwd,
      env: env ?? { PATH: process.env.PATH ?? '' },
      extendEnv: false,
      stdin: 'pipe',
      stdout: 'pipe',
      stderr: 'pipe',
      buffer: false, // we stream; execa must not keep a copy of the output
      reject: false,
      cleanup: true, // execa also kills the child if mcpspec exits
      detached: false,
      forceKillAfterDelay: this.opts.killGraceMs,
      windowsHide: true,
    });
    this.proc = proc;
    // Surface spawn failures (ENOENT, EACCES) as a clear start error instead of a dead transport.
    await new Promise<void>((resolve, reject) => {
      const onSpawn = () => {
        proc.off('error', onError);
        resolve();
      };
      const onError = (err: NodeJS.ErrnoException) => {
        proc.off('spawn', onSpawn);
        const why =
          err.code === 'ENOENT' ? 'command not found' : err.code === 'EACCES' ? 'permission denied' : err.message;
        reject(new TargetStartError(`cannot start "${[command, ...args].join(' ')}": ${why} (${err.code ?? 'error'})`, err.code));
      };
      proc.once('spawn', onSpawn);
      proc.once('error', onError);
    }).catch(async (err: unknown) => {
      await proc.catch(() => undefined); // settle execa's promise so nothing is left unhandled
      this.markExited();
      throw err;
    });
    this.pidValue = proc.pid;
    this.unregister = registerLive({ killNow: () => this.killNow() });
    this.recorder.note('stdio', 'process-start', `started pid ${proc.pid}: ${[command, ...args].join(' ')}`, {
      pid: proc.pid,
      command,
      args,
      cwd: cwd ?? process.cwd(),
      // Names only: values may be secrets the user passed the target.
      env: Object.fromEntries(Object.keys(env ?? {}).map((k) => [k, k === 'HOME' || k === 'PATH' || k === 'TMPDIR' ? (env as Record<string, string>)[k] : '<set>'])),
    });

    const out = new LineSplitter((line, truncated) => this.onStdoutLine(line, truncated), this.opts.maxLineChars);
    proc.stdout?.on('data', (chunk: Buffer | string) => out.push(chunk));
    proc.stdout?.on('end', () => out.end());
    const err = new LineSplitter((line, truncated) => {
      this.recorder.record({ dir: 'in', channel: 'stderr', raw: line, truncated });
    }, 64 * 1024);
    proc.stderr?.on('data', (chunk: Buffer | string) => {
      const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      this.stderr.push(text);
      err.push(chunk);
    });
    proc.stderr?.on('end', () => err.end());
    // Writing to a dead process raises EPIPE; the exit handler reports the death instead.
    proc.stdin?.on('error', () => undefined);

    let exitSeen = false;
    proc.once('exit', (code: number | null, signal: NodeJS.Signals | null) => {
      exitSeen = true;
      // Give stdout a moment to drain (a crashing server's last words often explain the crash),
      // but do not wait on it forever: a grandchild may hold the pipe open.
      const drained = new Promise<void>((r) => proc.once('close', () => r()));
      void within(drained, 200).then(() => this.onExit(code, signal));
    });
    void proc.then(
      (res) => {
        if (!exitSeen) this.onExit(res.exitCode ?? null, res.signal ?? null);
      },
      () => undefined,
    );
  }

  async exchange(body: unknown, opts: ExchangeOptions): Promise<ExchangeResult> {
    const started = Date.now();
    if (!this.proc) throw new Error('StdioTransport.exchange() before open()');
    if (this.closedInfo) return { messages: [], timedOut: false, closed: this.closedInfo, elapsedMs: 0, seq: [] };
    const text = serializeBody(body);
    const line = text.endsWith('\n') ? text : `${text}\n`;
    const parsed = typeof body === 'string' ? tryParseJson(text) : { ok: true as const, value: body };

    return new Promise<ExchangeResult>((resolve) => {
      const onAbort = () => p.done({ aborted: true });
      const p: Pending = {
        expectId: opts.expectId,
        idless: opts.idless ?? false,
        shared: (opts.idless ?? false) && opts.sharedIdless === true,
        started,
        messages: [],
        seq: [],
        done: ({ timedOut = false, closed, aborted, ambiguous }) => {
          if (!this.active.delete(p)) return;
          clearTimeout(p.timer);
          opts.signal?.removeEventListener('abort', onAbort);
          // A request given up on (timed out, or cancelled: CN-01) may still be answered: that answer is late, not unsolicited (CN-04).
          if ((timedOut || aborted || ambiguous) && p.expectId !== undefined) remember(this.timedOutIds, p.expectId);
          if (timedOut && p.idless && p.response === undefined && opts.until === undefined) this.idlessTaintedValue = true;
          const r: ExchangeResult = { messages: p.messages, timedOut, elapsedMs: Date.now() - started, seq: p.seq };
          if (p.response !== undefined) r.response = p.response;
          if (closed) r.closed = closed;
          if (aborted) r.aborted = true;
          if (ambiguous) r.ambiguous = true;
          resolve(r);
        },
      };
      // Register before writing: a fast server can answer before write() returns.
      this.active.add(p);
      p.timer = setTimeout(() => {
        if (p.expectId !== undefined || (p.idless && opts.until === undefined)) {
          const ev = this.recorder.record({
            dir: 'note',
            channel: 'stdio',
            kind: 'timeout',
            raw: `no answer ${p.expectId !== undefined ? `with id ${JSON.stringify(p.expectId)}` : 'to an id-less message'} within ${opts.timeoutMs} ms`,
            data: { expectId: p.expectId ?? null, timeoutMs: opts.timeoutMs },
          });
          p.seq.push(ev.seq);
        }
        p.done({ timedOut: true });
      }, opts.timeoutMs);
      if (opts.signal?.aborted) queueMicrotask(onAbort);
      else opts.signal?.addEventListener('abort', onAbort, { once: true });
      void opts.until?.then(
        () => p.done({}),
        () => p.done({}),
      );

      const ev = this.recorder.record({
        dir: 'out',
        channel: 'stdio',
        raw: text,
        kind: parsed.ok && isJsonRpcMessage(parsed.value) ? 'message' : undefined,
        message: parsed.ok ? parsed.value : undefined,
      });
      p.seq.push(ev.seq);
      this.lastSent = text.length > LAST_SENT_CHARS ? `${text.slice(0, LAST_SENT_CHARS)}…` : text;
      if (this.held) {
        const h = this.held;
        h.lines.push(line);
        if (h.lines.length >= h.count) {
          this.held = undefined;
          const stdin = this.proc?.stdin;
          if (stdin) void Promise.resolve(h.flush(h.lines, stdin)).catch(() => undefined);
        }
      } else this.proc?.stdin?.write(line);
    });
  }

  private held?: { count: number; lines: string[]; flush: (lines: string[], stdin: NodeJS.WritableStream) => Promise<void> | void };

  /**
   * Transport-layer fuzzing: hold the next `count` lines the exchanges write, then hand them to
   * `flush` with the target's stdin (to write them in pieces, or joined in one write). The
   * exchanges wait for their answers as usual.
   */
  holdWrites(count: number, flush: (lines: string[], stdin: NodeJS.WritableStream) => Promise<void> | void): void {
    this.held = { count, lines: [], flush };
  }

  async endInput(timeoutMs: number, signal?: AbortSignal): Promise<InputEnd> {
    const proc = this.proc;
    if (!proc) throw new Error('StdioTransport.endInput() before open()');
    if (this.closedInfo) return { exited: true, alreadyExited: true, exitCode: this.closedInfo.exitCode, signal: this.closedInfo.signal, elapsedMs: 0 };
    const started = Date.now();
    this.inputEnded = true;
    this.recorder.note('stdio', 'stdin-eof', 'mcpspec closed the target\'s stdin and waits for it to exit');
    proc.stdin?.end();
    const exited = await within(this.exited, timeoutMs, signal);
    const end: InputEnd = { exited, elapsedMs: Date.now() - started };
    const info = this.closed; // set by the exit handler meanwhile
    if (exited && info) Object.assign(end, { exitCode: info.exitCode, signal: info.signal });
    if (!exited && signal?.aborted) end.aborted = true;
    return end;
  }

  async close(): Promise<CloseInfo | undefined> {
    const proc = this.proc;
    if (!proc || this.pidValue === undefined) return undefined;
    const pid = this.pidValue;
    if (!this.closing) {
      this.closing = true;
      // A target that already died is not signalled again: its pid may belong to someone else now.
      if (!this.closedInfo) {
        this.snapshotDescendants(pid);
        // IO-05: close stdin, wait, then escalate SIGTERM -> SIGKILL.
        proc.stdin?.end();
        // After endInput the target has had its chance to exit on EOF already.
        const grace = this.inputEnded ? 0 : this.opts.closeGraceMs;
        if (!(await within(this.exited, grace))) {
          this.snapshotDescendants(pid);
          this.recorder.note('stdio', 'sigterm', this.inputEnded ? 'target still running after its stdin was closed; sending SIGTERM' : `target did not exit within ${grace} ms of stdin EOF; sending SIGTERM`);
          proc.kill('SIGTERM'); // execa escalates to SIGKILL after forceKillAfterDelay
          signalAll([...this.knownDescendants], 'SIGTERM');
          if (!(await within(this.exited, this.opts.killGraceMs + 200))) {
            this.recorder.note('stdio', 'sigkill', 'target ignored SIGTERM; sending SIGKILL');
            this.killNow();
            await within(this.exited, 2000);
          }
        }
      }
      await this.reapDescendants();
      this.unregister?.();
      // Anything still waiting learns the target is gone.
      for (const p of [...this.active]) p.done({ closed: this.closedInfo });
    } else {
      await within(this.exited, this.opts.closeGraceMs + this.opts.killGraceMs + 2500);
    }
    return this.closedInfo;
  }

  // --- internals -----------------------------------------------------------------------------

  private onStdoutLine(line: string, truncated: boolean): void {
    if (truncated) {
      this.recorder.note('stdio', 'line-too-long', `stdout line longer than ${this.opts.maxLineChars} characters was cut`, {
        maxLineChars: this.opts.maxLineChars,
      });
    }
    const parsed = truncated ? ({ ok: false } as const) : tryParseJson(line);
    if (parsed.ok && isJsonRpcMessage(parsed.value)) {
      this.noiseRun = [];
      this.noiseRunChars = 0;
      const ev = this.recorder.record({ dir: 'in', channel: 'stdio', raw: line, kind: 'message', message: parsed.value });
      this.deliver(parsed.value, ev.seq);
      return;
    }
    const noise = this.recorder.record({
      dir: 'in',
      channel: 'stdio',
      raw: line,
      kind: 'noise',
      truncated,
      message: parsed.ok ? parsed.value : undefined,
    });
    // A batch answer (an array) is not an MCP message, but it answers whoever sent the batch.
    if (parsed.ok && Array.isArray(parsed.value) && parsed.value.some(isResponse)) this.attributeIdless(parsed.value, noise.seq);
    // Even a line that parses on its own (`"2025-06-18"`, `{}`) can be one line of a pretty-printed
    // message, so every noise line joins the run.
    this.trackMultiLine(line);
  }

  /** Detect a JSON-RPC message pretty-printed across several lines (violates IO-01). */
  private trackMultiLine(line: string): void {
    this.noiseRun.push(line);
    this.noiseRunChars += line.length + 1;
    while (this.noiseRun.length > MULTILINE_MAX_LINES || this.noiseRunChars > MULTILINE_MAX_CHARS) {
      this.noiseRunChars -= (this.noiseRun.shift() as string).length + 1;
    }
    if (!line.trimEnd().endsWith('}')) return; // cheap filter: a JSON object ends with '}'
    let tries = 0;
    for (let i = 0; i < this.noiseRun.length - 1 && tries < 20; i++) {
      if (!this.noiseRun[i].trimStart().startsWith('{')) continue;
      tries++;
      const parsed = tryParseJson(this.noiseRun.slice(i).join('\n'));
      if (parsed.ok && isJsonRpcMessage(parsed.value)) {
        const lines = this.noiseRun.length - i;
        this.noiseRun = [];
        this.noiseRunChars = 0;
        this.recorder.note(
          'stdio',
          'multi-line-message',
          `a JSON-RPC message was split across ${lines} stdout lines (messages must be one line each)`,
          { lines },
          parsed.value,
        );
        if (this.opts.acceptMultiLine) this.deliver(parsed.value, this.recorder.lastSeq());
        return;
      }
    }
  }

  private deliver(msg: unknown, seq: number): void {
    if (isRequest(msg)) {
      void this.answerServerRequest(msg);
      return;
    }
    if (!isResponse(msg)) return; // notifications are recorded, not attributed
    const id = responseId(msg);
    if (id === undefined) {
      this.attributeIdless(msg, seq);
      return;
    }
    const waiting = [...this.active].filter((p) => p.expectId !== undefined && p.response === undefined);
    let target = waiting.find((p) => idMatch(id, p.expectId!) === 'exact');
    if (!target) {
      const loose = waiting.filter((p) => idMatch(id, p.expectId!) === 'loose');
      if (loose.length === 1) target = loose[0];
    }
    if (!target) {
      const late = this.timedOutIds.has(JSON.stringify(id));
      const again = !late && this.answeredIds.has(JSON.stringify(id));
      const what = late
        ? `a late answer with id ${JSON.stringify(id)}, after its request timed out`
        : again
          ? `a second answer with id ${JSON.stringify(id)}: its request was answered already`
          : `a response with id ${JSON.stringify(id)} matches no request waiting for an answer`;
      this.recorder.note('stdio', 'unmatched-response', what, again ? { id, late, again } : { id, late }, msg);
      return;
    }
    this.claim(target, msg, seq);
  }

  /** An answer without a usable id belongs to the one id-less message outstanding, or to nobody. */
  private attributeIdless(msg: unknown, seq: number): void {
    const candidates = [...this.active].filter((p) => p.idless && p.response === undefined);
    if (this.idlessTaintedValue) {
      this.recorder.note('stdio', 'unattributed-response', 'an answer without an id arrived after an earlier id-less message went unanswered: it may be that one\'s late answer', { candidates: candidates.length, afterIdlessTimeout: true }, msg);
      this.endShared(candidates);
      return;
    }
    if (candidates.length === 1) {
      this.claim(candidates[0], msg, seq);
      return;
    }
    this.recorder.note('stdio', 'unattributed-response', `an answer without an id arrived while ${candidates.length} id-less messages were outstanding`, { candidates: candidates.length }, msg);
    this.endShared(candidates);
  }

  /** Shared id-less messages whose answer can no longer be told apart end now, for the caller to send each again alone. */
  private endShared(candidates: Pending[]): void {
    const shared = candidates.filter((p) => p.shared);
    if (shared.length === 0) return;
    // Any later id-less answer here could be one of theirs.
    this.idlessTaintedValue = true;
    for (const p of shared) p.done({ ambiguous: true });
  }

  private claim(p: Pending, msg: unknown, seq: number): void {
    if (p.expectId !== undefined) remember(this.answeredIds, p.expectId);
    p.response = msg;
    p.messages.push(msg);
    p.seq.push(seq);
    p.done({});
  }

  private async answerServerRequest(req: ServerRequest): Promise<void> {
    const reply = await replyToServerRequest(this.onServerRequest, req);
    if (reply === undefined || this.closedInfo || !this.proc?.stdin?.writable) return; // handler chose silence
    const text = serializeBody(reply);
    this.recorder.record({ dir: 'out', channel: 'stdio', raw: text, kind: 'message', message: reply });
    this.proc.stdin.write(`${text}\n`);
  }

  private onExit(code: number | null, signal: string | null): void {
    if (this.closedInfo) return;
    const info: CloseInfo = { exitCode: code, signal, stderrTail: this.stderr.toString() };
    if (this.lastSent !== undefined) info.lastSent = this.lastSent;
    this.closedInfo = info;
    const how = signal ? `killed by ${signal}` : `exited with code ${code}`;
    this.recorder.record({
      dir: 'note',
      channel: 'stdio',
      kind: 'process-exit',
      raw: this.closing || this.inputEnded ? `target ${how} after mcpspec closed it` : `target ${how} unexpectedly`,
      // An unexpected death keeps what explains it: the last words on stderr and the last message sent.
      data: this.closing || this.inputEnded
        ? { exitCode: code, signal, expected: true, pid: this.pidValue }
        : { exitCode: code, signal, expected: false, pid: this.pidValue, stderrTail: info.stderrTail.slice(-2000), lastSent: info.lastSent?.slice(0, 2000) },
    });
    this.markExited();
    for (const p of [...this.active]) p.done({ closed: info });
  }

  private snapshotDescendants(pid: number): void {
    for (const d of listDescendants(pid)) this.knownDescendants.add(d);
  }

  /** Kill whatever the target spawned and left behind (they were re-parented when it exited). */
  private async reapDescendants(): Promise<void> {
    const alive = () => [...this.knownDescendants].filter(isAlive);
    if (alive().length === 0) return;
    signalAll(alive(), 'SIGTERM');
    const deadline = Date.now() + this.opts.killGraceMs;
    while (alive().length > 0 && Date.now() < deadline) await delay(50);
    const stubborn = alive();
    if (stubborn.length > 0) {
      this.recorder.note('stdio', 'sigkill-descendants', `SIGKILL to ${stubborn.length} leftover child process(es)`, {
        pids: stubborn,
      });
      signalAll(stubborn, 'SIGKILL');
      const until = Date.now() + 1000;
      while (alive().length > 0 && Date.now() < until) await delay(25);
    }
  }

  /** Synchronous last resort (exit handlers): SIGKILL the target and its whole tree. */
  private killNow(): void {
    if (this.pidValue === undefined) return;
    if (this.closedInfo) {
      // The target is gone (its pid may even be reused): only its known leftovers remain to kill.
      signalAll([...this.knownDescendants].filter(isAlive), 'SIGKILL');
      return;
    }
    const tree = [...new Set([...this.knownDescendants, ...listDescendants(this.pidValue)])];
    for (const d of tree) this.knownDescendants.add(d);
    signalAll([this.pidValue, ...tree], 'SIGKILL');
  }
}
