import { describe, expect, it } from 'vitest';
import { isValidExtensionId, isValidMetaKey, metaKeyFindings, metaKeyProblem } from '../../protocol/meta-keys.js';
import { CHECKS } from '../../suites/catalogue.js';
import type { RunObservations } from '../../suites/kit/observations.js';
import type { WireEvent } from '../../results/wire.js';

describe('the _meta key grammar (MT-10)', () => {
  it.each([
    'progressToken', 'io.modelcontextprotocol/protocolVersion', 'com.example/', 'a/b', 'x-request-id', 'a.b_c-d9',
    'org.modelcontextprotocol.api/x', 'dev.mcp/related-task', 'traceparent', 'baggage', '7', 'com.example-2/x',
  ])('accepts %j', (key) => expect(isValidMetaKey(key)).toBe(true));

  it.each([
    ['_fastmcp', /name/], ['com.example/_trace', /name/], ['com.example_fixture/hint', /prefix label "example_fixture"/],
    ['1com/x', /prefix label "1com"/], ['com-/x', /prefix label "com-"/], ['com..example/x', /prefix label ""/],
    ['a/b/c', /name "b\/c"/], ['trace id', /name/], ['x-', /name/], ['/x', /prefix label ""/],
  ])('refuses %j and says why', (key, why) => {
    expect(isValidMetaKey(key)).toBe(false);
    expect(metaKeyProblem(key)).toMatch(why);
  });

  it('extension identifiers need a prefix (MT-11)', () => {
    expect(isValidExtensionId('io.modelcontextprotocol/tasks')).toBe(true);
    expect(isValidExtensionId('com.example/ui-kit')).toBe(true);
    expect(isValidExtensionId('tasks')).toBe(false);
    expect(isValidExtensionId('io_x/tasks')).toBe(false);
  });
});

describe('metaKeyFindings: where _meta keys are looked for', () => {
  it('finds keys in every _meta of MCP structure, with a pointer', () => {
    const msg = { jsonrpc: '2.0', id: 1, result: { _meta: { ok: 1, '-bad': 1 }, tools: [{ name: 't', _meta: { 'a/b/c': 1 } }] } };
    expect(metaKeyFindings(msg).map((f) => [f.pointer, f.key])).toEqual([['/result/_meta/-bad', '-bad'], ['/result/tools/0/_meta/a~1b~1c', 'a/b/c']]);
  });

  it('leaves free-form data alone: schemas, arguments, structured content, error data, elicited content, _meta values', () => {
    const bad = { _meta: { _x: 1 } };
    const msg = {
      jsonrpc: '2.0', id: 1,
      result: {
        tools: [{ name: 't', inputSchema: { type: 'object', properties: { _meta: { type: 'object' } }, ...bad }, outputSchema: bad }],
        structuredContent: bad, content: [{ type: 'text', text: 'x' }], _meta: { 'com.example/x': bad },
      },
      params: { arguments: bad, requestedSchema: bad },
      error: { code: 1, message: 'm', data: bad },
    };
    expect(metaKeyFindings(msg)).toEqual([]);
    expect(metaKeyFindings({ jsonrpc: '2.0', id: 2, result: { action: 'accept', content: { _meta: { _x: 1 } } } })).toEqual([]);
  });

  it('judges extension ids in capabilities and in the modern per-request client capabilities', () => {
    const server = { jsonrpc: '2.0', id: 1, result: { capabilities: { extensions: { 'io.modelcontextprotocol/tasks': {}, tasks: {} } } } };
    expect(metaKeyFindings(server).map((f) => f.pointer)).toEqual(['/result/capabilities/extensions/tasks']);
    const client = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/clientCapabilities': { extensions: { ui: {} } } } } };
    expect(metaKeyFindings(client)[0]).toMatchObject({ key: 'ui', problem: expect.stringMatching(/vendor prefix/) });
  });
});

