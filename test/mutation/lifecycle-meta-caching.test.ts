// The mutations of the lifecycle, versioning, meta, result-type, caching and pagination areas, one
// by one through a Mutator: a realistic request, then the answer (or notification) the mutation is
// about, changed the intended way and counted once; and a message it must leave alone.
import { describe, expect, it } from 'vitest';
import { mutationById } from '../../mutation/catalogue.js';
import { CACHING_MUTATIONS } from '../../mutation/catalogue/caching.js';
import { LIFECYCLE_MUTATIONS } from '../../mutation/catalogue/lifecycle.js';
import { META_MUTATIONS } from '../../mutation/catalogue/meta.js';
import { PAGINATION_MUTATIONS } from '../../mutation/catalogue/pagination.js';
import { RESULT_TYPE_MUTATIONS } from '../../mutation/catalogue/result-type.js';
import { VERSIONING_MUTATIONS } from '../../mutation/catalogue/versioning.js';
import type { HttpAnswer, SeenRequest } from '../../mutation/mutation.js';
import { Mutator } from '../../mutation/mutator.js';

type Obj = Record<string, any>;

const PV = 'io.modelcontextprotocol/protocolVersion';
const CAPS = 'io.modelcontextprotocol/clientCapabilities';
const INFO = 'io.modelcontextprotocol/clientInfo';
const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
const SUB = 'io.modelcontextprotocol/subscriptionId';
const TASKS = 'io.modelcontextprotocol/tasks';

function meta(over: Obj = {}): Obj {
  const m: Obj = { [PV]: '2026-07-28', [CAPS]: {}, [INFO]: { name: 'mcpspec', version: '1.0.0' }, ...over };
  for (const k of Object.keys(m)) if (m[k] === undefined) delete m[k];
  return m;
}
const modernReq = (id: number | string, method: string, params: Obj = {}, metaOver: Obj = {}): Obj => ({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta(metaOver) } });
const legacyReq = (id: number | string, method: string, params: Obj = {}): Obj => ({ jsonrpc: '2.0', id, method, params });
const ok = (id: number | string, result: Obj): Obj => ({ jsonrpc: '2.0', id, result });
const err = (id: number | string, code: number, message: string, data?: unknown): Obj => ({ jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } });
const serverInfo = () => ({ [SERVER_INFO]: { name: 'reference', version: '1.0.0' } });

const discoverResult = (): Obj => ({
  resultType: 'complete',
  supportedVersions: ['2026-07-28', '2025-11-25'],
  capabilities: { tools: { listChanged: true }, prompts: {}, resources: {}, completions: {}, extensions: { [TASKS]: {} } },
  ttlMs: 300_000,
  cacheScope: 'public',
  _meta: serverInfo(),
});
const tools = () => [
  { name: 'echo', inputSchema: { type: 'object' } },
  { name: 'add', inputSchema: { type: 'object' } },
];
const toolsPage = (nextCursor?: string): Obj => ({ resultType: 'complete', tools: tools(), ...(nextCursor === undefined ? {} : { nextCursor }), ttlMs: 60_000, cacheScope: 'public', _meta: serverInfo() });
const callResult = (): Obj => ({ resultType: 'complete', content: [{ type: 'text', text: 'hi' }], _meta: serverInfo() });
const LEGACY_CAPS = { tools: { listChanged: true }, prompts: {}, resources: {}, completions: {} };
const initReq = (id: number, version = '2025-11-25', capabilities: Obj = {}) => legacyReq(id, 'initialize', { protocolVersion: version, capabilities, clientInfo: { name: 'mcpspec', version: '1.0.0' } });
const initResult = (version = '2025-11-25', capabilities: Obj = LEGACY_CAPS): Obj => ({ protocolVersion: version, capabilities: structuredClone(capabilities), serverInfo: { name: 'reference', version: '1.0.0' } });

function mutator(id: string, transport: 'stdio' | 'http' = 'stdio'): Mutator {
  const m = mutationById(id);
  expect(m, id).toBeDefined();
  return new Mutator(m!, transport);
}

/** A request to the server, then its answer to the client: what the client gets. */
function exchange(mu: Mutator, request: Obj, answer: Obj): Obj[] {
  mu.toServer(request);
  const out = mu.toClient(answer) as Obj[];
  mu.settle(answer);
  return out;
}

/** The answer passes as it came (the same object) and the mutation count does not move. */
function untouched(mu: Mutator, request: Obj, answer: Obj): void {
  const before = mu.applied;
  const out = exchange(mu, request, answer);
  expect(out).toHaveLength(1);
  expect(out[0]).toBe(answer);
  expect(mu.applied).toBe(before);
}

/** One exchange the mutation changes: the single answer it sends, counted once. */
function changed(mu: Mutator, request: Obj, answer: Obj): Obj {
  const out = exchange(mu, request, answer);
  expect(mu.applied).toBe(1);
  expect(out).toHaveLength(1);
  expect(out[0]).not.toEqual(answer);
  return out[0];
}

function seen(request: Obj): SeenRequest {
  return { id: request.id, method: request.method, params: request.params, era: PV in (request.params?._meta ?? {}) ? 'modern' : 'legacy' };
}

