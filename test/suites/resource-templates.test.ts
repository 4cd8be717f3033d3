// resources.template-read: a listed template expanded (RFC 6570) reads back with contents for that
// uri, or is answered as not found; the expansion itself (suites/resources/uri-template.ts).

import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../suites/catalogue.js';
import type { Exchange } from '../../suites/ports/session.js';
import type { TemplateRead, TemplatesObs } from '../../suites/resources/scenario.js';
import { expandTemplate, templateVariables } from '../../suites/resources/uri-template.js';

describe('RFC 6570 expansion', () => {
  it('names the variables of every operator, each once', () => {
    expect(templateVariables('file:///{path}')).toEqual(['path']);
    expect(templateVariables('x://{a}/{+b}{/c,d}{?e,f}{&g}{#h}{.i}{;j}{a}')).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j']);
    expect(templateVariables('x://plain')).toEqual([]);
  });

  it('refuses what is not a template', () => {
    for (const t of ['x://{a', 'x://a}', 'x://{}', 'x://{a b}', 'x://{=a}', 'x://{a:0}']) expect(templateVariables(t), t).toBeUndefined();
    expect(expandTemplate('x://{a}', {})).toBeUndefined();
  });

  it('expands as RFC 6570 section 3.2 does', () => {
    const v = { var: 'value', hello: 'Hello World!', path: '/foo/bar', empty: '', x: '1024', y: '768' };
    expect(expandTemplate('{var}', v)).toBe('value');
    expect(expandTemplate('{hello}', v)).toBe('Hello%20World%21');
    expect(expandTemplate('{+hello}', v)).toBe('Hello%20World!');
    expect(expandTemplate('{+path}/here', v)).toBe('/foo/bar/here');
    expect(expandTemplate('{#path}', v)).toBe('#/foo/bar');
    expect(expandTemplate('map?{x,y}', v)).toBe('map?1024,768');
    expect(expandTemplate('X{.x,y}', v)).toBe('X.1024.768');
    expect(expandTemplate('{/var,x}/here', v)).toBe('/value/1024/here');
    expect(expandTemplate('{;x,y,empty}', v)).toBe(';x=1024;y=768;empty');
    expect(expandTemplate('{?x,y,empty}', v)).toBe('?x=1024&y=768&empty=');
    expect(expandTemplate('?fixed=yes{&x}', v)).toBe('?fixed=yes&x=1024');
    expect(expandTemplate('{var:3}', v)).toBe('val');
    expect(expandTemplate('{path*}', v)).toBe('%2Ffoo%2Fbar');
  });
});

const check = CHECKS.find((c) => c.id === 'resources.template-read')!;
const ctx = { era: 'modern', version: '2026-07-28', transport: 'stdio', capabilities: { resources: {} } } as const;
const ex = (response?: unknown, extra: Partial<Exchange> = {}): Exchange => ({
  request: { jsonrpc: '2.0', id: 1, method: 'resources/read' }, method: 'resources/read', messages: response ? [response] : [], ...(response ? { response } : {}),
  timedOut: !response, elapsedMs: 1, startedAt: 0, timeoutMs: 1000, seq: [1], ...extra,
});
const URI = 'x://items/1';
const read = (response?: unknown, o: Partial<TemplateRead> = {}): TemplateRead => ({ uriTemplate: 'x://items/{id}', uri: URI, values: { id: '1' }, suggested: [], completions: [], exchange: ex(response), ...o });
const contents = (uri: string) => ({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete', contents: [{ uri, text: 'hi' }] } });
const error = (code: number, message = 'x') => ({ jsonrpc: '2.0', id: 1, error: { code, message } });
const judge = (o: Partial<TemplatesObs>) => check.judge({ unusable: [], reads: [], ...o }, ctx);

describe('resources.template-read', () => {
  it('holds on contents for the expanded uri, or a not-found answer (-32602, or the legacy -32002)', () => {
    expect(judge({ reads: [read(contents(URI), { suggested: ['id'] })] })).toMatchObject({ outcome: 'holds', message: '1 expanded template(s) read: 1 with contents for the uri asked' });
    const notFound = judge({ reads: [read(contents(URI)), read(error(-32602, 'Resource not found')), read(error(-32002))] });
    expect(notFound).toMatchObject({ outcome: 'holds', message: expect.stringMatching(/^3 expanded template\(s\) read: 1 with contents for the uri asked, 2 answered as not found \(x:\/\/items\/1 with a plain value/) });
  });

  it('is violated by an internal or other error, empty contents, contents for another uri, or silence', () => {
    const internal = judge({ reads: [read(error(-32603, 'Internal error'), { suggested: ['id'] })] });
    expect(internal.outcome).toBe('violated');
    expect(internal.message).toBe('1 of 1 expanded templates did not read back; first: x://items/{id} as x://items/1 (the value its completion/complete suggested) got error -32603 "Internal error", neither contents nor "not found"');
    expect(judge({ reads: [read(error(-32601))] }).outcome).toBe('violated');
    expect(judge({ reads: [read({ jsonrpc: '2.0', id: 1, result: { contents: [] } })] }).message).toMatch(/empty contents/);
    expect(judge({ reads: [read(contents('x://items/2'))] }).message).toMatch(/got contents for "x:\/\/items\/2", none for the uri asked/);
    expect(judge({ reads: [read()] }).message).toMatch(/no answer within the 1000 ms timeout/);
  });

  it('is untestable with no template to expand, or no answer before the run ended', () => {
    expect(judge({})).toEqual({ outcome: 'untestable', message: 'the server lists no resource template' });
    expect(judge({ listingFailed: ex(error(-32601, 'Method not found')) }).message).toMatch(/^resources\/templates\/list got error -32601/);
    expect(judge({ unusable: ['x://{a'] }).message).toMatch(/no listed template is an RFC 6570 template/);
    expect(judge({ reads: [{ ...read(), exchange: ex(undefined, { aborted: true }) }] }).outcome).toBe('untestable');
  });
});
