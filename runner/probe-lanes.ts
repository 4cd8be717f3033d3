// Id-less probes on stdio: an answer without an id can only be attributed while a single id-less
// message is outstanding on a connection, so each connection (lane) carries one at a time. When
// every lane has been busy for a short while, another connection (a fresh process) is opened, so
// a target that silently drops twenty malformed messages costs about one timeout, not twenty.
// Lane scheduling only decides speed; verdicts never depend on it.

import type { Exchange, ProbeOptions } from '../suites/ports.js';
import type { BaseSession } from './base-session.js';

export interface LanePoolOptions {
  /** The scenario's own session: the first lane. */
  first: BaseSession;
  /** Opens another connection with a completed handshake. */
  open(): Promise<BaseSession>;
  /** Most connections at once (the first included). */
  maxLanes: number;
  /** How long a probe waits for a busy lane before another is opened. */
  spawnAfterMs: number;
}

export class LanePool {
  private readonly lanes: BaseSession[];
  private opening = 0;
  private waiters: (() => void)[] = [];

  constructor(private readonly opts: LanePoolOptions & { maxLanes: number }) {
    this.lanes = [opts.first];
  }

  /** Extra connections opened (closed by the caller with the scenario). */
  extra(): BaseSession[] {
    return this.lanes.filter((l) => l !== this.opts.first);
  }

  async probe(body: unknown, opts: ProbeOptions): Promise<Exchange> {
    const lane = await this.acquire();
    try {
      return await lane.probe(body, opts);
    } finally {
      const wake = this.waiters;
      this.waiters = [];
      for (const w of wake) w();
    }
  }

  private live(): BaseSession[] {
    return this.lanes.filter((l) => !l.transport.closed);
  }

  private async acquire(): Promise<BaseSession> {
    for (;;) {
      const free = this.live().find((l) => !l.idlessBusy);
      if (free) return free;
      const live = this.live();
      if (live.length === 0 && this.opening === 0) return this.add();
      const canGrow = live.length + this.opening < this.opts.maxLanes;
      const freed = new Promise<'freed'>((r) => this.waiters.push(() => r('freed')));
      const timer = new Promise<'timer'>((r) => setTimeout(() => r('timer'), this.opts.spawnAfterMs).unref());
      const why = await Promise.race([freed, timer]);
      if (why === 'timer' && canGrow && this.live().every((l) => l.idlessBusy)) {
        try {
          return await this.add();
        } catch (e) {
          if (this.live().length === 0) throw e; // no lane at all: the target cannot be reached
          this.opts.maxLanes = this.live().length; // it will not start more: share the lanes there are
        }
      }
    }
  }

  private async add(): Promise<BaseSession> {
    this.opening++;
    try {
      const s = await this.opts.open();
      this.lanes.push(s);
      return s;
    } finally {
      this.opening--;
    }
  }
}
