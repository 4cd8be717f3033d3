// The feature-area mutations (tools, resources, prompts, completion, logging, progress, cancellation,
// input_required, tasks, subscriptions): each one fed a realistic exchange through a Mutator changes
// what it names, applies the number of times expected, and leaves another kind of message alone.
import { describe, expect, it } from 'vitest';
import { CANCELLATION_MUTATIONS } from '../../mutation/catalogue/cancellation.js';
import { COMPLETION_MUTATIONS } from '../../mutation/catalogue/completion.js';
import { INPUT_REQUIRED_MUTATIONS } from '../../mutation/catalogue/input-required.js';
import { LOGGING_MUTATIONS } from '../../mutation/catalogue/logging.js';
import { PROGRESS_MUTATIONS } from '../../mutation/catalogue/progress.js';
import { PROMPTS_MUTATIONS } from '../../mutation/catalogue/prompts.js';
import { RESOURCES_MUTATIONS } from '../../mutation/catalogue/resources.js';
import { SUBSCRIPTIONS_MUTATIONS } from '../../mutation/catalogue/subscriptions.js';
import { TASKS_MUTATIONS } from '../../mutation/catalogue/tasks.js';
import { TOOLS_MUTATIONS } from '../../mutation/catalogue/tools.js';
import { isRaw, type Mutation } from '../../mutation/mutation.js';
import { Mutator } from '../../mutation/mutator.js';
import { modernMeta } from '../../protocol/meta.js';

type Obj = Record<string, any>;

const AREAS: Record<string, Mutation[]> = {
  tools: TOOLS_MUTATIONS,
  resources: RESOURCES_MUTATIONS,
  prompts: PROMPTS_MUTATIONS,
  completion: COMPLETION_MUTATIONS,
  logging: LOGGING_MUTATIONS,
  progress: PROGRESS_MUTATIONS,
  cancellation: CANCELLATION_MUTATIONS,
  'input-required': INPUT_REQUIRED_MUTATIONS,
  tasks: TASKS_MUTATIONS,
  subscriptions: SUBSCRIPTIONS_MUTATIONS,
};
const ALL = Object.values(AREAS).flat();
const TASKS_EXT = 'io.modelcontextprotocol/tasks';
const SID = 'io.modelcontextprotocol/subscriptionId';
const RELATED = 'io.modelcontextprotocol/related-task';

function mutator(id: string, transport: 'stdio' | 'http' = 'stdio'): Mutator {
  const m = ALL.find((x) => x.id === id);
  if (!m) throw new Error(`no mutation ${id}`);
  return new Mutator(m, transport);
}

/** Modern params: the per-request _meta with these client capabilities (and extra _meta keys). */
function modern(params: Obj = {}, caps: Obj = {}, meta: Obj = {}): Obj {
  return { ...params, _meta: { ...modernMeta('2026-07-28', caps), ...meta } };
}
const req = (id: number | string, method: string, params: Obj = {}): Obj => ({ jsonrpc: '2.0', id, method, params });
const ok = (id: number | string, result: Obj): Obj => ({ jsonrpc: '2.0', id, result });
const fail = (id: number | string, code: number, message = 'refused', data?: unknown): Obj => ({ jsonrpc: '2.0', id, error: { code, message, ...(data === undefined ? {} : { data }) } });
const note = (method: string, params: Obj = {}): Obj => ({ jsonrpc: '2.0', method, params });

/** Sends the request on to the server, then the answer back: what the client gets. */
function exchange(mx: Mutator, request: Obj, answer: Obj): Obj[] {
  mx.toServer(request);
  const out = mx.toClient(answer) as Obj[];
  mx.settle(answer);
  return out;
}

/** The message goes by unchanged (the very object) and the mutation does not count it. */
function untouched(mx: Mutator, message: Obj, request?: Obj): void {
  if (request) mx.toServer(request);
  const before = mx.applied;
  const out = mx.toClient(message);
  expect(out).toHaveLength(1);
  expect(out[0]).toBe(message);
  expect(mx.applied).toBe(before);
}

const text = (t: string) => ({ type: 'text', text: t });
const listTools = (tools: Obj[], cursor?: string) => ok(1, { tools, ...(cursor ? { nextCursor: cursor } : {}), resultType: 'complete', ttlMs: 0, cacheScope: 'public' });
const WEATHER = { name: 'weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } }, outputSchema: { type: 'object', properties: { temp: { type: 'number' }, sky: { type: 'string' } }, required: ['temp'] } };
const ECHO = { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } };

function withTools(mx: Mutator, tools: Obj[] = [WEATHER, ECHO], params: Obj = modern()): void {
  exchange(mx, req(1, 'tools/list', params), listTools(tools));
}

