// The recorder keeps every byte that crossed the wire, in order, so a verdict can cite evidence and
// a failure can be replayed. It is bounded (event count and payload bytes) because fuzz campaigns
// run for a long time; counts and findings survive the drops.

import { performance } from 'node:perf_hooks';
import type { Recording, RecordingJson, RecorderCounts, WireChannel, WireDirection, WireEvent, WireIncident, WireIncidentType, WireKind } from '../results/wire.js';

/** Maximum characters kept in `raw` per event. */
export const MAX_RAW_CHARS = 64 * 1024;
export const DEFAULT_MAX_EVENTS = 20_000;
/** Approximate payload budget; past it the oldest payloads are dropped (events stay). */
export const DEFAULT_MAX_PAYLOAD_CHARS = 64 * 1024 * 1024;
const MAX_INCIDENTS = 2_000;

/** Notes that indicate something wrong with the target (the rest are informational). */
const INCIDENT_NOTES = new Set([
  'multi-line-message',
  'line-too-long',
  'body-too-large',
  'hook-error',
]);


export interface RecordInput {
  dir: WireDirection;
  channel: WireChannel;
  raw: string;
  kind?: WireKind;
  message?: unknown;
  http?: WireEvent['http'];
  note?: string;
  data?: Record<string, unknown>;
  /** The source was already cut before reaching the recorder (e.g. a 4 MiB stdout line). */
  truncated?: boolean;
  /** Which scenario or session recorded it (set by child recorders on their parent). */
  source?: string;
}

export interface HookContext {
  event: WireEvent;
  recorder: Recorder;
}

export interface RecorderOptions {
  maxEvents?: number;
  maxPayloadChars?: number;
  /** Also record every event into this recorder (the run-wide log), tagged with `source`. */
  parent?: Recorder;
  /** Which scenario or session the events belong to, on the parent's copies. */
  source?: string;
}


function excerpt(s: string, n = 500): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}

export class Recorder implements Recording {
  /** Schema validation and other observers plug in here; the runner itself never judges. */
  onInbound?: (msg: unknown, ctx: HookContext) => void;
  onOutbound?: (msg: unknown, ctx: HookContext) => void;

  readonly startedAt = new Date();
  private readonly t0 = performance.now();
  private list: WireEvent[] = [];
  private head = 0; // index of the oldest live event in `list` (cheap drop-from-front)
  private nextSeq = 1;
  private payloadChars = 0;
  private payloadCursor = 0; // oldest event that may still hold a payload
  private readonly cost = new WeakMap<WireEvent, number>(); // payload chars charged per event
  private readonly found: WireIncident[] = [];
  private readonly counts: RecorderCounts = {
    total: 0,
    droppedEvents: 0,
    droppedPayloads: 0,
    byKind: {},
    byDir: {},
    incidents: 0,
  };
  private readonly maxEvents: number;
  private readonly maxPayloadChars: number;

  private readonly parent?: Recorder;
  private readonly source?: string;

  constructor(opts: RecorderOptions = {}) {
    this.maxEvents = opts.maxEvents ?? DEFAULT_MAX_EVENTS;
    this.maxPayloadChars = opts.maxPayloadChars ?? DEFAULT_MAX_PAYLOAD_CHARS;
    this.parent = opts.parent;
    this.source = opts.source;
  }

  /** Milliseconds since the recorder started (3 decimals). */
  now(): number {
    return Math.round((performance.now() - this.t0) * 1000) / 1000;
  }

  record(input: RecordInput): WireEvent {
    const cut = input.raw.length > MAX_RAW_CHARS;
    const ev: WireEvent = {
      // Scenario logs share the run log's numbering, so a sequence number means the same event in both.
      seq: this.parent ? this.parent.record({ ...input, source: input.source ?? this.source }).seq : this.nextSeq++,
      t: this.now(),
      dir: input.dir,
      channel: input.channel,
      raw: cut ? input.raw.slice(0, MAX_RAW_CHARS) : input.raw,
    };
    if (cut || input.truncated) ev.truncated = true;
    if (input.kind !== undefined) ev.kind = input.kind;
    if (input.message !== undefined) ev.message = input.message;
    if (input.http !== undefined) ev.http = input.http;
    if (input.note !== undefined) ev.note = input.note;
    if (input.data !== undefined) ev.data = input.data;
    if (input.source !== undefined) ev.source = input.source;
    // Concurrent scenarios each keep their own log; the run-wide log gets a tagged copy.

    this.list.push(ev);
    this.counts.total++;
    const k = ev.kind ?? (ev.dir === 'note' ? 'note' : 'other');
    this.counts.byKind[k] = (this.counts.byKind[k] ?? 0) + 1;
    this.counts.byDir[ev.dir] = (this.counts.byDir[ev.dir] ?? 0) + 1;
    // A parsed message costs roughly its source length; count the uncut length for it.
    const cost = ev.raw.length + (ev.message !== undefined ? input.raw.length : 0);
    this.cost.set(ev, cost);
    this.payloadChars += cost;
    this.noteIncident(ev);
    this.enforceBounds();
    this.runHooks(ev);
    return ev;
  }

