// lifecycle.*: the legacy initialize handshake (LC25).

import { SPEC } from '../protocol/spec-links.js';
import { LEGACY } from '../protocol/versions.js';
import { check, holds, violated } from './check.js';
import { errorCode, evidence, isObj, outcome, resultOf } from './exchange.js';
import { BOGUS_VERSION, legacyCounteroffer } from './scenarios/counteroffer.js';
import { legacyHandshake } from './scenarios/legacy-handshake.js';

const ALLOWED_EARLY = new Set(['ping', 'notifications/message']);

export const lifecycleChecks = [
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
    title: 'nothing but ping and logging before notifications/initialized',
    requirements: ['LC-06'],
    level: 'SHOULD',
    versions: LEGACY,
    requires: { transports: ['stdio'] },
    spec: SPEC.lifecycle25,
    judge({ beforeInitialized, pingBeforeInitialized }) {
      const early = beforeInitialized.filter((m) => !(isObj(m) && typeof m.method === 'string' && ALLOWED_EARLY.has(m.method)));
      if (early.length) {
        return violated(`the server sent ${early.length} message(s) before notifications/initialized`, early.slice(0, 3).map((m) => ({ what: 'early message', actual: m })));
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
];