function httpAnswer(request: Obj, status: number, message: Obj): HttpAnswer {
  return { status, headers: { 'content-type': 'application/json' }, messages: [message], sse: false, request: seen(request), method: 'POST' };
}

describe('catalogue of these areas', () => {
  it('has about 55 mutations, at least 5 per file, each registered under its area', () => {
    const files = { lifecycle: LIFECYCLE_MUTATIONS, versioning: VERSIONING_MUTATIONS, meta: META_MUTATIONS, 'result-type': RESULT_TYPE_MUTATIONS, caching: CACHING_MUTATIONS, pagination: PAGINATION_MUTATIONS };
    let total = 0;
    for (const [area, list] of Object.entries(files)) {
      expect(list.length, area).toBeGreaterThanOrEqual(5);
      for (const m of list) {
        expect(m.id.startsWith(`${area}.`), m.id).toBe(true);
        expect(mutationById(m.id)).toBe(m);
        expect(m.role).toBe('server');
      }
      total += list.length;
    }
    expect(total).toBeGreaterThanOrEqual(50);
  });
});

describe('lifecycle', () => {
  it('version-downgraded: an accepted version is answered one older', () => {
    const mu = mutator('lifecycle.version-downgraded');
    expect(changed(mu, initReq(1), ok(1, initResult())).result.protocolVersion).toBe('2025-06-18');
    untouched(mu, initReq(2, '2099-01-01'), ok(2, initResult()));
    untouched(mu, modernReq(3, 'server/discover'), ok(3, discoverResult()));
  });

  it('counteroffer-echoes-request: a counter-offer echoes the unknown version', () => {
    const mu = mutator('lifecycle.counteroffer-echoes-request');
    expect(changed(mu, initReq(1, '2099-01-01'), ok(1, initResult())).result.protocolVersion).toBe('2099-01-01');
    untouched(mu, initReq(2), ok(2, initResult()));
  });

  it('counteroffer-refused: a counter-offer becomes -32602 with supported/requested', () => {
    const mu = mutator('lifecycle.counteroffer-refused');
    const out = changed(mu, initReq(1, '2099-01-01'), ok(1, initResult()));
    expect(out.result).toBeUndefined();
    expect(out.error).toMatchObject({ code: -32602, data: { supported: ['2025-11-25'], requested: '2099-01-01' } });
    untouched(mu, initReq(2), ok(2, initResult()));
  });

  it('notification-before-initialized: a list_changed rides right after the initialize answer', () => {
    const mu = mutator('lifecycle.notification-before-initialized');
    const answer = ok(1, initResult());
    mu.toServer(initReq(1));
    const out = mu.toClient(answer) as Obj[];
    expect(mu.applied).toBe(1);
    expect(out).toHaveLength(2);
    expect(out[0]).toEqual(answer);
    expect(out[1]).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    untouched(mu, legacyReq(2, 'tools/list'), ok(2, { tools: tools() }));
    untouched(mu, initReq(3), ok(3, initResult('2025-11-25', { prompts: {} })));
  });

  it('request-before-initialized: a roots/list goes out after the answer, its reply is swallowed', () => {
    const mu = mutator('lifecycle.request-before-initialized');
    mu.toServer(initReq(1, '2025-11-25', { roots: {} }));
    const out = mu.toClient(ok(1, initResult())) as Obj[];
    expect(mu.applied).toBe(1);
    expect(out).toHaveLength(2);
    expect(out[1]).toMatchObject({ method: 'roots/list' });
    expect(String(out[1].id)).toMatch(/^mcpspec-mutation-/);
    expect(mu.toServer({ jsonrpc: '2.0', id: out[1].id, result: { roots: [] } })).toEqual([]);
    expect(mu.toServer({ jsonrpc: '2.0', method: 'notifications/initialized' })).toHaveLength(1);
    untouched(mu, initReq(2), ok(2, initResult()));
  });

  it('announced-capability-unserved: prompts/list of an announced prompts capability gets -32601', () => {
    const mu = mutator('lifecycle.announced-capability-unserved');
    untouched(mu, initReq(1), ok(1, initResult()));
    const out = changed(mu, legacyReq(2, 'prompts/list'), ok(2, { prompts: [] }));
    expect(out.error.code).toBe(-32601);
    untouched(mu, legacyReq(3, 'tools/list'), ok(3, { tools: tools() }));
  });

  it('served-capability-unannounced: the initialize answer drops completions', () => {
    const mu = mutator('lifecycle.served-capability-unannounced');
    const out = changed(mu, initReq(1), ok(1, initResult()));
    expect(out.result.capabilities).not.toHaveProperty('completions');
    expect(out.result.capabilities).toHaveProperty('prompts');
    untouched(mu, legacyReq(2, 'completion/complete'), ok(2, { completion: { values: [] } }));
  });

  it('list-changed-unannounced: a tools/call answer is followed by a list_changed the server did not announce', () => {
    const mu = mutator('lifecycle.list-changed-unannounced');
    untouched(mu, initReq(1), ok(1, initResult()));
    const answer = ok(2, { content: [] });
    mu.toServer(legacyReq(2, 'tools/call', { name: 'echo', arguments: {} }));
    const out = mu.toClient(answer) as Obj[];
    expect(mu.applied).toBe(1);
    expect(out).toEqual([answer, { jsonrpc: '2.0', method: 'notifications/prompts/list_changed' }]);
    untouched(mu, legacyReq(3, 'tools/list'), ok(3, { tools: tools() }));
  });

  it('request-undeclared-client-capability: a roots/list the client did not declare precedes the tools/call answer', () => {
    const mu = mutator('lifecycle.request-undeclared-client-capability');
    untouched(mu, initReq(1, '2025-11-25', { sampling: {} }), ok(1, initResult()));
    const answer = ok(2, { content: [] });
    mu.toServer(legacyReq(2, 'tools/call', { name: 'echo', arguments: {} }));
    const out = mu.toClient(answer) as Obj[];
    expect(mu.applied).toBe(1);
    expect(out).toHaveLength(2);
    expect(out[0]).toMatchObject({ method: 'roots/list' });
    expect(out[1]).toEqual(answer);
    expect(mu.toServer({ jsonrpc: '2.0', id: out[0].id, error: { code: -32601, message: 'no roots' } })).toEqual([]);
    untouched(mu, legacyReq(3, 'tools/list'), ok(3, { tools: tools() }));
  });

  it('ping-result-not-empty, ping-refused, ping-unanswered', () => {
    let mu = mutator('lifecycle.ping-result-not-empty');
    expect(changed(mu, legacyReq(1, 'ping'), ok(1, {})).result).toEqual({ status: 'ok' });
    untouched(mu, legacyReq(2, 'tools/list'), ok(2, { tools: [] }));
    mu = mutator('lifecycle.ping-refused');
    expect(changed(mu, legacyReq(1, 'ping'), ok(1, {})).error.code).toBe(-32601);
    untouched(mu, legacyReq(2, 'tools/list'), ok(2, { tools: [] }));
    mu = mutator('lifecycle.ping-unanswered');
    expect(exchange(mu, legacyReq(1, 'ping'), ok(1, {}))).toEqual([]);
    expect(mu.applied).toBe(1);
    untouched(mu, legacyReq(2, 'tools/list'), ok(2, { tools: [] }));
  });

  it('leaves the modern era alone', () => {
    const mu = mutator('lifecycle.ping-unanswered');
    untouched(mu, modernReq(1, 'ping'), err(1, -32601, 'Method not found'));
  });
});