  /** Shorthand for mcpspec's own remarks (`dir: 'note'`). */
  note(channel: WireChannel, label: string, text: string, data?: Record<string, unknown>, message?: unknown): WireEvent {
    return this.record({ dir: 'note', channel, raw: text, note: label, data, message });
  }

  /** Live events, oldest first (a copy of the array; events themselves are shared). */
  events(): WireEvent[] {
    return this.list.slice(this.head);
  }

  /** Events recorded after `seq` (used by sessions to slice one exchange's evidence). */
  eventsSince(seq: number): WireEvent[] {
    return this.events().filter((e) => e.seq > seq);
  }

  /** The last sequence number handed out (0 before the first event). */
  lastSeq(): number {
    return this.parent ? this.parent.lastSeq() : this.nextSeq - 1;
  }

  /** Problems seen on the wire: noise lines, parse errors, crashes, timeouts, oversize, notes. */
  incidents(): WireIncident[] {
    return this.found.slice();
  }

  stats(): RecorderCounts {
    return { ...this.counts, byKind: { ...this.counts.byKind }, byDir: { ...this.counts.byDir } };
  }

  /** Replayable form: the ordered list of events plus counts. */
  toJSON(): RecordingJson {
    return {
      format: 'mcpspec-recording',
      version: 2,
      startedAt: this.startedAt.toISOString(),
      counts: this.stats(),
      incidents: this.incidents(),
      events: this.events(),
    };
  }

  private noteIncident(ev: WireEvent): void {
    let type: WireIncidentType | undefined;
    let summary = '';
    if (ev.kind === 'noise') {
      type = 'noise';
      summary = 'stdout line is not a JSON-RPC message';
    } else if (ev.kind === 'parse-error') {
      type = 'parse-error';
      summary = 'received data that is not valid JSON';
    } else if (ev.kind === 'timeout') {
      type = 'timeout';
      summary = ev.raw;
    } else if (ev.kind === 'process-exit' && ev.data?.expected === false) {
      type = 'crash';
      summary = ev.raw;
    } else if (ev.dir === 'note' && ev.note !== undefined && INCIDENT_NOTES.has(ev.note)) {
      type = ev.note as WireIncidentType;
      summary = ev.raw;
    }
    if (type === undefined) return;
    this.counts.incidents++;
    if (this.found.length >= MAX_INCIDENTS) return; // counted, not kept
    const f: WireIncident = { type, seq: ev.seq, t: ev.t, channel: ev.channel, summary: excerpt(summary, 300) };
    if (type === 'noise' || type === 'parse-error') f.excerpt = excerpt(ev.raw);
    this.found.push(f);
  }

  private enforceBounds(): void {
    // Too many events: forget the oldest ones entirely (their findings and counts remain).
    while (this.list.length - this.head > this.maxEvents) {
      const old = this.list[this.head];
      this.payloadChars -= this.cost.get(old) ?? 0;
      this.head++;
      this.counts.droppedEvents++;
    }
    if (this.head > 4096 && this.head * 2 > this.list.length) {
      this.list = this.list.slice(this.head);
      this.payloadCursor = Math.max(0, this.payloadCursor - this.head);
      this.head = 0;
    }
    if (this.payloadCursor < this.head) this.payloadCursor = this.head;
    // Too many bytes: strip payloads from the oldest events, keeping their metadata.
    while (this.payloadChars > this.maxPayloadChars && this.payloadCursor < this.list.length - 1) {
      const old = this.list[this.payloadCursor++];
      if (old.payloadDropped) continue;
      this.payloadChars -= this.cost.get(old) ?? 0;
      this.cost.set(old, 0);
      old.raw = '';
      delete old.message;
      old.payloadDropped = true;
      this.counts.droppedPayloads++;
    }
  }

  private readonly watchers = new Set<(ev: WireEvent) => void>();

  /** Calls `fn` with every event recorded from now on, until the returned function is called. */
  watch(fn: (ev: WireEvent) => void): () => void {
    this.watchers.add(fn);
    return () => this.watchers.delete(fn);
  }

  private runHooks(ev: WireEvent): void {
    for (const fn of this.watchers) fn(ev);
    if (ev.kind !== 'message' || ev.message === undefined) return;
    const hook = ev.dir === 'in' ? this.onInbound : ev.dir === 'out' ? this.onOutbound : undefined;
    if (!hook) return;
    try {
      hook(ev.message, { event: ev, recorder: this });
    } catch (err) {
      // A broken validator must not break the transport; keep its failure as evidence instead.
      this.note(ev.channel, 'hook-error', `recorder hook threw on event ${ev.seq}: ${String(err)}`);
    }
  }
}
