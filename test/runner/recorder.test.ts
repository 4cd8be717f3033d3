import { describe, expect, it } from 'vitest';
import { LineSplitter } from '../../runner/line-splitter.js';
import { MAX_RAW_CHARS, Recorder } from '../../runner/recorder.js';
import { TailBuffer } from '../../runner/tail-buffer.js';

describe('Recorder', () => {
  it('numbers events in order with timestamps and runs hooks on messages', () => {
    const r = new Recorder();
    const inbound: unknown[] = [];
    const outbound: unknown[] = [];
    r.onInbound = (m) => inbound.push(m);
    r.onOutbound = (m) => outbound.push(m);
    r.record({ dir: 'out', channel: 'stdio', raw: '{"jsonrpc":"2.0"}', kind: 'message', message: { jsonrpc: '2.0' } });
    r.record({ dir: 'in', channel: 'stdio', raw: 'hello', kind: 'noise' });
    r.record({ dir: 'in', channel: 'stdio', raw: '{"jsonrpc":"2.0","id":1}', kind: 'message', message: { jsonrpc: '2.0', id: 1 } });
    const ev = r.events();
    expect(ev.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(ev[2].t).toBeGreaterThanOrEqual(ev[0].t);
    expect(outbound).toEqual([{ jsonrpc: '2.0' }]);
    expect(inbound).toEqual([{ jsonrpc: '2.0', id: 1 }]);
    expect(r.incidents()).toMatchObject([{ type: 'noise', seq: 2, excerpt: 'hello' }]);
  });

  it('turns a throwing hook into a hook-error finding instead of breaking the transport', () => {
    const r = new Recorder();
    r.onInbound = () => {
      throw new Error('validator bug');
    };
    r.record({ dir: 'in', channel: 'http', raw: '{}', kind: 'message', message: {} });
    expect(r.incidents().map((f) => f.type)).toEqual(['hook-error']);
  });

  it('bounds raw payloads to 64 KiB with a truncated flag', () => {
    const r = new Recorder();
    const e = r.record({ dir: 'in', channel: 'stdio', raw: 'x'.repeat(MAX_RAW_CHARS + 10) });
    expect(e.raw.length).toBe(MAX_RAW_CHARS);
    expect(e.truncated).toBe(true);
  });

  it('keeps at most maxEvents, dropping the oldest but keeping counts and findings', () => {
    const r = new Recorder({ maxEvents: 100 });
    r.record({ dir: 'in', channel: 'stdio', raw: 'early noise', kind: 'noise' });
    for (let i = 0; i < 20_000; i++) r.record({ dir: 'out', channel: 'stdio', raw: String(i) });
    const ev = r.events();
    expect(ev).toHaveLength(100);
    expect(ev[0].seq).toBe(20_001 - 99);
    expect(r.stats()).toMatchObject({ total: 20_001, droppedEvents: 19_901 });
    expect(r.incidents()).toHaveLength(1);
  });

  it('drops the oldest payloads past the byte budget', () => {
    const r = new Recorder({ maxPayloadChars: 1000 });
    for (let i = 0; i < 10; i++) r.record({ dir: 'out', channel: 'stdio', raw: 'y'.repeat(300) });
    const ev = r.events();
    expect(ev).toHaveLength(10);
    expect(ev[0].payloadDropped).toBe(true);
    expect(ev[0].raw).toBe('');
    expect(ev[9].raw.length).toBe(300);
    expect(r.stats().droppedPayloads).toBeGreaterThan(0);
  });

  it('serializes to a replayable recording with counts and incidents', () => {
    const r = new Recorder();
    r.record({ dir: 'out', channel: 'stdio', raw: '{}', kind: 'message', message: {} });
    r.note('stdio', 'multi-line-message', 'split');
    r.note('stdio', 'unmatched-response', 'late', { id: 1, late: true });
    const json = JSON.parse(JSON.stringify(r));
    expect(json).toMatchObject({ format: 'mcpspec-recording', version: 2, counts: { total: 3, incidents: 1 } });
    expect(json.events).toEqual(r.events());
    // unmatched and unattributed answers are evidence for the oracles, not wire incidents by themselves
    expect(json.incidents.map((f: { type: string }) => f.type)).toEqual(['multi-line-message']);
  });

  it('shares sequence numbers with a parent recorder and tags the copies', () => {
    const parent = new Recorder();
    const child = new Recorder({ parent, source: 'scenario-a' });
    parent.record({ dir: 'note', channel: 'stdio', raw: 'first' });
    const ev = child.record({ dir: 'out', channel: 'stdio', raw: 'x' });
    expect(ev.seq).toBe(2);
    expect(child.lastSeq()).toBe(2);
    expect(parent.events().at(-1)).toMatchObject({ seq: 2, source: 'scenario-a' });
  });
});

describe('LineSplitter', () => {
  it('handles partial chunks, CRLF and multi-byte characters split across chunks', () => {
    const lines: string[] = [];
    const s = new LineSplitter((l) => lines.push(l));
    const bytes = Buffer.from('{"a":"é"}\r\n{"b"', 'utf8');
    const cut = bytes.indexOf(0xc3) + 1; // split inside the two-byte é
    s.push(bytes.subarray(0, cut));
    s.push(bytes.subarray(cut));
    s.push(':2}\npartial');
    s.end();
    expect(lines).toEqual(['{"a":"é"}', '{"b":2}', 'partial']);
  });

  it('cuts long lines and resynchronises on the next newline', () => {
    const got: Array<[string, boolean]> = [];
    const s = new LineSplitter((l, t) => got.push([l, t]), 10);
    s.push('0123456789abcdef');
    s.push('ghij\nok\n');
    expect(got).toEqual([
      ['0123456789', true],
      ['ok', false],
    ]);
  });
});

describe('TailBuffer', () => {
  it('keeps only the last N characters', () => {
    const t = new TailBuffer(5);
    for (const c of 'abcdefghijklmnop') t.push(c);
    expect(t.toString()).toBe('lmnop');
  });
});
