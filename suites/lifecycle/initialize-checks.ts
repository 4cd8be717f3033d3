// lifecycle.*: the legacy initialize handshake (LC25).

import { loadSchema } from '../../protocol/schema-registry.js';
import { SPEC } from '../../protocol/spec-links.js';
import { LEGACY } from '../../protocol/versions.js';
import { check, holds, untestable, violated } from '../kit/check.js';
import { errorCode, evidence, isObj, outcome, resultOf } from '../kit/exchange.js';
import { firstOffenders } from '../kit/judge.js';
import { BOGUS_VERSION, legacyCounteroffer } from './counteroffer-scenario.js';
import { legacyHandshake } from './initialize-scenario.js';

const ALLOWED_EARLY = new Set(['ping', 'notifications/message']);

/** The capability names a version's schema defines for a server (ServerCapabilities), or undefined for an unknown version. */
function serverCapabilityNames(version: string): Set<string> | undefined {
  // 2025-03-26 is negotiable and judged by 2025-06-18's rules (whose capabilities are the same).
  const judgedBy = version === '2025-03-26' ? '2025-06-18' : version;
  if (!LEGACY.includes(judgedBy as (typeof LEGACY)[number])) return undefined;
  const doc = loadSchema(judgedBy);
  const defs = (doc.root[doc.defsKey ?? 'definitions'] ?? {}) as Record<string, { properties?: Record<string, unknown> }>;
  return new Set(Object.keys(defs.ServerCapabilities?.properties ?? {}));
}

export const lifecycleChecks = [
  check(legacyHandshake, {
    id: 'lifecycle.negotiated-version-fits',
    title: 'initialize declares only capabilities the version it answers defines (a server that declares a later version\'s capability supports that version)',
    requirements: ['LC-07', 'LC-03'],
    level: 'MUST',
    versions: LEGACY,
    spec: SPEC.lifecycle25,
    judge({ initialize }) {
      const r = resultOf(initialize);
      if (!r || typeof r.protocolVersion !== 'string' || !isObj(r.capabilities)) return untestable(`initialize got ${outcome(initialize)}`);
      const known = serverCapabilityNames(r.protocolVersion);
      if (!known) return untestable(`the server answered ${r.protocolVersion}, a version whose capabilities mcpspec has no schema for`);
      const later = Object.keys(r.capabilities).filter((k) => !known.has(k) && LEGACY.some((v) => v > String(r.protocolVersion) && serverCapabilityNames(v)!.has(k)));
      if (later.length) {
        return violated(`initialize answered ${r.protocolVersion} but declares ${later.map((k) => JSON.stringify(k)).join(', ')}, which only a later version defines`, [evidence('initialize', initialize, { pointer: `/result/capabilities/${later[0]}`, expected: `capabilities of ${r.protocolVersion}, or the later version answered` })]);
      }
      return holds(`initialize answered ${r.protocolVersion} with capabilities that version defines`);
    },
  }),
  check(legacyHandshake, {
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
  check(legacyHandshake, {
    id: 'lifecycle.quiet-before-initialized',
    // Over HTTP what can come early rides on the initialize answer's (or the ping's) SSE stream.
    title: 'nothing but ping and logging before notifications/initialized',
    requirements: ['LC-06'],
    level: 'SHOULD',
    versions: LEGACY,
    spec: SPEC.lifecycle25,
    judge({ beforeInitialized, pingBeforeInitialized }) {
      const early = beforeInitialized.filter((m) => !(isObj(m) && typeof m.method === 'string' && ALLOWED_EARLY.has(m.method)));
      if (early.length) {
        return violated(`the server sent ${early.length} message(s) before notifications/initialized`, firstOffenders(early).map((m) => ({ what: 'early message', actual: m })));
      }
      if (!resultOf(pingBeforeInitialized)) return holds('the server sent nothing between the initialize response and notifications/initialized');
      return holds('the server sent nothing between the initialize response and the answer to a ping sent before notifications/initialized');
    },
  }),
  check(legacyHandshake, {
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
  check(legacyCounteroffer, {
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
  check(legacyCounteroffer, {
    id: 'lifecycle.counteroffer-accepted',
    title: 'the version a server counter-offers is one it supports: asked for that version by name, it answers with it',
    requirements: ['LC-03'],
    level: 'MUST',
    versions: LEGACY,
    spec: SPEC.lifecycle25,
    judge({ takenUp }) {
      if (!takenUp) return untestable(`the server made no counter-offer to ${BOGUS_VERSION} to take up`);
      const { version, initialize } = takenUp;
      const r = resultOf(initialize);
      if (!r) return violated(`the server offered ${version}, but initialize asking for ${version} got ${outcome(initialize)}`, [evidence('initialize', initialize, { expected: { protocolVersion: version } })]);
      if (r.protocolVersion !== version) {
        return violated(`the server offered ${version} in place of an unknown version, but answered ${String(r.protocolVersion)} when asked for ${version}`, [evidence('initialize', initialize, { pointer: '/result/protocolVersion', expected: version })]);
      }
      return holds(`asked for the ${version} it offered, the server answered ${version}`);
    },
  }),
];