describe('versioning', () => {
  it('unsupported-version-served: the unknown version is rewritten on the way in (body and header)', () => {
    const mu = mutator('versioning.unsupported-version-served', 'http');
    untouched(mu, modernReq(1, 'server/discover'), ok(1, discoverResult()));
    const request = modernReq(2, 'tools/list', {}, { [PV]: '2099-01-01' });
    const [sent] = mu.toServer(request) as Obj[];
    expect(sent.params._meta[PV]).toBe('2026-07-28');
    expect(mu.applied).toBe(1);
    const ask = mu.httpAsk({ method: 'POST', headers: { 'mcp-protocol-version': '2099-01-01' }, body: sent }, seen(request));
    expect(ask.headers['mcp-protocol-version']).toBe('2026-07-28');
    const same = modernReq(3, 'tools/list');
    expect(mu.toServer(same)[0]).toBe(same);
    expect(mu.applied).toBe(2);
  });

  const refusal = () => err(1, -32022, 'Unsupported protocol version', { supported: ['2026-07-28'], requested: '2099-01-01' });
  const badAsk = () => modernReq(1, 'server/discover', {}, { [PV]: '2099-01-01' });

  it('unsupported-version-code, -no-supported, -requested-wrong', () => {
    let mu = mutator('versioning.unsupported-version-code');
    expect(changed(mu, badAsk(), refusal()).error).toMatchObject({ code: -32602, data: { supported: ['2026-07-28'] } });
    untouched(mu, modernReq(2, 'tools/call', { name: 'x' }), err(2, -32602, 'Unknown tool'));
    mu = mutator('versioning.unsupported-version-no-supported');
    expect(changed(mu, badAsk(), refusal()).error.data).toEqual({ requested: '2099-01-01' });
    untouched(mu, modernReq(2, 'tools/call', { name: 'x' }), err(2, -32602, 'Unknown tool'));
    mu = mutator('versioning.unsupported-version-requested-wrong');
    expect(changed(mu, badAsk(), refusal()).error.data).toEqual({ supported: ['2026-07-28'], requested: '2026-07-28' });
    untouched(mu, modernReq(2, 'tools/list'), ok(2, toolsPage()));
  });

  it('unsupported-version-http-200: the 400 of a -32022 becomes 200', () => {
    const mu = mutator('versioning.unsupported-version-http-200', 'http');
    const out = mu.httpAnswer(httpAnswer(badAsk(), 400, refusal()));
    expect(out.status).toBe(200);
    expect(mu.applied).toBe(1);
    const other = httpAnswer(modernReq(2, 'tools/list'), 400, err(2, -32602, 'missing _meta'));
    expect(mu.httpAnswer(other)).toBe(other);
    expect(mu.applied).toBe(1);
  });

  it('discover-not-found: server/discover gets -32601 (and 404 on HTTP)', () => {
    const mu = mutator('versioning.discover-not-found', 'http');
    const request = modernReq(1, 'server/discover');
    const out = changed(mu, request, ok(1, discoverResult()));
    expect(out.error.code).toBe(-32601);
    const head = mu.httpAnswer(httpAnswer(request, 200, out));
    expect(head.status).toBe(404);
    untouched(mu, modernReq(2, 'tools/list'), ok(2, toolsPage()));
  });

  it('discover-no-supported-versions, -omits-served-version, -no-capabilities, -server-info-top-level', () => {
    let mu = mutator('versioning.discover-no-supported-versions');
    expect(changed(mu, modernReq(1, 'server/discover'), ok(1, discoverResult())).result).not.toHaveProperty('supportedVersions');
    untouched(mu, modernReq(2, 'tools/list'), ok(2, toolsPage()));
    mu = mutator('versioning.discover-omits-served-version');
    expect(changed(mu, modernReq(1, 'server/discover'), ok(1, discoverResult())).result.supportedVersions).toEqual(['2025-11-25']);
    untouched(mu, modernReq(2, 'tools/list'), ok(2, toolsPage()));
    mu = mutator('versioning.discover-no-capabilities');
    expect(changed(mu, modernReq(1, 'server/discover'), ok(1, discoverResult())).result).not.toHaveProperty('capabilities');
    untouched(mu, modernReq(2, 'tools/list'), ok(2, toolsPage()));
    mu = mutator('versioning.discover-server-info-top-level');
    const r = changed(mu, modernReq(1, 'server/discover'), ok(1, discoverResult())).result;
    expect(r.serverInfo).toEqual({ name: 'reference', version: '1.0.0' });
    expect(r._meta).toBeUndefined();
    untouched(mu, modernReq(2, 'tools/list'), ok(2, toolsPage()));
  });

  it('removed-method-served: a modern ping gets an empty result (200 on HTTP)', () => {
    const mu = mutator('versioning.removed-method-served', 'http');
    const request = modernReq(1, 'ping');
    const out = changed(mu, request, err(1, -32601, 'Method not found'));
    expect(out.result).toEqual({ resultType: 'complete' });
    expect(mu.httpAnswer(httpAnswer(request, 404, out)).status).toBe(200);
    untouched(mu, modernReq(2, 'frobnicate/now'), err(2, -32601, 'Method not found'));
    untouched(mu, legacyReq(3, 'ping'), err(3, -32601, 'Method not found'));
  });

  it('unknown-method-internal-error: -32601 for an unknown method becomes -32603', () => {
    const mu = mutator('versioning.unknown-method-internal-error');
    expect(changed(mu, modernReq(1, 'frobnicate/now'), err(1, -32601, 'Method not found')).error.code).toBe(-32603);
    untouched(mu, modernReq(2, 'logging/setLevel', { level: 'info' }), err(2, -32601, 'Method not found'));
  });

  it('sticky-capabilities: a later request is given the capabilities of an earlier one', () => {
    const mu = mutator('versioning.sticky-capabilities');
    const first = modernReq(1, 'tools/call', { name: 'ask' }, { [CAPS]: { elicitation: { form: {} } } });
    expect(mu.toServer(first)[0]).toBe(first);
    const second = modernReq(2, 'tools/call', { name: 'ask' });
    const [sent] = mu.toServer(second) as Obj[];
    expect(sent.params._meta[CAPS]).toEqual({ elicitation: { form: {} } });
    expect(mu.applied).toBe(1);
    untouched(mu, modernReq(3, 'tools/list', {}, { [CAPS]: { elicitation: { form: {} } } }), ok(3, toolsPage()));
  });

  it('tools-list-after-call: after a tools/call the first page loses a tool', () => {
    const mu = mutator('versioning.tools-list-after-call');
    untouched(mu, modernReq(1, 'tools/list'), ok(1, toolsPage()));
    untouched(mu, modernReq(2, 'tools/call', { name: 'echo', arguments: {} }), ok(2, callResult()));
    expect(changed(mu, modernReq(3, 'tools/list'), ok(3, toolsPage())).result.tools.map((t: Obj) => t.name)).toEqual(['echo']);
    untouched(mu, modernReq(4, 'tools/list', { cursor: 'abc' }), ok(4, toolsPage()));
  });

  it('initialize-refusal-names-no-version: the refusal loses its versions', () => {
    const mu = mutator('versioning.initialize-refusal-names-no-version');
    const out = changed(mu, initReq(1), err(1, -32602, 'Unsupported: this server speaks 2026-07-28 only', { supported: ['2026-07-28'], requested: '2025-11-25' }));
    expect(out.error).toEqual({ code: -32602, message: 'initialize is not supported' });
    untouched(mu, initReq(2), err(2, -32602, 'capabilities must be an object'));
  });

  it('extension-id-unprefixed and extension-id-bad-label add an invalid id beside the valid ones', () => {
    let mu = mutator('versioning.extension-id-unprefixed');
    expect(changed(mu, modernReq(1, 'server/discover'), ok(1, discoverResult())).result.capabilities.extensions).toEqual({ [TASKS]: {}, ui: {} });
    untouched(mu, modernReq(2, 'tools/list'), ok(2, toolsPage()));
    mu = mutator('versioning.extension-id-bad-label');
    expect(changed(mu, modernReq(1, 'server/discover'), ok(1, discoverResult())).result.capabilities.extensions).toHaveProperty(['com.example_corp/widgets']);
    untouched(mu, modernReq(2, 'tools/list'), ok(2, toolsPage()));
  });
});

