// What both accepting transports (HTTP listener, stdio relay listener) share when mcpspec plays a
// scripted server: the log of what the client sent, the scenario's handler, and waiting on both.

import type { Received, ScriptedHandler, ScriptedReply } from '../suites/ports/scripted-server.js';
import { isScriptedReply } from '../suites/ports/scripted-server.js';

interface Waiter {
  match: (r: Received) => boolean;
  resolve: (r: Received | undefined) => void;
}

export class ScriptedEndpoint {
  private handler: ScriptedHandler = () => undefined;
  private readonly entries: Received[] = [];
  private waiters: Waiter[] = [];
  private pauses = new Set<() => void>();

  constructor(private readonly signal?: AbortSignal) {
    signal?.addEventListener('abort', () => this.release(), { once: true });
  }

  handle(h: ScriptedHandler): void {
    this.handler = h;
  }

  received(): Received[] {
    return this.entries.slice();
  }

  /** Log what arrived, wake waiters, and ask the handler for the answer (normalised). */
  async accept(entry: Received): Promise<ScriptedReply> {
    this.log(entry);
    const out = await this.handler(entry.message, entry);
    return isScriptedReply(out) ? out : { scripted: true, response: out };
  }

  /** Log what arrived (not handed to the script: parse errors, GET, DELETE) and wake waiters. */
  log(entry: Received): void {
    entry.at ??= Date.now();
    this.entries.push(entry);
    for (const w of this.waiters.filter((w) => w.match(entry))) {
      this.waiters.splice(this.waiters.indexOf(w), 1);
      w.resolve(entry);
    }
  }

  waitFor(match: (r: Received) => boolean, timeoutMs: number): Promise<Received | undefined> {
    const hit = this.entries.find(match);
    if (hit) return Promise.resolve(hit);
    if (this.signal?.aborted) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const w: Waiter = {
        match,
        resolve: (r) => {
          clearTimeout(timer);
          resolve(r);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((x) => x !== w);
        resolve(undefined);
      }, timeoutMs);
      this.waiters.push(w);
    });
  }

  pause(ms: number): Promise<void> {
    if (this.signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.pauses.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.pauses.add(done);
    });
  }

  /** The run ended: every wait ends now. */
  release(): void {
    for (const w of this.waiters) w.resolve(undefined);
    this.waiters = [];
    for (const p of [...this.pauses]) p();
  }
}
