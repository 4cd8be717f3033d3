// x-mcp-header (SEP-2243): reading a tool's declarations (HM-10), the Mcp-Param-* headers one call
// gives (HM-09 encoding), and the run-wide book that makes every HTTP tools/call carry them.

import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeHeaderValue } from '../../protocol/http-headers.js';
import { paramHeaderDeclarations, paramHeadersFor } from '../../protocol/param-headers.js';
import { HttpTransport } from '../../runner/http-transport.js';
import { ParamHeaderBook } from '../../runner/param-header-book.js';
import { req } from './helpers.js';

const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties, ...extra });
const problem = (schema: unknown) => paramHeaderDeclarations(schema).problem;

describe('x-mcp-header declarations (HM-10)', () => {
  it('reads declarations through properties chains, nested ones included', () => {
    const schema = obj({ region: { type: 'string', 'x-mcp-header': 'Region' }, opts: obj({ dry: { type: 'boolean', 'x-mcp-header': 'Dry-Run' } }), n: { type: ['integer', 'null'], 'x-mcp-header': 'N' } });
    expect(paramHeaderDeclarations(schema)).toEqual({
      declarations: [
        { header: 'Region', path: ['region'] },
        { header: 'Dry-Run', path: ['opts', 'dry'] },
        { header: 'N', path: ['n'] },
      ],
    });
    expect(paramHeaderDeclarations(obj({ q: { type: 'string' } }))).toEqual({ declarations: [] });
  });

  it('finds every way a declaration makes the tool invalid', () => {
    expect(problem(obj({ a: { type: 'string', 'x-mcp-header': 'Sum A' } }))).toMatch(/not a non-empty RFC 9110 token/);
    expect(problem(obj({ a: { type: 'string', 'x-mcp-header': '' } }))).toMatch(/not a non-empty RFC 9110 token/);
    expect(problem(obj({ a: { type: 'string', 'x-mcp-header': 'Line\nBreak' } }))).toMatch(/token/);
    expect(problem(obj({ a: { type: 'string', 'x-mcp-header': 7 } }))).toMatch(/token/);
    expect(problem(obj({ a: { type: 'string', 'x-mcp-header': 'Key' }, b: { type: 'string', 'x-mcp-header': 'key' } }))).toMatch(/used twice.*case-insensitively/);
    expect(problem(obj({ a: { type: 'number', 'x-mcp-header': 'A' } }))).toMatch(/only on string, integer or boolean properties, not "number"/);
    expect(problem(obj({ a: { type: 'object', 'x-mcp-header': 'A' } }))).toMatch(/not "object"/);
    expect(problem(obj({ a: { 'x-mcp-header': 'A' } }))).toMatch(/not "untyped"/);
    expect(problem(obj({ list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } } }))).toMatch(/list: x-mcp-header is allowed only on a property reached through "properties" keys/);
    expect(problem(obj({ a: { anyOf: [obj({ b: { type: 'string', 'x-mcp-header': 'B' } })] } }))).toMatch(/reached through "properties" keys/);
    expect(problem(obj({ a: { $ref: '#/$defs/x' } }, { $defs: { x: { type: 'string', 'x-mcp-header': 'X' } } }))).toMatch(/reached through "properties" keys/);
    expect(problem({ type: 'string', 'x-mcp-header': 'Root' })).toMatch(/\(the schema root\)/);
  });

  it('does not read annotations inside data keywords (default, examples, const, enum)', () => {
    expect(paramHeaderDeclarations(obj({ a: { type: 'object', default: { 'x-mcp-header': 'Nope' }, examples: [{ 'x-mcp-header': 'Nope' }] } }))).toEqual({ declarations: [] });
  });
});