describe('meta', () => {
  const noCaps = (id: number) => modernReq(id, 'tools/list', {}, { [CAPS]: undefined });

  it('missing-capabilities-served: the missing key is added on the way in', () => {
    const mu = mutator('meta.missing-capabilities-served');
    const [sent] = mu.toServer(noCaps(1)) as Obj[];
    expect(sent.params._meta[CAPS]).toEqual({});
    expect(mu.applied).toBe(1);
    const full = modernReq(2, 'tools/list');
    expect(mu.toServer(full)[0]).toBe(full);
    expect(mu.applied).toBe(1);
  });

  it('missing-key-wrong-code: its -32602 becomes -32600', () => {
    const mu = mutator('meta.missing-key-wrong-code');
    expect(changed(mu, noCaps(1), err(1, -32602, 'missing clientCapabilities')).error.code).toBe(-32600);
    untouched(mu, modernReq(2, 'tools/call', { name: 'nope' }), err(2, -32602, 'Unknown tool'));
  });

  it('missing-key-http-200 and missing-capability-http-200', () => {
    let mu = mutator('meta.missing-key-http-200', 'http');
    expect(mu.httpAnswer(httpAnswer(noCaps(1), 400, err(1, -32602, 'missing'))).status).toBe(200);
    expect(mu.applied).toBe(1);
    const other = httpAnswer(modernReq(2, 'tools/list'), 400, err(2, -32602, 'other'));
    expect(mu.httpAnswer(other)).toBe(other);
    mu = mutator('meta.missing-capability-http-200', 'http');
    expect(mu.httpAnswer(httpAnswer(modernReq(1, 'tools/call'), 400, err(1, -32021, 'needs elicitation', { requiredCapabilities: { elicitation: {} } }))).status).toBe(200);
    expect(mu.applied).toBe(1);
    expect(mu.httpAnswer(other)).toBe(other);
  });

  const needs = () => err(1, -32021, 'needs elicitation', { requiredCapabilities: { elicitation: {} } });
  const call = () => modernReq(1, 'tools/call', { name: 'ask', arguments: {} });

  it('missing-capability-wrong-code, -no-data, -names-nothing', () => {
    let mu = mutator('meta.missing-capability-wrong-code');
    expect(changed(mu, call(), needs()).error).toMatchObject({ code: -32602, data: { requiredCapabilities: { elicitation: {} } } });
    untouched(mu, modernReq(2, 'tools/call', { name: 'x' }), err(2, -32602, 'Unknown tool'));
    mu = mutator('meta.missing-capability-no-data');
    expect(changed(mu, call(), needs()).error).not.toHaveProperty('data');
    untouched(mu, modernReq(2, 'tools/call', { name: 'x' }), err(2, -32602, 'Unknown tool'));
    mu = mutator('meta.missing-capability-names-nothing');
    expect(changed(mu, call(), needs()).error.data).toEqual({ requiredCapabilities: {} });
    untouched(mu, modernReq(2, 'tools/call', { name: 'x' }), err(2, -32602, 'Unknown tool'));
  });

  it('server-info-missing, discover-server-info-missing, server-info-no-version', () => {
    let mu = mutator('meta.server-info-missing');
    expect(changed(mu, modernReq(1, 'tools/list'), ok(1, toolsPage())).result).not.toHaveProperty('_meta');
    untouched(mu, modernReq(2, 'server/discover'), ok(2, discoverResult()));
    mu = mutator('meta.discover-server-info-missing');
    expect(changed(mu, modernReq(1, 'server/discover'), ok(1, discoverResult())).result).not.toHaveProperty('_meta');
    untouched(mu, modernReq(2, 'tools/list'), ok(2, toolsPage()));
    mu = mutator('meta.server-info-no-version');
    expect(changed(mu, modernReq(1, 'tools/list'), ok(1, toolsPage())).result._meta[SERVER_INFO]).toEqual({ name: 'reference' });
    untouched(mu, modernReq(2, 'tools/call', { name: 'x' }), err(2, -32602, 'Unknown tool'));
  });

  it('requires-client-info: a request without clientInfo is refused in the server\'s place', () => {
    const mu = mutator('meta.requires-client-info');
    const request = modernReq(1, 'tools/list', {}, { [INFO]: undefined });
    expect(mu.toServer(request)).toEqual([]);
    expect(mu.takeReplies()).toEqual([err(1, -32602, 'clientInfo is required')]);
    expect(mu.applied).toBe(1);
    const full = modernReq(2, 'tools/list');
    expect(mu.toServer(full)[0]).toBe(full);
    expect(mu.takeReplies()).toEqual([]);
  });

  it('subscription-id-minted: listen notifications carry a server-minted id', () => {
    const mu = mutator('meta.subscription-id-minted');
    mu.toServer(modernReq('listen-a', 'subscriptions/listen', { notifications: { toolsListChanged: true } }));
    const ack = { jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { _meta: { [SUB]: 'listen-a' }, notifications: { toolsListChanged: true } } };
    const note = { jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: { [SUB]: 'listen-a' } } };
    expect((mu.toClient(ack) as Obj[])[0].params._meta[SUB]).toBe('sub-1');
    expect((mu.toClient(note) as Obj[])[0].params._meta[SUB]).toBe('sub-1');
    expect(mu.applied).toBe(2);
    const progress = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } };
    expect(mu.toClient(progress)[0]).toBe(progress);
    expect(mu.applied).toBe(2);
  });

  it('traceparent-malformed: results carry a trace context that is no W3C value', () => {
    const mu = mutator('meta.traceparent-malformed');
    expect(changed(mu, modernReq(1, 'tools/list'), ok(1, toolsPage())).result._meta.traceparent).toBe('trace-12345');
    untouched(mu, legacyReq(2, 'tools/list'), ok(2, { tools: tools() }));
    untouched(mu, modernReq(3, 'tools/call', { name: 'x' }), err(3, -32602, 'Unknown tool'));
  });

  it('result-key-bad-name, -bad-prefix, -reserved-prefix (both eras)', () => {
    for (const [id, key] of [
      ['meta.result-key-bad-name', 'com.example/_elapsed'],
      ['meta.result-key-bad-prefix', 'com.example-/elapsed'],
      ['meta.result-key-reserved-prefix', 'io.modelcontextprotocol/elapsedMs'],
    ]) {
      const mu = mutator(id);
      expect(changed(mu, legacyReq(1, 'tools/list'), ok(1, { tools: tools() })).result._meta).toHaveProperty([key]);
      const before = mu.applied;
      const out = exchange(mu, modernReq(2, 'tools/list'), ok(2, toolsPage()));
      expect(out[0].result._meta).toHaveProperty([key]);
      expect(mu.applied).toBe(before + 1);
      untouched(mu, modernReq(3, 'tools/call', { name: 'x' }), err(3, -32602, 'Unknown tool'));
    }
  });
});

