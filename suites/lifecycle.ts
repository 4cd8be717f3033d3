import { check, holds, LEGACY, untestable, violated } from './check.js';
import { errorCode, evidence, isObj, outcome, resultOf, expectErrorCode } from './exchange.js';
import { scenario } from './scenario.js';
import { SPEC } from './spec-links.js';
import type { Exchange } from '../runner/session-types.js';

interface HandshakeObs {
  initialize: Exchange;
  /** Messages the server sent between the initialize response and `notifications/initialized` (stdio). */
  beforeInitialized: unknown[];
  ping: Exchange;
}

const ALLOWED_EARLY = new Set(['ping', 'notifications/message']);

/** Legacy handshake: initialize, a quiet gap before initialized, ping. */
export const legacyHandshake = scenario<HandshakeObs>({
  id: 'lifecycle.handshake',
  title: 'initialize, the gap before notifications/initialized, and ping',
  versions: LEGACY,
  skipInitialized: true,
  async run({ session }) {
    const legacy = session as typeof session & { sendInitialized(): Promise<Exchange> };
    let beforeInitialized: unknown[] = [];
    if (session.transport.kind === 'stdio') {
      await new Promise((r) => setTimeout(r, 400));
      // Everything after the initialize response: a message in the same stdout chunk may already
      // be inside the handshake's own event range, so count from the response itself.
      const events = session.recorder.events();
      const id = session.handshake.id;
      const at = events.findIndex((e) => e.dir === 'in' && e.kind === 'message' && isObj(e.message) && e.message.id === id && 'result' in e.message);
      beforeInitialized = events
        .slice(at + 1)
        .filter((e) => e.dir === 'in' && e.kind === 'message')
        .map((e) => e.message);
    }
    await legacy.sendInitialized();
    const ping = await session.request('ping');
    return { initialize: session.handshake, beforeInitialized, ping };
  },
  checks: [
    check<HandshakeObs>({
      id: 'lifecycle.initialize-result',
      title: 'initialize answers with protocolVersion, capabilities and serverInfo',
      requirements: ['LC-01'],
      level: 'MUST',
      versions: LEGACY,
      spec: SPEC.lifecycle25,
      judge({ initialize }) {
        const r = resultOf(initialize);
        if (!r) return violated(`initialize got ${outcome(initialize)}`, [evidence('initialize', initialize)]);
        const missing = [
          typeof r.protocolVersion !== 'string' && 'protocolVersion',
          !isObj(r.capabilities) && 'capabilities',
          !(isObj(r.serverInfo) && typeof r.serverInfo.name === 'string' && typeof r.serverInfo.version === 'string') && 'serverInfo{name,version}',
        ].filter(Boolean);
        if (missing.length) return violated(`initialize result lacks ${missing.join(', ')}`, [evidence('initialize', initialize, { expected: 'protocolVersion, capabilities, serverInfo{name,version}' })]);
        return holds(`initialize answered ${String(r.protocolVersion)} as ${String((r.serverInfo as { name: string }).name)}`);
      },
    }),
    check<HandshakeObs>({
      id: 'lifecycle.quiet-before-initialized',
      title: 'nothing but ping and logging before notifications/initialized',
      requirements: ['LC-06'],
      level: 'SHOULD',
      versions: LEGACY,
      transports: ['stdio'],
      spec: SPEC.lifecycle25,
      judge({ beforeInitialized }) {
        const early = beforeInitialized.filter((m) => !(isObj(m) && typeof m.method === 'string' && ALLOWED_EARLY.has(m.method)));
        if (early.length) {
          return violated(`the server sent ${early.length} message(s) before notifications/initialized`, early.slice(0, 3).map((m) => ({ what: 'early message', actual: m })));
        }
        return holds('the server stayed quiet for 400 ms after the initialize response');
      },
    }),
    check<HandshakeObs>({
      id: 'lifecycle.ping',
      title: 'ping is answered with an empty result',
      requirements: ['LC-10'],
      level: 'MUST',
      versions: LEGACY,
      spec: SPEC.ping25,
      judge({ ping }) {
        const r = resultOf(ping);
        if (!r) return violated(`ping got ${outcome(ping)}`, [evidence('ping', ping, { expected: {} })]);
        const extra = Object.keys(r).filter((k) => k !== '_meta');
        if (extra.length) return violated(`ping result is not empty: ${extra.join(', ')}`, [evidence('ping', ping, { expected: {} })]);
        return holds('ping answered {}');
      },
    }),
  ],
});

