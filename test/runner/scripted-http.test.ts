import { afterEach, describe, expect, it } from 'vitest';
import { BROWSER_REPORT_PATH, HttpListener } from '../../runner/http-listener.js';
import { Recorder } from '../../runner/recorder.js';
import type { HttpExchange } from '../../suites/ports/scripted-http.js';

const listeners: HttpListener[] = [];
afterEach(async () => {
  await Promise.all(listeners.splice(0).map((l) => l.close()));
});

async function listener(recorder = new Recorder()): Promise<HttpListener> {
  const l = new HttpListener(recorder, '/mcp/test');
  listeners.push(l);
  await l.listen();
  l.handle((m) => ({ jsonrpc: '2.0', id: (m as { id: number }).id, result: {} }));
  return l;
}

const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
const post = (url: string, headers: Record<string, string> = {}, body = ping) => fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body });

describe('the HTTP primitives of the scripted server (what a scenario\'s profile of the peer is built on)', () => {
  it('routes serve other paths of the origin in the order added; one that does not answer leaves the request to the next, and none answering is 404, unrecorded', async () => {
    const recorder = new Recorder();
    const l = await listener(recorder);
    const origin = new URL(l.url).origin;
    const seen: { method: string; path: string; query: string; body: string | undefined; header?: string }[] = [];
    const seqs: number[] = [];
    l.route((x) => {
      seen.push({ method: x.method, path: x.url.pathname, query: x.url.search, body: x.body, header: x.headers['x-test'] });
      if (x.url.pathname !== '/first') return;
      seqs.push(x.record(), x.record(), x.answer({ status: 201, headers: { 'X-Answer': 'one' }, body: 'made' }));
    });
    l.route(async (x: HttpExchange) => {
      await new Promise((r) => setTimeout(r, 5));
      if (x.url.pathname === '/second') seqs.push(x.answer({ status: 302, headers: { Location: `${origin}/elsewhere` } }));
    });
    const first = await fetch(`${origin}/first?a=1`, { method: 'POST', headers: { 'X-Test': 'yes' }, body: 'text' });
    expect([first.status, first.headers.get('x-answer'), await first.text()]).toEqual([201, 'one', 'made']);
    const second = await fetch(`${origin}/second?b=2`, { redirect: 'manual' });
    expect([second.status, second.headers.get('location')]).toEqual([302, `${origin}/elsewhere`]);
    expect((await fetch(`${origin}/nothing`)).status).toBe(404);
    expect(seen).toEqual([
      { method: 'POST', path: '/first', query: '?a=1', body: 'text', header: 'yes' },
      { method: 'GET', path: '/second', query: '?b=2', body: '' },
      { method: 'GET', path: '/nothing', query: '', body: '' },
    ]);
    // The request is recorded once (its text: the body, or the query), then the answer, after it.
    const events = recorder.events();
    const at = (seq: number) => events.find((e) => e.seq === seq)!;
    expect(seqs[0]).toBe(seqs[1]);
    expect(seqs[2]).toBeGreaterThan(seqs[0]);
    expect(at(seqs[0])).toMatchObject({ dir: 'in', channel: 'http', raw: 'text', http: { method: 'POST', url: '/first', headers: { 'x-test': 'yes' } } });
    expect(at(seqs[2])).toMatchObject({ dir: 'out', channel: 'http', raw: 'made', http: { method: 'POST', status: 201, url: '/first', headers: { 'X-Answer': 'one' } } });
    expect(events.filter((e) => e.dir === 'in').map((e) => [e.http?.url, e.raw])).toEqual([['/first', 'text'], ['/second', '?b=2']]);
    // The endpoint itself never reaches a route.
    expect((await post(l.url)).status).toBe(200);
    expect(seen).toHaveLength(3);
  });

  it('a gate sees each request to the endpoint first (headers, URL, parsed body); its answer goes out instead, the request logged as refused and never handed to the script', async () => {
    const recorder = new Recorder();
    const l = await listener(recorder);
    const gated: { method: string; message?: unknown; body?: string; query: string }[] = [];
    const handled: unknown[] = [];
    l.handle((m) => {
      handled.push(m);
      return { jsonrpc: '2.0', id: (m as { id: number }).id, result: {} };
    });
    l.gate((req) => {
      gated.push({ method: req.method, message: req.message, body: req.body, query: req.url.search });
      if (req.headers['x-pass'] === 'yes') return undefined;
      return { status: 418, headers: { 'X-Why': 'teapot' }, body: '{"no":1}' };
    });
    const refused = await post(`${l.url}?q=1`);
    expect([refused.status, refused.headers.get('x-why'), await refused.text()]).toEqual([418, 'teapot', '{"no":1}']);
    expect((await fetch(l.url)).status).toBe(418);
    expect((await post(l.url, { 'X-Pass': 'yes' })).status).toBe(200);
    expect((await post(l.url, { 'X-Pass': 'yes' }, 'not json')).status).toBe(400);
    expect(gated).toEqual([
      { method: 'POST', message: JSON.parse(ping), body: ping, query: '?q=1' },
      { method: 'GET', body: undefined, query: '' },
      { method: 'POST', message: JSON.parse(ping), body: ping, query: '' },
      { method: 'POST', body: 'not json', query: '' },
    ]);
    expect(handled).toHaveLength(1);
    const received = l.received();
    expect(received.slice(0, 2)).toMatchObject([
      { refused: 418, httpMethod: 'POST', message: { method: 'ping' }, query: '?q=1' },
      { refused: 418, httpMethod: 'GET', message: undefined },
    ]);
    expect(received[2].refused).toBeUndefined();
    expect(recorder.events().find((e) => e.seq === received[0].seq)).toMatchObject({ dir: 'in', kind: 'message', raw: ping, data: { refused: 418 } });
  });

  it('notes go into the recording, numbered with the rest', async () => {
    const recorder = new Recorder();
    const l = await listener(recorder);
    await post(l.url);
    const seq = l.note('profile', 'something happened', { n: 1 });
    expect(recorder.events().at(-1)).toMatchObject({ seq, dir: 'note', channel: 'http', note: 'profile', raw: 'something happened', data: { n: 1 } });
    expect(seq).toBeGreaterThan(l.received()[0].seq);
  });

  it('the headless browser\'s reports (on a path of the listener\'s own) are noted and handed to each listener with the note\'s sequence number', async () => {
    const recorder = new Recorder();
    const l = await listener(recorder);
    expect(l.browserReportUrl).toBe(`${new URL(l.url).origin}${BROWSER_REPORT_PATH}`);
    const visits: unknown[] = [];
    l.onBrowserVisit((visit, seq) => visits.push({ ...visit, seq }));
    const report = (body: string) => fetch(l.browserReportUrl, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    expect((await report(JSON.stringify({ visited: ['http://127.0.0.1:1/authorize', 'http://127.0.0.1:2/cb', 7], status: 400, extra: true }))).status).toBe(204);
    expect((await report(JSON.stringify({ visited: ['http://127.0.0.1:3/x'], error: 'ECONNREFUSED' }))).status).toBe(204);
    expect((await report('not a report')).status).toBe(204);
    const notes = recorder.events().filter((e) => e.note === 'browser');
    expect(notes.map((e) => e.raw)).toEqual(['headless browser: http://127.0.0.1:2/cb: HTTP 400', 'headless browser: http://127.0.0.1:3/x: ECONNREFUSED']);
    expect(visits).toEqual([
      { visited: ['http://127.0.0.1:1/authorize', 'http://127.0.0.1:2/cb'], status: 400, seq: notes[0].seq },
      { visited: ['http://127.0.0.1:3/x'], error: 'ECONNREFUSED', seq: notes[1].seq },
    ]);
  });
});