describe('result-type', () => {
  it('missing, missing-on-discover, missing-on-listen-close', () => {
    let mu = mutator('result-type.missing');
    expect(changed(mu, modernReq(1, 'tools/list'), ok(1, toolsPage())).result).not.toHaveProperty('resultType');
    untouched(mu, modernReq(2, 'server/discover'), ok(2, discoverResult()));
    mu = mutator('result-type.missing-on-discover');
    expect(changed(mu, modernReq(1, 'server/discover'), ok(1, discoverResult())).result).not.toHaveProperty('resultType');
    untouched(mu, modernReq(2, 'tools/list'), ok(2, toolsPage()));
    mu = mutator('result-type.missing-on-listen-close');
    expect(changed(mu, modernReq(1, 'subscriptions/listen', { notifications: {} }), ok(1, { resultType: 'complete', _meta: { [SUB]: 1 } })).result).toEqual({ _meta: { [SUB]: 1 } });
    untouched(mu, modernReq(2, 'tools/list'), ok(2, toolsPage()));
  });

  it('unknown-value, capitalised, not-a-string', () => {
    let mu = mutator('result-type.unknown-value');
    expect(changed(mu, modernReq(1, 'tools/call', { name: 'echo' }), ok(1, callResult())).result.resultType).toBe('completed');
    untouched(mu, modernReq(2, 'tools/list'), ok(2, toolsPage()));
    mu = mutator('result-type.capitalised');
    expect(changed(mu, modernReq(1, 'tools/list'), ok(1, toolsPage())).result.resultType).toBe('Complete');
    untouched(mu, modernReq(2, 'tools/call', { name: 'echo' }), ok(2, callResult()));
    mu = mutator('result-type.not-a-string');
    expect(changed(mu, modernReq(1, 'tools/call', { name: 'echo' }), ok(1, callResult())).result.resultType).toBe(0);
    untouched(mu, modernReq(2, 'server/discover'), ok(2, discoverResult()));
  });

  it('task-undeclared: a plain call result becomes a CreateTaskResult when tasks were not declared', () => {
    const mu = mutator('result-type.task-undeclared');
    const r = changed(mu, modernReq(1, 'tools/call', { name: 'echo' }), ok(1, callResult())).result;
    expect(r).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 60_000, _meta: serverInfo() });
    expect(typeof r.taskId).toBe('string');
    expect(r).not.toHaveProperty('content');
    untouched(mu, modernReq(2, 'tools/call', { name: 'echo' }, { [CAPS]: { extensions: { [TASKS]: {} } } }), ok(2, callResult()));
  });

  it('task-on-ineligible-method: prompts/get answers with a task', () => {
    const mu = mutator('result-type.task-on-ineligible-method');
    expect(changed(mu, modernReq(1, 'prompts/get', { name: 'greet' }), ok(1, { resultType: 'complete', messages: [] })).result.resultType).toBe('task');
    untouched(mu, modernReq(2, 'tools/call', { name: 'echo' }), ok(2, callResult()));
  });

  it('input-required-on-ineligible-method: completion/complete asks for another round, its retry is served', () => {
    const mu = mutator('result-type.input-required-on-ineligible-method');
    const params = { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'who', value: 'a' } };
    const r = changed(mu, modernReq(1, 'completion/complete', params), ok(1, { resultType: 'complete', completion: { values: ['ab'] } })).result;
    expect(r).toEqual({ resultType: 'input_required', requestState: 'round-1' });
    untouched(mu, modernReq(2, 'completion/complete', { ...params, requestState: 'round-1' }), ok(2, { resultType: 'complete', completion: { values: ['ab'] } }));
  });

  it('task-on-task-methods, create-task-says-complete', () => {
    let mu = mutator('result-type.task-on-task-methods');
    const detailed = { resultType: 'complete', taskId: 't1', status: 'working', createdAt: 'x', lastUpdatedAt: 'x', ttlMs: null };
    expect(changed(mu, modernReq(1, 'tasks/get', { taskId: 't1' }), ok(1, detailed)).result.resultType).toBe('task');
    untouched(mu, modernReq(2, 'tools/call', { name: 'echo' }), ok(2, callResult()));
    mu = mutator('result-type.create-task-says-complete');
    const created = { ...detailed, resultType: 'task' };
    expect(changed(mu, modernReq(1, 'tools/call', { name: 'slow' }, { [CAPS]: { extensions: { [TASKS]: {} } } }), ok(1, created)).result.resultType).toBe('complete');
    untouched(mu, modernReq(2, 'tools/call', { name: 'echo' }), ok(2, callResult()));
  });

  it('leaves legacy results alone', () => {
    const mu = mutator('result-type.missing');
    untouched(mu, legacyReq(1, 'tools/list'), ok(1, { tools: tools(), resultType: 'complete' }));
  });
});