interface CounterofferObs {
  initialize: Exchange;
}

export const BOGUS_VERSION = '1900-01-01';

/** initialize with a version no server supports: the answer must not echo it. */
export const legacyCounteroffer = scenario<CounterofferObs>({
  id: 'lifecycle.counteroffer',
  title: 'initialize with an unknown protocol version',
  versions: LEGACY,
  async run({ openRaw, options }) {
    const target = await openRaw();
    const msg = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: BOGUS_VERSION, capabilities: {}, clientInfo: { name: 'mcpspec', version: '0.1.0' } } };
    return { initialize: await target.send(msg, { expectId: 1, timeoutMs: options.timeoutMs }) };
  },
  checks: [
    check<CounterofferObs>({
      id: 'lifecycle.unknown-version-counteroffer',
      title: 'an unsupported requested version is answered with a version the server supports, never echoed',
      requirements: ['LC-03'],
      level: 'MUST',
      versions: LEGACY,
      spec: SPEC.lifecycle25,
      judge({ initialize }) {
        const r = resultOf(initialize);
        if (errorCode(initialize) !== undefined) return holds(`the server refused ${BOGUS_VERSION} with error ${errorCode(initialize)}`);
        if (!r) return violated(`initialize with ${BOGUS_VERSION} got ${outcome(initialize)}`, [evidence('initialize', initialize)]);
        if (r.protocolVersion === BOGUS_VERSION) {
          return violated(`the server echoed the unsupported version ${BOGUS_VERSION}`, [evidence('initialize', initialize, { pointer: '/result/protocolVersion', expected: 'a version the server supports' })]);
        }
        return holds(`the server offered ${String(r.protocolVersion)} instead`);
      },
    }),
  ],
});

interface UndeclaredObs {
  probe?: { capability: string; method: string; exchange: Exchange };
}

const GATED: [string, string, Record<string, unknown>][] = [
  ['logging', 'logging/setLevel', { level: 'info' }],
  ['completions', 'completion/complete', { ref: { type: 'ref/prompt', name: 'mcpspec' }, argument: { name: 'a', value: '' } }],
  ['prompts', 'prompts/list', {}],
  ['resources', 'resources/list', {}],
  ['tools', 'tools/list', {}],
];

/** A method of a capability the server did not declare must be unknown to it. */
export const undeclaredCapability = scenario<UndeclaredObs>({
  id: 'capabilities.undeclared',
  title: 'a method of an undeclared capability',
  versions: LEGACY,
  async run({ session }) {
    const gap = GATED.find(([cap]) => !(cap in session.capabilities));
    if (!gap) return {};
    const [capability, method, params] = gap;
    return { probe: { capability, method, exchange: await session.request(method, params) } };
  },
  checks: [
    check<UndeclaredObs>({
      id: 'capabilities.undeclared-method',
      title: 'a method of a capability the server did not declare gets -32601',
      requirements: ['CAP-01'],
      level: 'MUST',
      versions: LEGACY,
      spec: SPEC.basic25,
      judge({ probe }) {
        if (!probe) return untestable('the server declares every gated capability mcpspec knows (logging, completions, prompts, resources, tools)');
        return expectErrorCode(probe.exchange, -32601, `${probe.method} without the ${probe.capability} capability`, `${probe.method} (capability ${probe.capability} not declared) got -32601`);
      },
    }),
  ],
});