describe('Mcp-Param-* headers of one call', () => {
  const declarations = [
    { header: 'Region', path: ['region'] },
    { header: 'Count', path: ['count'] },
    { header: 'Dry', path: ['opts', 'dry'] },
  ];

  it('mirrors strings as they are, integers in decimal, booleans as true/false, nested paths too', () => {
    expect(paramHeadersFor(declarations, { region: 'us-west1', count: 42, opts: { dry: false } })).toEqual({ 'Mcp-Param-Region': 'us-west1', 'Mcp-Param-Count': '42', 'Mcp-Param-Dry': 'false' });
  });

  it('Base64-encodes what is not plain ASCII, has edge spaces or looks like the sentinel', () => {
    for (const value of ['Hello, 世界', ' padded ', 'line1\nline2', '=?base64?literal?=']) {
      const h = paramHeadersFor(declarations, { region: value })['Mcp-Param-Region'];
      expect(h).toMatch(/^=\?base64\?[A-Za-z0-9+/=]*\?=$/);
      expect(decodeHeaderValue(h)).toBe(value);
    }
  });

  it('leaves a header out when its argument is absent, null or not a primitive', () => {
    expect(paramHeadersFor(declarations, { region: null, opts: 'x' })).toEqual({});
    expect(paramHeadersFor(declarations, { region: { nested: 1 }, count: [1] })).toEqual({});
    expect(paramHeadersFor(declarations, undefined)).toEqual({});
  });
});

describe('the run-wide book on HTTP transports', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((c) => c()));
  });

  /** A server whose tools/list declares x-mcp-header on echo.region; it records the headers of every tools/call. */
  async function server(): Promise<{ url: string; calls: IncomingHttpHeaders[] }> {
    const calls: IncomingHttpHeaders[] = [];
    const s = createServer((request, res) => {
      let body = '';
      request.on('data', (c) => (body += c));
      request.on('end', () => {
        const msg = JSON.parse(body) as { id: number; method: string };
        if (msg.method === 'tools/call') calls.push(request.headers);
        const result =
          msg.method === 'tools/list'
            ? { resultType: 'complete', tools: [{ name: 'echo', inputSchema: obj({ region: { type: 'string', 'x-mcp-header': 'Region' } }) }, { name: 'bad', inputSchema: obj({ n: { type: 'number', 'x-mcp-header': 'N' } }) }] }
            : { resultType: 'complete', content: [] };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result }));
      });
    });
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise<void>((r) => s.close(() => r())));
    return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}/mcp`, calls };
  }

  const transport = (url: string, book?: ParamHeaderBook) => {
    const t = new HttpTransport({ url }, undefined, book ? { paramHeaders: book } : {});
    t.setModernHeaders(true);
    return t;
  };
  const call = (t: HttpTransport, id: number, name: string, args: unknown, headers?: Record<string, string | undefined>) =>
    t.exchange(req(id, 'tools/call', { name, arguments: args }), { expectId: id, timeoutMs: 3000, headers });

  it('a transport that did not list the tools still sends the headers another one learnt; overrides replace or remove them', async () => {
    const { url, calls } = await server();
    const book = new ParamHeaderBook();
    await transport(url, book).exchange(req(1, 'tools/list'), { expectId: 1, timeoutMs: 3000 });
    const other = transport(url, book);
    await call(other, 2, 'echo', { region: 'Zürich' });
    await call(other, 3, 'echo', { region: 'eu' }, { 'mcp-param-region': undefined });
    await call(other, 4, 'bad', { n: 1.5 }); // an invalid declaration gives no header
    await call(transport(url), 5, 'echo', { region: 'eu' }); // a transport with a book of its own has learnt nothing
    expect(calls.map((h) => h['mcp-param-region'] ?? h['mcp-param-n'])).toEqual(['=?base64?WsO8cmljaA==?=', undefined, undefined, undefined]);
    expect(decodeHeaderValue(calls[0]['mcp-param-region'] as string)).toBe('Zürich');
  });

  it('a transport learns from its own tools/list when it has no shared book', async () => {
    const { url, calls } = await server();
    const t = transport(url);
    await t.exchange(req(1, 'tools/list'), { expectId: 1, timeoutMs: 3000 });
    await call(t, 2, 'echo', { region: 'eu' });
    expect(calls[0]['mcp-param-region']).toBe('eu');
  });
});