describe('caching', () => {
  const list = () => modernReq(1, 'tools/list');
  it('ttl-missing, scope-missing, discover-no-hints', () => {
    let mu = mutator('caching.ttl-missing');
    expect(changed(mu, list(), ok(1, toolsPage())).result).not.toHaveProperty('ttlMs');
    untouched(mu, modernReq(2, 'server/discover'), ok(2, discoverResult()));
    mu = mutator('caching.scope-missing');
    expect(changed(mu, modernReq(1, 'resources/read', { uri: 'file:///a' }), ok(1, { resultType: 'complete', contents: [], ttlMs: 0, cacheScope: 'private' })).result).not.toHaveProperty('cacheScope');
    untouched(mu, modernReq(2, 'server/discover'), ok(2, discoverResult()));
    mu = mutator('caching.discover-no-hints');
    const r = changed(mu, modernReq(1, 'server/discover'), ok(1, discoverResult())).result;
    expect(r).not.toHaveProperty('ttlMs');
    expect(r).not.toHaveProperty('cacheScope');
    untouched(mu, list(), ok(1, toolsPage()));
  });

  it('ttl-negative, ttl-fraction, ttl-string, ttl-null', () => {
    for (const [id, want] of [
      ['caching.ttl-negative', -1],
      ['caching.ttl-fraction', 60_000.5],
      ['caching.ttl-string', '60000'],
      ['caching.ttl-null', null],
    ] as const) {
      const mu = mutator(id);
      expect(changed(mu, list(), ok(1, toolsPage())).result.ttlMs, id).toBe(want);
      untouched(mu, modernReq(2, 'tools/call', { name: 'echo' }), ok(2, callResult()));
    }
  });

  it('scope-unknown, scope-capitalised', () => {
    let mu = mutator('caching.scope-unknown');
    expect(changed(mu, list(), ok(1, toolsPage())).result.cacheScope).toBe('shared');
    untouched(mu, modernReq(2, 'tools/call', { name: 'echo' }), ok(2, callResult()));
    mu = mutator('caching.scope-capitalised');
    expect(changed(mu, modernReq(1, 'server/discover'), ok(1, discoverResult())).result.cacheScope).toBe('Public');
    untouched(mu, modernReq(2, 'tools/call', { name: 'echo' }), ok(2, callResult()));
  });

  it('scope-differs-between-pages: later pages flip the scope', () => {
    const mu = mutator('caching.scope-differs-between-pages');
    untouched(mu, modernReq(1, 'tools/list'), ok(1, toolsPage('abc')));
    expect(changed(mu, modernReq(2, 'tools/list', { cursor: 'abc' }), ok(2, toolsPage())).result.cacheScope).toBe('private');
  });

  it('hints-on-input-required: an input_required result gets ttlMs and cacheScope', () => {
    const mu = mutator('caching.hints-on-input-required');
    const ir = { resultType: 'input_required', inputRequests: { ok: { method: 'roots/list', params: {} } } };
    expect(changed(mu, modernReq(1, 'tools/call', { name: 'ask' }), ok(1, ir)).result).toMatchObject({ ttlMs: 60_000, cacheScope: 'private' });
    untouched(mu, modernReq(2, 'tools/call', { name: 'echo' }), ok(2, callResult()));
  });

  it('leaves legacy results alone', () => {
    const mu = mutator('caching.ttl-negative');
    untouched(mu, legacyReq(1, 'tools/list'), ok(1, { tools: tools(), ttlMs: 5 }));
  });
});