describe('meta.key-names and client.meta-key-names judge every message of their side', () => {
  const obs = (messages: unknown[], dir: 'in' | 'out' = 'in'): RunObservations => ({
    exchanges: [], version: '2026-07-28', transport: 'stdio', deliberate: () => false,
    events: messages.map((message, i) => ({ seq: i + 1, dir, kind: 'message', channel: 'stdio', raw: JSON.stringify(message), message, at: 0 }) as unknown as WireEvent),
  });
  const judge = (id: string, o: RunObservations) => CHECKS.find((c) => c.id === id)!.judge(o, { era: 'modern', version: '2026-07-28', transport: 'stdio', capabilities: {} });

  for (const id of ['meta.key-names', 'client.meta-key-names']) {
    it(id, () => {
      expect(judge(id, obs([{ jsonrpc: '2.0', id: 1, result: { _meta: { 'io.modelcontextprotocol/serverInfo': {} } } }])).outcome).toBe('holds');
      const v = judge(id, obs([{ jsonrpc: '2.0', id: 1, result: {} }, { jsonrpc: '2.0', id: 2, method: 'x', params: { _meta: { _fastmcp: {} } } }]));
      expect(v).toMatchObject({ outcome: 'violated', message: expect.stringContaining('"_fastmcp"') });
      // What mcpspec itself sent is never the peer's fault.
      expect(judge(id, obs([{ jsonrpc: '2.0', id: 2, method: 'x', params: { _meta: { _x: 1 } } }], 'out')).outcome).toBe('untestable');
    });
  }
});

describe('meta.required-keys evidence', () => {
  const judge = CHECKS.find((c) => c.id === 'meta.required-keys')!;
  const lacking = (id: number, method: string, answer: Record<string, unknown>) => ({
    id, method, request: { jsonrpc: '2.0', id, method, params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } },
    response: { jsonrpc: '2.0', id, ...answer }, messages: [], timedOut: false, elapsedMs: 1, startedAt: 0, timeoutMs: 1000, seq: [id],
  });
  it('names what each request lacked and how it was answered, one of each kind first', () => {
    const wrongCode = [1, 2, 3, 4].map((i) => lacking(i, 'tools/list', { error: { code: -32601, message: 'Method not found' } }));
    const served = lacking(5, 'tools/list', { result: { tools: [] } });
    const j = judge.judge({ exchanges: [...wrongCode, served], events: [], transport: 'stdio' } as never, { era: 'modern', version: '2026-07-28', transport: 'stdio', capabilities: {} });
    expect(j.outcome).toBe('violated');
    const whats = (j as { evidence: { what: string }[] }).evidence.map((e) => e.what);
    expect(whats).toHaveLength(3);
    expect(whats[0]).toBe('tools/list without io.modelcontextprotocol/clientCapabilities: error -32601 "Method not found"');
    expect(whats[1]).toBe('tools/list without io.modelcontextprotocol/clientCapabilities: a result');
  });
});

describe('meta.server-info (MT-06)', () => {
  const judge = CHECKS.find((c) => c.id === 'meta.server-info')!;
  const answered = (id: number, meta: unknown) => ({
    id, method: 'tools/list', request: { jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } },
    response: { jsonrpc: '2.0', id, result: { tools: [], resultType: 'complete', _meta: meta } }, messages: [], timedOut: false, elapsedMs: 1, startedAt: 0, timeoutMs: 1000, seq: [id],
  });
  const run = (...exchanges: unknown[]) => judge.judge({ exchanges, events: [], transport: 'stdio' } as never, { era: 'modern', version: '2026-07-28', transport: 'stdio', capabilities: {} });
  const INFO = 'io.modelcontextprotocol/serverInfo';
  it('holds when every result names the server with name and version', () => {
    expect(run(answered(1, { [INFO]: { name: 's', version: '1' } })).outcome).toBe('holds');
  });
  it('fails a serverInfo without its version (an Implementation needs both), and names each kind of problem', () => {
    const j = run(answered(1, {}), answered(2, {}), answered(3, {}), answered(4, { [INFO]: { name: 's' } }));
    expect(j.outcome).toBe('violated');
    expect((j as { evidence: { what: string }[] }).evidence.map((e) => e.what).slice(0, 2)).toEqual(['tools/list result without serverInfo', 'tools/list result with a serverInfo lacking version']);
  });
});