const cases: Record<string, () => void> = {
  // --- tools ---------------------------------------------------------------------------------------
  'tools.structured-content-missing': () => {
    const mx = mutator('tools.structured-content-missing');
    withTools(mx);
    expect(mx.applied).toBe(0);
    const [out] = exchange(mx, req(2, 'tools/call', modern({ name: 'weather', arguments: { city: 'Oslo' } })), ok(2, { resultType: 'complete', content: [text('{"temp":3}')], structuredContent: { temp: 3 } }));
    expect(out.result.structuredContent).toBeUndefined();
    expect(out.result.content).toHaveLength(1);
    expect(mx.applied).toBe(1);
    untouched(mx, ok(3, { resultType: 'complete', content: [text('hi')], structuredContent: { x: 1 } }), req(3, 'tools/call', modern({ name: 'echo', arguments: { text: 'hi' } })));
  },
  'tools.structured-content-nonconforming': () => {
    const mx = mutator('tools.structured-content-nonconforming');
    withTools(mx);
    const [out] = exchange(mx, req(2, 'tools/call', modern({ name: 'weather' })), ok(2, { resultType: 'complete', content: [text('x')], structuredContent: { temp: 3, sky: 'grey' } }));
    expect(out.result.structuredContent).toEqual({ sky: 'grey' });
    const [wrapped] = exchange(mx, req(4, 'tools/call', modern({ name: 'weather' })), ok(4, { resultType: 'complete', content: [text('x')], structuredContent: 'oops' }));
    expect(wrapped.result.structuredContent).toEqual(['oops']);
    expect(mx.applied).toBe(2);
    untouched(mx, ok(3, { resultType: 'complete', content: [text('x')], isError: true, structuredContent: { temp: 1 } }), req(3, 'tools/call', modern({ name: 'weather' })));
  },
  'tools.input-schema-no-type': () => {
    const mx = mutator('tools.input-schema-no-type');
    mx.toServer(req(1, 'tools/list', modern()));
    const [out] = mx.toClient(listTools([structuredClone(ECHO), structuredClone(WEATHER)])) as Obj[];
    expect(out.result.tools[0].inputSchema).toEqual({ properties: { text: { type: 'string' } } });
    expect(out.result.tools[1].inputSchema.type).toBe('object');
    expect(mx.applied).toBe(1);
    untouched(mx, ok(2, { resultType: 'complete', content: [] }), req(2, 'tools/call', modern({ name: 'echo' })));
  },
  'tools.input-schema-null': () => {
    const mx = mutator('tools.input-schema-null');
    const [out] = exchange(mx, req(1, 'tools/list', modern()), listTools([structuredClone(ECHO), structuredClone(WEATHER)]));
    expect(out.result.tools[0].inputSchema).toBeNull();
    expect(out.result.tools[1].inputSchema).toEqual(WEATHER.inputSchema);
    expect(mx.applied).toBe(1);
    untouched(mx, ok(2, { resultType: 'complete', prompts: [] }), req(2, 'prompts/list', modern()));
  },
  'tools.name-invalid-characters': () => {
    const mx = mutator('tools.name-invalid-characters', 'http');
    const [out] = exchange(mx, req(1, 'tools/list', modern()), listTools([structuredClone(ECHO)]));
    expect(out.result.tools[0].name).toBe('echo (beta)');
    const call = req(2, 'tools/call', modern({ name: 'echo (beta)', arguments: { text: 'a' } }));
    const [sent] = mx.toServer(call) as Obj[];
    expect(sent.params.name).toBe('echo');
    const ask = mx.httpAsk({ method: 'POST', headers: { 'mcp-method': 'tools/call', 'mcp-name': 'echo (beta)' }, body: sent }, mx.seenFromClient(call));
    expect(ask.headers['mcp-name']).toBe('echo');
    expect(mx.applied).toBe(3);
    untouched(mx, ok(2, { resultType: 'complete', content: [text('a')] }));
  },
  'tools.name-too-long': () => {
    const mx = mutator('tools.name-too-long');
    const [out] = exchange(mx, req(1, 'tools/list', modern()), listTools([structuredClone(ECHO), structuredClone(WEATHER)]));
    expect(out.result.tools[0].name).toHaveLength(140);
    expect(out.result.tools[0].name.startsWith('echo_x')).toBe(true);
    expect(out.result.tools[1].name).toBe('weather');
    const [sent] = mx.toServer(req(2, 'tools/call', modern({ name: out.result.tools[0].name }))) as Obj[];
    expect(sent.params.name).toBe('echo');
    expect(mx.applied).toBe(2);
    const plain = req(3, 'tools/call', modern({ name: 'weather' }));
    expect(mx.toServer(plain)[0]).toBe(plain);
  },
  'tools.name-duplicate': () => {
    const mx = mutator('tools.name-duplicate');
    const [out] = exchange(mx, req(1, 'tools/list', modern()), listTools([structuredClone(ECHO), structuredClone(WEATHER)]));
    expect(out.result.tools.map((t: Obj) => t.name)).toEqual(['echo', 'weather', 'echo']);
    expect(mx.applied).toBe(1);
    untouched(mx, ok(2, { resultType: 'complete', content: [] }), req(2, 'tools/call', modern({ name: 'echo' })));
  },
  'tools.unknown-tool-as-result': () => {
    const mx = mutator('tools.unknown-tool-as-result');
    withTools(mx);
    const [out] = exchange(mx, req(2, 'tools/call', modern({ name: 'no_such_tool' })), fail(2, -32602, 'Unknown tool'));
    expect(out.error).toBeUndefined();
    expect(out.result).toMatchObject({ resultType: 'complete', isError: true });
    expect(mx.applied).toBe(1);
    untouched(mx, fail(3, -32602, 'bad arguments'), req(3, 'tools/call', modern({ name: 'echo', arguments: 5 })));
  },
  'tools.execution-error-as-protocol-error': () => {
    const mx = mutator('tools.execution-error-as-protocol-error');
    const [out] = exchange(mx, req(2, 'tools/call', modern({ name: 'echo', arguments: {} })), ok(2, { resultType: 'complete', content: [text('text is required')], isError: true }));
    expect(out.result).toBeUndefined();
    expect(out.error).toEqual({ code: -32602, message: 'text is required' });
    expect(mx.applied).toBe(1);
    // A 2025-06-18 session may still report argument failures as -32602: left alone.
    const legacy = mutator('tools.execution-error-as-protocol-error');
    exchange(legacy, req(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } }), ok(1, { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 's', version: '1' } }));
    untouched(legacy, ok(2, { content: [text('bad')], isError: true }), req(2, 'tools/call', { name: 'echo', arguments: {} }));
    untouched(mx, ok(3, { resultType: 'complete', content: [text('fine')] }), req(3, 'tools/call', modern({ name: 'echo' })));
  },
  'tools.content-text-field': () => {
    const mx = mutator('tools.content-text-field');
    const [out] = exchange(mx, req(2, 'tools/call', modern({ name: 'echo' })), ok(2, { resultType: 'complete', content: [text('hello'), { type: 'image', data: 'AAAA', mimeType: 'image/png' }] }));
    expect(out.result.content[0]).toEqual({ type: 'text', content: 'hello' });
    expect(out.result.content[1].type).toBe('image');
    expect(mx.applied).toBe(1);
    untouched(mx, ok(3, { resultType: 'complete', messages: [{ role: 'user', content: text('x') }] }), req(3, 'prompts/get', modern({ name: 'p' })));
  },

  // --- resources -----------------------------------------------------------------------------------
  'resources.unknown-empty-contents': () => {
    const mx = mutator('resources.unknown-empty-contents');
    exchange(mx, req(1, 'resources/list', modern()), ok(1, { resultType: 'complete', resources: [{ uri: 'file:///a.txt', name: 'a' }], ttlMs: 0, cacheScope: 'public' }));
    const [out] = exchange(mx, req(2, 'resources/read', modern({ uri: 'mcpspec://unknown' })), fail(2, -32602, 'Resource not found'));
    expect(out.result).toEqual({ resultType: 'complete', contents: [], ttlMs: 0, cacheScope: 'private' });
    expect(mx.applied).toBe(1);
    untouched(mx, fail(3, -32602, 'bad'), req(3, 'resources/read', modern({ uri: 'file:///a.txt' })));
  },
  'resources.unknown-retired-code': () => {
    const mx = mutator('resources.unknown-retired-code');
    const [out] = exchange(mx, req(2, 'resources/read', modern({ uri: 'mcpspec://unknown' })), fail(2, -32602, 'Resource not found'));
    expect(out.error).toEqual({ code: -32002, message: 'Resource not found', data: { uri: 'mcpspec://unknown' } });
    expect(mx.applied).toBe(1);
    untouched(mx, fail(3, -32602, 'Unknown tool'), req(3, 'tools/call', modern({ name: 'x' })));
  },
  'resources.unknown-legacy-code': () => {
    const mx = mutator('resources.unknown-legacy-code');
    const [out] = exchange(mx, req(2, 'resources/read', { uri: 'mcpspec://unknown' }), fail(2, -32002, 'Resource not found'));
    expect(out.error.code).toBe(-32602);
    expect(mx.applied).toBe(1);
    // The same answer in a modern exchange is not this mutation's (another era).
    untouched(mx, fail(3, -32002, 'Resource not found'), req(3, 'resources/read', modern({ uri: 'mcpspec://unknown' })));
  },
  'resources.contents-uri-mismatch': () => {
    const mx = mutator('resources.contents-uri-mismatch');
    exchange(mx, req(1, 'resources/list', modern()), ok(1, { resultType: 'complete', resources: [{ uri: 'file:///a.txt', name: 'a' }, { uri: 'file:///b.txt', name: 'b' }], ttlMs: 0, cacheScope: 'public' }));
    const [out] = exchange(mx, req(2, 'resources/read', modern({ uri: 'file:///a.txt' })), ok(2, { resultType: 'complete', contents: [{ uri: 'file:///a.txt', text: 'A' }], ttlMs: 0, cacheScope: 'public' }));
    expect(out.result.contents[0].uri).toBe('file:///b.txt');
    expect(mx.applied).toBe(1);
    untouched(mx, fail(3, -32602, 'nope'), req(3, 'resources/read', modern({ uri: 'file:///zzz' })));
  },
  'resources.contents-without-uri': () => {
    const mx = mutator('resources.contents-without-uri');
    const [out] = exchange(mx, req(2, 'resources/read', { uri: 'file:///a.txt' }), ok(2, { contents: [{ uri: 'file:///a.txt', mimeType: 'text/plain', text: 'A' }] }));
    expect(out.result.contents[0]).toEqual({ mimeType: 'text/plain', text: 'A' });
    expect(mx.applied).toBe(1);
    untouched(mx, ok(3, { resources: [{ uri: 'file:///a.txt', name: 'a' }] }), req(3, 'resources/list', {}));
  },
  'resources.blob-not-base64': () => {
    const mx = mutator('resources.blob-not-base64');
    const [out] = exchange(mx, req(2, 'resources/read', modern({ uri: 'file:///a.bin' })), ok(2, { resultType: 'complete', contents: [{ uri: 'file:///a.bin', blob: 'AAECAw==' }], ttlMs: 0, cacheScope: 'public' }));
    expect(out.result.contents[0].blob).toMatch(/ /);
    expect(mx.applied).toBe(1);
    untouched(mx, ok(3, { resultType: 'complete', contents: [{ uri: 'file:///a.txt', text: 'A' }], ttlMs: 0, cacheScope: 'public' }), req(3, 'resources/read', modern({ uri: 'file:///a.txt' })));
  },
  'resources.template-without-uri-template': () => {
    const mx = mutator('resources.template-without-uri-template');
    const [out] = exchange(mx, req(2, 'resources/templates/list', modern()), ok(2, { resultType: 'complete', resourceTemplates: [{ name: 'file', uriTemplate: 'file:///{path}' }], ttlMs: 0, cacheScope: 'public' }));
    expect(out.result.resourceTemplates[0]).toEqual({ name: 'file', uri: 'file:///{path}' });
    expect(mx.applied).toBe(1);
    untouched(mx, ok(3, { resultType: 'complete', resources: [{ uri: 'file:///a.txt', name: 'a' }], ttlMs: 0, cacheScope: 'public' }), req(3, 'resources/list', modern()));
  },

  // --- prompts -------------------------------------------------------------------------------------
  ...(() => {
    const listed = (mx: Mutator) => exchange(mx, req(1, 'prompts/list', modern()), ok(1, { resultType: 'complete', prompts: [{ name: 'greet', arguments: [{ name: 'who', required: true }, { name: 'tone' }] }, { name: 'plain' }], ttlMs: 0, cacheScope: 'public' }));
    const rendered = (id: number) => ok(id, { resultType: 'complete', messages: [{ role: 'user', content: text('Hello Ada') }, { role: 'assistant', content: text('Hi') }] });
    return {
      'prompts.unknown-empty-messages': () => {
        const mx = mutator('prompts.unknown-empty-messages');
        listed(mx);
        const [out] = exchange(mx, req(2, 'prompts/get', modern({ name: 'nope' })), fail(2, -32602, 'Unknown prompt'));
        expect(out.result).toEqual({ resultType: 'complete', messages: [] });
        expect(mx.applied).toBe(1);
        untouched(mx, fail(3, -32602, 'who is required'), req(3, 'prompts/get', modern({ name: 'greet', arguments: {} })));
      },
      'prompts.unknown-method-not-found': () => {
        const mx = mutator('prompts.unknown-method-not-found');
        listed(mx);
        const [out] = exchange(mx, req(2, 'prompts/get', modern({ name: 'nope' })), fail(2, -32602, 'Unknown prompt'));
        expect(out.error.code).toBe(-32601);
        expect(mx.applied).toBe(1);
        untouched(mx, rendered(3), req(3, 'prompts/get', modern({ name: 'greet', arguments: { who: 'Ada' } })));
      },
      'prompts.missing-argument-rendered': () => {
        const mx = mutator('prompts.missing-argument-rendered');
        listed(mx);
        const [out] = exchange(mx, req(2, 'prompts/get', modern({ name: 'greet', arguments: { tone: 'warm' } })), fail(2, -32602, 'who is required'));
        expect(out.error).toBeUndefined();
        expect(out.result.messages[0].role).toBe('user');
        expect(mx.applied).toBe(1);
        untouched(mx, fail(3, -32602, 'Unknown prompt'), req(3, 'prompts/get', modern({ name: 'nope' })));
      },
      'prompts.role-system': () => {
        const mx = mutator('prompts.role-system');
        const [out] = exchange(mx, req(2, 'prompts/get', modern({ name: 'greet', arguments: { who: 'Ada' } })), rendered(2));
        expect(out.result.messages.map((m: Obj) => m.role)).toEqual(['system', 'assistant']);
        expect(mx.applied).toBe(1);
        untouched(mx, fail(3, -32602, 'x'), req(3, 'prompts/get', modern({ name: 'nope' })));
      },
      'prompts.content-array': () => {
        const mx = mutator('prompts.content-array');
        const [out] = exchange(mx, req(2, 'prompts/get', { name: 'greet', arguments: { who: 'Ada' } }), rendered(2));
        expect(out.result.messages[0].content).toEqual([text('Hello Ada')]);
        expect(mx.applied).toBe(1);
        untouched(mx, ok(3, { content: [text('x')] }), req(3, 'tools/call', { name: 'echo' }));
      },
    };
  })(),

  // --- completion ----------------------------------------------------------------------------------
  'completion.over-100-values': () => {
    const mx = mutator('completion.over-100-values');
    const [out] = exchange(mx, req(2, 'completion/complete', modern({ ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'who', value: 'A' } })), ok(2, { resultType: 'complete', completion: { values: ['Ada', 'Alan'], hasMore: true } }));
    expect(out.result.completion.values).toHaveLength(101);
    expect(out.result.completion.values.every((v: unknown) => typeof v === 'string')).toBe(true);
    expect(mx.applied).toBe(1);
    untouched(mx, fail(3, -32602, 'unknown prompt'), req(3, 'completion/complete', modern({ ref: { type: 'ref/prompt', name: 'x' } })));
  },
  'completion.values-not-strings': () => {
    const mx = mutator('completion.values-not-strings');
    const [out] = exchange(mx, req(2, 'completion/complete', {}), ok(2, { completion: { values: ['Ada'] } }));
    expect(out.result.completion.values).toEqual([{ value: 'Ada' }]);
    expect(mx.applied).toBe(1);
    untouched(mx, ok(3, { completion: { values: [] } }), req(3, 'completion/complete', {}));
  },
  'completion.invalid-ref-empty': () => {
    const mx = mutator('completion.invalid-ref-empty');
    const [out] = exchange(mx, req(2, 'completion/complete', modern({ ref: { type: 'ref/prompt', name: 'nope' } })), fail(2, -32602, 'Unknown prompt'));
    expect(out.result).toEqual({ resultType: 'complete', completion: { values: [], total: 0, hasMore: false } });
    expect(mx.applied).toBe(1);
    untouched(mx, fail(3, -32601, 'Method not found'), req(3, 'completion/complete', modern({})));
  },
  'completion.unsupported-served': () => {
    const mx = mutator('completion.unsupported-served');
    const [out] = exchange(mx, req(2, 'completion/complete', {}), fail(2, -32601, 'Method not found'));
    expect(out.result).toEqual({ completion: { values: [] } });
    expect(mx.applied).toBe(1);
    untouched(mx, fail(3, -32601, 'Method not found'), req(3, 'resources/subscribe', { uri: 'file:///a' }));
  },

  // --- logging -------------------------------------------------------------------------------------
  'logging.without-log-level': () => {
    const mx = mutator('logging.without-log-level');
    const answer = ok(2, { resultType: 'complete', content: [] });
    const out = exchange(mx, req(2, 'tools/call', modern({ name: 'echo' })), answer);
    expect(out).toHaveLength(2);
    expect(out[0]).toMatchObject({ method: 'notifications/message', params: { level: 'info' } });
    expect(out[1]).toEqual(answer);
    expect(mx.applied).toBe(1);
    untouched(mx, ok(3, { resultType: 'complete', content: [] }), req(3, 'tools/call', modern({ name: 'echo' }, {}, { 'io.modelcontextprotocol/logLevel': 'debug' })));
  },
  'logging.below-level': () => {
    const mx = mutator('logging.below-level');
    const out = exchange(mx, req(2, 'tools/call', modern({ name: 'echo' }, {}, { 'io.modelcontextprotocol/logLevel': 'warning' })), ok(2, { resultType: 'complete', content: [] }));
    expect(out.map((m) => m.params?.level ?? 'answer')).toEqual(['notice', 'answer']);
    expect(mx.applied).toBe(1);
    untouched(mx, ok(3, { resultType: 'complete', content: [] }), req(3, 'tools/call', modern({ name: 'echo' }, {}, { 'io.modelcontextprotocol/logLevel': 'debug' })));
  },
  'logging.after-response': () => {
    const mx = mutator('logging.after-response');
    const out = exchange(mx, req(2, 'resources/read', modern({ uri: 'file:///a' }, {}, { 'io.modelcontextprotocol/logLevel': 'error' })), ok(2, { resultType: 'complete', contents: [], ttlMs: 0, cacheScope: 'public' }));
    expect(out[0].id).toBe(2);
    expect(out[1]).toMatchObject({ method: 'notifications/message', params: { level: 'error' } });
    expect(mx.applied).toBe(1);
    untouched(mx, ok(3, { resultType: 'complete', content: [] }), req(3, 'tools/call', modern({ name: 'echo' })));
  },
  'logging.set-level-served-modern': () => {
    const mx = mutator('logging.set-level-served-modern');
    const [out] = exchange(mx, req(2, 'logging/setLevel', modern({ level: 'info' })), fail(2, -32601, 'Method not found'));
    expect(out.result).toEqual({ resultType: 'complete' });
    expect(mx.applied).toBe(1);
    untouched(mx, fail(3, -32601, 'Method not found'), req(3, 'logging/setLevel', { level: 'info' }));
    // On Streamable HTTP the result goes with 200, not the 404 of the -32601 it replaced.
    const http = mutator('logging.set-level-served-modern', 'http');
    const setLevel = req(4, 'logging/setLevel', modern({ level: 'info' }));
    const [served] = exchange(http, setLevel, fail(4, -32601, 'Method not found'));
    const head = http.httpAnswer({ status: 404, headers: { 'content-type': 'application/json' }, messages: [served], sse: false, request: http.seenFromClient(setLevel), method: 'POST' });
    expect(head.status).toBe(200);
    expect(http.applied).toBe(2);
    const other = req(5, 'tools/list', modern());
    const plain = { status: 200, headers: {}, messages: [listTools([])], sse: false, request: http.seenFromClient(other), method: 'POST' };
    expect(http.httpAnswer(plain)).toBe(plain);
  },
  'logging.undeclared-capability': () => {
    const mx = mutator('logging.undeclared-capability');
    const lvl = { 'io.modelcontextprotocol/logLevel': 'info' };
    untouched(mx, ok(1, { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, ttlMs: 0, cacheScope: 'public' }), req(1, 'server/discover', modern()));
    const out = exchange(mx, req(2, 'tools/call', modern({ name: 'echo' }, {}, lvl)), ok(2, { resultType: 'complete', content: [] }));
    expect(out.map((m) => m.method ?? 'answer')).toEqual(['notifications/message', 'answer']);
    expect(out[0].params.level).toBe('info');
    expect(mx.applied).toBe(1);
    untouched(mx, ok(3, { resultType: 'complete', content: [] }), req(3, 'tools/call', modern({ name: 'echo' })));
    // A server that declares logging: left alone.
    const declared = mutator('logging.undeclared-capability');
    untouched(declared, ok(1, { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { logging: {} }, ttlMs: 0, cacheScope: 'public' }), req(1, 'server/discover', modern()));
    untouched(declared, ok(2, { resultType: 'complete', content: [] }), req(2, 'tools/call', modern({ name: 'echo' }, {}, lvl)));
  },
  'logging.legacy-below-set-level': () => {
    const mx = mutator('logging.legacy-below-set-level');
    const out = exchange(mx, req(2, 'logging/setLevel', { level: 'info' }), ok(2, {}));
    expect(out).toHaveLength(2);
    expect(out[1]).toMatchObject({ method: 'notifications/message', params: { level: 'debug' } });
    expect(mx.applied).toBe(1);
    untouched(mx, ok(3, {}), req(3, 'logging/setLevel', { level: 'debug' }));
  },

  // --- progress ------------------------------------------------------------------------------------
  'progress.not-increasing': () => {
    const mx = mutator('progress.not-increasing');
    mx.toServer(req(2, 'tools/call', modern({ name: 'slow' }, {}, { progressToken: 't1' })));
    untouched(mx, note('notifications/progress', { progressToken: 't1', progress: 1, total: 3 }));
    const [out] = mx.toClient(note('notifications/progress', { progressToken: 't1', progress: 2, total: 3 })) as Obj[];
    expect(out.params.progress).toBe(1);
    expect(mx.applied).toBe(1);
    untouched(mx, ok(2, { resultType: 'complete', content: [] }));
  },
  'progress.unknown-token': () => {
    const mx = mutator('progress.unknown-token');
    mx.toServer(req(2, 'tools/call', modern({ name: 'slow' }, {}, { progressToken: 't1' })));
    const [out] = mx.toClient(note('notifications/progress', { progressToken: 't1', progress: 1 })) as Obj[];
    expect(out.params.progressToken).toBe('t1-server');
    const [num] = mx.toClient(note('notifications/progress', { progressToken: 7, progress: 1 })) as Obj[];
    expect(num.params.progressToken).toBe(100007);
    expect(mx.applied).toBe(2);
    untouched(mx, note('notifications/message', { level: 'info', data: 'x' }));
  },
  'progress.token-type': () => {
    const mx = mutator('progress.token-type');
    mx.toServer(req(2, 'tools/call', modern({ name: 'slow' }, {}, { progressToken: 7 })));
    const [out] = mx.toClient(note('notifications/progress', { progressToken: 7, progress: 1 })) as Obj[];
    expect(out.params.progressToken).toBe('7');
    expect(mx.applied).toBe(1);
    untouched(mx, note('notifications/progress', { progressToken: 'abc', progress: 1 }));
  },
  'progress.after-response': () => {
    const mx = mutator('progress.after-response');
    mx.toServer(req(2, 'tools/call', modern({ name: 'slow' }, {}, { progressToken: 5 })));
    untouched(mx, note('notifications/progress', { progressToken: 5, progress: 2, total: 10 }));
    const answer = ok(2, { resultType: 'complete', content: [] });
    const out = mx.toClient(answer) as Obj[];
    expect(out[0]).toEqual(answer);
    expect(out[1]).toEqual(note('notifications/progress', { progressToken: 5, progress: 3, total: 10 }));
    expect(mx.applied).toBe(1);
    untouched(mx, ok(3, { resultType: 'complete', content: [] }), req(3, 'tools/call', modern({ name: 'fast' })));
  },

  // --- cancellation --------------------------------------------------------------------------------
  'cancellation.answers-cancelled-request': () => {
    const mx = mutator('cancellation.answers-cancelled-request');
    mx.toServer(req(9, 'tools/call', modern({ name: 'slow' })));
    const cancel = note('notifications/cancelled', { requestId: 9, reason: 'user' });
    expect(mx.toServer(cancel)).toEqual([cancel]);
    expect(mx.takeReplies()).toEqual([{ jsonrpc: '2.0', id: 9, error: { code: -32800, message: 'Request cancelled' } }]);
    expect(mx.applied).toBe(1);
    // A cancellation of a request already answered gets nothing.
    mx.toServer(req(10, 'tools/call', modern({ name: 'fast' })));
    untouched(mx, ok(10, { resultType: 'complete', content: [] }));
    mx.toServer(note('notifications/cancelled', { requestId: 10 }));
    expect(mx.takeReplies()).toEqual([]);
    expect(mx.applied).toBe(1);
  },
  'cancellation.legacy-answers-cancelled-request': () => {
    const mx = mutator('cancellation.legacy-answers-cancelled-request');
    mx.toServer(req('a', 'tools/call', { name: 'slow' }));
    mx.toServer(note('notifications/cancelled', { requestId: 'a' }));
    expect(mx.takeReplies()).toEqual([{ jsonrpc: '2.0', id: 'a', error: { code: -32800, message: 'Request cancelled' } }]);
    expect(mx.applied).toBe(1);
    untouched(mx, ok('b', { content: [] }), req('b', 'tools/call', { name: 'fast' }));
  },
  'cancellation.progress-after-cancel': () => {
    const mx = mutator('cancellation.progress-after-cancel');
    mx.toServer(req(9, 'tools/call', modern({ name: 'slow' }, {}, { progressToken: 'p9' })));
    untouched(mx, note('notifications/progress', { progressToken: 'p9', progress: 3 }));
    mx.toServer(note('notifications/cancelled', { requestId: 9 }));
    expect(mx.takeReplies()).toEqual([note('notifications/progress', { progressToken: 'p9', progress: 4 })]);
    expect(mx.applied).toBe(1);
    // Without a progressToken there is nothing to send.
    mx.toServer(req(11, 'tools/call', modern({ name: 'slow' })));
    mx.toServer(note('notifications/cancelled', { requestId: 11 }));
    expect(mx.takeReplies()).toEqual([]);
    expect(mx.applied).toBe(1);
  },
  'cancellation.server-cancels-answered': () => {
    const mx = mutator('cancellation.server-cancels-answered');
    const answer = ok(4, { resultType: 'complete', content: [] });
    const out = exchange(mx, req(4, 'tools/call', modern({ name: 'echo' })), answer);
    expect(out[0]).toEqual(answer);
    expect(out[1]).toMatchObject({ method: 'notifications/cancelled', params: { requestId: 4 } });
    expect(mx.applied).toBe(1);
    untouched(mx, listTools([]), req(1, 'tools/list', modern()));
  },

  // --- input_required ------------------------------------------------------------------------------
  ...(() => {
    const CONFIRM = { method: 'elicitation/create', params: { mode: 'form', message: 'Echo this text?', requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] } } };
    const call = (id: number, extra: Obj = {}, caps: Obj = { elicitation: {} }) => req(id, 'tools/call', modern({ name: 'confirm_echo', arguments: { text: 'hi' }, ...extra }, caps));
    const asks = (id: number, state = 's1') => ok(id, { resultType: 'input_required', inputRequests: { confirm: structuredClone(CONFIRM) }, requestState: state });
    const done = (id: number) => ok(id, { resultType: 'complete', content: [text('hi')] });
    return {
      'input-required.neither-requests-nor-state': () => {
        const mx = mutator('input-required.neither-requests-nor-state');
        const [out] = exchange(mx, call(2), asks(2));
        expect(out.result).toEqual({ resultType: 'input_required' });
        expect(mx.applied).toBe(1);
        untouched(mx, done(3), call(3));
      },
      'input-required.asks-undeclared-capability': () => {
        const mx = mutator('input-required.asks-undeclared-capability');
        const [out] = exchange(mx, call(2, {}, {}), fail(2, -32021, 'This request needs the elicitation client capability', { requiredCapabilities: { elicitation: {} } }));
        expect(out.error).toBeUndefined();
        expect(out.result.resultType).toBe('input_required');
        expect(out.result.inputRequests.elicitation.method).toBe('elicitation/create');
        expect(mx.applied).toBe(1);
        untouched(mx, fail(3, -32021, 'needs tasks', { requiredCapabilities: { extensions: { [TASKS_EXT]: {} } } }), call(3, {}, {}));
      },
      'input-required.extra-undeclared-request': () => {
        const mx = mutator('input-required.extra-undeclared-request');
        const [out] = exchange(mx, call(2), asks(2));
        expect(Object.keys(out.result.inputRequests)).toEqual(['confirm', 'also_needed']);
        expect(out.result.inputRequests.also_needed.method).toBe('roots/list');
        const [url] = exchange(mx, call(4, {}, { elicitation: {}, sampling: { tools: {} }, roots: {} }), asks(4));
        expect(url.result.inputRequests.also_needed.params.mode).toBe('url');
        expect(mx.applied).toBe(2);
        untouched(mx, done(3), call(3));
      },
      'input-required.embedded-jsonrpc-members': () => {
        const mx = mutator('input-required.embedded-jsonrpc-members');
        const [out] = exchange(mx, call(2), asks(2));
        expect(out.result.inputRequests.confirm).toMatchObject({ jsonrpc: '2.0', id: 1, method: 'elicitation/create' });
        expect(mx.applied).toBe(1);
        untouched(mx, done(3), call(3));
      },
      'input-required.embedded-bad-method': () => {
        const mx = mutator('input-required.embedded-bad-method');
        const [out] = exchange(mx, call(2), asks(2));
        expect(out.result.inputRequests.confirm).toEqual({ method: 'ping', params: {} });
        expect(mx.applied).toBe(1);
        untouched(mx, done(3), call(3));
      },
      'input-required.duplicate-key': () => {
        const mx = mutator('input-required.duplicate-key');
        const answer = asks(2);
        const [out] = exchange(mx, call(2), structuredClone(answer));
        expect(isRaw(out)).toBe(true);
        const rawText = (out as unknown as { raw: string }).raw;
        expect(rawText.endsWith('\n')).toBe(true);
        expect(rawText).toContain('"inputRequests":{"confirm":{"method":"elicitation/create"');
        expect(rawText.split('"confirm":{"method":').length).toBe(3);
        expect(rawText).toContain('(asked differently)');
        expect(JSON.parse(rawText)).toEqual(answer);
        expect(mx.applied).toBe(1);
        untouched(mx, done(3), call(3));
      },
      'input-required.retry-loses-state': () => {
        const mx = mutator('input-required.retry-loses-state');
        untouched(mx, asks(2), call(2));
        const [out] = exchange(mx, call(3, { requestState: 's1', inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } }), done(3));
        expect(out.error.code).toBe(-32603);
        expect(mx.applied).toBe(1);
      },
      'input-required.cache-fields': () => {
        const mx = mutator('input-required.cache-fields');
        const [out] = exchange(mx, call(2), asks(2));
        expect(out.result).toMatchObject({ resultType: 'input_required', ttlMs: 60000, cacheScope: 'private' });
        expect(mx.applied).toBe(1);
        untouched(mx, done(3), call(3));
      },
      'input-required.on-list-method': () => {
        const mx = mutator('input-required.on-list-method');
        const [out] = exchange(mx, req(2, 'completion/complete', modern({ ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: '' } })), ok(2, { resultType: 'complete', completion: { values: ['x'] }, _meta: { 'io.modelcontextprotocol/serverInfo': { name: 's', version: '1' } } }));
        expect(out.result.resultType).toBe('input_required');
        expect(typeof out.result.requestState).toBe('string');
        expect(out.result.completion).toBeUndefined();
        expect(out.result._meta).toBeDefined();
        expect(mx.applied).toBe(1);
        untouched(mx, done(3), call(3));
      },
      'input-required.error-instead-of-ask': () => {
        const mx = mutator('input-required.error-instead-of-ask');
        untouched(mx, asks(2), call(2));
        const [out] = exchange(mx, call(3, { requestState: 's1' }), asks(3, 's1b'));
        expect(out.error).toEqual({ code: -32602, message: 'inputResponses.confirm is missing' });
        expect(mx.applied).toBe(1);
        // A retry carrying the response, asked something new: a further round, left alone.
        untouched(mx, ok(4, { resultType: 'input_required', inputRequests: { summary: { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } } }, requestState: 's2' }), call(4, { requestState: 's1', inputResponses: { confirm: { action: 'accept' } } }));
      },
      'input-required.tampered-state-accepted': () => {
        const mx = mutator('input-required.tampered-state-accepted');
        untouched(mx, asks(2), call(2));
        const [out] = exchange(mx, call(3, { requestState: 'forged', inputResponses: { confirm: { action: 'accept' } } }), fail(3, -32602, 'requestState failed verification'));
        expect(out.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text' }] });
        expect(mx.applied).toBe(1);
        // An error to a retry with a state the server issued is not this mutation's.
        untouched(mx, fail(4, -32602, 'malformed inputResponses'), call(4, { requestState: 's1', inputResponses: { confirm: 5 } }));
      },
      'input-required.after-final-on-stream': () => {
        const mx = mutator('input-required.after-final-on-stream', 'http');
        const out = exchange(mx, call(2), asks(2));
        expect(out).toHaveLength(2);
        expect(out[1]).toEqual(out[0]);
        expect(mx.applied).toBe(1);
        untouched(mx, done(3), call(3));
      },
      'input-required.url-elicitation-retired-error': () => {
        const mx = mutator('input-required.url-elicitation-retired-error');
        const [out] = exchange(mx, call(2), asks(2));
        expect(out.result).toBeUndefined();
        expect(out.error.code).toBe(-32042);
        expect(out.error.data.elicitations[0]).toMatchObject({ mode: 'url', message: 'Echo this text?' });
        expect(mx.applied).toBe(1);
        untouched(mx, ok(3, { resultType: 'input_required', inputRequests: { roots: { method: 'roots/list', params: {} } } }), req(3, 'prompts/get', modern({ name: 'roots_overview' }, { roots: {} })));
      },
      'input-required.form-asks-secret': () => {
        const mx = mutator('input-required.form-asks-secret');
        const [out] = exchange(mx, call(2), asks(2));
        const schema = out.result.inputRequests.confirm.params.requestedSchema;
        expect(schema.properties.password.type).toBe('string');
        expect(schema.required).toEqual(['confirm', 'password']);
        expect(mx.applied).toBe(1);
        untouched(mx, done(3), call(3));
      },
    };
  })(),

  // --- tasks ---------------------------------------------------------------------------------------
  ...(() => {
    const at = '2026-01-01T00:00:00.000Z';
    const legacyTask = (status: string, id = 't1') => ({ taskId: id, status, createdAt: at, lastUpdatedAt: at, ttl: 60000, pollInterval: 500 });
    const legacyCreate = (mx: Mutator, id = 't1') => exchange(mx, req(2, 'tools/call', { name: 'slow_report', arguments: { topic: 'x' }, task: { ttl: 60000 } }), ok(2, { task: legacyTask('working', id) }));
    const legacyGet = (mx: Mutator, n: number, status: string, id = 't1') => exchange(mx, req(n, 'tasks/get', { taskId: id }), ok(n, legacyTask(status, id)));
    const caps = (extra: Obj = {}) => ({ ...extra, extensions: { [TASKS_EXT]: {} } });
    const modernTask = (status: string, extra: Obj = {}, id = 'm1') => ({ taskId: id, status, createdAt: at, lastUpdatedAt: at, ttlMs: 60000, pollIntervalMs: 500, ...extra });
    const modernCreate = (mx: Mutator, c: Obj = caps(), id = 'm1') => exchange(mx, req(2, 'tools/call', modern({ name: 'research', arguments: { topic: 'x' } }, c)), ok(2, { resultType: 'task', ...modernTask('working', {}, id) }));
    const modernGet = (mx: Mutator, n: number, status: string, extra: Obj = {}, c: Obj = caps()) => exchange(mx, req(n, 'tasks/get', modern({ taskId: 'm1' }, c)), ok(n, { resultType: 'complete', ...modernTask(status, extra) }));
    const RESULT = { content: [text('Report: fine')] };
    return {
      'tasks.legacy-terminal-status-changes': () => {
        const mx = mutator('tasks.legacy-terminal-status-changes');
        legacyCreate(mx);
        legacyGet(mx, 3, 'completed');
        expect(mx.applied).toBe(0);
        const [out] = legacyGet(mx, 4, 'completed');
        expect(out.result.status).toBe('working');
        expect(mx.applied).toBe(1);
        untouched(mx, ok(5, legacyTask('working', 't2')), req(5, 'tasks/get', { taskId: 't2' }));
      },
      'tasks.legacy-no-created-at': () => {
        const mx = mutator('tasks.legacy-no-created-at');
        const [out] = legacyCreate(mx);
        expect(out.result.task.createdAt).toBeUndefined();
        expect(out.result.task.lastUpdatedAt).toBe(at);
        const [list] = exchange(mx, req(3, 'tasks/list', {}), ok(3, { tasks: [legacyTask('working'), legacyTask('completed', 't2')] }));
        expect(list.result.tasks.every((t: Obj) => !('createdAt' in t))).toBe(true);
        expect(mx.applied).toBe(2);
        untouched(mx, ok(4, { content: [text('x')] }), req(4, 'tools/call', { name: 'echo' }));
      },
      'tasks.legacy-result-no-related-task': () => {
        const mx = mutator('tasks.legacy-result-no-related-task');
        const [out] = exchange(mx, req(3, 'tasks/result', { taskId: 't1' }), ok(3, { ...structuredClone(RESULT), _meta: { [RELATED]: { taskId: 't1' } } }));
        expect(out.result).toEqual(RESULT);
        expect(mx.applied).toBe(1);
        untouched(mx, ok(4, legacyTask('completed')), req(4, 'tasks/get', { taskId: 't1' }));
      },
      'tasks.legacy-result-is-task': () => {
        const mx = mutator('tasks.legacy-result-is-task');
        legacyCreate(mx);
        legacyGet(mx, 3, 'completed');
        const [out] = exchange(mx, req(4, 'tasks/result', { taskId: 't1' }), ok(4, { ...structuredClone(RESULT), _meta: { [RELATED]: { taskId: 't1' } } }));
        expect(out.result).toEqual({ ...legacyTask('completed'), _meta: { [RELATED]: { taskId: 't1' } } });
        expect(mx.applied).toBe(1);
        untouched(mx, ok(5, legacyTask('completed')), req(5, 'tasks/get', { taskId: 't1' }));
      },
      'tasks.legacy-result-not-blocking': () => {
        const mx = mutator('tasks.legacy-result-not-blocking');
        legacyCreate(mx);
        expect(mx.toServer(req(3, 'tasks/result', { taskId: 't1' }))).toEqual([]);
        expect(mx.takeReplies()).toEqual([ok(3, { content: [], _meta: { [RELATED]: { taskId: 't1' } } })]);
        expect(mx.applied).toBe(1);
        legacyGet(mx, 4, 'completed');
        const after = req(5, 'tasks/result', { taskId: 't1' });
        expect(mx.toServer(after)[0]).toBe(after);
        expect(mx.applied).toBe(1);
      },
      'tasks.legacy-cancel-not-cancelled': () => {
        const mx = mutator('tasks.legacy-cancel-not-cancelled');
        const [out] = exchange(mx, req(3, 'tasks/cancel', { taskId: 't1' }), ok(3, { ...legacyTask('cancelled'), statusMessage: 'Cancelled by the requestor' }));
        expect(out.result.status).toBe('working');
        expect(out.result.statusMessage).toBeUndefined();
        expect(mx.applied).toBe(1);
        untouched(mx, fail(4, -32602, 'already completed'), req(4, 'tasks/cancel', { taskId: 't2' }));
      },
      'tasks.legacy-cancel-terminal-accepted': () => {
        const mx = mutator('tasks.legacy-cancel-terminal-accepted');
        legacyCreate(mx);
        legacyGet(mx, 3, 'completed');
        const [out] = exchange(mx, req(4, 'tasks/cancel', { taskId: 't1' }), fail(4, -32602, 'Task t1 is already completed'));
        expect(out.result).toEqual(legacyTask('completed'));
        expect(mx.applied).toBe(1);
        untouched(mx, fail(5, -32602, 'Unknown task'), req(5, 'tasks/cancel', { taskId: 'nope' }));
      },
      'tasks.legacy-required-runs-sync': () => {
        const mx = mutator('tasks.legacy-required-runs-sync');
        exchange(mx, req(1, 'tools/list', {}), ok(1, { tools: [{ name: 'research', inputSchema: { type: 'object' }, execution: { taskSupport: 'required' } }, { name: 'echo', inputSchema: { type: 'object' } }] }));
        const [out] = exchange(mx, req(2, 'tools/call', { name: 'research', arguments: { topic: 'x' } }), fail(2, -32601, 'research requires task augmentation'));
        expect(out.result.content[0].type).toBe('text');
        expect(mx.applied).toBe(1);
        untouched(mx, fail(3, -32601, 'echo cannot run as a task'), req(3, 'tools/call', { name: 'echo', task: {} }));
      },
      'tasks.legacy-create-plain-result': () => {
        const mx = mutator('tasks.legacy-create-plain-result');
        const [out] = exchange(mx, req(1, 'tools/call', { name: 'research', arguments: {}, task: { ttl: 60000 } }), ok(1, { task: legacyTask('working') }));
        expect(out.result.task).toBeUndefined();
        expect(out.result.content[0].type).toBe('text');
        expect(mx.applied).toBe(1);
        // A plain call's result, and a task-augmented call answered without a task, stay as they are.
        untouched(mx, ok(2, { content: [] }), req(2, 'tools/call', { name: 'echo', arguments: {} }));
        untouched(mx, ok(3, { content: [] }), req(3, 'tools/call', { name: 'echo', arguments: {}, task: {} }));
      },
      'tasks.legacy-task-unrequested': () => {
        const mx = mutator('tasks.legacy-task-unrequested');
        const [out] = exchange(mx, req(1, 'tools/call', { name: 'echo', arguments: {} }), ok(1, { content: [{ type: 'text', text: 'hi' }], _meta: { k: 1 } }));
        expect(out.result).toMatchObject({ task: { status: 'working', ttl: 60000 }, _meta: { k: 1 } });
        expect(out.result.content).toBeUndefined();
        expect(mx.applied).toBe(1);
        // Only the first; a task-augmented call is left to the server.
        untouched(mx, ok(2, { content: [] }), req(2, 'tools/call', { name: 'echo', arguments: {} }));
        const fresh = mutator('tasks.legacy-task-unrequested');
        untouched(fresh, ok(3, { content: [] }), req(3, 'tools/call', { name: 'echo', arguments: {}, task: {} }));
      },
      'tasks.legacy-list-drops-next-cursor': () => {
        const mx = mutator('tasks.legacy-list-drops-next-cursor');
        const [out] = exchange(mx, req(3, 'tasks/list', {}), ok(3, { tasks: [legacyTask('working')], nextCursor: 'c2' }));
        expect(out.result.nextCursor).toBeUndefined();
        expect(mx.applied).toBe(1);
        untouched(mx, ok(4, { tasks: [] }), req(4, 'tasks/list', { cursor: 'c2' }));
      },
      'tasks.legacy-duplicate-task-id': () => {
        const mx = mutator('tasks.legacy-duplicate-task-id');
        legacyCreate(mx, 't1');
        expect(mx.applied).toBe(0);
        const [out] = legacyCreate(mx, 't2');
        expect(out.result.task.taskId).toBe('t1');
        expect(mx.applied).toBe(1);
        untouched(mx, ok(3, legacyTask('working', 't2')), req(3, 'tasks/get', { taskId: 't2' }));
      },
      'tasks.legacy-side-request-no-related-task': () => {
        const mx = mutator('tasks.legacy-side-request-no-related-task');
        mx.toServer(req(2, 'tasks/result', { taskId: 't1' }));
        const ask = { jsonrpc: '2.0', id: 's1', method: 'elicitation/create', params: { message: 'Region?', requestedSchema: { type: 'object', properties: {} }, _meta: { [RELATED]: { taskId: 't1' } } } };
        const [out] = mx.toClient(ask) as Obj[];
        expect(out.params._meta).toBeUndefined();
        expect(out.params.message).toBe('Region?');
        expect(mx.applied).toBe(1);
        untouched(mx, { jsonrpc: '2.0', id: 's2', method: 'roots/list', params: {} });
      },
      'tasks.create-without-extension': () => {
        const mx = mutator('tasks.create-without-extension');
        const [out] = exchange(mx, req(2, 'tools/call', modern({ name: 'research', arguments: { topic: 'x' } })), fail(2, -32021, 'needs the tasks extension', { requiredCapabilities: { extensions: { [TASKS_EXT]: {} } } }));
        expect(out.result).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 600000 });
        expect(typeof out.result.taskId).toBe('string');
        // A tool the server ran as a task for a declaring request, run synchronously for one that did not declare.
        modernCreate(mx);
        const [sync] = exchange(mx, req(3, 'tools/call', modern({ name: 'research', arguments: { topic: 'y' } })), ok(3, { resultType: 'complete', content: [text('r')] }));
        expect(sync.result.resultType).toBe('task');
        expect(mx.applied).toBe(2);
        untouched(mx, ok(4, { resultType: 'complete', content: [text('x')] }), req(4, 'tools/call', modern({ name: 'echo' })));
      },
      'tasks.get-result-type-task': () => {
        const mx = mutator('tasks.get-result-type-task');
        const [out] = modernGet(mx, 3, 'working');
        expect(out.result.resultType).toBe('task');
        const [ack] = exchange(mx, req(4, 'tasks/cancel', modern({ taskId: 'm1' }, caps())), ok(4, { resultType: 'complete' }));
        expect(ack.result.resultType).toBe('task');
        expect(mx.applied).toBe(2);
        untouched(mx, ok(5, { resultType: 'complete', content: [] }), req(5, 'tools/call', modern({ name: 'echo' }, caps())));
      },
      'tasks.create-result-type-complete': () => {
        const mx = mutator('tasks.create-result-type-complete');
        const [out] = modernCreate(mx);
        expect(out.result.resultType).toBe('complete');
        expect(out.result.taskId).toBe('m1');
        expect(mx.applied).toBe(1);
        untouched(mx, ok(3, { resultType: 'complete', ...modernTask('working') }), req(3, 'tasks/get', modern({ taskId: 'm1' }, caps())));
      },
      'tasks.terminal-status-changes': () => {
        const mx = mutator('tasks.terminal-status-changes');
        modernCreate(mx);
        modernGet(mx, 3, 'completed', { result: RESULT });
        expect(mx.applied).toBe(0);
        const [out] = modernGet(mx, 4, 'completed', { result: RESULT });
        expect(out.result.status).toBe('failed');
        expect(out.result.result).toBeUndefined();
        expect(out.result.error.code).toBe(-32603);
        expect(mx.applied).toBe(1);
        untouched(mx, ok(5, { resultType: 'complete', ...modernTask('working', {}, 'm2') }), req(5, 'tasks/get', modern({ taskId: 'm2' }, caps())));
      },
      'tasks.is-error-as-failed': () => {
        const mx = mutator('tasks.is-error-as-failed');
        const [out] = modernGet(mx, 3, 'completed', { result: { content: [text('topic too long')], isError: true } });
        expect(out.result).toMatchObject({ status: 'failed', error: { code: -32603, message: 'topic too long' } });
        expect(out.result.result).toBeUndefined();
        const [pushed] = mx.toClient(note('notifications/tasks', { ...modernTask('completed', { result: { content: [], isError: true } }), _meta: { [SID]: 7 } })) as Obj[];
        expect(pushed.params.status).toBe('failed');
        expect(mx.applied).toBe(2);
        untouched(mx, ok(4, { resultType: 'complete', ...modernTask('completed', { result: RESULT }) }), req(4, 'tasks/get', modern({ taskId: 'm1' }, caps())));
      },
      'tasks.completed-without-result': () => {
        const mx = mutator('tasks.completed-without-result');
        const [out] = modernGet(mx, 3, 'completed', { result: RESULT });
        expect(out.result.result).toBeUndefined();
        expect(out.result.status).toBe('completed');
        expect(mx.applied).toBe(1);
        untouched(mx, ok(4, { resultType: 'complete', ...modernTask('working') }), req(4, 'tasks/get', modern({ taskId: 'm1' }, caps())));
      },
      'tasks.input-request-key-changes': () => {
        const mx = mutator('tasks.input-request-key-changes');
        modernCreate(mx, caps({ elicitation: {} }));
        const [first] = modernGet(mx, 3, 'working');
        const [second] = modernGet(mx, 4, 'working');
        expect(first.result.status).toBe('input_required');
        expect(Object.keys(first.result.inputRequests)).toEqual(['question']);
        expect(Object.keys(second.result.inputRequests)).toEqual(['question']);
        expect(second.result.inputRequests.question).not.toEqual(first.result.inputRequests.question);
        expect(mx.applied).toBe(2);
        untouched(mx, ok(5, { resultType: 'complete', ...modernTask('working') }), req(5, 'tasks/get', modern({ taskId: 'm1' }, caps())));
        // Nothing declared that an input request could use: left alone.
        const bare = mutator('tasks.input-request-key-changes');
        modernCreate(bare);
        untouched(bare, ok(3, { resultType: 'complete', ...modernTask('working') }), req(3, 'tasks/get', modern({ taskId: 'm1' }, caps())));
      },
      'tasks.cancel-ack-carries-task': () => {
        const mx = mutator('tasks.cancel-ack-carries-task');
        const [out] = exchange(mx, req(3, 'tasks/cancel', modern({ taskId: 'm1' }, caps())), ok(3, { resultType: 'complete' }));
        expect(out.result).toEqual({ resultType: 'complete', taskId: 'm1', status: 'cancelled' });
        expect(mx.applied).toBe(1);
        untouched(mx, ok(4, { resultType: 'complete' }), req(4, 'tasks/update', modern({ taskId: 'm1', inputResponses: {} }, caps())));
      },
      'tasks.update-rejects-unknown-keys': () => {
        const mx = mutator('tasks.update-rejects-unknown-keys');
        const [out] = exchange(mx, req(3, 'tasks/update', modern({ taskId: 'm1', inputResponses: { extra: { action: 'accept' } } }, caps())), ok(3, { resultType: 'complete' }));
        expect(out.result).toBeUndefined();
        expect(out.error).toEqual({ code: -32602, message: 'Unknown inputResponses key(s): extra' });
        expect(mx.applied).toBe(1);
        untouched(mx, ok(4, { resultType: 'complete' }), req(4, 'tasks/cancel', modern({ taskId: 'm1' }, caps())));
      },
      'tasks.undeclared-wrong-code': () => {
        const mx = mutator('tasks.undeclared-wrong-code');
        const [out] = exchange(mx, req(3, 'tasks/get', modern({ taskId: 'm1' })), fail(3, -32021, 'tasks/get needs the extension', { requiredCapabilities: { extensions: { [TASKS_EXT]: {} } } }));
        expect(out.error).toEqual({ code: -32601, message: 'Method not found' });
        expect(mx.applied).toBe(1);
        untouched(mx, fail(4, -32602, 'Unknown task'), req(4, 'tasks/get', modern({ taskId: 'nope' }, caps())));
        const http = mutator('tasks.undeclared-wrong-code', 'http');
        const get = req(5, 'tasks/get', modern({ taskId: 'm1' }));
        const [refused] = exchange(http, get, fail(5, -32021, 'needs the extension'));
        expect(http.httpAnswer({ status: 400, headers: {}, messages: [refused], sse: false, request: http.seenFromClient(get), method: 'POST' }).status).toBe(404);
      },
      'tasks.created-not-yet-visible': () => {
        const mx = mutator('tasks.created-not-yet-visible');
        modernCreate(mx);
        const [out] = modernGet(mx, 3, 'working');
        expect(out.error).toMatchObject({ code: -32602 });
        expect(mx.applied).toBe(1);
        untouched(mx, ok(4, { resultType: 'complete', ...modernTask('working') }), req(4, 'tasks/get', modern({ taskId: 'm1' }, caps())));
      },
      'tasks.log-on-task-stream': () => {
        const mx = mutator('tasks.log-on-task-stream');
        mx.toServer(req(7, 'subscriptions/listen', modern({ notifications: { taskIds: ['m1'] } }, caps())));
        const pushed = note('notifications/tasks', { ...modernTask('working'), _meta: { [SID]: 7 } });
        const out = mx.toClient(pushed) as Obj[];
        expect(out[0]).toEqual(pushed);
        expect(out[1]).toMatchObject({ method: 'notifications/message', params: { level: 'info', _meta: { [SID]: 7 } } });
        expect(mx.applied).toBe(1);
        untouched(mx, note('notifications/subscriptions/acknowledged', { notifications: { taskIds: ['m1'] }, _meta: { [SID]: 7 } }));
      },
      'tasks.notification-without-result': () => {
        const mx = mutator('tasks.notification-without-result');
        mx.toServer(req(7, 'subscriptions/listen', modern({ notifications: { taskIds: ['m1'] } }, caps())));
        const [out] = mx.toClient(note('notifications/tasks', { ...modernTask('completed', { result: RESULT }), _meta: { [SID]: 7 } })) as Obj[];
        expect(out.params.result).toBeUndefined();
        expect(mx.applied).toBe(1);
        untouched(mx, note('notifications/tasks', { ...modernTask('working'), _meta: { [SID]: 7 } }));
      },
      'tasks.failed-without-status-message': () => {
        const mx = mutator('tasks.failed-without-status-message');
        const [out] = modernGet(mx, 3, 'failed', { statusMessage: 'The tool crashed', error: { code: -32603, message: 'crash' } });
        expect(out.result.statusMessage).toBeUndefined();
        expect(out.result.error.code).toBe(-32603);
        const [old] = legacyGet(mx, 4, 'failed');
        expect(old).toBeDefined();
        expect(mx.applied).toBe(1);
        untouched(mx, ok(5, { ...legacyTask('completed'), statusMessage: 'done' }), req(5, 'tasks/get', { taskId: 't1' }));
      },
      'tasks.unknown-id-code': () => {
        const mx = mutator('tasks.unknown-id-code');
        const [legacyOut] = exchange(mx, req(3, 'tasks/get', { taskId: 'nope' }), fail(3, -32602, 'Unknown task'));
        expect(legacyOut.error.code).toBe(-32603);
        const [modernOut] = exchange(mx, req(4, 'tasks/update', modern({ taskId: 'nope', inputResponses: {} }, caps())), fail(4, -32602, 'Unknown task'));
        expect(modernOut.error.code).toBe(-32603);
        expect(mx.applied).toBe(2);
        untouched(mx, fail(5, -32602, 'Unknown tool'), req(5, 'tools/call', modern({ name: 'nope' })));
      },
    };
  })(),

  // --- subscriptions -------------------------------------------------------------------------------
  ...(() => {
    const listen = (id: number | string = 40, filter: Obj = { resourceSubscriptions: ['file:///a'], toolsListChanged: true }) => req(id, 'subscriptions/listen', modern({ notifications: filter }));
    const ack = (id: number | string = 40, honoured: Obj = { resourceSubscriptions: ['file:///a'] }) => note('notifications/subscriptions/acknowledged', { _meta: { [SID]: id }, notifications: honoured });
    const updated = (id: number | string = 40, uri = 'file:///a') => note('notifications/resources/updated', { uri, _meta: { [SID]: id } });
    return {
      'subscriptions.ack-missing': () => {
        const mx = mutator('subscriptions.ack-missing');
        mx.toServer(listen());
        expect(mx.toClient(ack())).toEqual([]);
        expect(mx.applied).toBe(1);
        untouched(mx, updated());
      },
      'subscriptions.ack-not-first': () => {
        const mx = mutator('subscriptions.ack-not-first');
        mx.toServer(listen());
        const a = ack();
        const out = mx.toClient(a) as Obj[];
        expect(out).toEqual([updated(), a]);
        // Only task ids honoured: the ack is held back until after the first notification.
        mx.toServer(listen(41, { taskIds: ['m1'] }));
        const tasksAck = ack(41, { taskIds: ['m1'] });
        expect(mx.toClient(tasksAck)).toEqual([]);
        const pushed = note('notifications/tasks', { taskId: 'm1', status: 'working', _meta: { [SID]: 41 } });
        expect(mx.toClient(pushed)).toEqual([pushed, tasksAck]);
        expect(mx.applied).toBe(3);
        untouched(mx, updated());
        // An ack that honours nothing has nothing to follow it: left first.
        mx.toServer(listen(42, { taskIds: ['gone'] }));
        untouched(mx, ack(42, {}));
      },
      'subscriptions.ack-not-subset': () => {
        const mx = mutator('subscriptions.ack-not-subset');
        mx.toServer(listen());
        const [out] = mx.toClient(ack()) as Obj[];
        expect(out.params.notifications).toEqual({ resourceSubscriptions: ['file:///a'], promptsListChanged: true });
        expect(mx.applied).toBe(1);
        untouched(mx, updated());
      },
      'subscriptions.ack-honours-undeclared': () => {
        const mx = mutator('subscriptions.ack-honours-undeclared');
        untouched(mx, ok(1, { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {}, resources: { subscribe: true } }, ttlMs: 0, cacheScope: 'public' }), req(1, 'server/discover', modern()));
        mx.toServer(listen());
        const [out] = mx.toClient(ack()) as Obj[];
        expect(out.params.notifications).toEqual({ resourceSubscriptions: ['file:///a'], toolsListChanged: true });
        expect(mx.applied).toBe(1);
        untouched(mx, updated());
      },
      'subscriptions.wrong-subscription-id': () => {
        const mx = mutator('subscriptions.wrong-subscription-id');
        mx.toServer(listen());
        untouched(mx, ack());
        const [out] = mx.toClient(updated()) as Obj[];
        expect(out.params._meta[SID]).toBe(1040);
        mx.toServer(listen('s1'));
        const [str] = mx.toClient(updated('s1')) as Obj[];
        expect(str.params._meta[SID]).toBe('s1-other');
        expect(mx.applied).toBe(2);
      },
      'subscriptions.notification-without-id': () => {
        const mx = mutator('subscriptions.notification-without-id');
        mx.toServer(listen());
        untouched(mx, ack());
        const [out] = mx.toClient(updated()) as Obj[];
        expect(out.params).toEqual({ uri: 'file:///a' });
        expect(mx.applied).toBe(1);
      },
      'subscriptions.unrequested-type': () => {
        const mx = mutator('subscriptions.unrequested-type');
        mx.toServer(listen());
        const out = mx.toClient(ack()) as Obj[];
        expect(out[1]).toEqual(note('notifications/prompts/list_changed', { _meta: { [SID]: 40 } }));
        expect(mx.applied).toBe(1);
        untouched(mx, updated());
      },
      'subscriptions.unsubscribed-resource': () => {
        const mx = mutator('subscriptions.unsubscribed-resource');
        mx.toServer(listen());
        untouched(mx, ack());
        const [out] = mx.toClient(updated()) as Obj[];
        expect(out.params.uri).toBe('file:///a-not-subscribed');
        expect(mx.applied).toBe(1);
      },
      'subscriptions.log-on-stream': () => {
        const mx = mutator('subscriptions.log-on-stream');
        mx.toServer(listen());
        const out = mx.toClient(ack()) as Obj[];
        expect(out[1]).toMatchObject({ method: 'notifications/message', params: { level: 'info', _meta: { [SID]: 40 } } });
        expect(mx.applied).toBe(1);
        untouched(mx, updated());
      },
      'subscriptions.progress-on-stream': () => {
        const mx = mutator('subscriptions.progress-on-stream');
        mx.toServer(listen());
        const out = mx.toClient(ack()) as Obj[];
        expect(out[1]).toEqual(note('notifications/progress', { progressToken: 40, progress: 1, _meta: { [SID]: 40 } }));
        expect(mx.applied).toBe(1);
        untouched(mx, updated());
      },
      'subscriptions.list-changed-dropped': () => {
        const mx = mutator('subscriptions.list-changed-dropped');
        mx.toServer(listen());
        untouched(mx, ack(40, { resourceSubscriptions: ['file:///a'], toolsListChanged: true }));
        expect(mx.toClient(note('notifications/tools/list_changed', { _meta: { [SID]: 40 } }))).toEqual([]);
        expect(mx.applied).toBe(1);
        untouched(mx, updated());
      },
      'subscriptions.end-without-subscription-id': () => {
        const mx = mutator('subscriptions.end-without-subscription-id');
        const [out] = exchange(mx, listen(), ok(40, { resultType: 'complete', _meta: { [SID]: 40, 'io.modelcontextprotocol/serverInfo': { name: 's', version: '1' } } }));
        expect(out.result._meta).toEqual({ 'io.modelcontextprotocol/serverInfo': { name: 's', version: '1' } });
        expect(mx.applied).toBe(1);
        untouched(mx, ack());
      },
      'subscriptions.notifies-after-cancel': () => {
        const mx = mutator('subscriptions.notifies-after-cancel');
        mx.toServer(listen());
        untouched(mx, ack());
        untouched(mx, updated());
        const cancel = note('notifications/cancelled', { requestId: 40 });
        expect(mx.toServer(cancel)).toEqual([cancel]);
        expect(mx.takeReplies()).toEqual([updated()]);
        expect(mx.applied).toBe(1);
        mx.toServer(note('notifications/cancelled', { requestId: 99 }));
        expect(mx.takeReplies()).toEqual([]);
      },
      'subscriptions.legacy-updated-unsubscribed': () => {
        const mx = mutator('subscriptions.legacy-updated-unsubscribed');
        untouched(mx, ok(2, {}), req(2, 'resources/subscribe', { uri: 'file:///a' }));
        const [out] = mx.toClient(note('notifications/resources/updated', { uri: 'file:///a' })) as Obj[];
        expect(out.params.uri).toBe('file:///a-not-subscribed');
        expect(mx.applied).toBe(1);
        untouched(mx, note('notifications/tools/list_changed'));
      },
      'subscriptions.legacy-updated-after-unsubscribe': () => {
        const mx = mutator('subscriptions.legacy-updated-after-unsubscribe');
        const answer = ok(3, {});
        const out = exchange(mx, req(3, 'resources/unsubscribe', { uri: 'file:///a' }), answer);
        expect(out).toEqual([answer, note('notifications/resources/updated', { uri: 'file:///a' })]);
        expect(mx.applied).toBe(1);
        untouched(mx, ok(4, {}), req(4, 'resources/subscribe', { uri: 'file:///a' }));
      },
      'subscriptions.legacy-list-changed-undeclared': () => {
        const mx = mutator('subscriptions.legacy-list-changed-undeclared');
        untouched(mx, ok(1, { protocolVersion: '2025-11-25', capabilities: { tools: {}, prompts: { listChanged: true } }, serverInfo: { name: 's', version: '1' } }), req(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } }));
        const answer = ok(2, { tools: [] });
        const out = exchange(mx, req(2, 'tools/list', {}), answer);
        expect(out).toEqual([answer, { jsonrpc: '2.0', method: 'notifications/tools/list_changed' }]);
        expect(mx.applied).toBe(1);
        untouched(mx, ok(3, { prompts: [] }), req(3, 'prompts/list', {}));
      },
      'subscriptions.legacy-subscribe-undeclared': () => {
        const mx = mutator('subscriptions.legacy-subscribe-undeclared');
        const [out] = exchange(mx, req(3, 'resources/subscribe', { uri: 'file:///a' }), fail(3, -32601, 'Method not found'));
        expect(out.result).toEqual({});
        expect(mx.applied).toBe(1);
        untouched(mx, fail(4, -32602, 'bad uri'), req(4, 'resources/subscribe', { uri: 5 }));
      },
    };
  })(),
};

describe('feature-area mutations', () => {
  it('has a case for every mutation of these areas, and each id names its area', () => {
    for (const [area, ms] of Object.entries(AREAS)) {
      for (const m of ms) {
        expect(m.id.split('.')[0], m.id).toBe(area);
        expect(cases[m.id], m.id).toBeDefined();
        expect(m.role, m.id).toBe('server');
      }
    }
    expect(Object.keys(cases).sort()).toEqual(ALL.map((m) => m.id).sort());
  });

  for (const [id, run] of Object.entries(cases)) it(id, run);
});