describe('pagination', () => {
  it('next-cursor-number: the cursor becomes a number and is mapped back on the way in', () => {
    const mu = mutator('pagination.next-cursor-number');
    expect(changed(mu, legacyReq(1, 'tools/list'), ok(1, { tools: tools(), nextCursor: 'abc' })).result.nextCursor).toBe(1);
    const [sent] = mu.toServer(legacyReq(2, 'tools/list', { cursor: 1 })) as Obj[];
    expect(sent.params.cursor).toBe('abc');
    expect(mu.applied).toBe(2);
    const last = ok(3, { tools: tools() });
    const out = exchange(mu, legacyReq(3, 'prompts/list'), last);
    expect(out[0]).toBe(last);
    expect(mu.applied).toBe(2);
  });

  it('next-cursor-null: the last page says null', () => {
    const mu = mutator('pagination.next-cursor-null');
    expect(changed(mu, modernReq(1, 'tools/list'), ok(1, toolsPage())).result.nextCursor).toBeNull();
    untouched(mu, modernReq(2, 'tools/list'), ok(2, toolsPage('abc')));
  });

  it('invalid-cursor-served: a refused cursor gets an empty page of the listing\'s scope', () => {
    const mu = mutator('pagination.invalid-cursor-served', 'http');
    untouched(mu, modernReq(1, 'tools/list'), ok(1, toolsPage('abc')));
    const request = modernReq(2, 'tools/list', { cursor: 'made-up' });
    const out = changed(mu, request, err(2, -32602, 'Invalid cursor'));
    expect(out.result).toEqual({ tools: [], resultType: 'complete', ttlMs: 0, cacheScope: 'public' });
    expect(mu.httpAnswer(httpAnswer(request, 400, out)).status).toBe(200);
    untouched(mu, modernReq(3, 'tools/call', { name: 'x' }), err(3, -32602, 'Unknown tool'));
    untouched(mu, modernReq(4, 'tools/list', { cursor: 'x' }, { [CAPS]: undefined }), err(4, -32602, 'missing clientCapabilities'));
  });

  it('invalid-cursor-internal-error: the refusal says -32603', () => {
    const mu = mutator('pagination.invalid-cursor-internal-error');
    expect(changed(mu, legacyReq(1, 'resources/list', { cursor: 'made-up' }), err(1, -32602, 'Invalid cursor')).error.code).toBe(-32603);
    untouched(mu, legacyReq(2, 'resources/list'), err(2, -32602, 'bad params'));
  });

  it('cursor-never-advances: the last page hands back its own cursor', () => {
    const mu = mutator('pagination.cursor-never-advances');
    // A made-up cursor the server answers as a first page is no listing's last page.
    untouched(mu, modernReq(1, 'tools/list', { cursor: 'made-up' }), ok(1, toolsPage()));
    untouched(mu, modernReq(2, 'tools/list'), ok(2, toolsPage('abc')));
    expect(changed(mu, modernReq(3, 'tools/list', { cursor: 'abc' }), ok(3, toolsPage())).result.nextCursor).toBe('abc');
    untouched(mu, modernReq(4, 'tools/list'), ok(4, toolsPage()));
  });

  it('cursor-single-use: the second request with one cursor is refused', () => {
    const mu = mutator('pagination.cursor-single-use');
    untouched(mu, modernReq(1, 'tools/list', { cursor: 'abc' }), ok(1, toolsPage()));
    expect(changed(mu, modernReq(2, 'tools/list', { cursor: 'abc' }), ok(2, toolsPage())).error.code).toBe(-32602);
    const before = mu.applied;
    untouched(mu, modernReq(3, 'prompts/list', { cursor: 'abc' }), ok(3, { resultType: 'complete', prompts: [], ttlMs: 0, cacheScope: 'public' }));
    expect(mu.applied).toBe(before);
  });

  it('empty-cursor-means-end: last pages say "", and that cursor is refused in the server\'s place', () => {
    const mu = mutator('pagination.empty-cursor-means-end');
    expect(changed(mu, legacyReq(1, 'tools/list'), ok(1, { tools: tools() })).result.nextCursor).toBe('');
    expect(mu.toServer(legacyReq(2, 'tools/list', { cursor: '' }))).toEqual([]);
    expect(mu.takeReplies()).toEqual([err(2, -32602, 'Invalid cursor')]);
    const other = legacyReq(3, 'prompts/list', { cursor: '' });
    expect(mu.toServer(other)[0]).toBe(other);
    expect(mu.applied).toBe(2);
  });

  it('unstable-order: every second tools/list page is reversed (modern only)', () => {
    const mu = mutator('pagination.unstable-order');
    untouched(mu, modernReq(1, 'tools/list'), ok(1, toolsPage()));
    expect(changed(mu, modernReq(2, 'tools/list'), ok(2, toolsPage())).result.tools.map((t: Obj) => t.name)).toEqual(['add', 'echo']);
    untouched(mu, legacyReq(3, 'tools/list'), ok(3, { tools: tools() }));
  });
});
