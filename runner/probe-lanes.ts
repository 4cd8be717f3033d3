// Id-less probes on stdio: an answer without an id can only be attributed while a single id-less
// message is outstanding on a connection. Each probe first goes to a shared connection (one extra
// process) beside the others: a target that drops them all answers none, so twenty cost one timeout.
// An id-less answer there while several wait cannot be attributed: those probes end at once and go
// again, each alone on a lane that carries one at a time (opened as needed, up to maxLanes).
// Scheduling only decides speed; verdicts never depend on it.

import type { Exchange, ProbeOptions } from '../suites/ports/session.js';
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

/** The shared connection: used until an id-less message on it goes unanswered or unattributed. */
interface SharedLane {
  session: Promise<BaseSession>;
  spent: boolean;
}

export class LanePool {
  private readonly lanes: BaseSession[];
  private shared?: SharedLane;
  /** Lanes handed to a probe and not yet released (reserved at once, before any await). */
  private readonly reserved = new Set<BaseSession>();
  private readonly retired: BaseSession[] = [];
  private opening = 0;
  private waiters: (() => void)[] = [];

  constructor(private readonly opts: LanePoolOptions & { maxLanes: number }) {
    this.lanes = [opts.first];
  }

  /** Extra connections opened and still in use (closed by the caller with the scenario). */
  extra(): BaseSession[] {
    return this.lanes.filter((l) => l !== this.opts.first);
  }

  /** Extra connections retired after an id-less message went unanswered on them (already closed). */
  retiredLanes(): BaseSession[] {
    return this.retired.slice();
  }

  async probe(body: unknown, opts: ProbeOptions): Promise<Exchange> {
    if (!opts.alone) {
      const ex = await this.probeShared(body, opts);
      // Answered or unanswered beside the others (or the run ended): that is the outcome. Ambiguous or
      // cut off by a death (which of them killed it?): send it again alone.
      if (ex && (ex.aborted || (!ex.ambiguous && !ex.closed))) return ex;
    }
    return this.probeAlone(body, opts);
  }

  private async probeShared(body: unknown, opts: ProbeOptions): Promise<Exchange | undefined> {
    let lane: SharedLane | undefined = this.shared;
    if (!lane || lane.spent) {
      const opened: SharedLane = { session: this.opts.open(), spent: false };
      opened.session.catch(() => (opened.spent = true));
      this.shared = lane = opened;
    }
    let session: BaseSession;
    try {
      session = await lane.session;
    } catch {
      return undefined; // no shared connection: the lanes decide
    }
    if (session.transport.closed || session.idlessTainted) {
      lane.spent = true;
      return undefined;
    }
    const ex = await session.probe(body, { ...opts, sharedIdless: true });
    // Once an id-less message there went unanswered or unattributed, a later answer there could be its.
    if (session.idlessTainted || session.transport.closed) lane.spent = true;
    return ex;
  }

  private async probeAlone(body: unknown, opts: ProbeOptions): Promise<Exchange> {
    const lane = await this.acquire();
    try {
      return await lane.probe(body, opts);
    } finally {
      this.reserved.delete(lane);
      // A lane where an id-less message went unanswered cannot carry another: retire it (not the
      // scenario's own session) so a fresh connection can take its place.
      if (lane !== this.opts.first && lane.idlessTainted && !lane.idlessBusy) {
        this.lanes.splice(this.lanes.indexOf(lane), 1);
        this.retired.push(lane);
        void lane.close().catch(() => undefined);
      }
      const wake = this.waiters;
      this.waiters = [];
      for (const w of wake) w();
    }
  }

  /** Connections still usable for id-less probes: alive, and with no id-less message left unanswered (a late answer there could not be told apart). */
  private live(): BaseSession[] {
    return this.lanes.filter((l) => !l.transport.closed && !l.idlessTainted);
  }

  private busy(l: BaseSession): boolean {
    return this.reserved.has(l) || l.idlessBusy;
  }

  private async acquire(): Promise<BaseSession> {
    for (;;) {
      const free = this.live().find((l) => !this.busy(l));
      if (free) {
        this.reserved.add(free);
        return free;
      }
      if (this.live().length === 0 && this.opening === 0) return this.reserve(await this.add());
      const freed = new Promise<'freed'>((r) => this.waiters.push(() => r('freed')));
      const timer = new Promise<'timer'>((r) => setTimeout(() => r('timer'), this.opts.spawnAfterMs).unref());
      const why = await Promise.race([freed, timer]);
      // The scenario's own session always counts; extra lanes up to the rest of the budget.
      const open = this.lanes.filter((l) => !l.transport.closed).length;
      const canGrow = open + this.opening < Math.max(2, this.opts.maxLanes) || this.lanes.every((l) => l.transport.closed);
      if (why === 'timer' && canGrow && this.live().every((l) => this.busy(l))) {
        try {
          return this.reserve(await this.add());
        } catch (e) {
          if (this.live().length === 0) throw e; // no lane at all: the target cannot be reached
          this.opts.maxLanes = this.live().length; // it will not start more: share the lanes there are
        }
      }
    }
  }

  private reserve(l: BaseSession): BaseSession {
    this.reserved.add(l);
    return l;
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
